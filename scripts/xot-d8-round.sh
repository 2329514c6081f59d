#!/usr/bin/env bash
# Depth-8 labelling rounds on engine games from XOT openings (issue #32, from session 28): the
# WTHOR games are used up at depth 8, so more labels come from self-play. For each SEED:
#
#   1. the games: scripts/xot-games.sh with two fast untimed players (levels 6 and 7 by
#      default; a pair of one opening gives two different games) -> data/v6/xot/y-sSEED.ggf;
#   2. their positions at depth 8, exact from 16 empties -> data/v6/y8e16-sSEED.dat;
#   3. one deviation of each position (a move the players did not play), the same way
#      -> data/v6/yd8e16-sSEED.dat.
#
# Resumable: a seed whose game file exists skips the games, and `othello label` skips the games
# already in its labels file. Run it in the background:
#
#   nohup nice -n 10 scripts/xot-d8-round.sh data/v6/othello-label 3401 3402 > data/v6/y8.log 2>&1 &
#
# Usage: scripts/xot-d8-round.sh BIN SEED...
#   BIN   the labeller's binary (a copy, e.g. data/v6/othello-label, so that rebuilds do not
#         change it under a running job)
# Environment: PAIRS (3000) XOT pairs a seed; PLAYERS ("engine:level=6 engine:level=7");
#   DEPTH (8) and EXACT (16), the labels' search depth and the empties from which they are exact:
#   other values label the same games into yDEPTHeEXACT-sSEED and ydDEPTHeEXACT-sSEED, e.g.
#   DEPTH=10 EXACT=18 (about 3.5 times the cost of depth 8, measured in docs/dev/WEIGHTS.md, session 29).
#   DEPTH=6: a seed in about 6 minutes against 14 (the network labelling). On the same
#   positions a network trained on them is +9.6 [-12.1, +31.3] Elo behind the depth-8 one, but
#   at equal labelling time (14 depth-6 seeds against 6 depth-8 ones) it is +21.3 [+0.1, +42.7]
#   ahead, so the network's round runs at depth 6 from seed 4608 (docs/dev/NNUE.md, sessions
#   46 and 47).
#   ABOVE (unset): label only the positions with more empties than this, into files tagged
#   aABOVE, e.g. DEPTH=12 EXACT=20 ABOVE=22 -> y12e20a22-sSEED and yd12e20a22-sSEED.
#   NAME (y): the files' prefix, y-sSEED.ggf, yDEPTHeEXACT-sSEED and ydDEPTHeEXACT-sSEED; a round
#   labelled by another evaluator takes its own (issue #55's network rounds: NAME=n with
#   OTHELLO_EVAL_FILE=weights/nnue-r7.nnue, which the games' players and the labeller both use).
#   OPENINGS (xot+2): the games' openings, each XOT line and two random plies. The rounds before
#   session 45 played the plain XOT lines (`OPENINGS=xot`): untimed players are deterministic,
#   so every seed after the first few replayed mostly the same games (y8e16-s3405 on: under a
#   quarter of the positions new), and the network's round of session 44 (seeds 4401-4407),
#   whose players then took the pattern weights (the match did not read $OTHELLO_EVAL_FILE),
#   replayed the pattern-v6 round's games: docs/dev/NNUE.md, session 45.
#   KINDS ("positions deviations"): which of the two label files to make. At depth 12 a
#   deviation costs about five times a game position (each is a new tree, where a game's
#   positions share the search's table), so KINDS=positions reaches new positions faster.
# Pause it with `pkill -STOP -f "othello-label"` (and -CONT) during timings and matches; pack
# what it labelled with `scripts/labels.sh pack`.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=$(realpath "${1:?usage: scripts/xot-d8-round.sh BIN SEED...}")
shift
[[ $# -gt 0 ]] || { echo "usage: scripts/xot-d8-round.sh BIN SEED..." >&2; exit 2; }
mkdir -p data/v6/xot
DEPTH=${DEPTH:-8}
EXACT=${EXACT:-16}
tag=${DEPTH}e$EXACT${ABOVE:+a$ABOVE}
name=${NAME:-y}

for seed in "$@"; do
  games=data/v6/xot/$name-s$seed.ggf
  if [[ ! -s $games ]]; then
    echo "$(date -u +%H:%M:%S) seed $seed: playing the games"
    SEED=$seed PAIRS=${PAIRS:-3000} PLAYERS=${PLAYERS:-engine:level=6 engine:level=7} \
      OPENINGS=${OPENINGS:-xot+2} \
      scripts/xot-games.sh "$BIN" "$games"
  fi
  kinds=" ${KINDS:-positions deviations} "
  if [[ $kinds == *" positions "* ]]; then
    echo "$(date -u +%H:%M:%S) seed $seed: labelling the positions of $games"
    (cd data/v6 && "$BIN" label "xot/$name-s$seed.ggf" --out "$name$tag-s$seed.dat" --depth "$DEPTH" \
      --exact-empties "$EXACT" --above "${ABOVE:-0}" --parity-mean -j 2)
  fi
  if [[ $kinds == *" deviations "* ]]; then
    echo "$(date -u +%H:%M:%S) seed $seed: labelling one deviation of each position"
    (cd data/v6 && "$BIN" label "xot/$name-s$seed.ggf" --out "${name}d$tag-s$seed.dat" --depth "$DEPTH" \
      --exact-empties "$EXACT" --above "${ABOVE:-0}" --parity-mean --deviations 1 -j 2)
  fi
  echo "$(date -u +%H:%M:%S) seed $seed: done"
done
