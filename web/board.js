// The board page of `othello serve`: draws the state the server sends and turns clicks and
// keys into the requests of the WebSocket protocol (docs/SERVE.md). It decides nothing about
// the game: legality, undo, the engine's moves and values all come from the server. On the
// static page (`<html data-engine="wasm">`, made by scripts/static-page.sh) the same requests
// go to the engine compiled to WebAssembly in this browser (static.js) instead.
"use strict";

const $ = (id) => document.getElementById(id);
const FILES = "abcdefgh";

let ws = null;
let local = null;          // the static page's engine in this browser (static.js)
let state = null;          // the last `state` reply
let prevBoard = null;      // the board before it, for the flip animation
let hints = {};            // move -> line, for the position in `hintKey`
let hintKey = null;
let hintJob = null;        // the job numbers of our running hints and engine move
let goJob = null;
let requestedFor = null;   // the position we last asked a hint or a move for
let paused = false;        // the engine waits (after undo, redo, a jump, a set-up)
let undoing = false;       // undo goes on to a person's turn
let typed = "";            // a square being typed
let typedAt = 0;
let errors = 0;
let greeted = false;       // the state the server sends on connecting has come

// ---------- the connection ----------

function connect() {
  if (document.documentElement.dataset.engine === "wasm") {
    connectLocal();
    return;
  }
  ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onopen = () => {
    $("connection").textContent = "connected";
    $("connection").className = "on";
    greeted = false;
  };
  ws.onclose = () => {
    $("connection").textContent = "disconnected: retrying";
    $("connection").className = "off";
    setTimeout(connect, 1000);
  };
  ws.onmessage = (event) => {
    let reply;
    try { reply = JSON.parse(event.data); } catch (e) { return; }
    receive(reply);
  };
}

// The static page: no server, the engine in a Web Worker of this page.
function connectLocal() {
  $("connection").textContent = "loading the engine…";
  import("./static.js")
    .then((m) => m.start(receive))
    .then((transport) => {
      local = transport;
      $("connection").textContent = "engine in this browser";
      $("connection").className = "on";
      greeted = false;
      send({ type: "state" });
    })
    .catch((e) => {
      $("connection").textContent = "the engine did not load";
      $("connection").className = "off";
      $("message").textContent = String(e);
    });
}

function send(request) {
  if (local) local.send(JSON.stringify(request));
  else if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(request));
}

// The position in the address: ?moves=f5d6c3 (from the start) or ?board=<board string>.
// Returns whether a set-up was sent.
function loadFromAddress() {
  const params = new URLSearchParams(location.search);
  const moves = params.get("moves");
  const board = params.get("board");
  if (board) {
    paused = true;
    send({ type: "setup", kind: "board", text: board });
  } else if (moves) {
    paused = true;
    send({ type: "setup", kind: "moves", text: moves });
  } else {
    return false;
  }
  return true;
}

function updateAddress() {
  let query = "";
  if (state.standard_start) {
    if (state.move_list) query = "?moves=" + state.move_list;
  } else {
    query = "?board=" + encodeURIComponent(boardString());
  }
  if (location.search !== query) history.replaceState(null, "", location.pathname + query);
}

// The current position as a board string: X/O/- from a1 to h8, then the side to move.
function boardString() {
  const squares = state.board.replace(/b/g, "X").replace(/w/g, "O").replace(/\./g, "-");
  return squares + " " + (state.to_move === "black" ? "X" : "O");
}

// ---------- replies ----------

function receive(reply) {
  switch (reply.type) {
    case "state":
      prevBoard = state ? state.board : null;
      state = reply;
      render();
      if (!greeted) {
        // The state of a new connection: the position in the address replaces it.
        greeted = true;
        if (loadFromAddress()) break;
      }
      updateAddress();
      clockOnState();
      afterState();
      break;
    case "started":
      if (reply.kind === "hints") { hintJob = reply.job; hints = {}; hintKey = positionKey(); renderHints(); }
      if (reply.kind === "go") { goJob = reply.job; $("thinking").textContent = "thinking…"; }
      if (reply.kind === "analyze") $("thinking").textContent = "analysing the game…";
      if (reply.kind === "review") $("thinking").textContent = "reviewing the game…";
      break;
    case "line":
      if (reply.job === hintJob) {
        hints[reply.move] = reply;
        renderHints();
      } else if (reply.job === goJob) {
        $("thinking").textContent =
          `depth ${reply.depth}@${reply.selectivity}%  ${valueText(reply)}  ${reply.pv}`;
      }
      break;
    case "done":
      if (reply.job === hintJob) { hintJob = null; renderHints(); }
      if (reply.job === goJob) goJob = null;
      // The engine's last line stays up until its next move; the others' notes go.
      if ((reply.kind === "analyze" || reply.kind === "review") && !goJob) $("thinking").textContent = "";
      document.body.dataset.done = String(reply.job);
      document.body.dataset.stopped = String(reply.stopped);
      break;
    case "review":
      showReview(reply);
      break;
    case "error":
      errors += 1;
      $("message").textContent = reply.message;
      $("message").dataset.count = String(errors);
      undoing = false;
      break;
  }
}

