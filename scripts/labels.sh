#!/usr/bin/env bash
# Carries a long labelling round (issue #32) across sessions on machines that do not keep data/.
#
# A labels file (data/v6/NAME.dat, made by `othello label`, resumable) only ever grows at its
# end. Each session commits what it added as one xz-compressed shard in labels/v6/, so the
# repository holds every label once (no growing blob per session), and a new machine rebuilds
# the file byte for byte from the shards and resumes the round. The files: p12e20 (the WTHOR
# games' positions), d12e20 (one deviation of each) and x12e20-SEED (the positions of the engine
# games from XOT openings in data/v6/xot/x-SEED.ggf, scripts/xot-games.sh; one label file per
# game file, since a labels file is tied to its input), all depth 12 and exact from 20 empties;
# and p8e16 / d8e16, the WTHOR games' positions and deviations again at depth 8, exact from 16
# empties, oldest games first (session 25: a tenth of the cost of a depth-12 label).
# The XOT game files themselves are kept xz-compressed in labels/v6/xot/.
#
#   scripts/labels.sh unpack [NAME]  # labels/v6/NAME.*.xz -> data/v6/NAME.dat (refuses to overwrite a longer file)
#   scripts/labels.sh pack [NAME]    # the bytes of data/v6/NAME.dat beyond the shards -> a new shard
#   scripts/labels.sh status [NAME]  # bytes in the shards and in the working file
#
# Without NAME, every file.
#
# Pause the labeller (kill -STOP) before `pack`, or pack from a copy: a shard must end where the
# file ended. The labeller itself and its command are in docs/dev/WEIGHTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
shards=labels/v6
mkdir -p "$shards" data/v6

shard_bytes() {
    local files=("$shards/$name".*.xz)
    if [ -e "${files[0]}" ]; then xz -dc "${files[@]}" | wc -c; else echo 0; fi
}

run() {
local name=$1 work=data/v6/$1.dat
case "$2" in
unpack)
    if [ ! -e "$shards/$name.000.xz" ]; then echo "$name: no shards"; return 0; fi
    have=$( [ -e "$work" ] && stat -c %s "$work" || echo 0 )
    want=$(shard_bytes)
    if [ "$have" -gt "$want" ]; then
        echo "$work holds $have bytes, more than the shards' $want: not overwritten" >&2
        exit 1
    fi
    xz -dc "$shards/$name".*.xz > "$work.part" && mv "$work.part" "$work"
    echo "$work: $want bytes from $(ls "$shards/$name".*.xz | wc -l) shards"
    ;;
pack)
    [ -e "$work" ] || { echo "$name: no $work"; return 0; }
    # Up to the end of the last complete game only (a 32-byte header, then 24-byte records;
    # bit 7 of a record's byte 23 marks a game's last record): a resumed run cuts off an
    # incomplete game, and the shards must stay the file's beginning.
    have=$(python3 - "$work" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
n = (len(b) - 32) // 24
end = 32
for i in range(n):
    if b[32 + 24 * i + 23] & 0x80:
        end = 32 + 24 * (i + 1)
print(end)
PY
)
    done_bytes=$(shard_bytes)
    if [ "$have" -le "$done_bytes" ]; then
        echo "nothing new: $work has $have bytes, the shards $done_bytes"
        return 0
    fi
    # The shards must be this file's beginning, or the new shard would not follow them.
    if [ "$done_bytes" -gt 0 ] && ! cmp -s <(xz -dc "$shards/$name".*.xz) <(head -c "$done_bytes" "$work"); then
        echo "$work does not begin with the shards' bytes: refusing to pack" >&2
        return 1
    fi
    next=$(printf '%03d' "$(ls "$shards/$name".*.xz 2>/dev/null | wc -l)")
    tail -c +"$((done_bytes + 1))" "$work" | head -c "$((have - done_bytes))" | xz -9 > "$shards/$name.$next.xz"
    echo "$shards/$name.$next.xz: bytes $done_bytes..$have of $work"
    ;;
status)
    echo "$name shards: $(shard_bytes) bytes; $work: $( [ -e "$work" ] && stat -c %s "$work" || echo 0 ) bytes (a 32-byte header, then 24 bytes a position)"
    ;;
esac
}

case "${1:-status}" in
unpack | pack | status) ;;
*)
    echo "usage: $0 unpack|pack|status [NAME]" >&2
    exit 2
    ;;
esac
# The XOT game files: packed once each (they never change), unpacked when missing.
games() {
    mkdir -p "$shards/xot" data/v6/xot
    local f
    case "$1" in
    pack)
        for f in data/v6/xot/*.ggf; do
            [ -e "$f" ] || continue
            [ -e "$shards/xot/$(basename "$f").xz" ] || { xz -9c "$f" > "$shards/xot/$(basename "$f").xz"; echo "$shards/xot/$(basename "$f").xz"; }
        done
        ;;
    unpack)
        for f in "$shards"/xot/*.ggf.xz; do
            [ -e "$f" ] || continue
            [ -e "data/v6/xot/$(basename "$f" .xz)" ] || xz -dc "$f" > "data/v6/xot/$(basename "$f" .xz)"
        done
        ;;
    esac
}

games "${1:-status}"
# Every XOT game file has its label files: x-SEED.ggf (scripts/xot-round.sh) its depth-12
# labels x12e20-SEED; y-SEED.ggf (scripts/xot-d8-round.sh) its depth-8 positions y8e16-SEED and
# deviations yd8e16-SEED, and those of any other depth that round was run at; n-SEED.ggf (the
# same round with NAME=n, played and labelled by the network, issue #55) n8e16-SEED and
# nd8e16-SEED.
xot_names() {
    local f
    for f in data/v6/xot/[xyn]-*.ggf "$shards"/xot/[xyn]-*.ggf.xz; do
        [ -e "$f" ] || continue
        f=$(basename "$f")
        f=${f%.xz}
        f=${f%.ggf}
        case "$f" in
        x-*) echo "x12e20-${f#x-}" ;;
        y-*) echo "y8e16-${f#y-}" "yd8e16-${f#y-}" ;;
        n-*) echo "n8e16-${f#n-}" "nd8e16-${f#n-}" ;;
        esac
    done
    # Self-play labels at other depths (DEPTH=10 EXACT=18 scripts/xot-d8-round.sh makes
    # y10e18-SEED and yd10e18-SEED): every such working file or shard names its file.
    for f in data/v6/[yn]*e*-s*.dat "$shards"/[yn]*e*-s*.[0-9][0-9][0-9].xz; do
        [ -e "$f" ] || continue
        f=$(basename "$f")
        f=${f%.dat}
        echo "${f%.[0-9][0-9][0-9].xz}"
    done
}
for name in ${2:-p12e20 d12e20 p8e16 d8e16 $(xot_names | tr ' ' '\n' | sort -u)}; do
    run "$name" "${1:-status}"
done
