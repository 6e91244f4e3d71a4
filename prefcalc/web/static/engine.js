/* The engine a page talks to: one game, served by `prefcalc serve` (HttpTable, its JSON
   API, here) or on the phone (WorkerTable: prefcalc's engine in a Web Worker, in the offline
   app). Both have the same methods and give the same JSON, so a page (the watch view, the
   score page) is written once against this interface. The pages call nothing else: no
   fetch outside this file.

     reading(opts)             the game, the seats, the deals,    GET  /api/reading
                               the settlement and the names'      ?last=N&method=&rounding=
                               cases from one load of the ledger, &sheet=0|1
                               with its version (and the sheet
                               as SVG when asked): a page draws
                               one state, never halves of two
     line(text, id)            one play line: {output, deals}   POST /api/lines
                               (id: the request's name; the same id again is answered
                               with the first answer and writes nothing)
     answer(id)                what the request `id` was answered GET /api/lines/{id}
                               (null: it was never carried out): after a lost answer
     subscribe(fn, onState)    fn(version) after every change of the ledger; onState({state:
                               "live" | "stale", why, message, status}) as the connection
                               comes and goes; returns the unsubscribe function
     game() log(last) settle(method, rounding) seats() cases() sheetSvg()
                               each part of a reading alone (show --json, log --json, ...)
     explain(n) undo(id) redo(id) edit(n, deal, id) insert(n, deal, id) remove(n, id)
                               play lines (id optional, as for line)

   A refusal rejects with a Refused whose message is the CLI's one line (and status the
   HTTP status, 0 when the server could not be reached: the message is then empty, the page
   says it in its own words). */
import { randomId } from "./common.js";

/**
 * @typedef {object} Player  a player of the sheet (show --json)
 * @property {string} name
 * @property {number} pool
 * @property {number} mountain
 * @property {Record<string, number>} whists
 */

/**
 * @typedef {object} Game  the sheet (show --json)
 * @property {string} convention
 * @property {number} target
 * @property {Player[]} players
 * @property {number} deals
 * @property {string | null} next_dealer
 * @property {number} passes_streak
 * @property {number} lowest_contract
 * @property {boolean} finished
 */

/**
 * @typedef {object} Seats  who deals next and who sits it out
 * @property {string[]} players
 * @property {string | null} next_dealer
 * @property {string[]} sitting_out
 * @property {number} lowest_contract
 * @property {boolean} finished
 * @property {number} deals
 */

/**
 * @typedef {object} Defender
 * @property {string} player
 * @property {"w" | "p" | "h" | "r"} role
 * @property {number | null} [tricks]
 */

/**
 * @typedef {object} LogItem  a deal as the pages list it (log --json, and its table)
 * @property {number} number
 * @property {string} kind  contract, misere, passes, or a line of the record that is no deal
 * @property {string | null} [dealer]
 * @property {string} notation  the deal as play reads it, in English
 * @property {string} [shorthand]  the deal in the table's shorthand of the page's language
 * @property {boolean} [forced]
 * @property {boolean | null} [deletable]  whether `delete N` succeeds (null: not judged)
 * @property {string} [delete_refusal]  why not, in one line
 * @property {string} [declarer]
 * @property {string} [contract]
 * @property {number | Record<string, number> | null} [tricks]  a contract's or a misère's
 *   tricks; an all-pass deal's, by player
 * @property {Defender[]} [defenders]
 * @property {string[]} [players]  who held cards in it
 * @property {string[]} [sitting_out]
 * @property {number} [lowest_contract]
 * @property {import("./format.js").Write[]} writes
 */

/**
 * @typedef {object} Settlement  settle --json
 * @property {string} method
 * @property {string} currency
 * @property {{name: string, whists: number, money: number}[]} players
 * @property {{from: string, to: string, amount: number}[]} payments
 */

/**
 * @typedef {object} Reading  one state of the game, from one load of the ledger
 * @property {string} version  changes with every write
 * @property {Game} game
 * @property {Seats} seats
 * @property {LogItem[]} log
 * @property {Settlement} settle
 * @property {import("./words.js").Cases} cases
 * @property {string} [sheet]  the pool sheet as SVG, when asked for
 */

/**
 * @typedef {object} ReadingOptions
 * @property {number | null} [last]  only the last N deals (all: null)
 * @property {string} [method]  pairwise or average
 * @property {string} [rounding]  exact or whole
 * @property {boolean} [sheet]  the sheet's SVG too
 */

/** @typedef {{output: string, deals: number}} LineAnswer */