function positionKey() {
  return state ? `${state.ply}:${state.board}:${state.to_move}` : null;
}

function isEngine(color) {
  return $(color).value === "engine";
}

// After every state: the engine's move, an undo that goes on, or hints.
function afterState() {
  if (undoing) {
    if (state.ply > 0 && isEngine(state.to_move) && !(isEngine("black") && isEngine("white"))) {
      send({ type: "undo" });
      return;
    }
    undoing = false;
  }
  if (state.over || state.busy) return;
  const key = positionKey();
  if (requestedFor === key) return;
  if (isEngine(state.to_move) && !paused && !clock.flagged) {
    requestedFor = key;
    const delay = isEngine("black") && isEngine("white") ? 250 : 0;
    setTimeout(() => {
      if (positionKey() === key && !state.busy) send(goRequest());
    }, delay);
  } else if ($("hints").checked && state.legal.length > 0) {
    requestedFor = key;
    send({ type: "hints", depth: number("hint-depth", 1, 30, 10) });
  }
}

function level() {
  return number("level", 1, 60, 6);
}

// The engine's move: at the level, or by its clock.
function goRequest() {
  if (!clock.on) return { type: "go", level: level() };
  const side = state.to_move;
  return { type: "go", time: Math.max(0.01, clockLeft(side) / 1000), increment: clock.increment / 1000 };
}

// ---------- the game clock ----------
// With "Play by: clock", each side has the minutes set and the increment after each move.
// The side to move's clock runs while the game goes on (not after undo, redo, a jump or a
// set-up: the game waits then, as the engine does); the engine is sent its time left, and
// plans its move within it. A side whose time runs out loses on time.

const clock = { on: false, left: { black: 0, white: 0 }, increment: 0, runner: null, since: 0, ply: 0, flagged: null };

function resetClock() {
  clock.on = $("pace").value === "clock";
  const minutes = parseFloat($("clock-minutes").value);
  const ms = Number.isFinite(minutes) && minutes > 0 && minutes <= 600 ? minutes * 60000 : 300000;
  const inc = parseFloat($("clock-increment").value);
  clock.increment = Number.isFinite(inc) && inc >= 0 && inc <= 600 ? inc * 1000 : 0;
  clock.left = { black: ms, white: ms };
  clock.runner = null;
  clock.flagged = null;
  clock.ply = state ? state.ply : 0;
  if (state) clockOnState();
  renderClock();
}

function clockLeft(side) {
  const left = clock.left[side];
  return clock.runner === side ? left - (performance.now() - clock.since) : left;
}

// Charges the time of the side that was to move, then starts the clock of the side to move.
function clockOnState() {
  if (!clock.on) return;
  const now = performance.now();
  if (clock.runner) {
    clock.left[clock.runner] -= now - clock.since;
    if (state.ply > clock.ply && !paused) clock.left[clock.runner] += clock.increment;
  }
  clock.ply = state.ply;
  clock.runner = !state.over && !paused && !clock.flagged ? state.to_move : null;
  clock.since = now;
  renderClock();
}

// The game goes on after a wait (the engine asked to move): the side to move's clock starts.
function clockResume() {
  if (clock.on && state && !clock.runner && !state.over && !clock.flagged) {
    clock.runner = state.to_move;
    clock.since = performance.now();
    clock.ply = state.ply;
  }
}

