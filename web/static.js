// The board page without a server (docs/BOARD.md, "The static page"): the session of
// `othello serve` and the engine, compiled to WebAssembly (crates/web), in this browser.
//
// The session (`Page`) runs here, in the page; the engine (`Runner`) runs in a Web Worker,
// one job at a time. A search holds the worker's only thread, so a job is stopped by
// terminating the worker and starting another from the compiled module; the session then
// ends the job as a stop would (the engine's best move so far, the hints found so far).
// Requests and replies are the WebSocket protocol's own JSON (docs/SERVE.md).

import init, { Page } from "./pkg/othello_web.js";

const WASM = new URL("./pkg/othello_web_bg.wasm", import.meta.url);

async function compile() {
  try {
    return await WebAssembly.compileStreaming(fetch(WASM));
  } catch (e) {
    // A host that does not serve .wasm as application/wasm.
    const response = await fetch(WASM);
    if (!response.ok) throw new Error(`${WASM}: HTTP ${response.status}`);
    return await WebAssembly.compile(await response.arrayBuffer());
  }
}

// Starts the engine: `receive` gets every reply (as `ws.onmessage` would). Returns the
// transport: `send(text)` takes a request's JSON text (the page asks for the state first,
// as the server sends it to a new connection).
export async function start(receive) {
  const module = await compile();
  await init({ module_or_path: module });
  const page = new Page();
  let worker = null;
  let running = null;   // the job the worker runs

  function spawn() {
    worker = new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" });
    worker.onmessage = (event) => {
      const m = event.data;
      if (m.id !== running) return;   // from a job already cut off
      if (m.line !== undefined) {
        if (page.line(m.id, m.line)) receive(JSON.parse(m.line));
      } else if (m.outcome !== undefined) {
        running = null;
        act(page.finish(m.id, m.outcome));
      }
    };
    worker.onerror = (event) => {
      // The worker failed (out of memory, a bug): end its job as a cut-off one.
      event.preventDefault();
      const id = running;
      respawn();
      if (id !== null) act(page.stopped(id));
    };
    worker.postMessage({ module });
  }

  function respawn() {
    worker.terminate();
    running = null;
    spawn();
  }

  function act(text) {
    for (const action of JSON.parse(text)) {
      if (action.reply) {
        receive(action.reply);
      } else if (action.start) {
        running = action.start.id;
        worker.postMessage({ id: running, job: JSON.stringify(action.start) });
      } else if ("stop" in action) {
        const id = action.stop;
        if (id === null || id !== running) continue;
        respawn();
        act(page.stopped(id));
      }
    }
  }

  spawn();
  return { send: (text) => act(page.handle(text)) };
}
