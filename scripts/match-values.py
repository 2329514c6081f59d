#!/usr/bin/env python3
"""Where a match was won: the mean value, for one player, of the positions its games reached at
given numbers of empty squares (docs/dev/NNUE.md, "Where the games are won", session 62).

`othello match --audit 24` gives exact values from 24 empties on; earlier points are too costly
to solve exactly for hundreds of games, so this script gives each game's position at each point
a probable solve (`othello solve --selectivity S`, endgame ProbCut to the end of the game, as the
engine plays from about 30 empties), and averages the values from PLAYER's side, with the
standard error over games and over the match's pairs (a pair: the two games of one opening,
one with each colour, consecutive in `match --ggf`'s file), and the score and Elo the games would
give if each ended as its value there says (a win above 0, a draw at 0): how much of the match's
result was decided by that point.

Usage: scripts/match-values.py GAMES.ggf PLAYER EMPTIES[,EMPTIES...] [SELECTIVITY|dDEPTH] [THREADS]

`dDEPTH` (`d24`) values each position by a midgame search of that depth instead (`othello search
--depth DEPTH`, one position a process, THREADS of them at once, one thread each), for points too
far from the end to solve; its judge is the engine's evaluator (`$OTHELLO_EVAL_FILE`, or the
embedded network), so run it under two judges when the players' evaluators differ.

PLAYER is the name in the games' PB/PW (`engine:book=off` for the A side of
`othello match engine:book=off ...`). SELECTIVITY defaults to 73 and THREADS to 2. The solves'
full output is kept in WORK (`$MATCH_VALUES_DIR`, default `./match-values`): a point already
solved there is read back, not solved again, so a long run can be stopped and resumed point by
point. Needs target/release/othello (or `$OTHELLO`). Standard library only.
"""
import concurrent.futures
import math
import os
import re
import statistics
import subprocess
import sys


USAGE = ("usage: scripts/match-values.py GAMES.ggf PLAYER EMPTIES[,EMPTIES...] "
         "[SELECTIVITY|dDEPTH] [THREADS]")


def fail(msg):
    sys.exit(f"match-values: {msg}")


def games_of(path):
    try:
        text = open(path, encoding="utf-8").read()
    except OSError as e:
        fail(f"cannot read {path}: {e}")
    games = re.findall(r"\(;GM\[Othello\].*?;\)", text, re.S)
    if not games:
        fail(f"{path}: no GGF game records")
    return games


def position_at(othello, work, game, empties):
    """The game's position at `empties` (an OBF line), or None if it never had one."""
    src = os.path.join(work, "game.ggf")
    out = os.path.join(work, "position.obf")
    with open(src, "w", encoding="utf-8") as f:
        f.write(game + "\n")
    r = subprocess.run(
        [othello, "games", "export", "--empties", str(empties), "--out", out, src],
        capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"games export failed: {r.stderr.strip()}")
    lines = [l for l in open(out, encoding="utf-8").read().splitlines() if l.strip()]
    return lines[0] if lines else None


def solve(othello, work, empties, positions, selectivity, threads):
    """Side-to-move scores of `positions` (OBF lines), solved once and kept in WORK."""
    obf = os.path.join(work, f"at{empties}.obf")
    res = os.path.join(work, f"at{empties}-s{selectivity}.out")
    with open(obf, "w", encoding="utf-8") as f:
        f.write("\n".join(positions) + "\n")
    rows = []
    if os.path.exists(res):
        rows = parse(res)
    if len(rows) != len(positions):
        with open(res, "w", encoding="utf-8") as f:
            r = subprocess.run(
                [othello, "solve", obf, "--selectivity", str(selectivity),
                 "--threads", str(threads)], stdout=f, stderr=subprocess.PIPE, text=True)
        if r.returncode not in (0, 1):
            fail(f"solve failed: {r.stderr.strip()}")
        rows = parse(res)
        if len(rows) != len(positions):
            fail(f"{res}: {len(rows)} results for {len(positions)} positions")
    return rows


