#!/usr/bin/env python3
"""Averages two pattern weight files (docs/dev/WEIGHTS.md, "Weight file format"), weight by
weight: OUT = A_SHARE * A + (1 - A_SHARE) * B, rounded, as a pattern-set-2 file. A set-1 file
(v1-v5) takes zero potential-mobility weights, as the engine loads it. Both files must have the
same phase count. An experiment of issue #32 (session 25); the engine checks the result when it
loads it.

Usage: scripts/average-weights.py A_SHARE A.bin B.bin OUT.bin
"""
import struct
import sys

import numpy as np

SET1_EXTRA = 128  # set 2's potential-mobility weights per phase, absent from set-1 files


def load(path):
    b = open(path, "rb").read()
    if b[:8] != b"OthPatEv":
        sys.exit(f"{path}: not a pattern weight file (bad magic)")
    _version, pattern_set, phases, _scale, per_phase, meta = struct.unpack_from("<HHHHII", b, 8)
    w = np.frombuffer(b, dtype="<i2", offset=32 + meta).reshape(phases, per_phase).astype(float)
    if pattern_set == 1:
        w = np.concatenate([w, np.zeros((phases, SET1_EXTRA))], axis=1)
    return w


def fnv1a(data):
    h = 0xCBF29CE484222325
    for c in data:
        h = ((h ^ c) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    share = float(sys.argv[1])
    a, b = load(sys.argv[2]), load(sys.argv[3])
    if a.shape != b.shape:
        sys.exit(f"the files differ in shape: {a.shape} and {b.shape}")
    w = np.clip(np.rint(share * a + (1 - share) * b), -32768, 32767).astype("<i2")
    phases, per_phase = w.shape
    meta = f"average: {share} of {sys.argv[2]}, {1 - share} of {sys.argv[3]}".encode()
    header = b"OthPatEv" + struct.pack("<HHHHII", 1, 2, phases, 256, per_phase, len(meta))
    body = meta + w.tobytes()
    checksum = fnv1a(header + body)  # every byte but the checksum's own 8
    with open(sys.argv[4], "wb") as f:
        f.write(header + struct.pack("<Q", checksum) + body)


main()
