#!/usr/bin/env bash
# XOT labelling rounds for issue #32, one seed after another: for each SEED, the games
# (scripts/xot-games.sh -> data/v6/xot/x-SEED.ggf) and then their depth-12 labels
# (data/v6/x12e20-SEED.dat). Resumable: a seed whose game file exists skips the games, and
# `othello label` skips the games already in its labels file. Run it in the background:
#
#   nohup nice -n 10 scripts/xot-round.sh data/v6/othello-label 3304 3305 > data/v6/xot-round.log 2>&1 &
#
# Usage: scripts/xot-round.sh BIN SEED...
#   BIN   the labeller's binary (a copy, e.g. data/v6/othello-label, so that rebuilds do not
#         change it under a running job)
# Environment: PAIRS (3000), the XOT pairs each seed's match plays (about 5,500 games kept).
# Pause it with `pkill -STOP -f "othello-label"` (and -CONT) during timings and matches; pack
# what it labelled with `scripts/labels.sh pack`.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=$(realpath "${1:?usage: scripts/xot-round.sh BIN SEED...}")
shift
[[ $# -gt 0 ]] || { echo "usage: scripts/xot-round.sh BIN SEED..." >&2; exit 2; }
mkdir -p data/v6/xot

for seed in "$@"; do
  games=data/v6/xot/x-s$seed.ggf
  if [[ ! -s $games ]]; then
    echo "$(date -u +%H:%M:%S) seed $seed: playing the games"
    SEED=$seed PAIRS=${PAIRS:-3000} scripts/xot-games.sh "$BIN" "$games"
  fi
  echo "$(date -u +%H:%M:%S) seed $seed: labelling $games"
  (cd data/v6 && "$BIN" label "xot/x-s$seed.ggf" --out "x12e20-s$seed.dat" --depth 12 \
    --exact-empties 20 --parity-mean -j 2)
  echo "$(date -u +%H:%M:%S) seed $seed: done"
done
