/* The table of a game on this phone (WorkerTable): prefcalc's engine in a Web Worker, the
   ledger kept in the phone's storage. It has the methods and gives the JSON of serve's
   HttpTable (engine.js, the same file as serve's), so the score page and the watch view
   (score.js, watch.js: the same files as serve's) are given one or the other and never know
   which; see docs/engine-protocol.md.

   A refusal rejects with engine.js's Refused: the CLI's one line, and a status that is never
   0 (0 is "the server could not be reached": nothing here is ever unreachable). */
import { Lines, Refused } from "./engine.js";
import { Conflict } from "./storage.js";

/** @typedef {import("./engine.js").LineAnswer} LineAnswer */

export { Refused };

const REFUSED = 422; // the engine refused the line or the request (as serve answers it)
const CONFLICT = 409; // another window of the app wrote the game meanwhile
const STORAGE = 507; // the phone's storage did not keep it

/**
 * What the worker said it is, once ready (docs/engine-protocol.md).
 * @typedef {{version: string, python: string, lang: string}} Hello
 */

/* The worker, shared by every game on the phone: requests go in order, answers by id. */
export class Engine {
  /** @param {string} [url] the worker's script */
  constructor(url = "worker.js") {
    this.worker = new Worker(new URL(url, document.baseURI), { type: "module" });
    /** @type {Map<number, {resolve: (value: any) => void, reject: (error: Error) => void, op: string}>} */
    this.pending = new Map();
    /** @type {Record<string, number>} the engine's own time of the last answer, by operation (ms) */
    this.took = {};
    this.next = 1;
    /** @type {Hello | undefined} */
    this.hello = undefined;
    /** @type {{ms?: number, python?: number, engine?: number}} */
    this.timings = {};
    /** @type {Promise<Hello>} */
    this.ready = new Promise((resolve, reject) => {
      this.worker.addEventListener("message", (event) => {
        const m = event.data || {};
        if (m.type === "ready") {
          this.hello = m.hello;
          this.timings = { ms: m.ms, python: m.python, engine: m.engine };
          resolve(m.hello);
          return;
        }
        if (m.type === "failed") { reject(new Refused(m.error, 500)); return; }
        const waiter = this.pending.get(m.id);
        if (!waiter) return;
        this.pending.delete(m.id);
        this.took[waiter.op] = m.ms; // the engine's own time, by operation (the figures)
        if (m.ok) waiter.resolve(m.result); else waiter.reject(new Refused(m.error, REFUSED));
      });
      this.worker.addEventListener("error", (event) => reject(new Refused(event.message || "the engine failed to start", 500)));
    });
  }

  /**
   * One operation of the engine; its result, or a Refused with its one line.
   * @param {string} op
   * @param {Record<string, unknown>} [args]
   * @returns {Promise<any>}
   */
  call(op, args = {}) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, op });
      this.worker.postMessage({ id, op, args });
    });
  }
}

/* One game on the phone: the engine's answers, and every change saved to the phone's storage
   before the answer is given (a line is "recorded" only once it is stored). */
export class WorkerTable extends Lines {
  /**
   * @param {Engine} engine
   * @param {string} name the game's name
   * @param {import("./storage.js").Store} store
   * @param {string} base the ledger's text the worker holds, as the phone keeps it
   * @param {(name: string) => void} [announce] tells the app's other windows of a write
   */
  constructor(engine, name, store, base, announce) {
    super();
    this.kind = "worker";
    this.engine = engine;
    this.name = name;
    this.store = store;
    this.base = base;
    this.announce = announce || (() => {});
    /** @type {Set<(version: string | null) => void>} */
    this.listeners = new Set();
  }

  /* The game again as the phone keeps it (another window wrote it, or a write failed). */
  async reload() {
    const kept = await this.store.get(this.name);
    if (!kept) return;
    await this.engine.call("open", { name: this.name, ledger: kept.ledger, redo: kept.redo });
    this.base = kept.ledger;
    this.changed(null);
  }

  /** The game changed: its version (null: not known here, read it). @param {string | null} version */
  changed(version) {
    for (const fn of this.listeners) fn(version);
  }

  /**
   * One reading of the game (the worker's op `reading`: serve's /api/reading).
   * @param {import("./engine.js").ReadingOptions} [opts]
   * @returns {Promise<import("./engine.js").Reading>}
   */
  reading(opts = {}) {
    return this.engine.call("reading", {
      name: this.name,
      last: opts.last === undefined || opts.last === null ? null : Number(opts.last),
      method: opts.method || "pairwise",
      rounding: opts.rounding || "exact",
      sheet: !!opts.sheet,
    });
  }

  game() { return this.engine.call("game", { name: this.name }); }
  /** @param {number | null} [last] */
  log(last) {
    return this.engine.call("log", { name: this.name, last: last === undefined || last === null ? null : Number(last) });
  }
  settle(method = "pairwise", rounding = "exact") { return this.engine.call("settle", { name: this.name, method, rounding }); }
  seats() { return this.engine.call("seats", { name: this.name }); }
  async sheetSvg() { return (await this.engine.call("sheet", { name: this.name })).svg; }
  summary() { return this.engine.call("summary", { name: this.name }); }
  cases() { return this.engine.call("cases", { name: this.name }); }

  /**
   * One play line, carried out once per request id by the engine (the same id again: the
   * first answer, nothing written, as serve's POST /api/lines); its change is kept in the
   * phone's storage before it is answered.
   * @param {string} text
   * @param {string} [id]
   * @returns {Promise<LineAnswer>}
   */
  async line(text, id) {
    const base = this.base; // what the line is carried out on (another window may reload it meanwhile)
    const result = await this.engine.call("line", { name: this.name, line: text, ...(id ? { id } : {}) });
    document.body.dataset.lineMs = String(this.engine.took.line ?? "");
    if (result.files) {
      const summary = await this.summary();
      try {
        await this.store.save(this.name, result.files, summary, this.engine.hello ? this.engine.hello.version : "", base);
      } catch (error) {
        // the phone did not keep it: the worker goes back to what the phone holds (and
        // forgets the request: sent again, it is carried out again)
        await this.reload();
        throw new Refused(this.store.refusal(error), error instanceof Conflict ? CONFLICT : STORAGE);
      }
      this.base = result.files.ledger;
      this.announce(this.name);
      this.changed(result.version || null);
    }
    return { output: result.output, deals: result.deals };
  }

  /**
   * What the request `id` was answered (null: none of that id was carried out; a refused
   * one rejects with its refusal): the engine's op `answer`, as serve's GET /api/lines/{id}.
   * @param {string} id
   * @returns {Promise<LineAnswer | null>}
   */
  async answer(id) {
    const kept = await this.engine.call("answer", { name: this.name, id });
    return kept ? { output: kept.output, deals: kept.deals } : null;
  }

  /**
   * fn(version) after every change of the game (this window's, with its version; another
   * window's, heard of, with none); there is no connection to lose: follow() shows the table
   * live.
   * @param {(version: string | null) => void} fn
   * @param {unknown} [_onState]
   */
  subscribe(fn, _onState) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}
