#!/usr/bin/env bash
# tests/data/transition-20-28.obf: positions of 20-28 empties from games of this engine, with
# every legal move's exact score (the endgame-transition benchmark of `othello quality`).
#
# Usage: scripts/transition-bench.sh BIN [WORK]
#   BIN   the othello binary to use (a copy, e.g. data/bench/othello-base, so that rebuilds of
#         target/ during the hours this takes do not change it)
#   WORK  work directory (default data/bench); every step whose output is there is skipped, so
#         a stopped run resumes where it was
# Environment:
#   PAIRS (150), TIME (3), GAMES_SEED (2030)  the match: `engine` against `engine` from XOT
#         openings, TIME seconds a side and game, one game at a time. Timed games are not
#         deterministic: to rebuild the committed file, put its games in WORK/games.ggf first.
#   QUOTA ("20:40,21:35,...")  positions per empties count, filled in the order listed
#   SELECT_SEED (2030)  the order in which games are taken
#   OUT (tests/data/transition-20-28.obf)  the file written
#   NICE (10)  niceness of the heavy steps
#   DEPTH (unset)  score every move by `BIN search --depth DEPTH --multipv 64 --threads 1`
#         instead of solving it, for positions too deep to solve (the held-out set's 28 empties
#         and more). Scores are the search's values rounded to whole discs; step 5 then checks
#         the move lists and their order only (no plain solve).
#
# Steps:
#   1. games   WORK/games.ggf: `BIN match engine engine --openings xot --time TIME ...`.
#   2. select  WORK/positions.obf (and .games: empties, game, position): the distinct games in
#              a seeded random order; for each QUOTA item E:N in turn, the first N games not
#              used yet give their position at E empties, skipped when it does not exist (a pass),
#              has fewer than 2 legal moves, or repeats a position already taken (up to the 8
#              symmetries). One position per game. The positions are replayed by the binary
#              (`games export`, one game at a time).
#   3. solve   WORK/multipv-E.txt for each empties count E: `BIN solve --multipv 64 --threads 1`
#              (every move solved exactly), with its CPU time in WORK/times.txt.
#   4. write   OUT: one line per position, every legal move with its score, best first (equal
#              scores in the solver's order), empties in increasing order.
#   5. check   WORK/plain.txt: a plain `BIN solve OUT --threads 1`, which exits 1 if a best
#              score or best move disagrees with OUT; then each line's moves must be exactly its
#              legal moves (an independent move generator here), its scores even, in -64..64
#              and sorted, and its best score the plain solve's.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${1:?usage: scripts/transition-bench.sh BIN [WORK]}
BIN=$(realpath "$BIN")
WORK=${2:-data/bench}
PAIRS=${PAIRS:-150}
TIME=${TIME:-3}
GAMES_SEED=${GAMES_SEED:-2030}
QUOTA=${QUOTA:-20:40,21:35,22:35,23:30,24:25,25:15,26:10,27:4,28:2,20:4}
SELECT_SEED=${SELECT_SEED:-2030}
OUT=${OUT:-tests/data/transition-20-28.obf}
NICE=${NICE:-10}
mkdir -p "$WORK"