def search(othello, work, empties, positions, depth, threads):
    """Side-to-move values of `positions` by depth-`depth` searches, kept in WORK."""
    judge = os.path.basename(os.environ.get("OTHELLO_EVAL_FILE", "") or "default")
    res = os.path.join(work, f"at{empties}-d{depth}-{judge}.out")
    if os.path.exists(res):
        values = [float(l) for l in open(res, encoding="utf-8").read().split()]
        if len(values) == len(positions):
            return values

    def one(line):
        board = " ".join(line.split()[:2])
        r = subprocess.run(
            [othello, "search", "--board", board, "--depth", str(depth), "--threads", "1",
             "--quiet"], capture_output=True, text=True)
        m = re.search(r"best \S+ value ([+-]?\d+(?:\.\d+)?)", r.stdout)
        if r.returncode != 0 or not m:
            fail(f"search of {board} failed: {r.stderr.strip() or r.stdout.strip()}")
        return float(m.group(1))

    with concurrent.futures.ThreadPoolExecutor(max_workers=threads) as pool:
        values = list(pool.map(one, positions))
    with open(res, "w", encoding="utf-8") as f:
        f.write("\n".join(str(v) for v in values) + "\n")
    return values


def parse(path):
    out = []
    for line in open(path, encoding="utf-8"):
        f = line.split()
        if len(f) > 3 and f[0].isdigit() and f[1].isdigit() and re.fullmatch(r"[+-]?\d+", f[3]):
            out.append(int(f[3]))
    return out


def mean_se(xs):
    if len(xs) < 2:
        return float("nan"), float("nan")
    return statistics.mean(xs), statistics.stdev(xs) / len(xs) ** 0.5


def elo(score):
    """The logistic Elo difference of a score in (0, 1)."""
    if not 0 < score < 1:
        return float("nan")
    return -400 * math.log10(1 / score - 1)


def main():
    if len(sys.argv) < 4:
        fail(USAGE)
    path, player, points = sys.argv[1], sys.argv[2], sys.argv[3]
    try:
        points = [int(p) for p in points.split(",")]
        mode = sys.argv[4] if len(sys.argv) > 4 else "73"
        depth = int(mode[1:]) if mode.startswith("d") else None
        selectivity = None if depth is not None else int(mode)
        threads = int(sys.argv[5]) if len(sys.argv) > 5 else 2
    except ValueError as e:
        fail(f"bad number: {e}")
    if any(not 1 <= p <= 59 for p in points):
        fail("EMPTIES must lie in 1..59")
    if depth is not None and not 1 <= depth <= 60 or threads < 1:
        fail("DEPTH must lie in 1..60 and THREADS be at least 1")
    othello = os.environ.get("OTHELLO", "target/release/othello")
    if not os.access(othello, os.X_OK):
        fail(f"{othello} is not an executable (build it, or set OTHELLO)")
    work = os.environ.get("MATCH_VALUES_DIR", "match-values")
    try:
        os.makedirs(work, exist_ok=True)
    except OSError as e:
        fail(f"cannot use {work} as the work directory: {e}")

    games = games_of(path)
    colours = []
    for g in games:
        pb = re.search(r"PB\[([^\]]*)\]", g)
        pw = re.search(r"PW\[([^\]]*)\]", g)
        names = (pb.group(1) if pb else None, pw.group(1) if pw else None)
        colours.append("X" if names[0] == player else "O" if names[1] == player else None)
    if not any(colours):
        fail(f"no game of {path} has {player!r} as PB or PW")

    how = f"depth-{depth} searches" if depth is not None else f"probable solves at {selectivity}%"
    print(f"{len(games)} games; values from {player}'s side, {how}")
    print("empties  games   mean      se  pairs  se(pairs)  score    Elo")
    for e in points:
        index, positions = [], []
        for i, (g, c) in enumerate(zip(games, colours)):
            if c is None:
                continue
            p = position_at(othello, work, g, e)
            if p is not None:
                index.append(i)
                positions.append(p)
        if depth is not None:
            scores = search(othello, work, e, positions, depth, threads)
        else:
            scores = solve(othello, work, e, positions, selectivity, threads)
        value = {}
        for i, p, s in zip(index, positions, scores):
            value[i] = s if p.split()[-1] == colours[i] else -s
        m, se = mean_se(list(value.values()))
        pairs = [(value[i] + value[i + 1]) / 2 for i in range(0, len(games) - 1, 2)
                 if i in value and i + 1 in value]
        pm, pse = mean_se(pairs)
        score = statistics.mean([(v > 0) + (v == 0) / 2 for v in value.values()])
        print(f"{e:7d} {len(value):6d} {m:+7.2f} {se:7.2f} {len(pairs):6d} {pse:10.2f}"
              f" {100 * score:5.1f}% {elo(score):+6.1f}")


if __name__ == "__main__":
    main()
