#!/usr/bin/env python3
"""Grows the exact yardstick (labels/yard/, docs/dev/NNUE.md): merges OBF files of solved
positions, each position once up to the 8 board symmetries (the first file's lines first, then
each later file's new positions), and writes them sorted by empties (stable).

Usage: scripts/yard-merge.py OUT.obf FIRST.obf [MORE.obf ...]

Standard library only. OUT may be one of the inputs: every input is read before OUT is
written.
"""
import sys
from collections import Counter


def canonical(board, side):
    """The least of the 8 symmetric images of a 64-square board string, with the side."""
    images = []
    for t in range(8):
        s = []
        for i in range(64):
            r, c = divmod(i, 8)
            if t & 1:
                c = 7 - c
            if t & 2:
                r = 7 - r
            if t & 4:
                r, c = c, r
            s.append(board[r * 8 + c])
        images.append(''.join(s))
    return min(images) + ' ' + side


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip())
    out, inputs = sys.argv[1], sys.argv[2:]
    lines, seen, repeats = [], set(), 0
    for path in inputs:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                head = line.split(';')[0].split()
                if len(head) < 2 or len(head[0]) != 64 or head[1] not in ('X', 'O'):
                    sys.exit(f'{path}:{n}: not an OBF position line')
                board, side = head
                key = canonical(board, side)
                if key in seen:
                    repeats += 1
                    continue
                seen.add(key)
                lines.append((board.count('-'), line if line.endswith('\n') else line + '\n'))
    lines.sort(key=lambda x: x[0])
    with open(out, 'w') as f:
        f.writelines(line for _, line in lines)
    counts = ' '.join(f'{e}:{n}' for e, n in sorted(Counter(e for e, _ in lines).items()))
    print(f'{len(lines)} positions ({counts}), {repeats} repeats left out')


if __name__ == '__main__':
    main()