/**
 * @typedef {object} StreamState
 * @property {"live" | "stale"} state
 * @property {string} [why]  connecting, unreachable, refused, lost
 * @property {string} [message]
 * @property {number} [status]
 */

/**
 * What a page is given: serve's HttpTable or the app's WorkerTable.
 * @typedef {object} Table
 * @property {string} kind  "http" or "worker"
 * @property {(opts?: ReadingOptions) => Promise<Reading>} reading
 * @property {(text: string, id?: string) => Promise<LineAnswer>} line
 * @property {(id: string) => Promise<LineAnswer | null>} answer
 * @property {(fn: (version: string | null) => void, onState?: (info: StreamState) => void) => () => void} subscribe
 * @property {() => Promise<string>} sheetSvg
 */

export class Refused extends Error {
  /** @param {string} message @param {number} [status] */
  constructor(message, status = 0) {
    super(message);
    this.name = "Refused";
    this.status = status;
  }
}

/** The play lines of the protocol, in play's English words (play reads them in every language). */
export class Lines {
  /** @param {string} _text @param {string} [_id] @returns {Promise<LineAnswer>} */
  line(_text, _id) { return Promise.reject(new Refused("no table", 500)); }
  /** @param {number} n */
  explain(n) { return this.line("explain " + Number(n)); }
  /** @param {string} [id] */
  undo(id) { return this.line("undo", id); }
  /** @param {string} [id] */
  redo(id) { return this.line("redo", id); }
  /** @param {number} n @param {string} deal @param {string} [id] */
  edit(n, deal, id) { return this.line("edit " + Number(n) + " " + deal, id); }
  /** @param {number} n @param {string} deal @param {string} [id] */
  insert(n, deal, id) { return this.line("insert " + Number(n) + " " + deal, id); }
  /** @param {number} n @param {string} [id] */
  remove(n, id) { return this.line("delete " + Number(n), id); }
}

/**
 * The query of a reading: ?last=N&method=…&rounding=…&sheet=0|1.
 * @param {ReadingOptions} [opts]
 */
export function readingQuery(opts = {}) {
  const q = new URLSearchParams();
  if (opts.last !== undefined && opts.last !== null) q.set("last", String(Number(opts.last)));
  q.set("method", opts.method || "pairwise");
  q.set("rounding", opts.rounding || "exact");
  q.set("sheet", opts.sheet ? "1" : "0");
  return "?" + q.toString();
}

const RETRY_FIRST = 500; // ms: the first retry of a lost stream, doubled up to RETRY_MOST
const RETRY_MOST = 8000;

/* --- prefcalc serve ------------------------------------------------------------------------ */

export class HttpTable extends Lines {
  /**
   * @param {string} [base] where the table answers: "" for serve's one game, "/t/R/T" in a hall
   * @param {string} [token] the score link's token (a write needs it)
   * @param {typeof fetch} [fetcher] fetch (a test gives its own)
   */
  constructor(base = "", token = "", fetcher) {
    super();
    this.kind = "http";
    this.base = base.replace(/\/$/, "");
    this.token = token;
    this.fetch = fetcher || ((input, init) => fetch(input, init));
  }

  /**
   * A request; a server that cannot be reached is a Refused of status 0 (and no message: the
   * browser's words for it, "Failed to fetch", are no page's).
   * @param {string} path
   * @param {RequestInit} [init]
   */
  async request(path, init = {}) {
    try {
      return await this.fetch(this.base + path, { cache: "no-store", ...init });
    } catch {
      throw new Refused("", 0);
    }
  }

  /**
   * @param {Response} r
   * @returns {Promise<never>}
   */
  async refused(r) {
    const data = await r.json().catch(() => ({}));
    throw new Refused((data && typeof data.error === "string" && data.error) || r.status + " " + r.statusText, r.status);
  }

  /** @param {string} path */
  async get(path) {
    const r = await this.request(path);
    if (!r.ok) return this.refused(r);
    return r.json().catch(() => { throw new Refused("", 0); }); // an answer cut on its way
  }

  /** @param {ReadingOptions} [opts] @returns {Promise<Reading>} */
  reading(opts) { return this.get("/api/reading" + readingQuery(opts)); }

  game() { return this.get("/api/game"); }
  /** @param {number | null} [last] */
  log(last) { return this.get("/api/log" + (last === undefined || last === null ? "" : "?last=" + Number(last))); }
  settle(method = "pairwise", rounding = "exact") {
    return this.get("/api/settle?method=" + encodeURIComponent(method) + "&rounding=" + encodeURIComponent(rounding));
  }
  seats() { return this.get("/api/seats"); }
  cases() { return this.get("/api/cases"); }
  async sheetSvg() {
    const r = await this.request("/sheet.svg");
    if (!r.ok) return this.refused(r);
    return r.text();
  }

