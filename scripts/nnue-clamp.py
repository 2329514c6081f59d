#!/usr/bin/env python3
"""Clamp a version-1 network file's embedding to the engine's i8 range and rewrite its checksum.

    python3 scripts/nnue-clamp.py IN.nnue OUT.nnue

The embedding (the first R x H f32 after the 40-byte header, see
crates/core/src/eval/nnue/file.rs) is clamped to +-127/256, the range the quantised inference
holds, so that `nnue-pack` accepts a network whose embedding grew past it (issue 55, run r9).
Prints how many weights were beyond the range. Standard library only; about 30 s for a 52 MB
file. OUT may not be IN.
"""
import array
import os
import struct
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    src, dst = sys.argv[1], sys.argv[2]
    if os.path.exists(dst) and os.path.samefile(src, dst):
        sys.exit(f"{dst}: the output may not be the input")
    b = bytearray(open(src, "rb").read())
    if len(b) < 40 or b[:8] != b"OthNNUE1" or struct.unpack_from("<H", b, 8)[0] != 1:
        sys.exit(f"{src}: not a version-1 network file")
    hidden = struct.unpack_from("<H", b, 12)[0]
    rows = struct.unpack_from("<I", b, 20)[0]
    n = rows * hidden
    if len(b) < 40 + 4 * n:
        sys.exit(f"{src}: shorter than its embedding ({rows} rows of {hidden})")
    emb = array.array("f")
    emb.frombytes(bytes(b[40 : 40 + 4 * n]))
    if sys.byteorder != "little":
        emb.byteswap()
    lim = struct.unpack("<f", struct.pack("<f", 127 / 256))[0]
    beyond = sum(1 for w in emb if abs(w) > lim)
    out = array.array("f", (min(lim, max(-lim, w)) for w in emb))
    if sys.byteorder != "little":
        out.byteswap()
    b[40 : 40 + 4 * n] = out.tobytes()
    x, mask = 0xCBF29CE484222325, 0xFFFFFFFFFFFFFFFF
    for c in bytes(b[:24]) + bytes(b[32:]):
        x = ((x ^ c) * 0x100000001B3) & mask
    struct.pack_into("<Q", b, 24, x)
    tmp = dst + ".tmp"
    with open(tmp, "wb") as f:
        f.write(b)
    os.replace(tmp, dst)
    print(f"{dst}: {beyond} of {n} embedding weights clamped to +-{lim}")


if __name__ == "__main__":
    main()
