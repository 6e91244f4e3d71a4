/* prefcalc app: the shell on the phone. A new game, the games kept here, files in and out,
   and the watch view of a game with the line field; every answer comes from prefcalc's own
   engine in the worker (engine.js), every change is kept in the phone's storage
   (storage.js) before it is shown. The score page of issue 25 plugs into #score-slot. */
import { Engine, Refused, WorkerTable } from "./engine.js";
import { Store, announce, onWritten, persist } from "./storage.js";

const $ = (id) => document.getElementById(id);
const MAX_IMPORT = 16 * 1024 * 1024; // bytes: the engine's own limit for a ledger
const NAME = /^[\p{L}\p{N}][\p{L}\p{N}_.-]{0,150}$/u; // as prefcalc.app.engine.NAME

let WORDS = {};
let LANG = "en";
const state = { engine: null, store: null, table: null, name: null, method: "pairwise", unsubscribe: null };

/* --- words ------------------------------------------------------------------------------- */

let CASES = {}; // the open game's names in the Russian cases, from the engine

function t(text, values) {
  let out = typeof WORDS[text] === "string" ? WORDS[text] : text;
  // a name's Russian case ({player:acc}) as common.js of serve says it; else as typed
  for (const [k, v] of Object.entries(values || {})) {
    out = out.replace(new RegExp("\\{" + k + "(?::(nom|gen|dat|acc|ins|pre))?\\}", "g"), (m, c) => {
      const forms = c && CASES[String(v)];
      return forms && typeof forms[c] === "string" ? forms[c] : String(v);
    });
  }
  return out;
}

function plural(key, n) {
  const forms = WORDS[key];
  let form = n === 1 ? key.replace(/s$/, "") : key;
  if (Array.isArray(forms)) {
    const k = LANG !== "ru" ? (n === 1 ? 0 : 1)
      : n % 10 === 1 && n % 100 !== 11 ? 0
      : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 10 || n % 100 >= 20) ? 1 : 2;
    form = forms[Math.min(k, forms.length - 1)];
  }
  return form.split("{n}").join(String(n));
}

async function loadWords(lang) {
  try {
    const r = await fetch("words/" + lang + ".json");
    WORDS = r.ok ? await r.json() : {};
  } catch (e) {
    WORDS = {};
  }
  LANG = lang;
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
  $("lang").textContent = lang === "ru" ? "EN" : "RU";
}

/* --- small helpers ----------------------------------------------------------------------- */

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function number(v) {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 100) / 100);
}

function signed(v) {
  return (v > 0 ? "+" : "") + number(v);
}

function message(error) {
  return error instanceof Refused ? error.message : String(error && error.message || error);
}

function showError(text) {
  const box = $("error");
  box.textContent = text;
  box.hidden = !text;
}

