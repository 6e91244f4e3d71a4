import assert from "node:assert/strict";
import { test } from "node:test";
import { dom, web } from "./setup.js";

const { Live, follow, readError } = await web("common.js");
const { Refused } = await web("engine.js");

/** A table whose stream the test drives. */
function streamed() {
  /** @type {((v: string | null) => void) | null} */
  let announce = null;
  /** @type {((info: any) => void) | null} */
  let state = null;
  return {
    kind: "http",
    /** @param {(v: string | null) => void} fn @param {(info: any) => void} onState */
    subscribe(fn, onState) {
      announce = fn;
      state = onState;
      return () => { announce = null; };
    },
    /** @param {string | null} v */
    announce(v) { if (announce) announce(v); },
    /** @param {any} info */
    state(info) { if (state) state(info); },
  };
}

/** Until no reading is under way. */
async function settled() {
  do await new Promise((resolve) => setImmediate(resolve));
  while (globalThis.document.body.dataset.reading !== "false");
}

test("a change announced with the version drawn makes no reading; another version does", async () => {
  const doc = dom();
  const badge = doc.createElement("span");
  doc.body.append(badge);
  const table = streamed();
  let version = "v1"; // the ledger's
  let reads = 0;
  const followed = follow(table, async () => { reads += 1; return version; }, new Live(badge));
  await settled();
  assert.equal(reads, 1);
  assert.equal(doc.body.dataset.version, "v1");
  table.state({ state: "live" });
  table.announce("v1"); // a stream that comes back greets with the state on the screen
  await settled();
  assert.equal(reads, 1);
  version = "v2";
  table.announce("v2"); // a write
  await settled();
  assert.equal(reads, 2);
  assert.equal(doc.body.dataset.version, "v2");
  table.announce(null); // a change without a version (the phone's table): read
  await settled();
  assert.equal(reads, 3);
  assert.equal(badge.dataset.state, "live");
  followed.stop();
});

test("a reading that fails: unreachable in the page's words, a refusal in its own line", async () => {
  assert.deepEqual(readError(new Refused("", 0)), { why: "unreachable", message: "" });
  assert.deepEqual(readError(new Refused("g.json: the ledger is corrupt", 422)), { why: "error", message: "g.json: the ledger is corrupt" });
  const doc = dom();
  const badge = doc.createElement("span");
  const problem = doc.createElement("p");
  doc.body.append(badge, problem);
  const table = streamed();
  const followed = follow(table, async () => { throw new Refused("g.json: the ledger is corrupt", 422); }, new Live(badge, problem));
  await followed.refresh();
  table.state({ state: "live" });
  assert.equal(badge.dataset.state, "stale");
  assert.equal(badge.dataset.why, "error");
  assert.equal(problem.textContent, "g.json: the ledger is corrupt");
  followed.stop(); // no retry left behind
});
