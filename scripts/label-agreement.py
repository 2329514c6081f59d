#!/usr/bin/env python3
"""How far apart are the depth-8 and depth-12 labels of the same WTHOR positions, and does the
game's result add anything? (docs/dev/NNUE.md, session 40)

usage: python3 scripts/label-agreement.py RAW

RAW holds the unpacked label files of labels/v6/ (p8e16.dat and p12e20.dat are read; see
docs/dev/NNUE.md for the unpack loop). Needs numpy. For each position labelled by a search in
both files, by empties band: the mean absolute difference of the two labels, of the game's
result and the depth-12 label, the least-squares fit of the depth-12 label on the depth-8
label, the result and a constant, and what blending the result into the depth-8 label does.

The result of a game is the label of its first exactly-labelled record (the played game's
exact value from there), seen from each position's side to move.
"""
import os
import sys

import numpy as np

RECORD = np.dtype([("p", "<u8"), ("o", "<u8"), ("g", "<u4"), ("l", "<i2"), ("c", "u1"), ("f", "u1")])
POP8 = np.array([bin(i).count("1") for i in range(256)])


def load(path):
    return np.fromfile(path, dtype=RECORD, offset=32)


def results(a):
    """The game result for each record (NaN if its game has no exact record) and its kind."""
    kind = a["f"] & 3
    last = (a["f"] & 0x80) != 0
    gid = np.cumsum(np.concatenate([[0], last[:-1].astype(np.int64)]))
    exact = np.where(kind == 0)[0]
    games, first = np.unique(gid[exact], return_index=True)
    first_exact = np.full(gid.max() + 1, -1)
    first_exact[games] = exact[first]
    e = first_exact[gid]
    ok = e >= 0
    sign = np.where(a["c"][e] == a["c"], 1, -1)
    r = np.full(len(a), np.nan)
    r[ok] = (a["l"][e] * sign)[ok]
    return r, kind


def empties(a):
    x = a["p"] | a["o"]
    n = np.zeros(len(a), dtype=np.int64)
    for s in range(0, 64, 8):
        n += POP8[((x >> np.uint64(s)) & np.uint64(255)).astype(np.int64)]
    return 64 - n


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    raw = sys.argv[1]
    p8 = load(os.path.join(raw, "p8e16.dat"))
    p12 = load(os.path.join(raw, "p12e20.dat"))
    r8, k8 = results(p8)
    _, k12 = results(p12)
    at12 = {(int(p12["p"][i]), int(p12["o"][i])): i for i in np.where(k12 == 2)[0]}
    pairs = [
        (i, at12[key])
        for i in np.where((k8 == 2) & ~np.isnan(r8))[0]
        if (key := (int(p8["p"][i]), int(p8["o"][i]))) in at12
    ]
    i8 = np.array([a for a, _ in pairs])
    i12 = np.array([b for _, b in pairs])
    print(f"positions labelled at both depths: {len(i8)}")
    l8 = p8["l"][i8] / 100.0
    l12 = p12["l"][i12] / 100.0
    res = r8[i8] / 100.0
    emp = empties(p8[i8])
    for lo, hi in [(21, 26), (27, 32), (33, 40), (41, 50), (51, 60)]:
        m = (emp >= lo) & (emp <= hi)
        x8, x12, r = l8[m], l12[m], res[m]
        design = np.stack([x8, r, np.ones_like(r)], 1)
        coef = np.linalg.lstsq(design, x12, rcond=None)[0]
        fit = np.abs(x12 - design @ coef).mean()
        print(
            f"{lo}-{hi} empties, {m.sum()} positions: |d8-d12| {np.abs(x8 - x12).mean():.2f}, "
            f"|result-d12| {np.abs(r - x12).mean():.2f}, "
            f"d12 ~ {coef[0]:.2f} d8 + {coef[1]:.2f} result + {coef[2]:.2f} (MAE {fit:.2f})"
        )
        for lam in (0.1, 0.2, 0.3):
            blend = (1 - lam) * x8 + lam * r
            print(
                f"    {lam:.0%} result: mean squared distance to d12 "
                f"{((blend - x12) ** 2).mean():.2f} (depth 8 alone {((x8 - x12) ** 2).mean():.2f})"
            )


if __name__ == "__main__":
    main()
