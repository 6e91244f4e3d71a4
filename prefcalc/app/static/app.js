/* prefcalc app: the shell on the phone. A new game, the games kept here, files in and out;
   a game is shown by serve's own score page and watch view (score.js, watch.js, common.js:
   the same files), given this phone's table (worker-table.js: prefcalc's engine in a Web
   Worker, every change kept in the phone's storage, storage.js, before it is shown). */
import { el } from "./dom.js";
import { mountScore } from "./score.js";
import { Store, announce, onWritten, persist } from "./storage.js";
import { mountWatch } from "./watch.js";
import { deals, lang, setWords, t } from "./words.js";
import { Engine, Refused, WorkerTable } from "./worker-table.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const MAX_IMPORT = 16 * 1024 * 1024; // bytes: the engine's own limit for a ledger
const NAME = /^[\p{L}\p{N}][\p{L}\p{N}_.-]{0,150}$/u; // as prefcalc.app.engine.NAME

/** @type {Record<string, unknown>} */
let WORDS = {}; // the page's dictionary (words/LANG.json), without the open game's names

/**
 * @typedef {object} AppState
 * @property {Engine | null} engine
 * @property {Store | null} store
 * @property {WorkerTable | null} table
 * @property {string | null} name
 * @property {"score" | "watch"} view
 * @property {{refresh: () => Promise<void>, stop: () => void} | null} mounted
 */

/** @type {AppState} */
const state = { engine: null, store: null, table: null, name: null, view: "score", mounted: null };

/** The phone's games (the store, once open). */
function store() {
  if (!state.store) throw new Refused("the phone's storage is not open", 500);
  return state.store;
}

/** The engine (once started). */
function engine() {
  if (!state.engine) throw new Refused("the engine has not started", 500);
  return state.engine;
}

/** The version of prefcalc the engine is. */
function version() {
  return state.engine && state.engine.hello ? state.engine.hello.version : "";
}

/* --- words ------------------------------------------------------------------------------- */

/** @param {string} code the language */
async function loadWords(code) {
  try {
    const r = await fetch("words/" + code + ".json");
    WORDS = r.ok ? await r.json() : {};
  } catch (e) {
    WORDS = {};
  }
  WORDS.lang = code;
  setWords(WORDS);
  document.documentElement.lang = code;
  document.querySelectorAll("[data-t]").forEach((node) => { node.textContent = t(/** @type {HTMLElement} */ (node).dataset.t || ""); });
  document.querySelectorAll("[data-t-label]").forEach((node) => {
    const e = /** @type {HTMLElement} */ (node);
    e.setAttribute("aria-label", t(e.dataset.tLabel || ""));
    e.title = t(e.dataset.tLabel || "");
  });
  // the switch offers the other language, named in that language (as a language menu does)
  const other = code === "ru" ? { code: "en", short: "EN", name: "English" } : { code: "ru", short: "RU", name: "Русский" };
  for (const id of ["lang", "game-lang"]) {
    const b = $(id);
    b.textContent = other.short;
    b.setAttribute("aria-label", other.name);
    b.setAttribute("lang", other.code);
    b.title = other.name;
  }
}

/* --- small helpers ----------------------------------------------------------------------- */

/** @param {unknown} error */
function message(error) {
  return error instanceof Refused ? error.message : String((error && /** @type {Error} */ (error).message) || error);
}