function day(iso) {
  const d = new Date(iso);
  return isNaN(d) ? String(iso || "") : d.toLocaleString(LANG === "ru" ? "ru-RU" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
}

/* --- the games on the phone --------------------------------------------------------------- */

async function renderGames() {
  const list = $("games");
  const games = await state.store.list();
  list.replaceChildren();
  $("no-games").hidden = games.length > 0;
  for (const g of games) {
    const li = el("li");
    const b = el("button", "", "game-row");
    b.type = "button";
    b.dataset.game = g.name;
    b.disabled = !state.engine || !state.engine.hello;
    b.append(
      el("span", (g.seating || g.players || []).join(", "), "who"),
      el("span", [t(g.convention), plural("{n} deals", g.deals || 0), g.finished ? t("finished") : "", day(g.created)].filter(Boolean).join(" · "), "what"),
    );
    b.addEventListener("click", () => openGame(g.name).catch((e) => say("import-said", message(e))));
    li.append(b);
    list.append(li);
  }
}

function say(id, text) {
  $(id).textContent = text;
}

function sayStorage() {
  const how = document.body.dataset.storage;
  if (how) say("storage-said", how === "persistent" ? t("games kept in this phone's persistent storage") : t("games kept in this browser's storage"));
}

/* --- a game ------------------------------------------------------------------------------- */

async function openGame(name) {
  const kept = await state.store.get(name);
  if (!kept) throw new Refused(t("the game is no longer on this phone"));
  await state.engine.call("open", { name, ledger: kept.ledger, redo: kept.redo });
  if (state.unsubscribe) state.unsubscribe();
  state.table = new WorkerTable(state.engine, name, state.store, kept.ledger, announce);
  state.name = name;
  state.unsubscribe = state.table.subscribe(() => refresh());
  document.body.dataset.game = name;
  if (location.hash !== "#game=" + encodeURIComponent(name)) history.replaceState(null, "", "#game=" + encodeURIComponent(name));
  $("home").hidden = true;
  $("game").hidden = false;
  $("game-title").textContent = (kept.seating || kept.players || []).join(", ");
  const made = kept.createdWith ? t("started with prefcalc {version}", { version: kept.createdWith }) : t("imported");
  const wrote = kept.writtenWith ? t("last written with prefcalc {version}", { version: kept.writtenWith }) : "";
  $("recorded-with").textContent = [made, wrote].filter(Boolean).join(" · ");
  showError("");
  $("output").hidden = true;
  await refresh();
}

function goHome() {
  if (state.unsubscribe) state.unsubscribe();
  state.table = null;
  state.name = null;
  document.body.dataset.game = "";
  history.replaceState(null, "", location.pathname);
  $("game").hidden = true;
  $("home").hidden = false;
  renderGames();
}

function renderStatus(game) {
  const parts = [t(game.convention), t("to {target}", { target: game.target }), plural("{n} deals", game.deals)];
  if (game.finished) parts.push(t("finished"));
  else {
    parts.push(t("{player} deals next", { player: game.next_dealer }));
    if (game.lowest_contract > 6) parts.push(t("lowest contract {level}", { level: game.lowest_contract }));
  }
  if (game.passes_streak) parts.push(t("all-pass ×{n}", { n: game.passes_streak }));
  $("status").textContent = parts.join(" · ");
  document.body.dataset.deals = String(game.deals);
}

function renderLast(items) {
  const head = $("last-deal");
  const list = $("last-writes");
  list.replaceChildren();
  if (!items.length) {
    head.textContent = t("no deals recorded yet");
    head.className = "muted";
    return;
  }
  const d = items[items.length - 1];
  head.className = "";
  head.textContent = (d.dealer ? t("№{number} ({dealer} dealt): ", { number: d.number, dealer: d.dealer }) : "№" + d.number + ": ") + d.notation;
  if (!d.writes.length) list.append(el("li", t("nothing written"), "muted"));
  for (const w of d.writes) {
    const where = w.on ? t("whists on {player}", { player: w.on }) : t(w.column);
    const reason = w.said || w.reason;
    list.append(el("li", w.player + " " + where + " " + signed(w.amount) + (reason ? " — " + reason : "")));
  }
}

function renderSettle(s) {
  const body = document.querySelector("#money tbody");
  body.replaceChildren();
  for (const p of s.players) {
    const tr = el("tr");
    tr.append(el("td", p.name), el("td", signed(p.whists)), el("td", signed(p.money) + (s.currency ? " " + s.currency : "")));
    body.append(tr);
  }
  const pays = $("payments");
  pays.replaceChildren();
  if (!s.payments.length) pays.append(el("li", t("nobody pays anybody"), "muted"));
  for (const p of s.payments) {
    const amount = p.amount + (s.currency ? " " + s.currency : "");
    pays.append(el("li", t("{payer} pays {payee} {amount}", { payer: p.from, payee: p.to, amount })));
  }
}

async function refresh() {
  const table = state.table;
  if (!table) return;
  const [game, svg, last, settle, cases] = await Promise.all([
    table.game(), table.sheetSvg(), table.log(1), table.settle(state.method), table.cases(),
  ]);
  if (table !== state.table) return;
  CASES = cases;
  renderStatus(game);
  $("sheet").innerHTML = svg; // drawn by prefcalc in the worker, every name escaped
  renderLast(last);
  renderSettle(settle);
}

async function run(line, button) {
  if (!state.table || !line.trim() || state.busy) return; // one request at a time: never twice
  state.busy = true;
  const controls = document.querySelectorAll("#line-form button, .actions button");
  controls.forEach((b) => { b.disabled = true; });
  try {
    const result = await state.table.line(line);
    document.body.dataset.lineMs = String(state.engine.took.line ?? "");
    showError("");
    const out = $("output");
    out.textContent = result.output || t("done");
    out.hidden = false;
    if (!button) $("line").value = "";
  } catch (error) {
    showError(message(error));
  } finally {
    state.busy = false;
    controls.forEach((b) => { b.disabled = false; });
  }
}

/* --- files in and out ----------------------------------------------------------------------- */

async function exportLedger() {
  const kept = await state.store.get(state.name);
  if (!kept) return;
  const file = new File([kept.ledger], state.name + ".json", { type: "application/json" });
  if (navigator.canShare && navigator.share && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title: state.name });
      return;
    } catch (error) {
      if (error && error.name === "AbortError") return; // the person closed the share sheet
    }
  }
  const a = document.createElement("a");
  a.href = URL.createObjectURL(file);
  a.download = state.name + ".json";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

function freeName(wanted, taken) {
  let stem = (wanted || "").replace(/\.json$/i, "").replace(/[^\p{L}\p{N}_.-]+/gu, "-").replace(/^[^\p{L}\p{N}]+/u, "").slice(0, 120);
  if (!NAME.test(stem)) stem = "imported";
  let name = stem;
  for (let k = 2; taken.has(name); k++) name = stem + "-" + k;
  return name;
}

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
    const summary = await state.engine.call("check", { ledger: text });
    const same = await state.store.same(text, summary);
    if (same && same.exact) {
      say("import-said", t("already on this phone: {game}", { game: (same.game.seating || same.game.players).join(", ") }));
      return;
    }
    const taken = new Set((await state.store.list()).map((g) => g.name));
    const name = freeName(file.name, taken);
    await state.store.add(name, { ledger: text, redo: null }, summary, state.engine.hello.version, "imported");
    say("import-said", same
      ? t("another version of a game on this phone: kept beside it as {name}", { name })
      : t("imported as {name}", { name }));
    await renderGames();
  } catch (error) {
    say("import-said", message(error));
  }
}

