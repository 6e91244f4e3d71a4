/* The scorer's page: a deal chosen by taps on one screen and recorded with the Record bar,
   the night's list (edit, insert before, delete a past deal with that deal's own table), the
   line field. Written against a table (engine.js): serve's HttpTable, or the offline app's
   WorkerTable; mountScore(table, root) builds it all inside root.

   Every control a check may drive has a data-testid (README, "The sheet on the phones"):
   kind:game|misere|passes, declarer:<Name>, contract:<level><s|c|d|h|nt>, tricks:<n>,
   role:<Name>:<w|p|h|r>, wtricks:<Name>:<n>, passes:<Name>:<n>, record, undo, redo, cancel,
   deal:<n>, edit, insert, delete, put-back, summary, status; the line field is
   input[name=line].

   It imports nothing from engine.js: the table it is given is the whole of the game to it. */
import { Live, contractLabel, deals, el, follow, lang, money, number, randomId, redraw, statusLine, t, writeText } from "./common.js";

const LIST = 30; // deals in the night's list until "all" is asked for
const SUITS = ["s", "c", "d", "h", "nt"];
const SUIT_LETTERS = { ru: { s: "п", c: "т", d: "б", h: "ч", nt: "бк" } };
const ROLE_LETTERS = { ru: { w: "в", p: "п", h: "пв", r: "r" } };
const KIND_WORDS = { en: { game: "game", misere: "misere", passes: "passes" }, ru: { game: "игра", misere: "мизер", passes: "распасы" } };
const TOAST_MS = 6000; // a message without an action gives way to the deal's line after this

function quote(word) {
  return /^[^\s'"\\]+$/.test(word) ? word : "'" + word.replace(/'/g, "'\"'\"'") + "'";
}

const VOWELS = new Set("aeiouyаеёиоуыэюяйьъAEIOUYАЕЁИОУЫЭЮЯЙЬЪ");
let measurer = null;

/* A name as it fits `px` in `font`: whole, else cut as a table cuts it (Бор., Алекс., Дм.:
   on a consonant before a vowel), else its initial; never cut with "…". */
export function shorten(name, px, font) {
  measurer = measurer || document.createElement("canvas").getContext("2d");
  measurer.font = font;
  const fits = (s) => measurer.measureText(s).width <= px;
  if (fits(name)) return name;
  const chars = Array.from(name);
  for (let k = chars.length - 2; k >= 2; k--) { // two letters off at least: Александр. is another name
    const last = chars[k - 1];
    if (!/\p{L}/u.test(last) || VOWELS.has(last) || !VOWELS.has(chars[k])) continue;
    const short = chars.slice(0, k).join("") + ".";
    if (fits(short)) return short;
  }
  return fits(chars[0] + ".") ? chars[0] + "." : chars[0] || name;
}

