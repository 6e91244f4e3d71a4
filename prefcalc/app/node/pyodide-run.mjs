// The browser's Python under Node, for `prefcalc app build`. Two steps:
//
//   node pyodide-run.mjs make PYODIDE_DIR IN_DIR OUT_DIR PYC_SCRIPT CHECK_SCRIPT
//     precompile the wheels of IN_DIR in the interpreter that will run them (into OUT_DIR),
//     install them, run the engine's night (CHECK_SCRIPT), then write OUT_DIR/python_stdlib.zip:
//     Pyodide's standard library cut to the modules imported by then, precompiled;
//   node pyodide-run.mjs check APP_PYODIDE_DIR CHECK_SCRIPT LATER_JSON
//     start as the app's worker does, from the built folder alone (the cut standard library,
//     the lock the phone reads): the engine imported and greeted with only the packages of the
//     start installed (LATER_JSON names those installed after it), then the night again, so
//     that a module the bundle lacks fails the build, never the phone.
//
// The last line printed is one JSON object: the step's answer, or {"error": "..."}.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [step, ...args] = process.argv.slice(2);

function answer(value) {
  process.stdout.write(JSON.stringify(value) + "\n");
}

async function start(dir, options) {
  const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
  return loadPyodide({
    indexURL: path.resolve(dir) + "/",
    packageBaseUrl: path.resolve(dir) + "/",
    // bytecode without column tables: smaller, and a traceback still names the line
    env: { HOME: "/home/pyodide", PREFCALC_LANG: "en", PYTHONNODEBUGRANGES: "1" },
    stdout: (line) => process.stderr.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
    ...options,
  });
}

function module(py, name, file) {
  const mod = py.pyimport("types").ModuleType(name);
  py.runPython(fs.readFileSync(file, "utf8"), { globals: mod.__dict__ });
  return mod;
}

async function make([pyodideDir, inDir, outDir, pycScript, checkScript]) {
  const info = JSON.parse(fs.readFileSync(path.join(pyodideDir, "pyodide-lock.json"), "utf8")).info;
  const py = await start(pyodideDir, { lockFileContents: JSON.stringify({ info, packages: {} }) });
  for (const [dir, where] of [[inDir, "/in"], [outDir, "/out"]]) {
    py.FS.mkdirTree(where);
    py.FS.mount(py.FS.filesystems.NODEFS, { root: path.resolve(dir) }, where);
  }
  const pyc = module(py, "prefcalc_build_pyc", pycScript);
  const compiled = pyc.main("/in", "/out").toJs();
  for (const name of compiled) {
    py.unpackArchive(new Uint8Array(fs.readFileSync(path.join(outDir, name))), "wheel");
  }
  const check = module(py, "prefcalc_build_check", checkScript);
  const result = JSON.parse(check.main());
  const wanted = pyc.imported_stdlib(); // before anything else is imported
  const stdlib = pyc.stdlib("/lib/python" + py.runPython("import sys; f'{sys.version_info[0]}{sys.version_info[1]}'") + ".zip", wanted, "/out/python_stdlib.zip").toJs();
  return { compiled, check: result, stdlib };
}

async function check([appDir, checkScript, laterJson]) {
  const later = JSON.parse(laterJson);
  const began = performance.now();
  const py = await start(appDir, {
    lockFileContents: fs.readFileSync(path.join(appDir, "pyodide-lock.json"), "utf8"),
    packages: ["prefcalc"],
  });
  const loaded = performance.now();
  const engine = py.pyimport("prefcalc.app.engine");
  const hello = JSON.parse(engine.handle(JSON.stringify({ op: "hello", args: {} })));
  const ready = performance.now();
  // what the start imported of the installed packages: none of the later ones
  const early = py.runPython(
    "import sys; sorted({m.split('.')[0] for m, v in sys.modules.items() if '/site-packages/' in str(getattr(v, '__file__', ''))})",
  ).toJs();
  if (later.length) await py.loadPackage(later, { messageCallback: () => {} });
  const result = JSON.parse(module(py, "prefcalc_build_check", checkScript).main());
  return {
    hello: hello.result,
    early,
    check: result,
    ms: { start: Math.round(ready - began), python: Math.round(loaded - began), engine: Math.round(ready - loaded) },
  };
}

try {
  answer(await (step === "make" ? make(args) : step === "check" ? check(args) : Promise.reject(new Error("make or check"))));
} catch (error) {
  // a Python exception's message is its whole traceback: its last line says what it was
  const text = String(error && error.message ? error.message : error).trim();
  answer({ error: text.split("\n").filter((line) => line.trim()).pop() || text });
  process.exitCode = 1;
}
