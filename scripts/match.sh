#!/usr/bin/env bash
# The standard gauntlet: the engine against each of PAIP's strategies, and against itself at
# two depths, printed as one results table (A = the engine, results from its side).
#
# Usage: scripts/match.sh [PAIRS] [TIME] [JOBS]
#   PAIRS  pairs of XOT games per opponent (default 10, i.e. 20 games)
#   TIME   the engine's clock per game, SECONDS[+INCREMENT] (default 1)
#   JOBS   games played at once (default 2)
# Environment: ENGINE (default "engine"), SEED (default 1), GGF_DIR (keep the games there).
set -euo pipefail
cd "$(dirname "$0")/.."

PAIRS=${1:-10}
TIME=${2:-1}
JOBS=${3:-2}
ENGINE=${ENGINE:-engine}
SEED=${SEED:-1}

cargo build --release --quiet
BIN=target/release/othello

opponents=(
  random
  maximizer:count
  maximizer:weighted
  maximizer:modified
  maximizer:iago
  minimax:3:weighted
  alphabeta:4:weighted
  alphabeta2:4:modified
  alphabeta3:4:modified
  iago:4
)

row() { # A B [extra match options...]
  local a=$1 b=$2
  shift 2
  local ggf=()
  if [[ -n ${GGF_DIR:-} ]]; then
    mkdir -p "$GGF_DIR"
    ggf=(--ggf "$GGF_DIR/${a//[:=,]/_}-vs-${b//[:=,]/_}.ggf")
  fi
  local out
  out=$("$BIN" match "$a" "$b" --pairs "$PAIRS" --seed "$SEED" -j "$JOBS" --quiet "${ggf[@]}" "$@")
  awk -v a="$a" -v b="$b" '
    $1 == "total" { games = $2; w = $3; d = $4; l = $5; score = $6; discs = $7 }
    $1 == "Elo" { elo = $2 " " $3 " " $4 }
    /^faults/ { sub(/^faults[^:]*: /, ""); faults = $0 }
    END { printf "%-22s %-22s %5s %4s %4s %4s %7s %7s  %-26s %s\n", a, b, games, w, d, l, score, discs, elo, faults }
  ' <<<"$out"
}

printf "%-22s %-22s %5s %4s %4s %4s %7s %7s  %-26s %s\n" \
  A B games W D L score discs "Elo [95% CI]" faults
for b in "${opponents[@]}"; do
  row "$ENGINE" "$b" --time "$TIME"
done
row engine:depth=6 engine:depth=3
