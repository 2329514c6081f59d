// The engine of the static page, in a Web Worker (see static.js): runs each job it is sent
// on the WebAssembly engine (`Runner`: one thread, the embedded weights and book), posting
// its search lines as they come and then its outcome.

import init, { Runner } from "./pkg/othello_web.js";

let runner = null;
const queue = [];

function run(message) {
  const emit = (line) => postMessage({ id: message.id, line });
  const outcome = runner.run(message.job, { emit });
  postMessage({ id: message.id, outcome });
}

// The handler is set at once: a job posted while the module loads waits in the queue.
onmessage = async (event) => {
  const message = event.data;
  if (message.module) {
    await init({ module_or_path: message.module });
    runner = new Runner();
    while (queue.length) run(queue.shift());
  } else if (runner) {
    run(message);
  } else {
    queue.push(message);
  }
};