function clockTick() {
  if (!clock.on) return;
  const side = clock.runner;
  if (side && clockLeft(side) <= 0) {
    clock.left[side] = 0;
    clock.runner = null;
    clock.flagged = side;
    if (state.busy === "go") send({ type: "stop" });
    $("message").textContent = `${side === "black" ? "Black" : "White"} ran out of time: ${side === "black" ? "White" : "Black"} wins on time`;
  }
  renderClock();
}

function clockText(ms) {
  const s = Math.max(0, ms) / 1000;
  const m = Math.floor(s / 60);
  const rest = s - m * 60;
  return `${m}:${rest < 10 ? "0" : ""}${rest.toFixed(s < 10 ? 1 : 0).padStart(rest < 10 ? 1 : 2, "0")}`;
}

function renderClock() {
  for (const side of ["black", "white"]) {
    const el = $("clock-" + side);
    el.hidden = !clock.on;
    el.textContent = (side === "black" ? "● " : "○ ") + clockText(clockLeft(side));
    el.className = "clock" + (clock.runner === side ? " running" : "") + (clock.flagged === side ? " flagged" : "");
    el.dataset.ms = String(Math.round(clockLeft(side)));
  }
  $("status").dataset.flagged = clock.flagged || "";
}

function number(id, low, high, fallback) {
  const n = parseInt($(id).value, 10);
  return Number.isFinite(n) && n >= low && n <= high ? n : fallback;
}

// ---------- drawing ----------

function squareName(i) {
  return FILES[i % 8] + String(Math.floor(i / 8) + 1);
}

function buildBoard() {
  const board = $("board");
  for (let i = 0; i < 64; i++) {
    const sq = document.createElement("div");
    sq.className = "sq";
    sq.id = "sq-" + squareName(i);
    sq.dataset.square = squareName(i);
    sq.setAttribute("role", "gridcell");
    sq.tabIndex = -1;
    sq.addEventListener("click", () => clickSquare(squareName(i)));
    board.appendChild(sq);
  }
}

function render() {
  const legal = new Set(state.legal);
  const flips = new Set(state.flips);
  for (let i = 0; i < 64; i++) {
    const name = squareName(i);
    const sq = $("sq-" + name);
    const c = state.board[i];
    sq.className = "sq" + (legal.has(name) ? " legal" : "") + (state.last === name ? " last" : "");
    sq.dataset.disc = c === "b" ? "black" : c === "w" ? "white" : "";
    sq.setAttribute("aria-label", `${name} ${sq.dataset.disc || (legal.has(name) ? "legal move" : "empty")}`);
    let disc = sq.querySelector(".disc");
    if (c === ".") {
      if (disc) disc.remove();
    } else {
      if (!disc) { disc = document.createElement("div"); sq.prepend(disc); }
      let anim = "";
      if (prevBoard && prevBoard[i] !== c) anim = flips.has(name) ? " flip" : prevBoard[i] === "." ? " placed" : "";
      disc.className = "disc " + c + anim;
    }
  }
  const side = state.to_move === "black" ? "Black" : "White";
  $("turn").textContent = state.over ? resultText() : `${side} to move`;
  $("score").textContent = `● ${state.discs[0]}  ○ ${state.discs[1]}`;
  $("status").dataset.ply = String(state.ply);
  $("status").dataset.over = String(state.over);
  $("movelist").value = state.move_list;
  $("ggf").value = state.ggf;
  $("undo").disabled = state.ply === 0;
  $("redo").disabled = state.ply >= state.line.length;
  if (positionKey() !== hintKey) { hints = {}; hintKey = null; }
  renderHints();
  renderMoves();
  renderGraph();
}

function resultText() {
  const [b, w] = state.discs;
  if (b === w) return `Game over: a draw, ${b}-${w}`;
  return `Game over: ${b > w ? "Black" : "White"} wins ${b}-${w}`;
}

function valueText(line) {
  const v = line.value;
  if (line.kind === "exact" || line.kind === "wld" || line.kind === "probable") {
    return (v > 0 ? "+" : "") + v.toFixed(0);
  }
  return (v > 0 ? "+" : "") + v.toFixed(1);
}

