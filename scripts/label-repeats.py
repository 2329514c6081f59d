#!/usr/bin/env python3
"""How many of the labelled positions are new? (docs/dev/NNUE.md, session 45)

usage: python3 scripts/label-repeats.py FILE...

Each FILE is an `OthData1` label file (`othello label`; the unpacked files of labels/v6/, see
docs/dev/NNUE.md for the unpack loop). The files are read in the order given. A record counts
as new when its two bitboards (side to move, then the other side) are in no earlier record of
any file. It does not count symmetric positions or different labels of one position as
repeats. Prints each file's records and new positions, then the totals. Standard library only;
about a minute and 2 GB of memory for the 23 million records of session 45.
"""
import os
import sys

HEADER = 32
RECORD = 24


def main(paths):
    if not paths:
        sys.exit(__doc__.strip())
    seen = set()
    total = new_total = 0
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        if len(data) < HEADER or data[:8] != b"OthData1":
            sys.exit(f"{path}: not a label file (no OthData1 header)")
        n = (len(data) - HEADER) // RECORD
        new = 0
        for i in range(n):
            start = HEADER + RECORD * i
            key = data[start : start + 16]
            if key not in seen:
                seen.add(key)
                new += 1
        total += n
        new_total += new
        share = 100.0 * new / n if n else 0.0
        print(f"{os.path.basename(path):28} {n:10,} records {new:10,} new ({share:.1f}%)", flush=True)
    share = 100.0 * new_total / total if total else 0.0
    print(f"all: {total:,} records, {new_total:,} distinct positions ({share:.1f}%)")


if __name__ == "__main__":
    main(sys.argv[1:])
