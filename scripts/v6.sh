#!/usr/bin/env bash
# A candidate evaluation for issue #32, from the labels to the figures the issue asks for, in one
# resumable command: every step whose output exists is skipped, so run it again after a stop.
#
# Usage: scripts/v6.sh BIN NAME
#   BIN   the othello binary (a copy, e.g. data/v6/othello-v6, so that rebuilds do not change it)
#   NAME  the candidate; its files go to data/v6/cand/NAME/
# Environment:
#   LABELS ("d12e20")                    label files data/v6/L.dat to train on (space-separated)
#   TRAIN ("--dedup --prior default --lambda 200")  the trainer's options
#   CENTRE ("")                          options of `othello centre`, e.g. "--tempo" to balance the
#                                        value of having the move first (the odd/even swing)
#   JOBS (2)                             threads for training and calibration
#   POSITIONS (3000)                     positions the Multi-ProbCut calibration measures
#   MATCH (0)                            1: also play the candidate against the default weights
#   PAIRS (200), TIME (2), SEED (1)      the match: XOT pairs, seconds a side and game, openings
#
# Steps (docs/dev/WEIGHTS.md, "How to make weights"):
#   1. snapshot  each label file cut to whole records (the labeller may be appending to it)
#   2. train     raw.bin
#   3. centre    w.bin, the start position searched to 0
#   4. model     w.mpc, its own Multi-ProbCut model (8-15 minutes on 2 threads)
#   4b. endgame  end.txt, the endgame ProbCut fit for the candidate and for the default
#                (default-end.txt, once), 800 positions at 14-22 empties of the held-out games
#                (3 minutes a side on 2 threads): the engine keeps the formula's margins for its
#                selective solves (docs/TRANSITION.md), which holds while the measured sigmas
#                stay below the formula's; the report prints both fits
#   5. report    report.txt: the held-out sets' MAE, bias and sibling error by empties for the
#                candidate and the default, move quality at depths 2, 6 and 10 on both held-out
#                sets and on quality-30, the start position and the odd/even swing
#   6. match     match.txt and match.ggf (with MATCH=1): books off, the same binary both sides
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=$(realpath "${1:?usage: scripts/v6.sh BIN NAME}")
NAME=${2:?usage: scripts/v6.sh BIN NAME}
LABELS=${LABELS:-d12e20}
TRAIN=${TRAIN:---dedup --prior default --lambda 200}
JOBS=${JOBS:-2}
DIR=data/v6/cand/$NAME
mkdir -p "$DIR"

# 1. snapshot
data=()
for l in $LABELS; do
  snap=$DIR/$l.dat
  if [[ ! -s $snap ]]; then
    size=$(stat -c %s "data/v6/$l.dat")
    head -c "$((32 + (size - 32) / 24 * 24))" "data/v6/$l.dat" >"$snap.part"
    mv "$snap.part" "$snap"
  fi
  data+=("$snap")
done

# 2. train
if [[ ! -s $DIR/raw.bin ]]; then
  # shellcheck disable=SC2086  # TRAIN is a list of options
  "$BIN" train "${data[@]}" $TRAIN -j "$JOBS" --out "$DIR/raw.bin" | tee "$DIR/train.txt"
fi

# 3. centre
if [[ ! -s $DIR/w.bin ]]; then
  # shellcheck disable=SC2086  # CENTRE is a list of options
  "$BIN" centre "$DIR/raw.bin" ${CENTRE:-} --out "$DIR/w.bin" | tee "$DIR/centre.txt"
fi

# 4. model
if [[ ! -s $DIR/w.mpc ]]; then
  "$BIN" --eval-file "$DIR/w.bin" calibrate --samples "$DIR/mpc-samples.txt" \
    --out "$DIR/w.mpc.part" --positions "${POSITIONS:-3000}" --depth 12 -j "$JOBS"
  mv "$DIR/w.mpc.part" "$DIR/w.mpc"
fi

# 4b. endgame
held=data/v6/cand/heldout-games.ggf
[[ -s $held ]] || xz -dc labels/heldout/games-2026-11-26.ggf.xz >"$held"
endcal() { # WEIGHTS OUT
  if [[ ! -s $2 ]]; then
    "$BIN" --eval-file "$1" calibrate --endgame --empties 14..22 --positions 800 --depth 10 \
      --seed 7 --games "$held" --samples "$2.samples" --out "$2.part" -j "$JOBS" >/dev/null
    mv "$2.part" "$2"
  fi
}
endcal "$DIR/w.bin" "$DIR/end.txt"
endcal default data/v6/cand/default-end.txt

# 5. report
if [[ ! -s $DIR/report.txt ]]; then
  {
    echo "# $NAME: LABELS=\"$LABELS\" TRAIN=\"$TRAIN\""
    "$BIN" eval-error --exact tests/data/heldout-20-24.obf tests/data/heldout-28-40.obf \
      --eval "$DIR/w.bin" --eval default
    for f in heldout-20-24 heldout-28-40 quality-30; do
      for d in 2 6 10; do
        for w in "$DIR/w.bin" default; do
          echo "$f depth $d $w: $("$BIN" --eval-file "$w" quality "tests/data/$f.obf" --depth "$d" | tail -1)"
        done
      done
    done
    for w in "$DIR/w.bin" default; do
      echo "start position, depths 10-19, $w:"
      "$BIN" --eval-file "$w" search --depth 19 --threads 1 | grep -E '^ +depth +1[0-9]' || true
      echo "odd/even swing, $w: $("$BIN" --eval-file "$w" search --xot 20 --depth 14 --threads 1 | tail -1)"
    done
    echo "endgame ProbCut fits on the held-out games (formula sigma: 6.1 discs at depth 6, 5.3 at 8):"
    for f in "$DIR/end.txt" data/v6/cand/default-end.txt; do
      echo "$f:"
      grep -E '^end 1[45]|^end 20' "$f"
    done
  } >"$DIR/report.txt.part"
  mv "$DIR/report.txt.part" "$DIR/report.txt"
fi
cat "$DIR/report.txt"

# 6. match
if [[ ${MATCH:-0} == 1 && ! -s $DIR/match.txt ]]; then
  "$BIN" match "engine:eval=$DIR/w.bin,book=off" engine:book=off --time "${TIME:-2}" \
    --pairs "${PAIRS:-200}" -j 2 --openings xot --seed "${SEED:-1}" --quiet \
    --ggf "$DIR/match.ggf" | tee "$DIR/match.txt.part"
  mv "$DIR/match.txt.part" "$DIR/match.txt"
fi
