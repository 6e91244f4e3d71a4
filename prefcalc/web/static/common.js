/* prefcalc's pages: the words, numbers and views the watch page and the score page share (and
   the offline app's pages). No external code, and no request of its own: every answer comes
   from a table (engine.js). */

let WORDS = {};

/* A request's name (engine.js's line(text, id)): 18 random hex digits. The page keeps it
   until the request is answered, so that a line sent again is carried out once. */
export function randomId() {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/* The page's dictionary (English message -> the page's words; prefcalc/web/words.py). */
export function setWords(words) { WORDS = words || {}; }

export function pageWords() {
  const node = document.getElementById("words");
  try { return node ? JSON.parse(node.textContent) : {}; } catch (e) { return {}; }
}

export function lang() { return WORDS.lang || "en"; }

/* A message in the page's language; a name's Russian case ({player:acc}) from the players'
   forms the page was given (WORDS.cases: prefcalc.cases.forms); without them, as typed. */
export function t(text, values) {
  let out = typeof WORDS[text] === "string" ? WORDS[text] : text;
  for (const [k, v] of Object.entries(values || {})) {
    out = out.replace(new RegExp("\\{" + k + "(?::(nom|gen|dat|acc|ins|pre))?\\}", "g"), (m, c) => {
      const forms = c && WORDS.cases && WORDS.cases[String(v)];
      return forms && typeof forms[c] === "string" ? forms[c] : String(v);
    });
  }
  return out;
}

/* A message with a count: the language's plural form (WORDS[key] lists them). */
export function plural(key, n) {
  const forms = WORDS[key];
  let form = n === 1 && Array.isArray(forms) ? forms[0] : key;
  if (Array.isArray(forms)) {
    const k = lang() !== "ru" ? (n === 1 ? 0 : 1)
      : n % 10 === 1 && n % 100 !== 11 ? 0
      : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 10 || n % 100 >= 20) ? 1 : 2;
    form = forms[Math.min(k, forms.length - 1)];
  } else if (n === 1) {
    form = key.replace("{n} deals", "{n} deal");
  }
  return form.split("{n}").join(String(n));
}

export function deals(n) { return plural("{n} deals", n); }

export function el(tag, text, cls, attrs) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : String(v));
  }
  return e;
}

/* Make `node`'s children the nodes `fresh` (drawn anew), keeping the ones already there
   where the new ones have the same shape (tag and data-testid, all the way down): their
   text, attributes and `tapped` handler are brought up to date in place. A reading draws the
   controls again after every change, and a tap whose press fell on a button and whose release
   fell on the button drawn in its place would be lost (a click needs both on one element). */
export function morph(node, fresh) {
  const old = [...node.childNodes];
  if (old.length !== fresh.length || !old.every((o, k) => alike(o, fresh[k]))) {
    node.replaceChildren(...fresh);
    return;
  }
  old.forEach((o, k) => bringUp(o, fresh[k]));
}

function alike(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return true;
  return a.tagName === b.tagName && a.getAttribute("data-testid") === b.getAttribute("data-testid");
}

function bringUp(o, n) {
  if (o.nodeType !== Node.ELEMENT_NODE) {
    if (o.nodeValue !== n.nodeValue) o.nodeValue = n.nodeValue;
    return;
  }
  for (const a of [...o.attributes]) if (!n.hasAttribute(a.name)) o.removeAttribute(a.name);
  for (const a of n.attributes) if (o.getAttribute(a.name) !== a.value) o.setAttribute(a.name, a.value);
  o.tapped = n.tapped;
  morph(o, [...n.childNodes]);
}

/* Draw `node`'s children with `fill(box)` into a box of the same kind, then morph them in. */
export function redraw(node, fill) {
  const box = document.createElement(node.tagName);
  fill(box);
  morph(node, [...box.childNodes]);
}

const MINUS = "\u2212";

/* An exact value (a JSON number) for people: at most two decimals; in Russian the decimal
   comma, grouped thousands and the minus sign (as prefcalc.views.numbers writes them). */
export function number(v, places) {
  const rounded = Math.round(v * 100) / 100;
  if (lang() !== "ru") {
    return places === undefined ? String(rounded) : rounded.toFixed(places);
  }
  const digits = places === undefined ? { maximumFractionDigits: 2 } : { minimumFractionDigits: places, maximumFractionDigits: places };
  const text = new Intl.NumberFormat("ru-RU", digits).format(Math.abs(rounded));
  return (rounded < 0 ? MINUS : "") + text;
}

