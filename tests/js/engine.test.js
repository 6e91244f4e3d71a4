import assert from "node:assert/strict";
import { test } from "node:test";
import { appFolder, dom, web } from "./setup.js";

const { HttpTable, Refused, readEvents, readingQuery } = await web("engine.js");

/**
 * A fake fetch: answers by the path, and keeps what was asked.
 * @param {Record<string, (init: any) => Response | Promise<Response>>} routes
 */
function server(routes) {
  /** @type {{url: string, init: any}[]} */
  const asked = [];
  /** @type {typeof fetch} */
  const fetcher = async (input, init) => {
    const url = String(input);
    asked.push({ url, init });
    const path = url.split("?")[0];
    const route = routes[path];
    if (!route) throw new TypeError("Failed to fetch");
    return route(init);
  };
  return { fetcher, asked };
}

const json = (/** @type {unknown} */ body, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

test("a reading is one request: its options in the query", async () => {
  const reading = { version: "v1", game: {}, seats: {}, log: [], settle: {}, cases: {} };
  const { fetcher, asked } = server({ "/t/1/2/api/reading": () => json(reading) });
  const table = new HttpTable("/t/1/2/", "tok", fetcher);
  assert.deepEqual(await table.reading({ last: 30, method: "average", sheet: true }), reading);
  assert.equal(asked.length, 1);
  assert.equal(asked[0].url, "/t/1/2/api/reading?last=30&method=average&rounding=exact&sheet=1");
  assert.equal(readingQuery({}), "?method=pairwise&rounding=exact&sheet=0");
});

test("a line: its id and the token; a refusal is the server's one line", async () => {
  const { fetcher, asked } = server({
    "/api/lines": (init) => {
      const body = JSON.parse(init.body);
      return body.line === "bad" ? json({ error: "there is no contract level 5" }, 422) : json({ output: "recorded", deals: 1 });
    },
  });
  const table = new HttpTable("", "secret", fetcher);
  assert.deepEqual(await table.line("game A 7h 7 B:w C:p", "id-1"), { output: "recorded", deals: 1 });
  assert.equal(asked[0].init.headers.Authorization, "Bearer secret");
  assert.deepEqual(JSON.parse(asked[0].init.body), { line: "game A 7h 7 B:w C:p", id: "id-1" });
  const refused = await table.line("bad").catch((e) => e);
  assert.ok(refused instanceof Refused);
  assert.equal(refused.status, 422);
  assert.equal(refused.message, "there is no contract level 5");
  assert.match(JSON.parse(asked[1].init.body).id, /^[0-9a-f]{18}$/); // an id of its own
});

test("a server that cannot be reached: status 0, and no browser's words", async () => {
  const { fetcher } = server({});
  const table = new HttpTable("", "", fetcher);
  const lost = await table.line("undo", "x").catch((e) => e);
  assert.equal(lost.status, 0);
  assert.equal(lost.message, "");
  const cut = await new HttpTable("", "", async () => new Response("{\"out", { status: 200 })).reading().catch((e) => e);
  assert.equal(cut.status, 0); // an answer cut on its way is one not received
});

test("a lost answer asked for by its id: the answer, or null when none was carried out", async () => {
  const { fetcher, asked } = server({
    "/api/lines/kept": () => json({ output: "recorded: deal 3", deals: 3 }),
    "/api/lines/never": () => json({ error: "no request never was carried out here" }, 404),
    "/api/lines/refused": () => json({ error: "unknown player" }, 422),
  });
  const table = new HttpTable("", "tok", fetcher);
  assert.deepEqual(await table.answer("kept"), { output: "recorded: deal 3", deals: 3 });
  assert.equal(await table.answer("never"), null);
  const refused = await table.answer("refused").catch((e) => e);
  assert.equal(refused.status, 422);
  assert.equal(refused.message, "unknown player");
  assert.equal(asked[0].init.headers.Authorization, "Bearer tok");
});

test("the event stream: each ledger event's version, comments and other events skipped", async () => {
  const text = ": ping\n\nevent: ledger\ndata: {\"version\": \"a1\"}\n\nevent: other\ndata: x\n\r\nevent: ledger\r\ndata: not json\r\n\r\n";
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.slice(0, 20)); // cut anywhere: read whole
      controller.enqueue(bytes.slice(20));
      controller.close();
    },
  });
  /** @type {(string | null)[]} */
  const seen = [];
  await readEvents(body, (v) => seen.push(v));
  assert.deepEqual(seen, ["a1", null]);
});