py() {
  python3 -c "$PY" "$@"
}
PY=$(cat <<'PYTHON'
"""The Python part of scripts/transition-bench.sh (standard library only).

  select  GAMES.ggf BIN QUOTA SEED OUT.obf   one position per game, by the quota per empties
  merge   MULTIPV.txt POSITIONS.obf OUT.obf  the multi-PV solve table -> OBF lines, best first
  merge-search SEARCH.txt POSITIONS.obf OUT.obf  the same from multi-PV searches (DEPTH)
  check   FILE.obf PLAIN.txt                 legal move sets, order, and best = a plain solve
  check-search FILE.obf                      legal move sets and order only (DEPTH)

QUOTA is a comma-separated list EMPTIES:COUNT, e.g. 20:40,21:35,22:30.
"""
import random
import re
import subprocess
import sys
import tempfile

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def parse_board(line):
    """'<64 squares> <X|O>[; ...]' -> (squares string, side)."""
    head = line.split(';')[0].split()
    board, side = head[0], head[1]
    assert len(board) == 64 and set(board) <= set('XO-') and side in 'XO', line
    return board, side


def legal_moves(board, side):
    other = 'O' if side == 'X' else 'X'
    moves = []
    for i in range(64):
        if board[i] != '-':
            continue
        r, c = divmod(i, 8)
        for dr, dc in DIRS:
            rr, cc, n = r + dr, c + dc, 0
            while 0 <= rr < 8 and 0 <= cc < 8 and board[rr * 8 + cc] == other:
                rr, cc, n = rr + dr, cc + dc, n + 1
            if n and 0 <= rr < 8 and 0 <= cc < 8 and board[rr * 8 + cc] == side:
                moves.append(i)
                break
    return moves


def name(i):
    return 'ABCDEFGH'[i % 8] + str(i // 8 + 1)


def canonical(board, side):
    """The least of the 8 symmetric images (a position and its images are one position)."""
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


def select(ggf, binary, quota_text, seed, out):
    """One position per game: the games in a shuffled order (seeded), each used at most once.
    The quota's items are filled in the order listed, each from the games not used yet, so
    changing the last items leaves every position of the ones before as it was."""
    quota = []
    for item in quota_text.split(','):
        e, n = item.split(':')
        quota.append((int(e), int(n)))
    lo, hi = min(e for e, _ in quota), max(e for e, _ in quota)
    games = [l for l in open(ggf) if l.strip()]
    order = list(range(len(games)))
    random.Random(seed).shuffle(order)
    # Distinct games only: a game whose moves repeat an earlier game's (in file order) is left out.
    first = {}
    for g, text in enumerate(games):
        first.setdefault(tuple(re.findall(r'(?<![A-Z])[BW]\[([A-Ha-h][1-8]|PA|pa)', text.upper())), g)
    distinct = set(first.values())
    order = [g for g in order if g in distinct]
    # Every game's positions at lo..hi empties, replayed by the engine's own GGF reader
    # (`othello games export`, one game at a time).
    positions = {}
    with tempfile.TemporaryDirectory() as tmp:
        for g in range(len(games)):
            with open(f'{tmp}/g.ggf', 'w') as f:
                f.write(games[g])
            subprocess.run([binary, 'games', 'export', f'{tmp}/g.ggf', '--empties',
                            f'{lo}..{hi}', '--out', f'{tmp}/p.obf'],
                           check=True, capture_output=True)
            positions[g] = {}
            for l in open(f'{tmp}/p.obf'):
                board, side = parse_board(l)
                positions[g].setdefault(board.count('-'), (board, side))
    used, seen, chosen = set(), set(), []
    for e, wanted in quota:
        taken = 0
        for g in order:
            if taken == wanted:
                break
            if g in used or e not in positions[g]:
                continue  # no position at e empties in this game (a pass, or it ended before)
            board, side = positions[g][e]
            if len(legal_moves(board, side)) < 2:
                continue  # a forced move is no test of move choice
            key = canonical(board, side)
            if key in seen:
                continue
            seen.add(key)
            used.add(g)
            chosen.append((e, g + 1, board, side))
            taken += 1
        if taken < wanted:
            sys.exit(f'not enough games: {taken} of {wanted} positions at {e} empties')
    with open(out, 'w') as f:
        for e, g, board, side in chosen:
            f.write(f'{board} {side}\n')
    with open(out + '.games', 'w') as f:
        f.write('# empties, game (line of the GGF file), position\n')
        for e, g, board, side in chosen:
            f.write(f'{e}\t{g}\t{board} {side}\n')
    print(f'{len(distinct)} distinct games of {len(games)};',
          f'{len(chosen)} positions from {len(chosen)} games; per empties:',
          ' '.join(f'{e}:{n}' for e, n in quota))


ROW = re.compile(r'^\s*(\d+)\s+(\d+)\s+([a-h][1-8]|PA|--)\s+([+-]?\d+)\s')
THEN = re.compile(r'([a-h][1-8])\s+([+-]?\d+)')


def read_table(path):
    """`othello solve` table(s) -> {row number: [(move, score), ...]} in the order printed (a
    row printed again, by a resumed run, replaces the earlier one)."""
    rows, cur = {}, None
    for l in open(path):
        m = ROW.match(l)
        if m:
            cur = int(m.group(1))
            rows[cur] = [(m.group(3), int(m.group(4)))]
        elif l.strip().startswith('then') and cur is not None:
            rows[cur] += [(mv, int(s)) for mv, s in THEN.findall(l)]
        elif not l.startswith(' ') and not l.strip() == '':
            cur = None
    return rows


SEARCH_LINE = re.compile(r'^\s*line\s+\d+\s+([a-h][1-8])\s+value\s+([+-]?[0-9.]+)\s')


def read_searches(path):
    """`position K` blocks of `othello search --multipv` output -> {K: [(move, score), ...]},
    scores rounded to whole discs (a block printed again replaces the earlier one)."""
    rows, cur = {}, None
    for l in open(path):
        if l.startswith('position '):
            cur = int(l.split()[1])
            rows[cur] = []
        elif cur is not None:
            m = SEARCH_LINE.match(l)
            if m:
                rows[cur].append((m.group(1), int(round(float(m.group(2))))))
    return rows


def merge(table, positions, out, search=False):
    rows = read_searches(table) if search else read_table(table)
    lines = [l.strip() for l in open(positions) if l.strip()]
    with open(out, 'w') as f:
        for k, l in enumerate(lines, 1):
            board, side = parse_board(l)
            if k not in rows or len(rows[k]) != len(legal_moves(board, side)):
                sys.exit(f'{table}: no complete row {k}')
            scored = rows[k]
            # sorted() is stable: equal scores keep the solver's order.
            scored = sorted(scored, key=lambda t: -t[1])
            items = ''.join(f' {mv.upper()}:{s:+d};' for mv, s in scored)
            f.write(f'{board} {side};{items}\n')
    print(f'{len(lines)} lines written to {out}')


def check(obf, plain):
    rows = read_table(plain) if plain else None
    lines = [l.strip() for l in open(obf) if l.strip()]
    bad = 0
    for k, l in enumerate(lines, 1):
        board, side = parse_board(l)
        items = [x.strip() for x in l.split(';')[1:] if x.strip()]
        scored = [(x.split(':')[0], int(x.split(':')[1])) for x in items]
        moves = {mv for mv, _ in scored}
        legal = {name(i) for i in legal_moves(board, side)}
        problems = []
        if len(moves) != len(scored):
            problems.append('a move listed twice')
        if moves != legal:
            problems.append(f'moves {sorted(moves)} != legal {sorted(legal)}')
        if len(legal) < 2:
            problems.append('fewer than 2 legal moves')
        if [s for _, s in scored] != sorted((s for _, s in scored), reverse=True):
            problems.append('not sorted best first')
        if any(abs(s) > 64 for _, s in scored):
            problems.append('a score out of range')
        if rows is not None:
            if any(s % 2 for _, s in scored):
                problems.append('an odd exact score')  # empties go to the winner
            pmove, pscore = rows[k][0]
            if pscore != scored[0][1]:
                problems.append(f'plain solve {pscore} != best {scored[0][1]}')
            if dict(scored).get(pmove.upper()) != pscore:
                problems.append(f'plain best move {pmove} is not listed at {pscore}')
        if problems:
            bad += 1
            print(f'line {k}: ' + '; '.join(problems))
    print(f'{len(lines)} lines checked, {bad} bad')
    return bad == 0


if __name__ == '__main__':
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == 'select':
        select(args[0], args[1], args[2], int(args[3]), args[4])
    elif cmd == 'merge':
        merge(*args)
    elif cmd == 'merge-search':
        merge(*args, search=True)
    elif cmd == 'check':
        sys.exit(0 if check(*args) else 1)
    elif cmd == 'check-search':
        sys.exit(0 if check(args[0], None) else 1)
    else:
        sys.exit(__doc__)
PYTHON
)

# 1. games
if [[ ! -s $WORK/games.ggf ]]; then
  nice -n "$NICE" "$BIN" match engine engine --time "$TIME" --openings xot --pairs "$PAIRS" \
    --seed "$GAMES_SEED" -j 1 --ggf "$WORK/games.ggf.part" --quiet | tee "$WORK/match.txt"
  mv "$WORK/games.ggf.part" "$WORK/games.ggf"
fi

# 2. select
if [[ ! -s $WORK/positions.obf ]]; then
  py select "$WORK/games.ggf" "$BIN" "$QUOTA" "$SELECT_SEED" "$WORK/positions.obf"
fi

levels=$(tr ',' '\n' <<<"$QUOTA" | cut -d: -f1 | sort -nu)

if [[ -n ${DEPTH:-} ]]; then
  # 3-5 with DEPTH: search every move of each position, one position at a time (a position's
  # output is appended whole, so a stopped run resumes after the last complete one); write;
  # check the move lists.
  : >"$OUT.part"
  for e in $levels; do
    awk -v e="$e" '{ b = $1; n = gsub(/-/, "", b); if (n == e) print }' "$WORK/positions.obf" \
      >"$WORK/pos-$e.obf"
    done_=$(grep -c '^position ' "$WORK/search-$e.txt" 2>/dev/null || true)
    start=$SECONDS
    k=0
    while IFS= read -r line; do
      k=$((k + 1))
      ((k <= ${done_:-0})) && continue
      { echo "position $k"
        nice -n "$NICE" "$BIN" search --board "${line%%;*}" --depth "$DEPTH" --multipv 64 \
          --threads 1; } >"$WORK/search.part" </dev/null
      cat "$WORK/search.part" >>"$WORK/search-$e.txt"
    done <"$WORK/pos-$e.obf"
    echo "depth $DEPTH, $e empties, #$((${done_:-0} + 1))-$k: $((SECONDS - start)) s wall" \
      >>"$WORK/times.txt"
    py merge-search "$WORK/search-$e.txt" "$WORK/pos-$e.obf" "$WORK/out-$e.obf"
    cat "$WORK/out-$e.obf" >>"$OUT.part"
  done
  mv "$OUT.part" "$OUT"
  py check-search "$OUT"
  awk '{ b = $1; n = gsub(/-/, "", b); h[n]++ } END { for (e in h) printf "%s empties: %d\n", e, h[e] }' "$OUT" | sort -n
  cat "$WORK/times.txt"
  exit 0
fi

# 3. solve, the cheapest first; a level stopped part-way resumes after its last complete row
# (a row and its "then" line; every position has at least 2 moves)
for e in $levels; do
  awk -v e="$e" '{ b = $1; n = gsub(/-/, "", b); if (n == e) print }' "$WORK/positions.obf" \
    >"$WORK/pos-$e.obf"
  total=$(wc -l <"$WORK/pos-$e.obf")
  solved=$(grep -c '^     then ' "$WORK/multipv-$e.txt" 2>/dev/null || true)
  if ((${solved:-0} < total)); then
    tail -n +"$((${solved:-0} + 1))" "$WORK/pos-$e.obf" >"$WORK/rest-$e.obf"
    /usr/bin/time -f "multipv $e empties, #$((${solved:-0} + 1))-$total: %U s user, %S s system, %e s wall" \
      -a -o "$WORK/times.txt" nice -n "$NICE" "$BIN" solve "$WORK/rest-$e.obf" --multipv 64 \
      --threads 1 --first "$((${solved:-0} + 1))" >>"$WORK/multipv-$e.txt"
  fi
done

# 4. write
: >"$OUT.part"
for e in $levels; do
  py merge "$WORK/multipv-$e.txt" "$WORK/pos-$e.obf" "$WORK/out-$e.obf"
  cat "$WORK/out-$e.obf" >>"$OUT.part"
done
mv "$OUT.part" "$OUT"

# 5. check
/usr/bin/time -f "plain solve: %U s user, %S s system, %e s wall" -a -o "$WORK/times.txt" \
  nice -n "$NICE" "$BIN" solve "$OUT" --threads 1 >"$WORK/plain.txt"
tail -1 "$WORK/plain.txt"
py check "$OUT" "$WORK/plain.txt"
awk '{ b = $1; n = gsub(/-/, "", b); h[n]++ } END { for (e in h) printf "%s empties: %d\n", e, h[e] }' "$OUT" | sort -n
cat "$WORK/times.txt"
