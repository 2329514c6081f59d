#!/usr/bin/env bash
# Time per move of each level (issue #33): a match of the level against itself over XOT pairs,
# one game at a time, its wall time divided by the moves played (the opening's moves excluded).
#
# Usage: scripts/level-times.sh ["LEVEL:PAIRS ..."]
#   default "1:50 2:50 4:50 6:50 8:20 10:20 12:10 14:10 16:5"
# Environment: BIN (an othello binary instead of building target/release/othello), SEED (5).
# Run it on a quiet machine: it measures wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
SPECS=${1:-"1:50 2:50 4:50 6:50 8:20 10:20 12:10 14:10 16:5"}
SEED=${SEED:-5}
if [[ -z ${BIN:-} ]]; then
  cargo build --release --quiet
  BIN=target/release/othello
fi
ggf=$(mktemp)
trap 'rm -f "$ggf"' EXIT
printf '%-6s %6s %8s %12s\n' level pairs moves "ms/move"
for spec in $SPECS; do
  level=${spec%%:*}
  pairs=${spec##*:}
  rm -f "$ggf"
  start=$(date +%s.%N)
  "$BIN" match "engine:level=$level" "engine:level=$level" --openings xot --pairs "$pairs" \
    -j 1 --seed "$SEED" --quiet --ggf "$ggf" >/dev/null
  end=$(date +%s.%N)
  python3 - "$ggf" "$level" "$pairs" "$start" "$end" <<'PY'
import re, sys
path, level, pairs, start, end = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
# Moves the engines played carry a time (`F5/eval/seconds`); the opening's moves do not.
moves = sum(
    1
    for game in open(path, encoding="utf-8")
    for fields in re.findall(r"\b[BW]\[([^\]]*)\]", game)
    if fields.count("/") == 2
)
print(f"{level:<6} {pairs:>6} {moves:>8} {1000 * (end - start) / max(moves, 1):>12.3f}")
PY
done