/** The phone's engine, faked: the operations it was asked; a line written once per id. */
function fakeEngine() {
  const calls = /** @type {{op: string, args: any}[]} */ ([]);
  /** @type {Map<string, any>} */
  const kept = new Map();
  let deals = 0;
  return {
    calls,
    hello: { version: "9.9", python: "3.12", lang: "en" },
    took: {},
    /** @param {string} op @param {any} args */
    async call(op, args) {
      calls.push({ op, args });
      if (op === "line") {
        if (args.id && kept.has(args.id)) return kept.get(args.id); // the first answer, no files
        if (args.line === "bad") throw new Refused("refused", 422);
        deals += 1;
        const answer = { output: "recorded", deals, version: "v" + deals };
        if (args.id) kept.set(args.id, answer);
        return { ...answer, files: { ledger: "L" + deals, redo: null } };
      }
      if (op === "answer") return kept.get(args.id) || null;
      if (op === "summary") return { players: ["A"], created: "", deals, convention: "Sochi" };
      if (op === "reading") return { version: "v" + deals, args };
      throw new Refused("unknown request: " + op, 422);
    },
  };
}

function fakeStore() {
  const saved = /** @type {string[]} */ ([]);
  return {
    saved,
    async save(/** @type {string} */ _name, /** @type {any} */ files) { saved.push(files.ledger); },
    async get() { return null; },
    refusal: () => "storage",
  };
}

test("the phone's table: one reading is one operation of the engine", async () => {
  dom();
  const load = appFolder();
  const { WorkerTable } = await load("worker-table.js");
  const engine = fakeEngine();
  const table = new WorkerTable(engine, "g", fakeStore(), "L0", () => {});
  const r = await table.reading({ last: 30, sheet: true });
  assert.deepEqual(engine.calls, [{ op: "reading", args: { name: "g", last: 30, method: "pairwise", rounding: "exact", sheet: true } }]);
  assert.equal(r.version, "v0");
});

test("the phone's table: a line's id goes to the engine; a change is kept, then announced with its version", async () => {
  dom();
  const load = appFolder();
  const { WorkerTable } = await load("worker-table.js");
  const engine = fakeEngine();
  const store = fakeStore();
  /** @type {string[]} */
  const announced = [];
  const table = new WorkerTable(engine, "g", store, "L0", (/** @type {string} */ name) => announced.push(name));
  /** @type {(string | null)[]} */
  const heard = [];
  const stop = table.subscribe((/** @type {string | null} */ v) => heard.push(v));
  const [first, again] = await Promise.all([table.line("game A 7h 7 B:w C:p", "id-1"), table.line("game A 7h 7 B:w C:p", "id-1")]);
  assert.deepEqual(first, { output: "recorded", deals: 1 });
  assert.deepEqual(again, first);
  assert.deepEqual(engine.calls.filter((c) => c.op === "line").map((c) => c.args.id), ["id-1", "id-1"]);
  assert.deepEqual(store.saved, ["L1"]); // written once, kept before it is answered
  assert.deepEqual(announced, ["g"]);
  assert.deepEqual(heard, ["v1"]);
  assert.deepEqual(await table.answer("id-1"), { output: "recorded", deals: 1 });
  assert.equal(await table.answer("id-2"), null);
  await assert.rejects(table.line("bad", "id-3"), /refused/);
  assert.equal(table.base, "L1");
  stop();
});
