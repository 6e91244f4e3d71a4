/* What the unit tests of the pages share: a small DOM (linkedom) as the browser's globals,
   the pages' modules by path, and the dictionaries a page is given (a part of serve's). */
import { mkdtempSync, copyFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseHTML } from "linkedom";

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(HERE, "..", "..");
export const WEB = join(ROOT, "prefcalc", "web", "static");
export const APP = join(ROOT, "prefcalc", "app", "static");

/** A fresh document, made the global one (and its window's classes). */
export function dom(html = "<!doctype html><html><body></body></html>") {
  const { window, document } = parseHTML(html);
  globalThis.window = window;
  globalThis.document = document;
  globalThis.Node = window.Node;
  globalThis.Element = window.Element;
  globalThis.HTMLElement = window.HTMLElement;
  return document;
}
dom();

/** A module of serve's pages. @param {string} name */
export function web(name) {
  return import(pathToFileURL(join(WEB, name)).href);
}

/** The app's folder as its build lays it out (serve's scripts beside the app's), in a
    temporary folder: the app's scripts import serve's by "./engine.js". */
export function appFolder() {
  // the app's windows on one phone hear each other's writes on a BroadcastChannel, which
  // would keep Node running after the tests: none here
  Object.defineProperty(globalThis, "BroadcastChannel", { value: undefined, configurable: true });
  const into = mkdtempSync(join(tmpdir(), "prefcalc-app-"));
  for (const dir of [WEB, APP]) {
    for (const name of readdirSync(dir)) if (name.endsWith(".js")) copyFileSync(join(dir, name), join(into, name));
  }
  return (/** @type {string} */ name) => import(pathToFileURL(join(into, name)).href);
}

/** The Russian page's words the tests use (as prefcalc.web.words.script_words("ru") gives them). */
export const RU = {
  lang: "ru",
  "to {target}": "до {target}",
  "{n} deals": ["{n} раздача", "{n} раздачи", "{n} раздач"],
  "{player} deals next": "сдаёт {player}",
  "{players} sit out": "{players} не играют",
  and: "и",
  finished: "игра окончена",
  "lowest contract {level}": "игры от {level}",
  "all-pass ×{n}": "распасы ×{n}",
  Sochi: "Сочи",
  "whists on {player}": "висты на {player:acc}",
  "into pool": "в пулю",
  "into mountain": "в гору",
  "into whists": "в висты",
  "nothing written": "ничего не записано",
  "№{number} ({dealer} dealt): ": "№{number} (сдавал {dealer}): ",
  signs: { s: "♠", c: "♣", d: "♦", h: "♥", nt: "БК" },
  table: {
    suits: { s: "п", c: "т", d: "б", h: "ч", nt: "бк" },
    roles: { w: "в", p: "п", h: "пв", r: "r" },
    kinds: { game: "игра", misere: "мизер", passes: "распасы" },
    commands: { edit: "исправить", insert: "вставить", delete: "удалить", undo: "отмена", redo: "вернуть", settle: "расчёт" },
    methods: { pairwise: "попарно", average: "средняя" },
  },
  cases: { "Аня": { acc: "Аню", gen: "Ани", dat: "Ане" } },
};

/** The English page's words: play's own (the codes), the signs. */
export const EN = {
  lang: "en",
  signs: { s: "♠", c: "♣", d: "♦", h: "♥", nt: "NT" },
};
