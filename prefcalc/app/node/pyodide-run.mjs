// The browser's Python under Node, for `prefcalc app build`: precompile the wheels in the
// interpreter that will run them, then install them and check that the engine imports and
// answers. Usage:
//   node pyodide-run.mjs PYODIDE_DIR IN_DIR OUT_DIR PYC_SCRIPT CHECK_SCRIPT
// IN_DIR holds the wheels as fetched (and prefcalc's own); OUT_DIR receives them precompiled.
// The last line printed is one JSON object: {"compiled": [...], "check": {...}} or {"error": "..."}.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, inDir, outDir, pycScript, checkScript] = process.argv.slice(2);

function answer(value) {
  process.stdout.write(JSON.stringify(value) + "\n");
}

try {
  const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
  const info = JSON.parse(fs.readFileSync(path.join(pyodideDir, "pyodide-lock.json"), "utf8")).info;
  const py = await loadPyodide({
    indexURL: path.resolve(pyodideDir) + "/",
    lockFileContents: JSON.stringify({ info, packages: {} }),
    packageBaseUrl: path.resolve(pyodideDir) + "/",
    stdout: (line) => process.stderr.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
  });
  for (const [dir, where] of [[inDir, "/in"], [outDir, "/out"]]) {
    py.FS.mkdirTree(where);
    py.FS.mount(py.FS.filesystems.NODEFS, { root: path.resolve(dir) }, where);
  }
  const pyc = py.pyimport("types").ModuleType("prefcalc_build_pyc");
  py.runPython(fs.readFileSync(pycScript, "utf8"), { globals: pyc.__dict__ });
  const compiled = pyc.main("/in", "/out").toJs();
  for (const name of compiled) {
    py.unpackArchive(new Uint8Array(fs.readFileSync(path.join(outDir, name))), "wheel");
  }
  const check = py.pyimport("types").ModuleType("prefcalc_build_check");
  py.runPython(fs.readFileSync(checkScript, "utf8"), { globals: check.__dict__ });
  const result = JSON.parse(check.main());
  answer({ compiled, check: result });
} catch (error) {
  // a Python exception's message is its whole traceback: its last line says what it was
  const text = String(error && error.message ? error.message : error).trim();
  answer({ error: text.split("\n").filter((line) => line.trim()).pop() || text });
  process.exitCode = 1;
}
