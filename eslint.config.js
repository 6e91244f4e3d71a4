// ESLint (flat config) for the pages' JavaScript and its tests: `npx eslint .`
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "tests/artifacts/", "**/.appbuild/", "build/", "dist/"] },
  js.configs.recommended,
  {
    rules: {
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
      "no-implicit-globals": "error",
      "no-shadow": "error",
      "no-throw-literal": "error",
    },
  },
  {
    files: ["prefcalc/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    // the service worker: a classic script whose two constants the build writes in
    files: ["prefcalc/app/static/sw.js"],
    languageOptions: {
      sourceType: "script",
      globals: { ...globals.serviceworker, __BUILD__: "readonly", __FILES__: "readonly" },
    },
    rules: { "no-implicit-globals": "off" }, // a service worker's scope is its own
  },
  {
    files: ["prefcalc/app/static/worker.js"],
    // __LATER__: the packages installed after the engine's start, filled in by the build
    languageOptions: { globals: { ...globals.worker, __LATER__: "readonly" } },
  },
  {
    files: ["prefcalc/app/node/*.mjs", "tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
