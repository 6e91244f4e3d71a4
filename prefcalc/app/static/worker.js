/* prefcalc app: the engine in a Web Worker. It loads the browser's Python (Pyodide, from this
   app's own folder), installs the wheels of the start (Pyodide checks each one's sha256 from
   pyodide/pyodide-lock.json) and prefcalc's engine, then answers the page's requests one at a
   time, in the order they came:
     page -> worker  {id, op, args}
     worker -> page  {id, ok: true, result, ms} | {id, ok: false, error: "<one line>"}
   and while it starts: {type: "progress", step} (step: "python", then "engine"), then
   once, when it is ready: {type: "ready", hello, ms} (or {type: "failed", error}).
   The packages of a validation (LATER: pydantic and what it needs, written in by
   `prefcalc app build`) are installed once the engine is ready, behind it: every operation
   but hello and lang waits for them, so none ever finds them missing.
   The operations are prefcalc.app.engine's (docs/engine-protocol.md). */
import { loadPyodide } from "./pyodide/pyodide.mjs";

const LATER = __LATER__;
const WITHOUT_LATER = new Set(["hello", "lang"]); // operations that never validate anything

const base = new URL("./pyodide/", self.location.href).href;
let handle = null;
let laterFailed = (reason) => reason;
let later = null; // the promise of the later packages, once the engine is ready
let queue = Promise.resolve(); // the requests, one at a time, in order
const waiting = [];

function answer(id, text) {
  let data;
  try { data = JSON.parse(text); } catch (e) { data = { ok: false, error: String(e) }; }
  self.postMessage({ id, ...data });
}

function lastLine(error) {
  return String(error && error.message || error).trim().split("\n").pop();
}

async function one(message) {
  const { id, op, args } = message || {};
  try {
    if (!WITHOUT_LATER.has(op)) {
      try {
        await later;
      } catch (error) {
        // a phone offline before it ever had them: said in the page's language
        self.postMessage({ id, ok: false, error: laterFailed(lastLine(error)) });
        return;
      }
    }
    answer(id, handle(JSON.stringify({ op, args: args || {} })));
  } catch (error) {
    self.postMessage({ id, ok: false, error: lastLine(error) });
  }
}

function serve(message) {
  if (!handle) { waiting.push(message); return; }
  queue = queue.then(() => one(message));
}

self.addEventListener("message", (event) => serve(event.data));

/* The later packages installed, or an error saying why not (Pyodide's loadPackage reports a
   package it could not fetch to errorCallback and resolves all the same). */
async function installLater(pyodide) {
  if (!LATER.length) return;
  const failures = [];
  const failed = (e) => { failures.push(String(e)); console.warn(String(e)); };
  await pyodide.loadPackage(LATER, { messageCallback: () => {}, errorCallback: failed });
  const missing = LATER.filter((name) => !(name in pyodide.loadedPackages));
  if (failures.length || missing.length) {
    throw new Error((failures[0] || missing.join(", ")).split("\n")[0].slice(0, 160));
  }
}

(async () => {
  const started = performance.now();
  const step = (name) => self.postMessage({ type: "progress", step: name });
  try {
    step("python");
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
    // the loader says what it could not install in the console and resolves all the same
    if (!("prefcalc" in pyodide.loadedPackages)) throw new Error("prefcalc's engine was not installed");
    step("engine");
    const engine = pyodide.pyimport("prefcalc.app.engine");
    handle = (text) => engine.handle(text);
    const app = pyodide.pyimport("prefcalc.app");
    laterFailed = (reason) => app.later_failed(reason);
    const hello = JSON.parse(handle(JSON.stringify({ op: "hello", args: {} })));
    const now = performance.now();
    // the validation's packages, behind the engine: no request that needs them runs before
    later = installLater(pyodide);
    later.catch(() => {}); // a request that waits for them says why they failed
    self.postMessage({
      type: "ready",
      hello: hello.result,
      ms: Math.round(now - started),
      python: Math.round(loaded - started), // Pyodide and the wheels of the start
      engine: Math.round(now - loaded), // importing prefcalc's engine
    });
    while (waiting.length) serve(waiting.shift());
  } catch (error) {
    self.postMessage({ type: "failed", error: String(error && error.message || error).split("\n").slice(-2).join(" ") });
  }
})();