/** @param {string} iso */
function day(iso) {
  const d = new Date(iso);
  return isNaN(d.getTime()) ? String(iso || "") : d.toLocaleString(lang() === "ru" ? "ru-RU" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
}

/* --- the games on the phone --------------------------------------------------------------- */

async function renderGames() {
  const list = $("games");
  const games = await store().list();
  list.replaceChildren();
  $("no-games").hidden = games.length > 0;
  for (const g of games) {
    const li = el("li");
    const b = el("button", "", "game-row", { type: "button", "data-game": g.name });
    b.disabled = !version();
    b.append(
      el("span", (g.seating || g.players || []).join(", "), "who"),
      el("span", [t(g.convention), deals(g.deals || 0), g.finished ? t("finished") : "", day(g.created)].filter(Boolean).join(" · "), "what"),
    );
    b.addEventListener("click", () => openGame(g.name).catch((e) => say("import-said", message(e))));
    li.append(b);
    list.append(li);
  }
}

/** @param {string} id @param {string} text */
function say(id, text) {
  $(id).textContent = text;
}

function sayStorage() {
  const how = document.body.dataset.storage;
  if (how) say("storage-said", how === "persistent" ? t("games kept in this phone's persistent storage") : t("games kept in this browser's storage"));
}

/* --- a game ------------------------------------------------------------------------------- */

/** @param {string} name */
async function openGame(name) {
  const kept = await store().get(name);
  if (!kept) throw new Refused(t("the game is no longer on this phone"), 404);
  await engine().call("open", { name, ledger: kept.ledger, redo: kept.redo });
  state.table = new WorkerTable(engine(), name, store(), kept.ledger, announce);
  state.name = name;
  document.body.dataset.game = name;
  if (location.hash !== "#game=" + encodeURIComponent(name)) history.replaceState(null, "", "#game=" + encodeURIComponent(name));
  $("home").hidden = true;
  $("game").hidden = false;
  document.body.classList.add("in-game"); // the app's header gives way to the game's row
  $("game-title").textContent = (kept.seating || kept.players || []).join(", ");
  recordedWith(kept);
  await rescored(kept);
  mountView(state.view);
}

/* Locked rules: the ledger keeps the convention the game started with and is scored from it
   alone; the phone's record of the game says which prefcalc made it and which last wrote it. */
/** @param {Partial<import("./storage.js").Kept>} kept */
function recordedWith(kept) {
  const made = kept.createdWith ? t("started with prefcalc {version}", { version: kept.createdWith }) : t("imported");
  const wrote = kept.writtenWith ? t("last written with prefcalc {version}", { version: kept.writtenWith }) : "";
  const now = version() ? t("scored now by prefcalc {version}", { version: version() }) : "";
  $("recorded-with").textContent = [made, wrote, now].filter(Boolean).join(" · ");
}

/* Whether this prefcalc scores the game as the one that last wrote it did (the money it kept
   with the ledger): if not, it is said, and nothing is written over. */
/** @param {import("./storage.js").Kept} kept */
async function rescored(kept) {
  const node = $("rescored");
  node.hidden = true;
  if (!kept.balance) return;
  const now = await engine().call("summary", { name: kept.name });
  if (JSON.stringify(now.balance) === JSON.stringify(kept.balance)) return;
  node.textContent = t("prefcalc {version} scores this game otherwise than prefcalc {then} did when it was written: the ledger is as it was; export it to see it with that prefcalc", {
    version: version(),
    then: kept.writtenWith || "?",
  });
  node.hidden = false;
}

/* The score page or the watch view of the open game, serve's own, in #view. */
/** @param {"score" | "watch"} view */
function mountView(view) {
  unmountView();
  state.view = view;
  const table = state.table;
  if (!table) return;
  // the game's row offers the other view
  document.querySelectorAll("[data-view]").forEach((b) => { /** @type {HTMLElement} */ (b).hidden = /** @type {HTMLElement} */ (b).dataset.view === view; });
  const root = $("view");
  if (view === "watch") {
    const part = /** @type {DocumentFragment} */ (/** @type {HTMLTemplateElement} */ ($("watch-view")).content.cloneNode(true));
    part.querySelectorAll("[data-t]").forEach((node) => { node.textContent = t(/** @type {HTMLElement} */ (node).dataset.t || ""); });
    root.replaceChildren(part);
    state.mounted = mountWatch(table, document);
  } else {
    state.mounted = mountScore(table, root, { status: $("status"), badge: $("live") });
  }
}

function unmountView() {
  if (state.mounted) state.mounted.stop();
  state.mounted = null;
  $("view").replaceChildren();
  document.body.classList.remove("scoring", "sheet-open");
}

function goHome() {
  unmountView();
  state.table = null;
  state.name = null;
  setWords(WORDS);
  document.body.dataset.game = "";
  document.body.dataset.deals = "";
  history.replaceState(null, "", location.pathname);
  document.body.classList.remove("in-game");
  $("game").hidden = true;
  $("home").hidden = false;
  renderGames();
}

/* --- files in and out ----------------------------------------------------------------------- */

async function exportLedger() {
  if (!state.name) return;
  const name = state.name;
  const kept = await store().get(name);
  if (!kept) return;
  const file = new File([kept.ledger], name + ".json", { type: "application/json" });
  if (navigator.canShare && navigator.share && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title: name });
      return;
    } catch (error) {
      if (error instanceof Error && error.name === "AbortError") return; // the person closed the share sheet
    }
  }
  const a = document.createElement("a");
  a.href = URL.createObjectURL(file);
  a.download = name + ".json";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

