#!/usr/bin/env bash
# The training set of issue #55's networks, from the committed label shards: every labels file
# of labels/v6/ unpacked into data/v6/ (scripts/labels.sh unpack) and linked into one directory
# for `nnue-train --data DIR`.
#
# Left out: the depth-6 relabelling of seeds 4601-4606 (n6e16-s4601..4606, nd6e16-s4601..4606),
# the same positions as the depth-8 files n8e16-/nd8e16-s4601..4606 with other labels (session
# 47's equal-cost test); with both, a position would be there twice with two labels.
#
#   scripts/nnue-data.sh [DIR]         # DIR defaults to data/nnue/all; unpacks what is missing
#   scripts/nnue-data.sh --list        # the files it would take, one per line, nothing written
#
# Unpacking everything takes a few minutes and about 1 GB in data/v6/. A file already unpacked
# is kept (labels.sh refuses to overwrite a longer working file, so a running round is safe).
set -euo pipefail
cd "$(dirname "$0")/.."

excluded() {
    case "$1" in
    n6e16-s460[1-6] | nd6e16-s460[1-6]) return 0 ;;
    *) return 1 ;;
    esac
}

names() {
    local f n
    for f in labels/v6/*.000.xz; do
        [ -e "$f" ] || continue
        n=$(basename "$f" .000.xz)
        excluded "$n" || echo "$n"
    done
}

if [ "${1:-}" = "--list" ]; then
    names
    exit 0
fi
dir=${1:-data/nnue/all}
mkdir -p "$dir"
count=0
for n in $(names); do
    [ -e "data/v6/$n.dat" ] || scripts/labels.sh unpack "$n" > /dev/null
    # Only links are ours to replace: a real file of that name in DIR is someone's data.
    if [ -e "$dir/$n.dat" ] && [ ! -L "$dir/$n.dat" ]; then
        echo "$dir/$n.dat exists and is not a link: not replaced (choose another DIR)" >&2
        exit 1
    fi
    ln -sfn "$(realpath "data/v6/$n.dat")" "$dir/$n.dat"
    count=$((count + 1))
done
echo "$dir: $count label files"
