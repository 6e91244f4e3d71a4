/* The scorer's page: a deal chosen by taps on one screen (builder.js) and recorded with the
   Record bar (bar.js), the night's list (night.js: edit, insert before, delete a past deal
   with that deal's own table), the folded sheet (summary.js) and the line field. Written
   against a table (engine.js): serve's HttpTable, or the offline app's WorkerTable;
   mountScore(table, root) builds it all inside root, and draws every reading of the table
   whole (one state of the game, never halves of two).

   Every control a check may drive has a data-testid (README, "The sheet on the phones"):
   kind:game|misere|passes, declarer:<Name>, contract:<level><s|c|d|h|nt>, tricks:<n>,
   role:<Name>:<w|p|h|r>, wtricks:<Name>:<n>, passes:<Name>:<n>, record, undo, redo, cancel,
   deal:<n>, edit, insert, delete, put-back, summary, status; the line field is
   input[name=line].

   It imports nothing from engine.js: the table it is given is the whole of the game to it. */
import { mountBar } from "./bar.js";
import { button, mountBuilder, tap } from "./builder.js";
import { Live, follow, randomId, readError } from "./common.js";
import { NEW, commandLine, fresh, fromItem, itemHand, nextHand, seated, tappable } from "./deal.js";
import { el } from "./dom.js";
import { statusLine, writesText } from "./format.js";
import { LIST, itemKey, mountNight } from "./night.js";
import { drawSummary } from "./summary.js";
import { lang, setCases, t, table as word } from "./words.js";

/** @typedef {import("./engine.js").Table} Table */
/** @typedef {import("./engine.js").Reading} Reading */
/** @typedef {import("./engine.js").LogItem} LogItem */
/** @typedef {import("./engine.js").LineAnswer} LineAnswer */
/** @typedef {import("./deal.js").Mode} Mode */

const LIFTED_MS = 600; // ms: a finger lifted with no tap (it slid off): the deal is drawn then

/** The first line of an answer (what play printed). @param {string | undefined} text */
function firstLine(text) {
  return String(text || "").split("\n")[0];
}

/**
 * @param {Table} table
 * @param {HTMLElement} root
 * @param {{readOnly?: boolean, status?: HTMLElement, badge?: HTMLElement}} [options]
 */
