#!/usr/bin/env bash
# The level ladder (issue #33): matches between adjacent levels, each level's time per move,
# and the Elo of each level over the one below it, added up from the lowest level (= 0).
#
# Usage: scripts/level-ladder.sh [PAIRS] [JOBS]
#   PAIRS  pairs of XOT games per match (default 50, i.e. 100 games)
#   JOBS   games played at once (default 2)
# Environment: LEVELS (default "1 2 4 6 8 10 12 14"), SEED (default 1), BIN (an othello
# binary to use instead of building target/release/othello), GGF_DIR (keep the games there).
# Needs jq and python3. Levels are untimed, so a match takes as long as its levels think:
# the higher rungs take hours.
set -euo pipefail
cd "$(dirname "$0")/.."

PAIRS=${1:-50}
JOBS=${2:-2}
LEVELS=${LEVELS:-"1 2 4 6 8 10 12 14"}
SEED=${SEED:-1}

for tool in jq python3; do
  command -v "$tool" >/dev/null || { echo "level-ladder: needs $tool" >&2; exit 1; }
done
if [[ -z ${BIN:-} ]]; then
  cargo build --release --quiet
  BIN=target/release/othello
fi
read -r -a levels <<<"$LEVELS"
if ((${#levels[@]} < 2)); then
  echo "level-ladder: LEVELS needs at least two levels, got \"$LEVELS\"" >&2
  exit 1
fi
games_dir=${GGF_DIR:-$(mktemp -d)}
[[ -n ${GGF_DIR:-} ]] || trap 'rm -rf "$games_dir"' EXIT
mkdir -p "$games_dir"

# Mean seconds per move of player NAME in a GGF file (its own moves with a recorded time).
ms_per_move() { # FILE NAME
  python3 - "$1" "$2" <<'EOF'
import re, sys
path, name = sys.argv[1], sys.argv[2]
total = count = 0
for game in open(path, encoding="utf-8"):
    players = {tag: re.search(r"\b" + tag + r"\[([^\]]*)\]", game) for tag in ("PB", "PW")}
    for colour, tag in (("B", "PB"), ("W", "PW")):
        if players[tag] is None or players[tag].group(1) != name:
            continue
        for fields in re.findall(r"\b" + colour + r"\[([^\]]*)\]", game):
            parts = fields.split("/")
            if len(parts) == 3 and parts[2]:
                total += float(parts[2])
                count += 1
print(f"{1000 * total / count:.2f}" if count else "-")
EOF
}

printf '%-6s %-6s %6s %8s %9s %18s %9s %11s %11s\n' \
  "lower" "upper" "games" "upper%" "Elo step" "95% interval" "Elo" "ms/move lo" "ms/move up"
elo_total=0
printf '%-6s %-6s %6s %8s %9s %18s %9s %11s %11s\n' "" "${levels[0]}" "" "" "" "" "0" "" ""
for ((k = 1; k < ${#levels[@]}; k++)); do
  a=${levels[k - 1]}
  b=${levels[k]}
  ggf="$games_dir/level-$a-vs-$b.ggf"
  rm -f "$ggf"
  json=$("$BIN" match "engine:level=$a" "engine:level=$b" --openings xot --pairs "$PAIRS" \
    -j "$JOBS" --seed "$SEED" --json --quiet --ggf "$ggf")
  # The match is reported from A's (the lower level's) side: the step is B's, so negated.
  read -r games score step lo hi < <(jq -r '[.games, (100 - .score_percent),
      (if .elo == null then "inf" else 0 - .elo + 0 end),
      (if .elo_upper == null then "-inf" else 0 - .elo_upper + 0 end),
      (if .elo_lower == null then "inf" else 0 - .elo_lower + 0 end)] | @tsv' <<<"$json")
  elo_total=$(python3 -c "print(f'{float($elo_total) + float(\"$step\"):.0f}')")
  printf '%-6s %-6s %6s %8.1f %9.0f %18s %9s %11s %11s\n' "$a" "$b" "$games" "$score" "$step" \
    "[$(printf '%.0f' "$lo"), $(printf '%.0f' "$hi")]" "$elo_total" \
    "$(ms_per_move "$ggf" "engine:level=$a")" "$(ms_per_move "$ggf" "engine:level=$b")"
done