/* --- start ---------------------------------------------------------------------------------- */

async function newGame(form) {
  const data = new FormData(form);
  const players = String(data.get("players") || "").trim().split(/\s+/).filter(Boolean);
  const target = String(data.get("target") || "").trim();
  const start = form.querySelector("[data-testid=start]");
  start.disabled = true;
  try {
    const taken = (await state.store.list()).map((g) => g.name);
    const made = await state.engine.call("new", {
      players,
      convention: String(data.get("convention")),
      target: target ? Number(target) : null,
      price: String(data.get("price") || "1").trim() || "1",
      currency: String(data.get("currency") || "").trim(),
      taken,
    });
    await state.store.add(made.name, made.files, made.game, state.engine.hello.version, "new");
    form.reset();
    say("import-said", "");
    await openGame(made.name);
  } catch (error) {
    say("import-said", message(error));
  } finally {
    start.disabled = false;
  }
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
  await new Promise((resolve) => {
    navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
    const worker = registration.installing || registration.waiting;
    if (worker) worker.addEventListener("statechange", () => { if (worker.state === "redundant") resolve(); });
  });
  return navigator.serviceWorker.controller ? "active" : "failed";
}

async function startEngine() {
  const live = $("live");
  try {
    state.engine = state.engine || new Engine("worker.js");
    const hello = await state.engine.ready;
    await state.engine.call("lang", { lang: LANG });
    live.dataset.t = "ready";
    live.textContent = t("ready");
    live.classList.remove("off");
    $("about").textContent = "prefcalc " + hello.version;
    const took = state.engine.timings || {};
    document.body.dataset.loadMs = String(took.ms || "");
    document.body.dataset.pythonMs = String(took.python || "");
    document.body.dataset.engineMs = String(took.engine || "");
    document.body.dataset.engine = "ready";
    $("new-form").querySelector("[data-testid=start]").disabled = false;
    $("import").disabled = false;
    await renderGames();
    const wanted = new URLSearchParams(location.hash.replace(/^#/, "")).get("game");
    if (wanted) await openGame(wanted).catch((e) => { goHome(); say("import-said", message(e)); });
  } catch (error) {
    document.body.dataset.engine = "failed";
    live.textContent = t("the engine did not start: {error}", { error: message(error) });
  }
}

async function main() {
  // served by the service worker already (not the first visit): the engine starts loading
  // at once, while the page reads its words and the games
  if ("serviceWorker" in navigator && navigator.serviceWorker.controller) state.engine = new Engine("worker.js");
  const saved = localStorage.getItem("prefcalc-lang");
  await loadWords(saved || ((navigator.language || "").toLowerCase().startsWith("ru") ? "ru" : "en"));
  state.store = await Store.open();
  state.store.t = t;
  await renderGames();
  persist().then((how) => {
    document.body.dataset.storage = how;
    sayStorage();
  });

  $("new-form").addEventListener("submit", (e) => { e.preventDefault(); newGame(e.target); });
  $("import").addEventListener("change", (e) => importLedger(e.target));
  $("back").addEventListener("click", goHome);
  $("export").addEventListener("click", () => exportLedger().catch((e) => showError(message(e))));
  $("line-form").addEventListener("submit", (e) => { e.preventDefault(); run($("line").value); });
  document.querySelectorAll("[data-line]").forEach((b) => b.addEventListener("click", () => run(b.dataset.line, b)));
  document.querySelectorAll("[data-method]").forEach((b) => b.addEventListener("click", () => {
    state.method = b.dataset.method;
    document.querySelectorAll("[data-method]").forEach((o) => {
      o.classList.toggle("on", o === b);
      o.setAttribute("aria-pressed", o === b ? "true" : "false");
    });
    refresh().catch((e) => showError(message(e)));
  }));
  $("lang").addEventListener("click", async () => {
    const lang = LANG === "ru" ? "en" : "ru";
    localStorage.setItem("prefcalc-lang", lang);
    await loadWords(lang);
    sayStorage();
    if (state.engine && state.engine.hello) {
      await state.engine.call("lang", { lang });
      $("live").textContent = t("ready");
    }
    await renderGames();
    if (state.table) await refresh();
  });

  onWritten((name) => {
    // another window of the app wrote a game: the list, and the open game if it is that one
    if (state.table && state.table.name === name && !state.busy) state.table.reload().catch((e) => showError(message(e)));
    else if (!state.table) renderGames();
  });

  document.body.dataset.sw = await controlled();
  await startEngine();
}

main();
