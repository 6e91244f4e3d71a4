/* What the pages share (the watch view, the score page, the hall, the offline app's pages):
   the badge that says whether a page is live, following a table's changes, and the last deal
   and the settlement as the watch view shows them. No request of its own: every answer comes
   from a table (engine.js). */
import { el } from "./dom.js";
import { dealHead, money, signed, signedMoney, writeText } from "./format.js";
import { t } from "./words.js";

/** A request's name (a table's line(text, id)): 18 random hex digits. The page keeps it
    until the request is answered, so that a line sent again is carried out once. */
export function randomId() {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Why the last reading failed: "unreachable" (status 0), else "error" with its one line.
 * @typedef {{why: "error" | "unreachable", message: string}} ReadError
 */

/**
 * The badge that says whether the page is live, and why not (data-testid=status, data-state
 * "live" | "stale", data-why the reason: connecting, unreachable, refused, lost, error): the
 * stream of changes must be open and the last reading must have worked; a reading that the
 * server refused (an unreadable ledger) is said in its one line.
 */
export class Live {
  /** @param {HTMLElement} badge @param {HTMLElement | null} [problem] where a reason is said */
  constructor(badge, problem) {
    this.badge = badge;
    this.problem = problem || null;
    /** @type {import("./engine.js").StreamState} */
    this.stream = { state: "stale", why: "connecting" };
    /** @type {ReadError | null} */
    this.error = null;
    this.render();
  }

  /** @param {import("./engine.js").StreamState} info */
  setStream(info) { this.stream = info; this.render(); }
  /** @param {ReadError | null} error */
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
    else if (this.stream.why === "refused") why = this.stream.message || "";
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

/**
 * A failed reading, for the badge: a server that cannot be reached is said so in the page's
 * words, never in the browser's.
 * @param {unknown} e
 * @returns {ReadError}
 */
export function readError(e) {
  const refused = /** @type {{status?: number, message?: string}} */ (e || {});
  if (refused.status === 0) return { why: "unreachable", message: "" };
  return { why: "error", message: String(refused.message || e) };
}

const READ_RETRY_FIRST = 1000; // ms: a failed reading is tried again after this, doubled ...
const READ_RETRY_MOST = 8000; // ... up to this

/**
 * Follow a table: read() now, and again after every change it announces (one reading at a
 * time; a change during a reading makes one more after it). read() answers the version it
 * drew: a change announced with the version already drawn makes no reading (a stream that
 * comes back greets with the ledger's version; the page's own write is announced too).
 * A reading that fails makes the badge stale with its line, and is tried again after 1 s,
 * 2 s, 4 s ... 8 s until one works, whether or not the stream announces a change (a change
 * announced while the page could not read it is never the page's last word).
 * @param {{subscribe: import("./engine.js").Table["subscribe"], kind?: string}} table
 * @param {() => Promise<string | null | void>} read
 * @param {Live} live
 */
export function follow(table, read, live) {
  /** @type {Promise<void> | null} */
  let running = null;
  let again = false;
  /** @type {string | null} */
  let shown = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let retry;
  let delay = READ_RETRY_FIRST;
  let stopped = false;

  /** @returns {Promise<void>} */
  const run = () => {
    if (running) { again = true; return running; }
    running = (async () => {
      document.body.dataset.reading = "true"; // for the tests: a reading is under way
      do {
        again = false;
        clearTimeout(retry);
        retry = undefined;
        try {
          shown = (await read()) || null;
          document.body.dataset.version = shown || "";
          live.setError(null);
          delay = READ_RETRY_FIRST;
        } catch (e) {
          live.setError(readError(e));
          if (!again && !stopped) {
            retry = setTimeout(run, delay);
            delay = Math.min(delay * 2, READ_RETRY_MOST);
          }
        }
      } while (again && !stopped);
      running = null;
      document.body.dataset.reading = "false";
    })();
    return running;
  };

  const unsubscribe = table.subscribe(
    (v) => {
      if (v && v === shown && !live.error) return; // already drawn
      run();
    },
    (info) => live.setStream(info),
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

/**
 * The last deal as the watch view shows it: its head and shorthand, and each write with
 * its reason.
 * @param {import("./engine.js").LogItem[]} items
 * @param {HTMLElement} head
 * @param {HTMLElement} list
 */
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

/**
 * The settlement as the watch view shows it: each one's whists and money, and who pays whom.
 * @param {import("./engine.js").Settlement} s
 * @param {HTMLElement} body the table's body
 * @param {HTMLElement} pays the list of payments
 */
export function renderSettle(s, body, pays) {
  body.replaceChildren();
  for (const p of s.players) {
    const tr = el("tr");
    tr.append(el("td", p.name), el("td", signed(p.whists)), el("td", signedMoney(p.money, s.currency)));
    body.append(tr);
  }
  pays.replaceChildren();
  if (!s.payments.length) pays.append(el("li", t("nobody pays anybody"), "muted"));
  for (const p of s.payments) {
    pays.append(el("li", t("{payer} pays {payee} {amount}", { payer: p.from, payee: p.to, amount: money(p.amount, s.currency) })));
  }
}