function renderHints() {
  document.querySelectorAll(".hint").forEach((h) => h.remove());
  document.querySelectorAll(".sq.hinted").forEach((s) => s.classList.remove("hinted"));
  const lines = Object.values(hints);
  if (lines.length === 0) {
    $("hint-info").textContent = hintJob !== null ? "hints: searching…" : "";
    return;
  }
  const best = Math.max(...lines.map((l) => l.value));
  for (const line of lines) {
    const sq = $("sq-" + line.move);
    if (!sq) continue;
    const h = document.createElement("div");
    h.className = `hint ${line.kind}` + (line.value === best ? " best" : "");
    h.dataset.value = String(line.value);
    h.dataset.kind = line.kind;
    h.dataset.depth = String(line.depth);
    const depth = line.kind === "book" ? "book" : line.kind === "heuristic" ? `d${line.depth}` : "exact";
    h.innerHTML = `<span class="v"></span><span class="d"></span>`;
    h.querySelector(".v").textContent = valueText(line);
    h.querySelector(".d").textContent = depth;
    h.title = `${line.move}: ${valueText(line)} (${line.kind}, depth ${line.depth}@${line.selectivity}%) ${line.pv}`;
    sq.classList.add("hinted");
    sq.appendChild(h);
  }
  const depths = lines.map((l) => l.depth);
  const sel = Math.min(...lines.map((l) => l.selectivity));
  const kinds = new Set(lines.map((l) => l.kind));
  const what = kinds.has("book") ? "book values" : kinds.has("exact") ? "exact values" : `depth ${Math.min(...depths)}-${Math.max(...depths)} @${sel}%`;
  $("hint-info").textContent = `hints: ${lines.length}/${state.legal.length} moves, ${what}` + (hintJob !== null ? " (deepening…)" : "");
  $("hint-info").dataset.done = String(hintJob === null);
}

function renderMoves() {
  const list = $("moves");
  list.textContent = "";
  state.line.forEach((mv, i) => {
    const li = document.createElement("li");
    li.textContent = `${i + 1}.${mv}`;
    if (i === state.ply - 1) li.className = "current";
    else if (i >= state.ply) li.className = "future";
    li.addEventListener("click", () => jump(i + 1));
    list.appendChild(li);
  });
}

// The evaluation graph: Black's value (discs) for every position of the line, known ones.
function renderGraph() {
  const svg = $("graph");
  const W = 600, H = 160, CAP = 32;
  const n = state.graph.length;
  const span = Math.max(60, n - 1);
  const x = (i) => (i / span) * W;
  const y = (v) => H / 2 - (Math.max(-CAP, Math.min(CAP, v)) / CAP) * (H / 2 - 6);
  let parts = [`<line x1="0" y1="${H / 2}" x2="${W}" y2="${H / 2}" stroke="#999" stroke-width="1"/>`];
  parts.push(`<line x1="${x(state.ply)}" y1="0" x2="${x(state.ply)}" y2="${H}" stroke="#e53935" stroke-width="2"/>`);
  // The line through the known values, broken where a value is unknown.
  const segments = [];
  let segment = [];
  state.graph.forEach((v, i) => {
    if (v === null) {
      if (segment.length) segments.push(segment);
      segment = [];
    } else {
      segment.push(`${x(i).toFixed(1)},${y(v).toFixed(1)}`);
    }
  });
  if (segment.length) segments.push(segment);
  const d = segments.map((seg) => "M" + seg.join(" L")).join(" ");
  if (d) parts.push(`<path d="${d}" fill="none" stroke="#20372a" stroke-width="2"/>`);
  parts.push(`<text x="4" y="14" font-size="12" fill="#555">Black +${CAP}</text>`);
  parts.push(`<text x="4" y="${H - 4}" font-size="12" fill="#555">White +${CAP}</text>`);
  state.graph.forEach((v, i) => {
    if (v !== null) parts.push(`<circle cx="${x(i)}" cy="${y(v)}" r="2.5" fill="${v >= 0 ? "#000" : "#fff"}" stroke="#000"/>`);
  });
  svg.innerHTML = parts.join("");
  svg.dataset.known = String(state.graph.filter((v) => v !== null).length);
  svg.onclick = (event) => {
    const rect = svg.getBoundingClientRect();
    const ply = Math.round(((event.clientX - rect.left) / rect.width) * span);
    jump(Math.max(0, Math.min(state.line.length, ply)));
  };
}

function showReview(reply) {
  $("review-panel").hidden = false;
  $("review-frame").srcdoc = reply.html;
  const players = reply.json && reply.json.players;
  $("review-summary").textContent = players ? JSON.stringify(players) : "";
  $("review-panel").scrollIntoView();
}

