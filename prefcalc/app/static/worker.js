/* prefcalc app: the engine in a Web Worker. It loads the browser's Python (Pyodide, from this
   app's own folder), installs the wheels of the build (Pyodide checks each one's sha256 from
   pyodide/pyodide-lock.json) and prefcalc's engine, then answers the page's requests one at a
   time, in the order they came:
     page -> worker  {id, op, args}
     worker -> page  {id, ok: true, result, ms} | {id, ok: false, error: "<one line>"}
   and once, when it is ready: {type: "ready", hello, ms} (or {type: "failed", error}).
   The operations are prefcalc.app.engine's (docs/engine-protocol.md). */
import { loadPyodide } from "./pyodide/pyodide.mjs";

const base = new URL("./pyodide/", self.location.href).href;
let handle = null;
const waiting = [];

function answer(id, text) {
  let data;
  try { data = JSON.parse(text); } catch (e) { data = { ok: false, error: String(e) }; }
  self.postMessage({ id, ...data });
}

function serve(message) {
  const { id, op, args } = message || {};
  if (!handle) { waiting.push(message); return; }
  try {
    answer(id, handle(JSON.stringify({ op, args: args || {} })));
  } catch (error) {
    self.postMessage({ id, ok: false, error: String(error && error.message || error).split("\n").pop() });
  }
}

self.addEventListener("message", (event) => serve(event.data));

(async () => {
  const started = performance.now();
  try {
    const pyodide = await loadPyodide({
      indexURL: base,
      lockFileURL: base + "pyodide-lock.json",
      packageBaseUrl: base,
      packages: ["prefcalc"],
      env: { HOME: "/home/pyodide", PREFCALC_LANG: "en" },
      stdout: () => {},
      stderr: (line) => console.warn(line),
    });
    const loaded = performance.now();
    const engine = pyodide.pyimport("prefcalc.app.engine");
    handle = (text) => engine.handle(text);
    const hello = JSON.parse(handle(JSON.stringify({ op: "hello", args: {} })));
    const now = performance.now();
    self.postMessage({
      type: "ready",
      hello: hello.result,
      ms: Math.round(now - started),
      python: Math.round(loaded - started), // Pyodide and the wheels
      engine: Math.round(now - loaded), // importing prefcalc's engine
    });
    while (waiting.length) serve(waiting.shift());
  } catch (error) {
    self.postMessage({ type: "failed", error: String(error && error.message || error).split("\n").slice(-2).join(" ") });
  }
})();
