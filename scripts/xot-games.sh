#!/usr/bin/env bash
# Engine self-play games from XOT openings, for labelling (issue #32): the positions a match
# plays, which WTHOR's human openings do not cover.
#
# Usage: scripts/xot-games.sh BIN OUT.ggf
#   BIN   the othello binary
#   OUT   the games, one GGF game a line, each opening once
# Environment:
#   SEED (3301), PAIRS (1200)               the match that plays them: XOT openings drawn by SEED
#   OPENINGS (xot)                          its --openings: xot+2 adds two random plies to each
#                                           XOT line, so that seeds do not replay each other's games
#   PLAYERS ("engine:level=10 engine:level=11")  its two players (levels: untimed, so
#                                           the games do not depend on the machine's load)
#   HELDOUT (labels/heldout/games-2026-11-26.ggf.xz)  games whose openings are left out, so that
#                                           no labelled game shares an opening with the held-out
#                                           sets' games
#
# An untimed engine is deterministic, so with the same player on both sides the two games of a
# pair (colours swapped) are one game twice; two different levels make two different games of
# each opening. Repeated games are kept once (compared without the move annotations), and every
# game whose first eight moves (its XOT opening) are those of a held-out game is dropped. Label the file
# with `othello label OUT.ggf ...` (docs/dev/WEIGHTS.md, "In progress").
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=$(realpath "${1:?usage: scripts/xot-games.sh BIN OUT.ggf}")
OUT=${2:?usage: scripts/xot-games.sh BIN OUT.ggf}
SEED=${SEED:-3301}
PAIRS=${PAIRS:-1200}
PLAYERS=${PLAYERS:-engine:level=10 engine:level=11}
OPENINGS=${OPENINGS:-xot}
HELDOUT=${HELDOUT:-labels/heldout/games-2026-11-26.ggf.xz}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck disable=SC2086  # PLAYERS is two words
"$BIN" match $PLAYERS --openings "$OPENINGS" --seed "$SEED" --pairs "$PAIRS" \
  -j 2 --quiet --ggf "$tmp/all.ggf" | tail -1

# The first eight moves of each game, upper case and concatenated (F5D6C3D3...).
openings() {
  sed -E 's/\]/]\n/g' | awk '
    /^\(;GM/ { if (n) print o; o = ""; n = 0 }
    match($0, /[BW]\[[A-Ha-h][1-8]/) { if (n < 8) { o = o toupper(substr($0, RSTART + 2, 2)); n++ } }
    END { if (n) print o }'
}
xz -dc "$HELDOUT" | grep '^(;GM' | openings | sort -u >"$tmp/held.txt"

# Keep each game once (its moves without annotations, date and names), unless a held-out game
# has its opening.
grep '^(;GM' "$tmp/all.ggf" >"$tmp/games.ggf"
openings <"$tmp/games.ggf" >"$tmp/open.txt"
sed -E 's#/[^]]*\]#]#g; s#(DT|PB|PW)\[[^]]*\]##g' "$tmp/games.ggf" >"$tmp/norm.txt"
paste -d '\t' "$tmp/open.txt" "$tmp/norm.txt" "$tmp/games.ggf" |
  awk -F '\t' 'NR == FNR { held[$1] = 1; next } !($1 in held) && !seen[$2]++ { print $3 }' \
    "$tmp/held.txt" - >"$OUT.part"
mv "$OUT.part" "$OUT"
echo "$OUT: $(wc -l <"$OUT") games ($(wc -l <"$tmp/all.ggf") played, $(wc -l <"$tmp/held.txt") held-out openings left out)"