  /** @param {string} text @param {string} [id] @returns {Promise<LineAnswer>} */
  async line(text, id = randomId()) {
    const r = await this.request("/api/lines", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + this.token },
      body: JSON.stringify({ line: text, id }),
    });
    if (!r.ok) return this.refused(r);
    return r.json().catch(() => { throw new Refused("", 0); });
  }

  /**
   * What the request `id` was answered, when its answer was lost on the way: the answer, or
   * null when no request of that id was carried out (a refused one rejects with its refusal).
   * @param {string} id
   * @returns {Promise<LineAnswer | null>}
   */
  async answer(id) {
    const r = await this.request("/api/lines/" + encodeURIComponent(id), {
      headers: { Authorization: "Bearer " + this.token },
    });
    if (r.status === 404) return null;
    if (!r.ok) return this.refused(r);
    return r.json().catch(() => { throw new Refused("", 0); });
  }

  /**
   * The server's event stream, read with fetch (so that a refusal's status and one line are
   * known); when it fails or ends, it is opened again after 0.5 s, 1 s, 2 s ... 8 s (sooner
   * when the phone comes back online or the page is shown again), and its first event makes
   * the page catch up.
   * @param {(version: string | null) => void} fn
   * @param {(info: StreamState) => void} [onState]
   */
  subscribe(fn, onState = () => {}) {
    let stopped = false;
    /** @type {AbortController | null} */
    let controller = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    let timer = null;
    let delay = RETRY_FIRST;

    /** @param {Omit<StreamState, "state">} info @param {number} [wait] */
    const retry = (info, wait) => {
      if (stopped) return;
      onState({ state: "stale", ...info });
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(open, Math.max(delay, wait || 0));
      delay = Math.min(delay * 2, RETRY_MOST);
    };

    const open = async () => {
      if (stopped) return;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      if (controller) controller.abort();
      const mine = (controller = new AbortController());
      let r;
      try {
        r = await this.fetch(this.base + "/api/events", {
          cache: "no-store",
          headers: { Accept: "text/event-stream" },
          signal: mine.signal,
        });
      } catch {
        if (mine.signal.aborted) return;
        retry({ why: "unreachable", status: 0, message: "" });
        return;
      }
      if (!r.ok || !r.body) {
        const data = await r.json().catch(() => ({}));
        const after = Number(r.headers.get("Retry-After")) * 1000 || 0;
        retry({ why: "refused", status: r.status, message: (data && data.error) || r.statusText }, after);
        return;
      }
      let greeted = false;
      try {
        await readEvents(r.body, (version) => {
          if (!greeted) {
            greeted = true;
            delay = RETRY_FIRST;
            onState({ state: "live" });
          }
          fn(version);
        });
      } catch {
        if (mine.signal.aborted) return;
      }
      if (!mine.signal.aborted) retry({ why: "lost", status: 0, message: "" });
    };

    const soon = () => { if (timer !== null && !stopped) open(); };
    const shown = () => { if (document.visibilityState === "visible") soon(); };
    window.addEventListener("online", soon);
    document.addEventListener("visibilitychange", shown);
    open();
    return () => {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      if (controller) controller.abort();
      window.removeEventListener("online", soon);
      document.removeEventListener("visibilitychange", shown);
    };
  }
}

/**
 * Read a server-sent event stream to its end: `fn(version)` for each `ledger` event (its
 * version, or null when its data is not the JSON expected); comments (the keep-alive) and
 * other events are skipped.
 * @param {ReadableStream<Uint8Array>} body
 * @param {(version: string | null) => void} fn
 */
export async function readEvents(body, fn) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data = [];
      for (const row of block.split("\n")) {
        if (row.startsWith(":")) continue; // a comment: the keep-alive ping
        const colon = row.indexOf(":");
        const key = colon < 0 ? row : row.slice(0, colon);
        const val = colon < 0 ? "" : row.slice(colon + 1).replace(/^ /, "");
        if (key === "event") event = val;
        else if (key === "data") data.push(val);
      }
      if (event !== "ledger" || !data.length) continue;
      let version = null;
      try { version = JSON.parse(data.join("\n")).version || null; } catch { /* refresh anyway */ }
      fn(version);
    }
  }
}
