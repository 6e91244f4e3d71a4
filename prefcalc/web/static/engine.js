/* The engine a page talks to: one game, served by `prefcalc serve` (HttpTable, its JSON
   API, here) or on the phone (WorkerTable: prefcalc's engine in a Web Worker, in the offline
   app). Both have the same methods and give the same JSON, so a page (the watch view, the
   score page) is written once against this interface. The pages call nothing else: no
   fetch outside this file.

     game()                    show --json                      GET  /api/game
     log(last)                 log --json, each deal with its   GET  /api/log?last=N
                               players, sitting_out, lowest_contract and shorthand
     settle(method, rounding)  settle --json                    GET  /api/settle
     seats()                   who deals, who sits out          GET  /api/seats
     cases()                   the names in the Russian cases   GET  /api/cases
     sheetSvg()                the pool sheet as SVG text       GET  /sheet.svg
     line(text, id)            one play line: {output, deals}   POST /api/lines
                               (id: the request's name; the same id again is answered
                               with the first answer and writes nothing)
     explain(n) undo(id) redo(id) edit(n, deal, id) insert(n, deal, id) remove(n, id)
                               play lines (id optional, as for line)
     subscribe(fn, onState)    fn(version) after every change of the ledger; onState({state:
                               "live" | "stale", why, message, status}) as the connection
                               comes and goes; returns the unsubscribe function

   A refusal rejects with a Refused whose message is the CLI's one line (and status the
   HTTP status, 0 when the server could not be reached). */

export class Refused extends Error {
  constructor(message, status = 0) {
    super(message);
    this.name = "Refused";
    this.status = status;
  }
}

/* A request's name: 18 random hex digits (the server takes 8-64 of [A-Za-z0-9_-]). */
export function randomId() {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class Lines {
  explain(n) { return this.line("explain " + Number(n)); }
  undo(id) { return this.line("undo", id); }
  redo(id) { return this.line("redo", id); }
  edit(n, deal, id) { return this.line("edit " + Number(n) + " " + deal, id); }
  insert(n, deal, id) { return this.line("insert " + Number(n) + " " + deal, id); }
  remove(n, id) { return this.line("delete " + Number(n), id); }
}

const RETRY_FIRST = 500; // ms: the first retry of a lost stream, doubled up to RETRY_MOST
const RETRY_MOST = 8000;

/* --- prefcalc serve ------------------------------------------------------------------------ */

export class HttpTable extends Lines {
  constructor(base = "", token = "") {
    super();
    this.kind = "http";
    this.base = base.replace(/\/$/, "");
    this.token = token;
  }

  async request(path, init = {}) {
    let r;
    try {
      r = await fetch(this.base + path, { cache: "no-store", ...init });
    } catch (e) {
      throw new Refused(String((e && e.message) || e), 0);
    }
    return r;
  }

  async get(path, kind = "json") {
    const r = await this.request(path);
    if (!r.ok) {
      const data = await r.json().catch(() => ({ error: r.statusText }));
      throw new Refused(data.error || r.statusText, r.status);
    }
    return kind === "json" ? r.json() : r.text();
  }

  game() { return this.get("/api/game"); }
  log(last) { return this.get("/api/log" + (last === undefined || last === null ? "" : "?last=" + Number(last))); }
  settle(method = "pairwise", rounding = "exact") {
    return this.get("/api/settle?method=" + encodeURIComponent(method) + "&rounding=" + encodeURIComponent(rounding));
  }
  seats() { return this.get("/api/seats"); }
  cases() { return this.get("/api/cases"); }
  sheetSvg() { return this.get("/sheet.svg", "text"); }

  async line(text, id = randomId()) {
    const r = await this.request("/api/lines", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + this.token },
      body: JSON.stringify({ line: text, id }),
    });
    const data = await r.json().catch(() => ({ error: r.status + " " + r.statusText }));
    if (!r.ok) throw new Refused(data.error || r.statusText, r.status);
    return data;
  }

  /* The server's event stream, read with fetch (so that a refusal's status and one line are
     known); when it fails or ends, it is opened again after 0.5 s, 1 s, 2 s ... 8 s (sooner
     when the phone comes back online or the page is shown again), and its first event makes
     the page catch up. */
  subscribe(fn, onState = () => {}) {
    let stopped = false;
    let controller = null;
    let timer = null;
    let delay = RETRY_FIRST;

    const retry = (info, wait) => {
      if (stopped) return;
      onState({ state: "stale", ...info });
      clearTimeout(timer);
      timer = setTimeout(open, Math.max(delay, wait || 0));
      delay = Math.min(delay * 2, RETRY_MOST);
    };

    const open = async () => {
      if (stopped) return;
      clearTimeout(timer);
      timer = null;
      if (controller) controller.abort();
      const mine = (controller = new AbortController());
      let r;
      try {
        r = await fetch(this.base + "/api/events", {
          cache: "no-store",
          headers: { Accept: "text/event-stream" },
          signal: mine.signal,
        });
      } catch (e) {
        if (mine.signal.aborted) return;
        retry({ why: "unreachable", status: 0, message: String((e && e.message) || e) });
        return;
      }
      if (!r.ok || !r.body) {
        const data = await r.json().catch(() => ({}));
        const after = Number(r.headers.get("Retry-After")) * 1000 || 0;
        retry({ why: "refused", status: r.status, message: data.error || r.statusText }, after);
        return;
      }
      const reader = r.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      let greeted = false;
      try {
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
            try { version = JSON.parse(data.join("\n")).version || null; } catch (e) { /* refresh anyway */ }
            if (!greeted) {
              greeted = true;
              delay = RETRY_FIRST;
              onState({ state: "live" });
            }
            fn(version);
          }
        }
      } catch (e) {
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
      clearTimeout(timer);
      if (controller) controller.abort();
      window.removeEventListener("online", soon);
      document.removeEventListener("visibilitychange", shown);
    };
  }
}