/** @param {string} wanted @param {Set<string>} taken */
function freeName(wanted, taken) {
  let stem = (wanted || "").replace(/\.json$/i, "").replace(/[^\p{L}\p{N}_.-]+/gu, "-").replace(/^[^\p{L}\p{N}]+/u, "").slice(0, 120);
  if (!NAME.test(stem)) stem = "imported";
  let name = stem;
  for (let k = 2; taken.has(name); k++) name = stem + "-" + k;
  return name;
}

/** @param {HTMLInputElement} input */
async function importLedger(input) {
  const file = input.files && input.files[0];
  input.value = "";
  if (!file) return;
  try {
    if (file.size > MAX_IMPORT) throw new Refused(t("the file is too large for a ledger (at most {size} MB)", { size: MAX_IMPORT / 1024 / 1024 }));
    let text;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
    } catch (e) {
      throw new Refused(t("not a prefcalc ledger (the file is not UTF-8 text)"));
    }
    const summary = await engine().call("check", { ledger: text });
    const same = await store().same(text, summary);
    if (same && same.exact) {
      say("import-said", t("already on this phone: {game}", { game: (same.game.seating || same.game.players).join(", ") }));
      return;
    }
    const taken = new Set((await store().list()).map((g) => g.name));
    const name = freeName(file.name, taken);
    await store().add(name, { ledger: text, redo: null }, summary, version(), "imported");
    say("import-said", same
      ? t("another version of a game on this phone: kept beside it as {name}", { name })
      : t("imported as {name}", { name }));
    await renderGames();
  } catch (error) {
    say("import-said", message(error));
  }
}

/* --- start ---------------------------------------------------------------------------------- */

/** @param {HTMLFormElement} form */
async function newGame(form) {
  const data = new FormData(form);
  const players = String(data.get("players") || "").trim().split(/\s+/).filter(Boolean);
  const target = String(data.get("target") || "").trim();
  const start = /** @type {HTMLButtonElement} */ (form.querySelector("[data-testid=start]"));
  start.disabled = true;
  try {
    const taken = (await store().list()).map((g) => g.name);
    const made = await engine().call("new", {
      players,
      convention: String(data.get("convention")),
      target: target ? Number(target) : null,
      price: String(data.get("price") || "1").trim() || "1",
      currency: String(data.get("currency") || "").trim(),
      taken,
    });
    await store().add(made.name, made.files, made.game, version(), "new");
    form.reset();
    say("import-said", "");
    await openGame(made.name);
  } catch (error) {
    say("import-said", message(error));
  } finally {
    start.disabled = false;
  }
}

/* The progress bar of the start: the service worker's download (most of a first visit), then
   the engine's steps as the worker reports them; hidden once the engine is ready. */
/** @type {Record<string, number>} */
const STEPS = { python: 85, engine: 95 };

/** @param {number} value how far, out of 100 */
function progress(value) {
  const bar = /** @type {HTMLProgressElement} */ ($("load-progress"));
  bar.value = Math.max(bar.value, Math.min(100, value));
  bar.hidden = value >= 100;
}

function followProgress() {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("message", (event) => {
      const m = event.data || {};
      if (m.type === "progress" && m.total > 0) progress(80 * m.done / m.total);
    });
  }
}

/** @param {Engine} started the engine's worker, as it starts */
function followEngine(started) {
  started.worker.addEventListener("message", (event) => {
    const m = event.data || {};
    if (m.type === "progress" && STEPS[m.step]) progress(STEPS[m.step]);
  });
}