export function mountScore(table, root, options = {}) {
  const readOnly = !!options.readOnly;
  const statusNode = options.status || document.getElementById("status");
  const badge = options.badge || document.getElementById("live");
  const ru = lang() === "ru";
  const letters = (map, key) => (ru && map.ru ? map.ru[key] : key);

  const state = { game: null, seats: null, settle: null, log: [], all: false, sheetOpen: false, open: null };
  let d = fresh();
  let mode = { kind: "new", item: null };
  let busy = false;
  let acts = 0; // lines sent so far: a toast about an older line never covers a newer one's
  let pending = null; // {line, id}: a line sent whose answer never came keeps its id
  let toastTimer = null;
  let toasting = false;

  function fresh(kind = "game") {
    return { kind, declarer: null, contract: null, tricks: null, roles: {}, wtricks: null, passes: {} };
  }

  /* --- the page ----------------------------------------------------------------------- */

  root.replaceChildren();
  // a control's handler is its `tapped` (a redrawn control keeps its element: common.morph)
  const tap = (btn, fn) => {
    btn.tapped = fn;
    btn.addEventListener("click", (ev) => { ev.preventDefault(); btn.tapped(ev); });
  };
  const button = (text, testid, cls, attrs) => el("button", text, cls, { type: "button", "data-testid": testid, ...attrs });

  const summary = button(null, "summary", "summary", { "aria-expanded": "false", "aria-controls": "sheet" });
  const sheet = el("div", null, "sheet-box", { id: "sheet", "data-testid": "sheet", hidden: true });
  const problem = el("p", null, "card error problem", { role: "alert", hidden: true });
  const builder = el("section", null, "builder", { id: "builder", "aria-label": t("the deal") });
  const tabs = el("div", null, "tabs", { role: "tablist" });
  const kindButtons = {};
  for (const [kind, label] of [["game", t("Game")], ["misere", t("Misère")], ["passes", t("All-pass")]]) {
    const b = button(label, "kind:" + kind, "", { role: "tab", "data-kind": kind });
    tap(b, () => { if (d.kind !== kind) { d = { ...fresh(kind), declarer: kind === "passes" ? null : d.declarer }; draw(); } });
    kindButtons[kind] = b;
    tabs.append(b);
  }
  const declarers = el("div", null, "choices declarers", { role: "group", "aria-label": t("Declarer") });
  const contracts = el("div", null, "grid5 contracts", { role: "group", "aria-label": t("Contract") });
  const tricks = el("div", null, "tricks", { role: "group", "aria-label": t("Declarer's tricks") });
  const defenders = el("div", null, "defenders", { role: "group", "aria-label": t("Defenders") });
  const wtricks = el("div", null, "wtricks");
  const passes = el("div", null, "passes", { role: "group", "aria-label": t("Tricks of each player") });
  builder.append(tabs, declarers, contracts, tricks, defenders, wtricks, passes);

  const night = el("section", null, "card night", { id: "night" });
  const nightHead = el("h2", t("The night's deals"));
  const list = el("ol", null, "deals", { reversed: true });
  const more = button(t("all the deals"), "more", "small");
  tap(more, () => { state.all = true; followed.refresh(); });
  night.append(nightHead, list, more);

  const tools = el("section", null, "card tools");
  const form = el("form", null, "", { id: "line-form", autocomplete: "off" });
  const lineLabel = el("label", t("A play line"), "", { for: "line" });
  const lineRow = el("div", null, "row");
  const line = el("input", null, "", { id: "line", name: "line", type: "text", maxlength: "500", placeholder: ru ? "а 7ч 7 б:в в:п" : "a 7h 7 b:w v:p", autocapitalize: "off", spellcheck: "false" });
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

  const bar = el("div", null, "recordbar", { id: "recordbar" });
  const message = el("div", null, "message", { id: "message", role: "status", "aria-live": "polite" });
  const messageText = el("span", null, "text");
  message.append(messageText);
  const barButtons = el("div", null, "bar-buttons");
  const undo = button(t("Undo"), "undo", "");
  const cancel = button(t("Cancel"), "cancel", "", { hidden: true });
  const record = button(t("Record"), "record", "primary", { id: "record" });
  barButtons.append(undo, cancel, record);
  bar.append(message, barButtons);
  root.append(summary, sheet, problem, builder, night, tools, bar);
  document.body.classList.add("scoring");

  const live = new Live(badge, problem);

  /* --- the deal being built ----------------------------------------------------------- */

  function context() {
    if (mode.item) {
      const it = mode.item;
      return { players: it.players || [], lowest: it.lowest_contract || 6, dealer: it.dealer, out: it.sitting_out || [] };
    }
    const s = state.seats;
    if (!s) return { players: [], lowest: 6, dealer: null, out: [] };
    return { players: s.players.filter((p) => !s.sitting_out.includes(p)), lowest: s.lowest_contract, dealer: s.next_dealer, out: s.sitting_out };
  }

  /* The defenders in the order they speak: clockwise from the declarer. */
  function defendersOf(ctx) {
    const k = ctx.players.indexOf(d.declarer);
    if (k < 0) return [];
    return [...ctx.players.slice(k + 1), ...ctx.players.slice(0, k)];
  }

  const roleOf = (p) => d.roles[p] || "p"; // a defender passes unless he whists
  const classic = () => !!(state.game && state.game.convention === "Classic");

  function whistersOf(ctx) {
    return defendersOf(ctx).filter((p) => roleOf(p) === "w");
  }

  /* The all-pass tricks: as tapped; the one player left untapped takes what 10 leaves. */
  function passCounts(ctx) {
    const counts = {};
    const missing = [];
    let sum = 0;
    for (const p of ctx.players) {
      if (d.passes[p] === undefined) missing.push(p);
      else { counts[p] = d.passes[p]; sum += d.passes[p]; }
    }
    if (missing.length === 1 && sum <= 10) counts[missing[0]] = 10 - sum;
    else if (missing.length) return null;
    return counts;
  }

  function autoPasser(ctx) {
    const missing = ctx.players.filter((p) => d.passes[p] === undefined);
    return missing.length === 1 ? missing[0] : null;
  }

  /* The deal as a line, in the table's shorthand of the page's language ("" until it is
     whole): the line the server reads, and the one the bar shows. */
  function dealLine() {
    const ctx = context();
    const kinds = KIND_WORDS[ru ? "ru" : "en"];
    if (d.kind === "passes") {
      const counts = passCounts(ctx);
      if (!counts || !ctx.players.length) return "";
      return [kinds.passes, ...ctx.players.map((p) => quote(p + "=" + counts[p]))].join(" ");
    }
    if (!d.declarer || !ctx.players.includes(d.declarer)) return "";
    if (d.kind === "misere") {
      return d.tricks === null ? "" : [kinds.misere, quote(d.declarer), String(d.tricks)].join(" ");
    }
    if (!d.contract) return "";
    const defs = defendersOf(ctx);
    const whisters = whistersOf(ctx);
    const half = defs.some((p) => roleOf(p) === "h");
    let taken = "-"; // nobody whisted, or a half-whist: not played
    if (whisters.length && !half) {
      if (d.tricks === null) return "";
      taken = String(d.tricks);
    }
    const level = d.contract.replace(/\D+$/, "");
    const suit = d.contract.slice(level.length);
    const words = [kinds.game, quote(d.declarer), level + letters(SUIT_LETTERS, suit), taken];
    for (const p of defs) {
      const role = roleOf(p);
      let word = p + ":" + letters(ROLE_LETTERS, role);
      if (whisters.length === 2 && role === "w" && taken !== "-") {
        const first = d.wtricks;
        if (first === null || first > 10 - d.tricks) return "";
        word += p === whisters[0] ? first : 10 - d.tricks - first;
      }
      words.push(quote(word));
    }
    return words.join(" ");
  }

  function fullLine() {
    const deal = dealLine();
    if (!deal) return "";
    if (mode.kind === "edit") return "edit " + mode.item.number + " " + deal;
    if (mode.kind === "insert") return "insert " + mode.item.number + " " + deal;
    return deal;
  }

  /* --- drawing -------------------------------------------------------------------------- */

  function choice(container, label, on, testid, fn, attrs) {
    const b = button(label, testid, on ? "on" : "", { "aria-pressed": on ? "true" : "false", ...attrs });
    b.disabled = readOnly;
    tap(b, () => { fn(); draw(); });
    container.append(b);
    return b;
  }

  /* A name as it fits a button `parts` of the builder's width share (never broken). */
  function fitted(name, parts, gap = 5) {
    const width = builder.clientWidth || root.clientWidth || 340;
    const font = getComputedStyle(kindButtons.game).font || "16px sans-serif";
    return shorten(name, (width - gap * (parts - 1)) / parts - 14, font);
  }

  function drawDeclarers(ctx) {
    redraw(declarers, (box) => {
      declarers.hidden = d.kind === "passes";
      for (const p of ctx.players) {
        choice(box, fitted(p, ctx.players.length), p === d.declarer, "declarer:" + p, () => {
          if (d.declarer !== p) { d.declarer = p; d.roles = {}; d.wtricks = null; }
        }, { "data-player": p, title: p, "aria-label": p });
      }
    });
  }

  function drawContracts(ctx) {
    redraw(contracts, (box) => {
      contracts.hidden = d.kind !== "game";
      for (let level = Math.max(6, ctx.lowest || 6); level <= 10; level++) {
        for (const suit of SUITS) {
          const code = level + suit;
          choice(box, contractLabel(code), d.contract === code, "contract:" + code, () => { d.contract = code; }, {
            class: (suit === "d" || suit === "h" ? "red" : "") + (d.contract === code ? " on" : ""),
          });
        }
      }
    });
  }

  function drawTricks(ctx) {
    redraw(tricks, (box) => {
      const whisters = whistersOf(ctx);
      const half = defendersOf(ctx).some((p) => roleOf(p) === "h");
      const needed = d.kind === "misere" || (d.kind === "game" && !half);
      tricks.hidden = !needed;
      if (!needed) return;
      box.append(el("span", t("tricks"), "label"));
      for (let n = 0; n <= 10; n++) {
        choice(box, String(n), d.tricks === n, "tricks:" + n, () => {
          d.tricks = n;
          if (d.wtricks !== null && d.wtricks > 10 - n) d.wtricks = null;
        });
      }
      tricks.classList.toggle("idle", d.kind === "game" && !whisters.length);
    });
  }

  function drawDefenders(ctx) {
    redraw(defenders, (box) => {
      defenders.hidden = d.kind !== "game";
      if (d.kind !== "game") return;
      const roles = [["w", t("whist")], ["p", t("pass")], ["h", "½"]];
      if (classic()) roles.push(["r", "↩"]);
      const titles = { w: t("whist"), p: t("pass"), h: t("half-whist"), r: t("returned the whist") };
      const defs = d.declarer ? defendersOf(ctx) : ctx.players.slice(0, Math.max(0, ctx.players.length - 1));
      for (const p of defs) {
        const row = el("div", null, "defender", { "data-player": p });
        row.append(el("span", p, "who"));
        const group = el("div", null, "roles");
        for (const [role, label] of roles) {
          const b = choice(group, label, d.declarer && roleOf(p) === role, "role:" + p + ":" + role, () => {
            d.roles[p] = role;
            if (role !== "w") d.wtricks = null;
          }, { "data-role": role, title: titles[role], "aria-label": p + ": " + titles[role] });
          b.disabled = readOnly || !d.declarer;
        }
        row.append(group);
        box.append(row);
      }
    });
  }

  function drawWhistTricks(ctx) {
    redraw(wtricks, (box) => {
      const whisters = whistersOf(ctx);
      const shown = d.kind === "game" && whisters.length === 2;
      wtricks.hidden = !shown;
      if (!shown) return;
      const [first, second] = whisters;
      box.append(el("span", t("{player}'s tricks", { player: first }), "label"));
      const most = d.tricks === null ? 10 : 10 - d.tricks;
      for (let n = 0; n <= most; n++) {
        choice(box, String(n), d.wtricks === n, "wtricks:" + first + ":" + n, () => { d.wtricks = n; });
      }
      if (d.wtricks !== null && d.tricks !== null) {
        box.append(el("span", t("{player} took {n}", { player: second, n: 10 - d.tricks - d.wtricks }), "auto-note"));
      }
    });
  }

  function drawPasses(ctx) {
    redraw(passes, (box) => {
      passes.hidden = d.kind !== "passes";
      if (d.kind !== "passes") return;
      const counts = passCounts(ctx) || {};
      const auto = autoPasser(ctx);
      for (const p of ctx.players) {
        const row = el("div", null, "passer", { "data-player": p });
        row.append(el("span", p, "who"));
        const buttons = el("div", null, "counts");
        for (let n = 0; n <= 10; n++) {
          const chosen = d.passes[p] === n;
          const worked = p === auto && counts[p] === n;
          const b = choice(buttons, String(n), chosen || worked, "passes:" + p + ":" + n, () => {
            if (d.passes[p] === n) delete d.passes[p];
            else d.passes[p] = n;
          });
          if (worked) b.classList.add("auto");
        }
        row.append(buttons);
        box.append(row);
      }
    });
  }

  function draw() {
    const ctx = context();
    if (d.declarer && !ctx.players.includes(d.declarer)) d.declarer = null;
    for (const [kind, b] of Object.entries(kindButtons)) {
      const on = d.kind === kind;
      b.classList.toggle("on", on);
      b.setAttribute("aria-selected", on ? "true" : "false");
      b.disabled = readOnly;
    }
    drawDeclarers(ctx);
    drawContracts(ctx);
    drawTricks(ctx);
    drawDefenders(ctx);
    drawWhistTricks(ctx);
    drawPasses(ctx);
    drawBar();
  }

  function drawBar() {
    const text = fullLine();
    const editing = mode.kind !== "new";
    record.textContent = mode.kind === "edit" ? t("Save deal {number}", { number: mode.item.number })
      : mode.kind === "insert" ? t("Insert as deal {number}", { number: mode.item.number }) : t("Record");
    record.disabled = readOnly || busy || !text;
    undo.hidden = editing;
    cancel.hidden = !editing;
    undo.disabled = readOnly || busy || !(state.game && state.game.deals);
    cancel.disabled = busy;
    for (const b of [sendButton, settleButton, averageButton, targetButton]) b.disabled = readOnly || busy;
    for (const b of list.querySelectorAll("button")) b.disabled = busy || (readOnly && !b.dataset.testid.startsWith("deal:"));
    bar.classList.toggle("editing", editing);
    if (!toasting) {
      message.className = "message";
      messageText.textContent = text || (editing ? t("change the deal above") : t("choose the deal above"));
      message.dataset.line = text;
      for (const extra of message.querySelectorAll("button")) extra.remove();
    }
  }

  /* A short message in the bar: what a deal wrote, or a refusal; with an action (put back). */
  function toast(text, kind = "done", action = null) {
    clearTimeout(toastTimer);
    toasting = true;
    message.className = "message " + kind;
    messageText.textContent = text;
    delete message.dataset.line;
    for (const extra of message.querySelectorAll("button")) extra.remove();
    if (action) {
      const b = button(action.label, action.testid, "small");
      tap(b, action.run);
      message.append(b);
    } else {
      toastTimer = setTimeout(endToast, TOAST_MS);
    }
  }

  function endToast() {
    clearTimeout(toastTimer);
    toasting = false;
    drawBar();
  }

  /* --- writing ------------------------------------------------------------------------------ */

  function setBusy(on) {
    busy = on;
    document.body.dataset.busy = on ? "true" : "false";
    drawBar();
  }

  /* Send one line; Record, Undo and the list's actions stay disabled until it is answered.
     A line whose answer was lost (the server unreachable) keeps its id: sent again, the
     server answers it once. */
  async function send(text) {
    if (busy || readOnly || !text) return null;
    setBusy(true);
    acts += 1;
    try {
      const id = pending && pending.line === text ? pending.id : randomId();
      pending = { line: text, id };
      const answer = await table.line(text, id);
      pending = null;
      return answer;
    } catch (e) {
      const lost = !!e && e.status === 0; // never answered: the line may have been carried out
      if (!lost) pending = null;
      toast(lost ? t("the server cannot be reached ({error})", { error: e.message }) : String(e.message || e), "error");
      return null;
    } finally {
      setBusy(false);
    }
  }

  function firstLine(text) {
    return String(text || "").split("\n")[0];
  }

  async function said(number, words) {
    const mine = acts;
    await followed.refresh();
    if (mine !== acts) return; // another tap came meanwhile (an undo): its own toast says it
    const item = state.log.find((it) => it.number === number);
    if (!item) return;
    const merged = new Map(); // one line per place written: Anna +24 whists on Vera
    for (const w of item ? item.writes : []) {
      const key = [w.player, w.column, w.on].join("\u0000");
      const was = merged.get(key);
      merged.set(key, was ? { ...was, amount: was.amount + w.amount } : { ...w });
    }
    const writes = merged.size ? [...merged.values()].map(writeText).join("; ") : t("nothing written");
    toast(t(words, { number, writes }));
  }

  async function recordDeal() {
    const text = fullLine();
    const was = mode;
    const answer = await send(text);
    if (!answer) return;
    d = fresh(); // the next deal is a game again, whatever this one was
    mode = { kind: "new", item: null };
    draw();
    if (was.kind === "edit") await said(was.item.number, "№{number} changed: {writes}");
    else if (was.kind === "insert") await said(was.item.number, "№{number} inserted: {writes}");
    else await said(answer.deals, "№{number} recorded: {writes}");
  }

  async function undoLast() {
    const answer = await send("undo");
    if (!answer) return;
    toast(firstLine(answer.output), "done", {
      label: t("Put back"),
      testid: "redo",
      run: async () => {
        const back = await send("redo");
        if (back) await said(back.deals, "№{number} put back: {writes}");
      },
    });
    followed.refresh();
  }

  function cancelEdit() {
    mode = { kind: "new", item: null };
    d = fresh();
    endToast();
    draw();
  }

  /* --- the night's list ---------------------------------------------------------------- */

  const EDITABLE = { contract: true, misere: true, passes: true };

  function fromItem(item) {
    if (item.kind === "contract") {
      const roles = {};
      for (const x of item.defenders || []) roles[x.player] = x.role;
      const deal = { ...fresh("game"), declarer: item.declarer, contract: item.contract, tricks: item.tricks, roles };
      const ctx = { players: item.players || [] };
      const saved = d;
      d = deal;
      const whisters = whistersOf(ctx);
      d = saved;
      if (whisters.length === 2) {
        const first = (item.defenders || []).find((x) => x.player === whisters[0]);
        deal.wtricks = first && first.tricks !== null && first.tricks !== undefined ? first.tricks : null;
      }
      return deal;
    }
    if (item.kind === "misere") return { ...fresh("misere"), declarer: item.declarer, tricks: item.tricks };
    return { ...fresh("passes"), passes: { ...(item.tricks || {}) } };
  }

  function startEdit(item, kind) {
    state.open = null;
    if (kind === "edit" && (!EDITABLE[item.kind] || / --/.test(item.notation))) {
      // a deal the taps cannot say whole (a change of terms, Classic's flags): the line field
      line.value = "edit " + item.number + " " + item.notation + (item.forced ? " --force" : "");
      line.focus();
      line.scrollIntoView({ block: "center" });
      return;
    }
    mode = { kind, item };
    d = kind === "edit" ? fromItem(item) : fresh();
    endToast();
    drawList();
    draw();
    window.scrollTo(0, 0);
  }

  async function removeDeal(item) {
    state.open = null;
    const answer = await send("delete " + item.number);
    if (!answer) return;
    const again = "insert " + item.number + " " + item.notation + (item.forced ? " --force" : "");
    toast(firstLine(answer.output), "done", {
      label: t("Put back"),
      testid: "put-back",
      run: async () => {
        const back = await send(again);
        if (back) await said(item.number, "№{number} put back: {writes}");
      },
    });
    followed.refresh();
  }

  function drawList() {
    redraw(list, (box) => {
      const items = [...state.log].reverse();
      nightHead.textContent = t("The night's deals") + (state.game ? " · " + deals(state.game.deals) : "");
      for (const item of items) {
        const li = el("li", null, "deal" + (mode.item && mode.item.number === item.number ? " editing" : ""));
        const row = button(null, "deal:" + item.number, "deal-row", { "aria-expanded": state.open === item.number ? "true" : "false" });
        row.append(el("span", "№" + item.number, "number"), el("span", item.shorthand || item.notation, "what"));
        if (item.dealer) row.append(el("span", t("{dealer} dealt", { dealer: item.dealer }), "dealer"));
        tap(row, () => { state.open = state.open === item.number ? null : item.number; drawList(); drawBar(); });
        li.append(row);
        if (state.open === item.number) {
          const acts = el("div", null, "deal-actions");
          const edit = button(t("Edit"), "edit");
          const insert = button(t("Insert before"), "insert");
          const del = button(t("Delete"), "delete", "danger");
          tap(edit, () => startEdit(item, "edit"));
          tap(insert, () => startEdit(item, "insert"));
          tap(del, () => removeDeal(item));
          for (const b of [edit, insert, del]) b.disabled = readOnly || busy;
          acts.append(edit, insert, del);
          li.append(acts);
        }
        box.append(li);
      }
      if (!items.length) box.append(el("li", t("no deals recorded yet"), "muted"));
      more.hidden = state.all || !state.game || state.game.deals <= state.log.length || state.log.length < LIST;
    });
  }

  /* --- the summary ---------------------------------------------------------------------- */

  function drawSummary() {
    const game = state.game;
    const settle = state.settle;
    summary.replaceChildren();
    if (!game) return;
    const grid = el("span", null, "summary-grid");
    const n = game.players.length;
    grid.style.gridTemplateColumns = "auto repeat(" + n + ", minmax(0, 1fr))";
    const cellWidth = Math.max(30, (summary.clientWidth || 340) - 52) / n - 6;
    const out = state.seats ? state.seats.sitting_out : [];
    grid.append(el("span", "", "corner"));
    for (const p of game.players) {
      const cls = "name" + (p.name === game.next_dealer && !game.finished ? " dealer" : "") + (out.includes(p.name) ? " out" : "");
      grid.append(el("span", shorten(p.name, cellWidth, "600 14px system-ui, sans-serif"), cls, { title: p.name }));
    }
    const money_ = new Map((settle ? settle.players : []).map((p) => [p.name, p.money]));
    const rows = [
      [t("pool"), (p) => number(p.pool), "pool"],
      [t("mountain"), (p) => number(p.mountain), "mountain"],
      ["±", (p) => (money_.has(p.name) ? (money_.get(p.name) > 0 ? "+" : "") + money(money_.get(p.name), settle.currency) : ""), "balance"],
    ];
    for (const [label, value, cls] of rows) {
      grid.append(el("span", label, "row-label"));
      for (const p of game.players) grid.append(el("span", value(p), cls));
    }
    summary.append(grid);
    summary.setAttribute("aria-label", t("the sheet, folded: tap to open it"));
  }

  async function toggleSheet() {
    state.sheetOpen = !state.sheetOpen;
    summary.setAttribute("aria-expanded", state.sheetOpen ? "true" : "false");
    sheet.hidden = !state.sheetOpen;
    document.body.classList.toggle("sheet-open", state.sheetOpen);
    if (state.sheetOpen) {
      try {
        sheet.innerHTML = await table.sheetSvg();
      } catch (e) {
        live.setError({ why: e.status === 0 ? "unreachable" : "error", message: String(e.message || e) });
      }
    }
  }

  /* --- reading ------------------------------------------------------------------------------ */

  /* One reading asks for its answers at once; a write between them (another phone, or this
     one's Record just before) can give the sheet after it and the seats before it, which
     would offer the next deal the players of the last one. Such a reading is made again
     (a few times at most: the stream announces the write anyway). */
  async function readOnce() {
    return Promise.all([
      table.game(), table.seats(), table.settle("pairwise"), table.log(state.all ? undefined : LIST),
      state.sheetOpen ? table.sheetSvg() : Promise.resolve(null),
    ]);
  }

  async function read() {
    let answers = await readOnce();
    for (let tries = 1; tries < 4 && answers[0].deals !== answers[1].deals; tries += 1) answers = await readOnce();
    const [game, seats, settle, log, svg] = answers;
    Object.assign(state, { game, seats, settle, log });
    statusNode.textContent = statusLine(game);
    document.body.dataset.deals = String(game.deals);
    if (svg !== null) sheet.innerHTML = svg; // drawn by prefcalc, every name escaped
    if (!target.value) target.placeholder = String(game.target);
    if (mode.item) {
      const now = log.find((it) => it.number === mode.item.number);
      if (!now) { mode = { kind: "new", item: null }; d = fresh(); } else mode.item = now;
    }
    drawSummary();
    drawList();
    draw();
  }

  /* --- wiring ---------------------------------------------------------------------------- */

  tap(summary, toggleSheet);
  tap(record, recordDeal);
  tap(undo, undoLast);
  tap(cancel, cancelEdit);
  async function sendLine(text) {
    const answer = await send(text);
    if (!answer) return false;
    output.textContent = answer.output || t("done");
    output.hidden = false;
    toast(firstLine(answer.output) || t("done"));
    followed.refresh();
    return true;
  }
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!line.value.trim()) return;
    if (await sendLine(line.value)) line.value = "";
  });
  tap(settleButton, () => sendLine("settle"));
  tap(averageButton, () => sendLine("settle average"));
  tap(targetButton, () => { const v = target.value.trim(); if (v) sendLine("set target=" + v); });
  if (readOnly) line.disabled = true;

  const followed = follow(table, read, live);
  draw();
  return { refresh: followed.refresh, stop: followed.stop };
}