export function signed(v) {
  return (v > 0 ? "+" : "") + number(v);
}

const SYMBOLS = new Map();

function symbol(currency) {
  if (!/^[A-Za-z]{3}$/.test(currency)) return currency;
  if (!SYMBOLS.has(currency)) {
    let found = currency.toUpperCase();
    try {
      const parts = new Intl.NumberFormat("ru-RU", { style: "currency", currency: found, currencyDisplay: "narrowSymbol" }).formatToParts(1);
      found = (parts.find((p) => p.type === "currency") || {}).value || found;
    } catch (e) { /* a code Intl does not know keeps its letters */ }
    SYMBOLS.set(currency, found);
  }
  return SYMBOLS.get(currency);
}

/* A sum of money: "12.67 EUR" in English (as the CLI), "−12,67 ₽" in Russian. */
export function money(v, currency) {
  const places = Number.isInteger(v) ? 0 : 2;
  if (lang() !== "ru") return (number(v, places) + (currency ? " " + currency : "")).trim();
  return number(v, places) + (currency ? "\u00a0" + symbol(currency) : "");
}

export const SUITS = { s: "♠", c: "♣", d: "♦", h: "♥" };

/* "7♥", "8NT" / "8БК" for a contract code ("7h", "8nt"). */
export function contractLabel(code) {
  const m = /^(\d+)(s|c|d|h|nt)$/.exec(String(code || ""));
  if (!m) return String(code || "");
  return m[1] + (m[2] === "nt" ? t("NT") : SUITS[m[2]]);
}

/* The game in one line: "Sochi · to 20 · 13 deals · Anna deals next". */
export function statusLine(game) {
  const parts = [t(game.convention), t("to {target}", { target: game.target }), deals(game.deals)];
  if (game.finished) parts.push(t("finished"));
  else {
    parts.push(t("{player} deals next", { player: game.next_dealer }));
    if (game.lowest_contract > 6) parts.push(t("lowest contract {level}", { level: game.lowest_contract }));
  }
  if (game.passes_streak) parts.push(t("all-pass ×{n}", { n: game.passes_streak }));
  return parts.join(" · ");
}

/* What a write is, in words: "Anna +4 pool", "Boris +12 whists on Anna". */
export function writeText(w) {
  const where = w.on ? t("whists on {player}", { player: w.on }) : into(w.column);
  return w.player + " " + signed(w.amount) + " " + where;
}

/* Where a write goes, after its amount: +4 pool / +4 в пулю (prefcalc.terms.into). */
function into(column) {
  if (column === "pool") return t("into pool");
  if (column === "mountain") return t("into mountain");
  if (column === "whists") return t("into whists");
  return t(column);
}

/* A deal's head: "№14 (Anna dealt): " in the page's words. */
export function dealHead(d) {
  return d.dealer ? t("№{number} ({dealer} dealt): ", { number: d.number, dealer: d.dealer }) : "№" + d.number + ": ";
}

export function renderLast(items, head, list) {
  list.replaceChildren();
  if (!items.length) {
    head.textContent = t("no deals recorded yet");
    head.className = "muted";
    return;
  }
  const d = items[items.length - 1];
  head.className = "";
  head.textContent = dealHead(d) + (d.shorthand || d.notation);
  if (!d.writes.length) list.append(el("li", t("nothing written"), "muted"));
  for (const w of d.writes) {
    const reason = w.said || w.reason;
    list.append(el("li", writeText(w) + (reason ? " — " + reason : "")));
  }
}

export function renderSettle(s, body, pays) {
  body.replaceChildren();
  for (const p of s.players) {
    const tr = el("tr");
    tr.append(el("td", p.name), el("td", signed(p.whists)), el("td", (p.money > 0 ? "+" : "") + money(p.money, s.currency)));
    body.append(tr);
  }
  pays.replaceChildren();
  if (!s.payments.length) pays.append(el("li", t("nobody pays anybody"), "muted"));
  for (const p of s.payments) {
    pays.append(el("li", t("{payer} pays {payee} {amount}", { payer: p.from, payee: p.to, amount: money(p.amount, s.currency) })));
  }
}