// ---------- actions ----------

function clickSquare(name) {
  if (!state) return;
  if (isEngine(state.to_move) && !paused && !state.over) {
    $("message").textContent = "it is the engine's move";
    return;
  }
  paused = false;
  requestedFor = null;
  $("message").textContent = "";
  send({ type: "play", move: name });
}

function jump(ply) {
  paused = true;
  send({ type: "jump", ply });
}

function newGame() {
  paused = false;
  requestedFor = null;
  $("review-panel").hidden = true;
  resetClock();
  send({ type: "new" });
}

function undo() {
  paused = true;
  undoing = !(isEngine("black") && isEngine("white"));
  send({ type: "undo" });
}

function redo() {
  paused = true;
  send({ type: "redo" });
}

function engineMove() {
  paused = false;
  requestedFor = positionKey();
  if (state && state.busy === "hints") send({ type: "stop" });
  clockResume();
  send(goRequest());
}

function stop() {
  paused = true;
  send({ type: "stop" });
}

function setup(kind, text) {
  paused = true;
  requestedFor = null;
  send({ type: "setup", kind, text });
}

function guessKind(text) {
  const t = text.trim();
  if (t.includes("(;")) return "ggf";
  if (t.replace(/\s/g, "").length === 65 && /^[-.XxOo0*\s]+$/.test(t)) return "board";
  return "moves";
}

function download() {
  if (!state) return;
  const blob = new Blob([state.ggf + "\n"], { type: "text/plain" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "othello-game.ggf";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function wire() {
  $("new").onclick = newGame;
  $("pace").onchange = $("clock-minutes").onchange = $("clock-increment").onchange = () => {
    $("clock-settings").hidden = $("pace").value !== "clock";
    resetClock();
  };
  setInterval(clockTick, 100);
  $("undo").onclick = undo;
  $("redo").onclick = redo;
  $("go").onclick = engineMove;
  $("stop").onclick = stop;
  $("hints").onchange = () => {
    requestedFor = null;
    if (!$("hints").checked) {
      if (hintJob !== null) send({ type: "stop" });
      hints = {};
      renderHints();
    } else if (state) afterState();
  };
  $("black").onchange = $("white").onchange = () => { paused = false; requestedFor = null; if (state) afterState(); };
  $("analyze").onclick = () => send({ type: "analyze", depth: number("analyze-depth", 1, 30, 8) });
  $("review").onclick = () => send({
    type: "review",
    depth: number("review-depth", 1, 20, 8),
    exact: number("review-exact", 0, 24, 14),
  });
  $("close-review").onclick = () => { $("review-panel").hidden = true; };
  $("setup").onclick = () => setup($("setup-kind").value, $("setup-text").value);
  $("setup-text").oninput = () => { $("setup-kind").value = guessKind($("setup-text").value); };
  $("upload").onchange = () => {
    const file = $("upload").files[0];
    if (!file) return;
    if (file.size > 60000) { $("message").textContent = `${file.name}: too large for one game`; return; }
    file.text().then((text) => setup(guessKind(text), text));
  };
  $("copy-moves").onclick = () => {
    $("movelist").select();
    if (navigator.clipboard) navigator.clipboard.writeText($("movelist").value).catch(() => {});
  };
  $("download").onclick = download;
  document.addEventListener("keydown", (event) => {
    const tag = event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || event.ctrlKey || event.metaKey || event.altKey) return;
    const k = event.key;
    // Space and Enter on a focused button press that button, nothing else.
    if (tag === "BUTTON" && (k === " " || k === "Enter")) return;
    const now = Date.now();
    if (typed && /^[1-8]$/.test(k) && now - typedAt < 2000) {
      clickSquare(typed + k);
      typed = "";
      event.preventDefault();
      return;
    }
    typed = "";
    if (/^[a-hA-H]$/.test(k)) { typed = k.toLowerCase(); typedAt = now; return; }
    const actions = {
      ArrowLeft: undo, ArrowRight: redo,
      Home: () => jump(0), End: () => state && jump(state.line.length),
      " ": engineMove, Escape: stop, n: newGame, i: () => $("hints").click(),
      x: () => $("analyze").click(), v: () => $("review").click(),
    };
    if (actions[k]) { actions[k](); event.preventDefault(); }
  });
}

buildBoard();
wire();
connect();
