/* The engine a page talks to: one game, either served by `prefcalc serve` (HttpTable, its
   JSON API) or on this phone (WorkerTable: prefcalc's engine in a Web Worker, the ledger
   kept in the phone's storage). Both have the same methods and answer the same JSON, so a
   page (the watch view, the score page) is written once against this interface; see
   docs/engine-protocol.md.

     game()                  show --json                    GET  /api/game
     log(last)               log --json (last N deals)      GET  /api/log?last=N
     settle(method, rounding) settle --json                 GET  /api/settle
     seats()                 who deals, who sits out        GET  /api/seats
     sheetSvg()              the pool sheet as SVG text     GET  /sheet.svg
     cases()                 the players' names in the Russian cases, for {player:acc}
     line(text, id)          one play line: {output, deals} POST /api/lines
     explain(n) undo() redo() edit(n, deal) insert(n, deal) remove(n)   play lines
     subscribe(fn)           fn() after every change of the ledger; returns unsubscribe

   A refusal rejects with an Error whose message is the CLI's one line. */

export class Refused extends Error {}

function randomId() {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

class Lines {
  explain(n) { return this.line("explain " + Number(n)); }
  undo() { return this.line("undo"); }
  redo() { return this.line("redo"); }
  edit(n, deal) { return this.line("edit " + Number(n) + " " + deal); }
  insert(n, deal) { return this.line("insert " + Number(n) + " " + deal); }
  remove(n) { return this.line("delete " + Number(n)); }
}

/* --- prefcalc serve ------------------------------------------------------------------------ */

export class HttpTable extends Lines {
  constructor(base = "", token = "") {
    super();
    this.kind = "http";
    this.base = base.replace(/\/$/, "");
    this.token = token;
  }

  async get(path, kind = "json") {
    const r = await fetch(this.base + path, { cache: "no-store" });
    if (!r.ok) {
      const data = await r.json().catch(() => ({ error: r.statusText }));
      throw new Refused(data.error || r.statusText);
    }
    return kind === "json" ? r.json() : r.text();
  }

  game() { return this.get("/api/game"); }
  log(last) { return this.get("/api/log" + (last === undefined ? "" : "?last=" + Number(last))); }
  settle(method = "pairwise", rounding = "exact") {
    return this.get("/api/settle?method=" + encodeURIComponent(method) + "&rounding=" + encodeURIComponent(rounding));
  }
  seats() { return this.get("/api/seats"); }
  sheetSvg() { return this.get("/sheet.svg", "text"); }
  cases() { return Promise.resolve({}); } // serve gives no case forms yet: names as typed

  async line(text, id = randomId()) {
    const r = await fetch(this.base + "/api/lines", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + this.token },
      body: JSON.stringify({ line: text, id }),
    });
    const data = await r.json().catch(() => ({ error: r.statusText }));
    if (!r.ok) throw new Refused(data.error || r.statusText);
    return data;
  }

  subscribe(fn) {
    const source = new EventSource(this.base + "/api/events");
    source.addEventListener("ledger", () => fn());
    return () => source.close();
  }
}

/* --- this phone ---------------------------------------------------------------------------- */

/* The worker, shared by every game on the phone: requests go in order, answers by id. */
export class Engine {
  constructor(url = "worker.js") {
    this.worker = new Worker(new URL(url, document.baseURI), { type: "module" });
    this.pending = new Map();
    this.took = {};
    this.next = 1;
    this.ready = new Promise((resolve, reject) => {
      this.worker.addEventListener("message", (event) => {
        const m = event.data || {};
        if (m.type === "ready") {
          this.hello = m.hello;
          this.timings = { ms: m.ms, python: m.python, engine: m.engine };
          resolve(m.hello);
          return;
        }
        if (m.type === "failed") { reject(new Refused(m.error)); return; }
        const waiter = this.pending.get(m.id);
        if (!waiter) return;
        this.pending.delete(m.id);
        this.took[waiter.op] = m.ms; // the engine's own time, by operation (the figures)
        if (m.ok) waiter.resolve(m.result); else waiter.reject(new Refused(m.error));
      });
      this.worker.addEventListener("error", (event) => reject(new Refused(event.message || "the engine failed to start")));
    });
  }

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
  constructor(engine, name, store, base, announce) {
    super();
    this.kind = "worker";
    this.engine = engine;
    this.name = name;
    this.store = store;
    this.base = base; // the ledger's text the worker holds, as the phone keeps it
    this.announce = announce || (() => {});
    this.listeners = new Set();
  }

  /* The game again as the phone keeps it (another window wrote it, or a write failed). */
  async reload() {
    const kept = await this.store.get(this.name);
    if (!kept) return;
    await this.engine.call("open", { name: this.name, ledger: kept.ledger, redo: kept.redo });
    this.base = kept.ledger;
    for (const fn of this.listeners) fn();
  }

  game() { return this.engine.call("game", { name: this.name }); }
  log(last) { return this.engine.call("log", { name: this.name, last: last === undefined ? null : Number(last) }); }
  settle(method = "pairwise", rounding = "exact") { return this.engine.call("settle", { name: this.name, method, rounding }); }
  seats() { return this.engine.call("seats", { name: this.name }); }
  async sheetSvg() { return (await this.engine.call("sheet", { name: this.name })).svg; }
  summary() { return this.engine.call("summary", { name: this.name }); }
  cases() { return this.engine.call("cases", { name: this.name }); }

  async line(text) {
    const result = await this.engine.call("line", { name: this.name, line: text });
    if (result.files) {
      const summary = await this.summary();
      try {
        await this.store.save(this.name, result.files, summary, this.engine.hello.version, this.base);
      } catch (error) {
        // the phone did not keep it: the worker goes back to what the phone holds
        await this.reload();
        throw new Refused(this.store.refusal(error));
      }
      this.base = result.files.ledger;
      this.announce(this.name);
      for (const fn of this.listeners) fn();
    }
    return { output: result.output, deals: result.deals };
  }

  subscribe(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}
