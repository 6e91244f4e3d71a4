// The browser's Python under Node, for `prefcalc app build`. Three steps:
//
//   node pyodide-run.mjs compile PYODIDE_DIR IN_DIR OUT_DIR PYC_SCRIPT
//     precompile the wheels of IN_DIR in the interpreter that will run them, into OUT_DIR;
//   node pyodide-run.mjs night APP_PYODIDE_DIR CHECK_SCRIPT PYC_SCRIPT LATER_JSON
//     with Pyodide's whole standard library, install the packages from the lock the phone
//     reads, as a phone's worker does (those of the start, then LATER_JSON's), run the
//     engine's night (CHECK_SCRIPT), then write APP_PYODIDE_DIR/python_stdlib.cut.zip: the
//     standard library cut to the modules imported by then (the package loader's included),
//     precompiled;
//   node pyodide-run.mjs check APP_PYODIDE_DIR CHECK_SCRIPT LATER_JSON
//     start again from the built folder alone (the cut standard library): the engine imported
//     and greeted with only the packages of the start installed, then the night again, so
//     that a module the bundle lacks fails the build, never the phone.
//
// A package the loader could not install fails the step (Pyodide's loadPackage reports it
// and resolves all the same). The last line printed is one JSON object: the step's answer,
// or {"error": "..."}.
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

async function install(py, names) {
  const failures = [];
  await py.loadPackage(names, { messageCallback: () => {}, errorCallback: (e) => failures.push(String(e)) });
  const missing = names.filter((name) => !(name in py.loadedPackages));
  if (failures.length || missing.length) {
    const said = failures.join("\n").split("\n").filter((line) => line.trim());
    throw new Error(said.find((line) => /Error:/.test(line)) || said[0] || "not installed: " + missing.join(", "));
  }
}

function appStart(appDir) {
  return start(appDir, { lockFileContents: fs.readFileSync(path.join(appDir, "pyodide-lock.json"), "utf8") });
}

async function compile([pyodideDir, inDir, outDir, pycScript]) {
  const info = JSON.parse(fs.readFileSync(path.join(pyodideDir, "pyodide-lock.json"), "utf8")).info;
  const py = await start(pyodideDir, { lockFileContents: JSON.stringify({ info, packages: {} }) });
  for (const [dir, where] of [[inDir, "/in"], [outDir, "/out"]]) {
    py.FS.mkdirTree(where);
    py.FS.mount(py.FS.filesystems.NODEFS, { root: path.resolve(dir) }, where);
  }
  return { compiled: module(py, "prefcalc_build_pyc", pycScript).main("/in", "/out").toJs() };
}

const IMPORTED = `
import sys
_zip = "/lib/python%d%d.zip/" % sys.version_info[:2]
sorted({f[len(_zip):] for f in (getattr(m, "__file__", None) for m in list(sys.modules.values()))
        if isinstance(f, str) and f.startswith(_zip)})
`;

async function night([appDir, checkScript, pycScript, laterJson]) {
  const py = await appStart(appDir);
  await install(py, ["prefcalc"]);
  await install(py, JSON.parse(laterJson));
  const result = JSON.parse(module(py, "prefcalc_build_check", checkScript).main());
  const wanted = py.runPython(IMPORTED).toJs(); // before the cutting imports anything
  py.FS.mkdirTree("/app");
  py.FS.mount(py.FS.filesystems.NODEFS, { root: path.resolve(appDir) }, "/app");
  const pyc = module(py, "prefcalc_build_pyc", pycScript);
  const zip = py.runPython("import sys; '/lib/python%d%d.zip' % sys.version_info[:2]");
  const stdlib = pyc.stdlib(zip, wanted, "/app/python_stdlib.cut.zip").toJs();
  return { check: result, stdlib };
}

async function check([appDir, checkScript, laterJson]) {
  const later = JSON.parse(laterJson);
  const began = performance.now();
  const py = await appStart(appDir);
  await install(py, ["prefcalc"]);
  const loaded = performance.now();
  const engine = py.pyimport("prefcalc.app.engine");
  const hello = JSON.parse(engine.handle(JSON.stringify({ op: "hello", args: {} })));
  const ready = performance.now();
  // what the start imported of the installed packages: none of the later ones
  const early = py.runPython(
    "import sys; sorted({m.split('.')[0] for m, v in sys.modules.items() if '/site-packages/' in str(getattr(v, '__file__', ''))})",
  ).toJs();
  if (later.length) await install(py, later);
  const result = JSON.parse(module(py, "prefcalc_build_check", checkScript).main());
  return {
    hello: hello.result,
    early,
    check: result,
    ms: { start: Math.round(ready - began), python: Math.round(loaded - began), engine: Math.round(ready - loaded) },
  };
}

const STEPS = { compile, night, check };

try {
  if (!STEPS[step]) throw new Error("compile, night or check");
  answer(await STEPS[step](args));
} catch (error) {
  // a Python exception's message is its whole traceback: its last line says what it was
  const text = String(error && error.message ? error.message : error).trim();
  answer({ error: text.split("\n").filter((line) => line.trim()).pop() || text });
  process.exitCode = 1;
}