async function controlled() {
  /* On the first visit the service worker fetches the app; the engine starts once it serves
     the files, so the first install fetches each file once. Without a service worker (a page
     that is not on https or this computer) the engine loads from the network. */
  if (!("serviceWorker" in navigator)) return "none";
  let registration;
  try {
    registration = await navigator.serviceWorker.register("sw.js");
  } catch (e) {
    return "refused";
  }
  if (navigator.serviceWorker.controller) return "active";
  await new Promise((/** @type {(value?: unknown) => void} */ resolve) => {
    navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
    const worker = registration.installing || registration.waiting;
    if (worker) worker.addEventListener("statechange", () => { if (worker.state === "redundant") resolve(); });
  });
  return navigator.serviceWorker.controller ? "active" : "failed";
}

async function startEngine() {
  const badge = $("engine");
  try {
    if (!state.engine) {
      progress(80); // the files are here (kept, or just downloaded)
      state.engine = new Engine("worker.js");
      followEngine(state.engine);
    }
    const started = state.engine;
    const hello = await started.ready;
    await started.call("lang", { lang: lang() });
    badge.dataset.t = "ready";
    badge.textContent = t("ready");
    badge.classList.remove("off");
    $("about").textContent = "prefcalc " + hello.version;
    const took = started.timings || {};
    document.body.dataset.loadMs = String(took.ms || "");
    document.body.dataset.pythonMs = String(took.python || "");
    document.body.dataset.engineMs = String(took.engine || "");
    document.body.dataset.engine = "ready";
    progress(100);
    /** @type {HTMLButtonElement} */ ($("new-form").querySelector("[data-testid=start]")).disabled = false;
    /** @type {HTMLInputElement} */ ($("import")).disabled = false;
    await renderGames();
    const wanted = new URLSearchParams(location.hash.replace(/^#/, "")).get("game");
    if (wanted) await openGame(wanted).catch((e) => { goHome(); say("import-said", message(e)); });
  } catch (error) {
    document.body.dataset.engine = "failed";
    badge.textContent = t("the engine did not start: {error}", { error: message(error) });
  }
}

async function main() {
  // served by the service worker already (not the first visit): the engine starts loading
  // at once, while the page reads its words and the games
  followProgress();
  if ("serviceWorker" in navigator && navigator.serviceWorker.controller) {
    progress(80);
    state.engine = new Engine("worker.js");
    followEngine(state.engine);
  }
  const saved = localStorage.getItem("prefcalc-lang");
  await loadWords(saved || ((navigator.language || "").toLowerCase().startsWith("ru") ? "ru" : "en"));
  state.store = await Store.open();
  state.store.t = t;
  await renderGames();
  persist().then((how) => {
    document.body.dataset.storage = how;
    sayStorage();
  });

  $("new-form").addEventListener("submit", (e) => { e.preventDefault(); newGame(/** @type {HTMLFormElement} */ (e.target)); });
  $("import").addEventListener("change", (e) => importLedger(/** @type {HTMLInputElement} */ (e.target)));
  $("back").addEventListener("click", goHome);
  $("export").addEventListener("click", () => exportLedger().catch((e) => say("export-said", message(e))));
  document.querySelectorAll("[data-view]").forEach((node) => node.addEventListener("click", () => {
    const view = /** @type {HTMLElement} */ (node).dataset.view === "watch" ? "watch" : "score";
    if (state.table && view !== state.view) mountView(view);
  }));
  const switchLang = async () => {
    const next = lang() === "ru" ? "en" : "ru";
    localStorage.setItem("prefcalc-lang", next);
    await loadWords(next);
    sayStorage();
    if (state.engine && state.engine.hello) {
      await state.engine.call("lang", { lang: next });
      $("engine").textContent = t("ready");
    }
    await renderGames();
    if (state.table) {
      // the pages are built in their language (the shorthand's letters; the names' cases
      // come with each reading): built again
      recordedWith((state.name && (await store().get(state.name))) || {});
      mountView(state.view);
    }
  };
  // the header's switch on the home view; a game's, in its card (the header gives way to the game's row)
  $("lang").addEventListener("click", switchLang);
  $("game-lang").addEventListener("click", switchLang);

  onWritten((name) => {
    // another window of the app wrote a game: the list, and the open game if it is that one
    if (state.table && state.table.name === name) state.table.reload().catch((e) => say("export-said", message(e)));
    else if (!state.table) renderGames();
  });

  document.body.dataset.sw = await controlled();
  await startEngine();
}

main();