export function mountScore(table, root, options = {}) {
  const readOnly = !!options.readOnly;
  const statusNode = options.status || /** @type {HTMLElement} */ (document.getElementById("status"));
  const badge = options.badge || /** @type {HTMLElement} */ (document.getElementById("live"));

  /** @type {Reading | null} */
  let reading = null;
  let drawn = ""; // the version and the options of the reading on the screen
  let all = false; // every deal in the list, not the last LIST
  let sheetOpen = false;
  let deal = fresh();
  /** @type {Mode} */
  let mode = NEW;
  let busy = false;
  let acts = 0; // lines sent so far: a message about an older line never covers a newer one's
  /** @type {{line: string, id: string} | null} */
  let pending = null; // a line sent whose answer never came keeps its id

  /* --- the page ----------------------------------------------------------------------- */

  root.replaceChildren();
  const summary = button(null, "summary", "summary", { "aria-expanded": "false", "aria-controls": "sheet" });
  const sheet = el("div", null, "sheet-box", { id: "sheet", "data-testid": "sheet", hidden: true });
  const problem = el("p", null, "card error problem", { role: "alert", hidden: true });
  const builderBox = el("section", null, "builder", { id: "builder", "aria-label": t("the deal") });
  const nightBox = el("section", null, "card night", { id: "night" });
  const tools = el("section", null, "card tools");
  root.append(summary, sheet, problem, builderBox, nightBox, tools);

  const builder = mountBuilder(builderBox, { readOnly, onTap: chosen });
  const night = mountNight(nightBox, {
    edit: (item) => startEdit(item, "edit"),
    insert: (item) => startEdit(item, "insert"),
    remove: removeDeal,
    all: () => { all = true; followed.refresh(); },
    opened: (_item, actions) => clearOfBar(/** @type {HTMLElement} */ (actions.parentElement)),
  });

  const form = el("form", null, "", { id: "line-form", autocomplete: "off" });
  const lineLabel = el("label", t("A play line"), "", { for: "line" });
  const lineRow = el("div", null, "row");
  const line = el("input", null, "", {
    id: "line", name: "line", type: "text", maxlength: "500", autocapitalize: "off", spellcheck: "false",
    placeholder: lang() === "ru" ? "а 7ч 7 б:в в:п" : "a 7h 7 b:w v:p",
  });
  const sendButton = el("button", t("Send"), "primary", { type: "submit", "data-testid": "send" });
  lineRow.append(line, sendButton);
  form.append(lineLabel, lineRow);
  const actions = el("div", null, "row actions");
  const settleButton = button(t("Settle"), "settle");
  const averageButton = button(t("Settle average"), "settle-average");
  actions.append(settleButton, averageButton);
  const targetRow = el("div", null, "row");
  const targetLabel = el("label", t("Target") + " ", "inline");
  const target = el("input", null, "", { id: "target", type: "number", min: "1", inputmode: "numeric", size: "4" });
  targetLabel.append(target);
  const targetButton = button(t("Set target"), "set-target");
  targetRow.append(targetLabel, targetButton);
  const output = el("pre", null, "card output", { id: "output", hidden: true });
  tools.append(form, actions, targetRow, output);

  const bar = mountBar(root);
  document.body.classList.add("scoring");
  const live = new Live(badge, problem);

  /* --- drawing -------------------------------------------------------------------------- */

  /** The table of the deal being chosen: a past deal's own, else the next deal's. */
  function hand() {
    return mode.item ? itemHand(mode.item) : nextHand(reading && reading.seats);
  }

  function draw() {
    const h = hand();
    deal = seated(deal, h);
    // a finger on a control of the deal: the deal is drawn again once it is lifted (a press
    // and its release on one control, wherever a reading would have moved it)
    deferred = !!held && builderBox.contains(held);
    if (!deferred) builder.draw(deal, h, !!reading && reading.game.convention === "Classic");
    drawBar();
  }

  function drawBar() {
    bar.draw({ line: commandLine(mode, deal, hand()), mode, busy, readOnly, deals: reading ? reading.game.deals : 0 });
    for (const b of [sendButton, settleButton, averageButton, targetButton]) b.disabled = readOnly || busy;
  }

  function drawList() {
    if (!reading) return;
    night.draw({ items: reading.log, count: reading.game.deals, all, editing: mode.item, readOnly, busy });
  }

  /** A tap on the deal: the deal it makes, and its line in the bar (a message gives way). @param {import("./deal.js").Deal} next */
  function chosen(next) {
    deal = next;
    bar.endToast();
    draw();
  }

  /** Scroll so that `node` is clear of the Record bar (a row's actions, opened). @param {HTMLElement} node */
  function clearOfBar(node) {
    const top = /** @type {HTMLElement} */ (document.getElementById("recordbar")).getBoundingClientRect().top;
    const bottom = node.getBoundingClientRect().bottom;
    if (bottom > top - 8) window.scrollBy(0, bottom - top + 8);
  }

  /* --- reading -------------------------------------------------------------------------- */

  /* A control a finger is on (pressed, not yet released) stays under the finger whatever a
     reading draws (a tap is its press and its release on one control): the deal's controls
     are drawn again only after the tap (or, when no tap follows, a moment after the finger
     is lifted); the night's list is drawn at once, keyed (a row that is no longer its deal is
     gone, never another deal's), and the page scrolls by as much as the reading moved the
     held control (a new deal at the top of the list). */
  /** @type {Element | null} */
  let held = null;
  let deferred = false; // the deal's controls wait for the finger to be lifted
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let lifted;
  const flush = () => {
    clearTimeout(lifted);
    if (deferred && !held) draw();
  };
  root.addEventListener("pointerdown", (ev) => {
    held = ev.target instanceof Element ? ev.target.closest("button") : null;
  }, true);
  const released = () => {
    held = null;
    if (!deferred) return;
    window.addEventListener("click", () => setTimeout(flush, 0), { capture: true, once: true });
    lifted = setTimeout(flush, LIFTED_MS);
  };
  window.addEventListener("pointerup", released, true);
  window.addEventListener("pointercancel", released, true);

  /** Draw with `fn`, the held control kept where it was on the screen. @param {() => void} fn */
  function steady(fn) {
    const node = held;
    const before = node ? node.getBoundingClientRect().top : 0;
    fn();
    if (node && node.isConnected) {
      const moved = node.getBoundingClientRect().top - before;
      if (moved) window.scrollBy(0, moved);
    }
  }

  /** One reading, drawn whole unless it is the state on the screen already. */
  async function read() {
    const r = await table.reading({ last: all ? null : LIST, method: "pairwise", rounding: "exact", sheet: sheetOpen });
    const key = [r.version, all, sheetOpen].join("|");
    if (key === drawn && reading) return r.version;
    reading = r;
    setCases(r.cases); // the names declined as this reading's genders say
    statusNode.textContent = statusLine(r.game, r.seats.sitting_out);
    document.body.dataset.deals = String(r.game.deals);
    if (typeof r.sheet === "string") sheet.innerHTML = r.sheet; // drawn by prefcalc, every name escaped
    if (!target.value) target.placeholder = String(r.game.target);
    if (mode.item) {
      const was = itemKey(mode.item);
      const now = r.log.find((it) => itemKey(it) === was);
      if (now) mode = { kind: mode.kind, item: now };
      else { mode = NEW; deal = fresh(); } // the deal edited is no longer that deal
    }
    steady(() => {
      drawSummary(summary, r);
      drawList();
      draw();
    });
    drawn = key;
    return r.version;
  }

  /* --- writing ------------------------------------------------------------------------------ */

  /** @param {boolean} on */
  function setBusy(on) {
    busy = on;
    document.body.dataset.busy = on ? "true" : "false";
    drawList();
    drawBar();
  }

  /**
   * Send one line; Record, Undo and the list's actions stay disabled until it is answered.
   * A line whose answer was lost on the way (the server could not be reached) is asked for
   * by its id: carried out, its answer is the line's; never received, the bar says nothing
   * was written; and while the server cannot be reached, the line keeps its id, so that the
   * same line sent again is carried out once.
   * @param {string} text
   * @returns {Promise<LineAnswer | null>}
   */
  async function send(text) {
    if (busy || readOnly || !text) return null;
    setBusy(true);
    acts += 1;
    const id = pending && pending.line === text ? pending.id : randomId();
    pending = { line: text, id };
    try {
      const answer = await table.line(text, id);
      pending = null;
      return answer;
    } catch (e) {
      if (!isLost(e)) {
        pending = null;
        bar.toast(String(/** @type {Error} */ (e).message || e), "error");
        return null;
      }
      return await lost(id);
    } finally {
      setBusy(false);
    }
  }

  /** @param {unknown} e */
  function isLost(e) {
    return readError(e).why === "unreachable";
  }

  /**
   * What became of the line `id` whose answer was lost: asked of the table.
   * @param {string} id
   * @returns {Promise<LineAnswer | null>}
   */
  async function lost(id) {
    let answer;
    try {
      answer = await table.answer(id);
    } catch (e) {
      if (isLost(e)) {
        bar.toast(t("the server cannot be reached: it is not known yet whether this was carried out; tap again (it is carried out once)"), "error");
      } else {
        pending = null;
        bar.toast(String(/** @type {Error} */ (e).message || e), "error");
      }
      return null;
    }
    // never received: nothing was written (the line keeps its id all the same)
    if (answer) pending = null;
    else bar.toast(t("this did not reach the server: nothing was written"), "error");
    return answer;
  }

  /**
   * After a write: the next reading, then what deal `number` wrote, said in the bar (unless
   * another tap came meanwhile: its own message says it).
   * @param {number} number
   * @param {string} words the message: "№{number} recorded: {writes}" ...
   */
  async function said(number, words) {
    const mine = acts;
    await followed.refresh();
    if (mine !== acts || !reading) return;
    const item = reading.log.find((it) => it.number === number);
    if (!item) return;
    bar.toast(t(words, { number, writes: writesText(item.writes) }));
  }

  async function recordDeal() {
    const text = commandLine(mode, deal, hand());
    const was = mode;
    const answer = await send(text);
    if (!answer) return;
    deal = fresh(); // the next deal is a game again, whatever this one was
    mode = NEW;
    draw();
    if (was.kind === "edit") await said(was.item.number, "№{number} changed: {writes}");
    else if (was.kind === "insert") await said(was.item.number, "№{number} inserted: {writes}");
    else await said(answer.deals, "№{number} recorded: {writes}");
  }

  async function undoLast() {
    const answer = await send(word("commands", "undo"));
    if (!answer) return;
    bar.toast(firstLine(answer.output), "done", {
      label: t("Put back"),
      testid: "redo",
      run: async () => {
        const back = await send(word("commands", "redo"));
        if (back) await said(back.deals, "№{number} put back: {writes}");
      },
    });
    followed.refresh();
  }

  function cancelEdit() {
    mode = NEW;
    deal = fresh();
    bar.endToast();
    drawList();
    draw();
  }

  /**
   * Edit a deal of the list with its own table, or insert one before it; a deal the taps
   * cannot say whole (a change of terms, Classic's flags) is put in the line field.
   * @param {LogItem} item
   * @param {"edit" | "insert"} kind
   */
  function startEdit(item, kind) {
    if (kind === "edit" && !tappable(item)) {
      line.value = word("commands", "edit") + " " + item.number + " " + item.notation + (item.forced ? " --force" : "");
      drawList();
      line.focus();
      line.scrollIntoView({ block: "center" });
      return;
    }
    mode = { kind, item };
    deal = kind === "edit" ? fromItem(item) : fresh();
    bar.endToast();
    drawList();
    draw();
    window.scrollTo(0, 0);
  }

  /** @param {LogItem} item */
  async function removeDeal(item) {
    drawList();
    const answer = await send(word("commands", "delete") + " " + item.number);
    if (!answer) return;
    const again = word("commands", "insert") + " " + item.number + " " + item.notation + (item.forced ? " --force" : "");
    bar.toast(firstLine(answer.output), "done", {
      label: t("Put back"),
      testid: "put-back",
      run: async () => {
        const back = await send(again);
        if (back) await said(item.number, "№{number} put back: {writes}");
      },
    });
    followed.refresh();
  }

  async function toggleSheet() {
    sheetOpen = !sheetOpen;
    summary.setAttribute("aria-expanded", sheetOpen ? "true" : "false");
    sheet.hidden = !sheetOpen;
    document.body.classList.toggle("sheet-open", sheetOpen);
    if (sheetOpen) await followed.refresh(); // a reading with the sheet
  }

  /** A line of the line field or of a tool's button; its whole answer under the field. @param {string} text */
  async function sendLine(text) {
    const answer = await send(text);
    if (!answer) return false;
    output.textContent = answer.output || t("done");
    output.hidden = false;
    bar.toast(firstLine(answer.output) || t("done"));
    followed.refresh();
    return true;
  }

  /* --- wiring ---------------------------------------------------------------------------- */

  tap(summary, toggleSheet);
  tap(bar.record, recordDeal);
  tap(bar.undo, undoLast);
  tap(bar.cancel, cancelEdit);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!line.value.trim()) return;
    if (await sendLine(line.value)) line.value = "";
  });
  tap(settleButton, () => sendLine(word("commands", "settle")));
  tap(averageButton, () => sendLine(word("commands", "settle") + " " + word("methods", "average")));
  tap(targetButton, () => { const v = target.value.trim(); if (v) sendLine("set target=" + v); });
  if (readOnly) line.disabled = true;

  const followed = follow(table, read, live);
  draw();
  return {
    refresh: followed.refresh,
    stop() {
      followed.stop();
      window.removeEventListener("pointerup", released, true);
      window.removeEventListener("pointercancel", released, true);
    },
  };
}