/* The badge that says whether the page is live, and why not (data-testid=status, data-state
   "live" | "stale", data-why the reason: connecting, unreachable, refused, lost, error): the
   stream of changes must be open and the last reading must have worked; a reading that the
   server refused (an unreadable ledger) is said in its one line. */
export class Live {
  constructor(badge, problem) {
    this.badge = badge;
    this.problem = problem;
    this.stream = { state: "stale", why: "connecting" };
    this.error = null; // {why: "error" | "unreachable", message}: the last reading failed
    this.render();
  }

  setStream(info) { this.stream = info; this.render(); }
  setError(error) { this.error = error || null; this.render(); }
  get live() { return this.stream.state === "live" && !this.error; }

  render() {
    const b = this.badge;
    const unreachable = t("the server cannot be reached: trying again");
    let text = t("reconnecting");
    let why = "";
    let code = this.stream.why || "";
    if (this.live) { text = t("live"); code = ""; }
    else if (this.error && this.error.why === "error") { text = t("not live"); why = this.error.message; code = "error"; }
    else if (this.error) { why = unreachable; code = "unreachable"; }
    else if (this.stream.why === "connecting") text = t("connecting");
    else if (this.stream.why === "refused" && this.stream.status === 503) why = t("the server has too many watchers: trying again");
    else if (this.stream.why === "refused") why = this.stream.message;
    else why = unreachable;
    b.textContent = text;
    b.dataset.state = this.live ? "live" : "stale";
    b.dataset.why = code;
    b.title = why;
    b.classList.toggle("off", !this.live);
    document.body.dataset.state = b.dataset.state;
    if (this.problem) {
      this.problem.textContent = why;
      this.problem.hidden = this.live || !why;
    }
  }
}

/* Follow a table: read() now, and again after every change it announces (one reading at a
   time; a change during a reading makes one more after it); a stream that comes back greets
   with the ledger's version, read again if it is not the one shown (a change was missed).
   A Russian page asks for the names' cases before each reading (`cases`: false on a page
   whose table has none, the tournament's hall).
   A reading that fails makes the badge stale with its line, and is tried again after 1 s,
   2 s, 4 s ... 8 s until one works, whether or not the stream announces a change (a change
   announced while the page could not read it is never the page's last word). */
export function follow(table, read, live, { cases = true } = {}) {
  let running = null;
  let again = false;
  let version = null;
  let retry = null;
  let delay = READ_RETRY_FIRST;
  let stopped = false;

  const run = () => {
    if (running) { again = true; return running; }
    running = (async () => {
      document.body.dataset.reading = "true"; // for the tests: a reading is under way
      do {
        again = false;
        clearTimeout(retry);
        retry = null;
        try {
          // the names in their cases first: a late arrival or a gender just set is declined
          // in this reading's words, not one reading late
          if (cases && lang() === "ru" && table.cases) setWords({ ...WORDS, cases: await table.cases() });
          await read();
          live.setError(null);
          delay = READ_RETRY_FIRST;
        } catch (e) {
          // a server that cannot be reached is said so, not as the browser's words for it
          const message = String((e && e.message) || e);
          live.setError({ why: e && e.status === 0 ? "unreachable" : "error", message });
          if (!again && !stopped) {
            retry = setTimeout(run, delay);
            delay = Math.min(delay * 2, READ_RETRY_MOST);
          }
        }
      } while (again);
      running = null;
      document.body.dataset.reading = "false";
    })();
    return running;
  };

  const unsubscribe = table.subscribe(
    (v) => {
      if (v && v === version && !live.error) return;
      version = v || null;
      document.body.dataset.version = version || "";
      run();
    },
    (info) => live.setStream(info), // a stream that comes back greets with the version
  );
  // a table on the phone itself (the offline app's WorkerTable) has no connection to lose
  if (table.kind && table.kind !== "http") live.setStream({ state: "live" });
  run();
  const stop = () => {
    stopped = true;
    clearTimeout(retry);
    unsubscribe();
  };
  return { refresh: run, stop };
}

const READ_RETRY_FIRST = 1000; // ms: a failed reading is tried again after this, doubled ...
const READ_RETRY_MOST = 8000; // ... up to this
