#!/usr/bin/env bash
# Batch solving split over processes with GNU parallel, checked against one process: exports
# positions from WTHOR games, solves them with `othello solve -` once in one process and once
# split over JOBS processes (`parallel --pipepart --keep-order`), compares the answers line by
# line and prints the timings.
#
# Usage: scripts/stream-parallel.sh [N] [JOBS] [FILE|DIR...]
#   N      how many positions: the first N distinct positions of the games (default 1000)
#   JOBS   processes of the split run (default 2)
#   FILE   WTHOR files or directories (default tests/data/wthor, the repository's sample: 1,055
#          positions; the measurements of docs/SOLVE.md used the whole WTH_2025.wtb)
# Environment: EMPTIES (default 16..20), NICE (niceness of the runs, default 15),
#   OUT (work directory, default target/stream-parallel), SOLVE_ARGS (more options for
#   `othello solve -`, e.g. "--keep-hash" or "--wld --hash 16").
# Needs GNU parallel (apt-get install parallel). Exit status 1 if the two runs disagree on a
# board or a score, or if a line was answered with an error.
set -euo pipefail
cd "$(dirname "$0")/.."

N=${1:-1000}
JOBS=${2:-2}
shift $(($# < 2 ? $# : 2))
FILES=("$@")
((${#FILES[@]})) || FILES=(tests/data/wthor)
EMPTIES=${EMPTIES:-16..20}
NICE=${NICE:-15}
OUT=${OUT:-target/stream-parallel}
read -r -a SOLVE <<<"${SOLVE_ARGS:-}"

if ! command -v parallel >/dev/null; then
  echo "GNU parallel is not installed (apt-get install parallel)" >&2
  exit 2
fi
nice -n "$NICE" cargo build --release --quiet
BIN=$PWD/target/release/othello
mkdir -p "$OUT"

"$BIN" games export "${FILES[@]}" --empties "$EMPTIES" --format board --out "$OUT/all.txt" >/dev/null
head -n "$N" "$OUT/all.txt" >"$OUT/positions.txt"
n=$(wc -l <"$OUT/positions.txt")
if ((n < N)); then
  echo "only $n positions with $EMPTIES empties in ${FILES[*]}" >&2
fi

now() { date +%s.%N; }

# `othello solve -` exits with 1 if a line was bad; the comparison below reports it.
t0=$(now)
nice -n "$NICE" "$BIN" solve - --threads 1 "${SOLVE[@]}" <"$OUT/positions.txt" >"$OUT/one.jsonl" || true
t1=$(now)
# --pipepart: parallel cuts the file itself, at line ends, into blocks; --block -4: four blocks
# per job slot, so that a hard stretch of positions does not leave the other slots idle;
# --keep-order: the blocks' outputs in input order.
nice -n "$NICE" parallel --pipepart -a "$OUT/positions.txt" --block -4 --keep-order -j "$JOBS" \
  "$BIN" solve - --threads 1 "${SOLVE[@]}" >"$OUT/split.jsonl" || true
t2=$(now)

# One line per answer: board|score|best|pv, or the error.
fields() {
  sed -E -e 's/.*"board":"([^"]*)".*"score":(-?[0-9]+).*"best":"([^"]*)","pv":\[([^]]*)\].*/\1|\2|\3|\4/' \
    -e 's/^\{"line":[0-9]+,"error":(.*)\}$/error \1/' "$1"
}
total() { # FIELD FILE: the sum of a numeric field
  awk -v key="\"$1\":" '{ i = index($0, key); if (i) s += substr($0, i + length(key)) + 0 } END { printf "%.3f", s }' "$2"
}

fields "$OUT/one.jsonl" >"$OUT/one.fields"
fields "$OUT/split.jsonl" >"$OUT/split.fields"
lines_one=$(wc -l <"$OUT/one.fields")
lines_split=$(wc -l <"$OUT/split.fields")
errors=$(cat "$OUT/one.fields" "$OUT/split.fields" | grep -c '^error ' || true)
read -r same_score same_best same_pv < <(
  paste -d'\t' "$OUT/one.fields" "$OUT/split.fields" | awk -F'\t' '
    { split($1, a, "|"); split($2, b, "|")
      if (a[1] == b[1] && a[2] == b[2]) { s++; if (a[3] == b[3]) m++; if (a[4] == b[4]) p++ } }
    END { print s + 0, m + 0, p + 0 }'
)

secs_one=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
secs_split=$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.1f", b - a }')
echo "positions:     $n with $EMPTIES empties from ${FILES[*]} (first $N), solve options: ${SOLVE[*]:-none}"
echo "1 process:     $secs_one s wall, $(total time "$OUT/one.jsonl") s solving, $(total nodes "$OUT/one.jsonl" | cut -d. -f1) nodes"
echo "$JOBS processes:   $secs_split s wall, $(total time "$OUT/split.jsonl") s solving, $(total nodes "$OUT/split.jsonl" | cut -d. -f1) nodes (speed-up $(awk -v a="$secs_one" -v b="$secs_split" 'BEGIN { printf "%.2f", a / b }'))"
echo "answers:       $lines_one and $lines_split lines, $errors errors"
echo "same board and score: $same_score of $n; of those, same best move: $same_best, same line: $same_pv"
if ((lines_one == n && lines_split == n && errors == 0 && same_score == n)); then
  echo "identical: yes (outputs in $OUT)"
else
  echo "identical: NO (outputs in $OUT)"
  exit 1
fi
