import assert from "node:assert/strict";
import { test } from "node:test";
import { EN, RU, web } from "./setup.js";

const words = await web("words.js");
const D = await web("deal.js");

const THREE = { players: ["Anna", "Boris", "Vera"], lowest: 6 };

/** Taps, one after the other, from a fresh game. @param {...(d: any) => any} taps */
function tapped(...taps) {
  return taps.reduce((d, step) => step(d), D.fresh());
}

test("a game, one whister: the line in play's words, defenders from the declarer on", () => {
  words.setWords(EN);
  const d = tapped(
    (x) => D.withDeclarer(x, "Anna"),
    (x) => D.withContract(x, "7h"),
    (x) => D.withTricks(x, 7),
    (x) => D.withRole(x, "Vera", "w"),
  );
  assert.deepEqual(D.defendersOf(d, THREE), ["Boris", "Vera"]);
  assert.equal(D.dealLine(d, THREE), "game Anna 7h 7 Boris:p Vera:w");
  assert.equal(D.dealLine({ ...d, tricks: null }, THREE), ""); // not whole yet
});

test("the same deal on a Russian page, in the table's Russian words", () => {
  words.setWords(RU);
  const hand = { players: ["Аня", "Боря", "Вера"], lowest: 6 };
  const d = tapped(
    (x) => D.withDeclarer(x, "Боря"),
    (x) => D.withContract(x, "6s"),
    (x) => D.withTricks(x, 6),
    (x) => D.withRole(x, "Вера", "w"),
    (x) => D.withRole(x, "Аня", "w"),
    (x) => D.withWhistTricks(x, 3),
  );
  assert.equal(D.dealLine(d, hand), "игра Боря 6п 6 Вера:в3 Аня:в1");
  const item = { number: 2, kind: "contract", notation: "", writes: [] };
  assert.equal(D.commandLine({ kind: "edit", item }, d, hand), "исправить 2 игра Боря 6п 6 Вера:в3 Аня:в1");
  assert.equal(D.commandLine({ kind: "insert", item }, d, hand), "вставить 2 игра Боря 6п 6 Вера:в3 Аня:в1");
  assert.equal(D.commandLine(D.NEW, D.fresh(), hand), "");
});

test("nobody whists, or a half-whist: not played, no tricks asked", () => {
  words.setWords(EN);
  const passed = tapped((x) => D.withDeclarer(x, "Boris"), (x) => D.withContract(x, "8c"));
  assert.equal(D.dealLine(passed, THREE), "game Boris 8c - Vera:p Anna:p");
  const half = D.withRole(passed, "Vera", "h");
  assert.equal(D.needsTricks(half, THREE), false);
  assert.equal(D.dealLine(half, THREE), "game Boris 8c - Vera:h Anna:p");
});

test("both whist: the first whister's tricks, the other's worked out; too many asked again", () => {
  words.setWords(EN);
  let d = tapped(
    (x) => D.withDeclarer(x, "Anna"),
    (x) => D.withContract(x, "6s"),
    (x) => D.withTricks(x, 6),
    (x) => D.withRole(x, "Boris", "w"),
    (x) => D.withRole(x, "Vera", "w"),
  );
  assert.equal(D.dealLine(d, THREE), ""); // the split is asked
  d = D.withWhistTricks(d, 3);
  assert.equal(D.dealLine(d, THREE), "game Anna 6s 6 Boris:w3 Vera:w1");
  d = D.withTricks(d, 8); // 2 left: 3 is too many now
  assert.equal(d.wtricks, null);
  d = D.withRole(d, "Vera", "p"); // one whister again: no split
  assert.equal(D.dealLine(d, THREE), "game Anna 6s 8 Boris:w Vera:p");
});

test("all-pass: the last player untapped takes what 10 leaves; a tap again takes it back", () => {
  words.setWords(EN);
  let d = D.withKind(D.fresh(), "passes");
  d = D.withPasses(d, "Anna", 2);
  assert.equal(D.passCounts(d, THREE), null);
  d = D.withPasses(d, "Boris", 5);
  assert.deepEqual(D.passCounts(d, THREE), { Anna: 2, Boris: 5, Vera: 3 });
  assert.equal(D.autoPasser(d, THREE), "Vera");
  assert.equal(D.dealLine(d, THREE), "passes Anna=2 Boris=5 Vera=3");
  d = D.withPasses(d, "Boris", 5);
  assert.equal(D.dealLine(d, THREE), "");
  // all three tapped: as tapped (14 tricks cannot have happened: the server says so)
  assert.deepEqual(D.passCounts(D.withPasses(D.withPasses(d, "Boris", 6), "Vera", 6), THREE), { Anna: 2, Boris: 6, Vera: 6 });
  assert.equal(D.passCounts(D.withPasses(d, "Boris", 9), THREE), null); // 11 tapped: none left for Vera
});

test("a misère, the kinds' tabs, and a name that needs quoting", () => {
  words.setWords(RU);
  const hand = { players: ["Аня", "Боря", "Вера Павловна"], lowest: 6 };
  let d = D.withKind(D.withDeclarer(D.fresh(), "Вера Павловна"), "misere");
  assert.equal(d.declarer, "Вера Павловна"); // a misère keeps the declarer
  d = D.withTricks(d, 0);
  assert.equal(D.dealLine(d, hand), "мизер 'Вера Павловна' 0");
  assert.equal(D.withKind(d, "passes").declarer, null);
  assert.equal(D.quote("O'Hara"), "'O'\"'\"'Hara'");
});

test("a past deal read back as the taps would have chosen it, at its own table", () => {
  words.setWords(EN);
  const item = {
    number: 2, kind: "contract", notation: "game Vera 6s 6 Gleb:w3 Anna:w1", writes: [],
    declarer: "Vera", contract: "6s", tricks: 6,
    defenders: [{ player: "Gleb", role: "w", tricks: 3 }, { player: "Anna", role: "w", tricks: 1 }],
    players: ["Anna", "Vera", "Gleb"], lowest_contract: 6,
  };
  const d = D.fromItem(item);
  assert.equal(D.dealLine(d, D.itemHand(item)), "game Vera 6s 6 Gleb:w3 Anna:w1");
  const passes = { number: 3, kind: "passes", notation: "passes Anna=2 Boris=5 Vera=3", writes: [], tricks: { Anna: 2, Boris: 5, Vera: 3 }, players: THREE.players };
  assert.equal(D.dealLine(D.fromItem(passes), D.itemHand(passes)), "passes Anna=2 Boris=5 Vera=3");
  assert.equal(D.tappable(passes), true);
  assert.equal(D.tappable({ ...passes, notation: "game Anna 7h 7 Boris:w Vera:p --bombs" }), false);
  assert.equal(D.tappable({ ...passes, kind: "set" }), false);
});

test("a deal at a new table: a declarer who sits out, a contract below the lowest, dropped", () => {
  const d = D.withContract(D.withDeclarer(D.fresh(), "Anna"), "6s");
  const next = D.seated(d, { players: ["Boris", "Vera", "Gleb"], lowest: 7 });
  assert.equal(next.declarer, null);
  assert.equal(next.contract, null);
  assert.equal(D.seated(d, THREE), d); // nothing to drop: the same deal
  assert.deepEqual(D.nextHand({ players: ["A", "B", "C", "D"], sitting_out: ["B"], lowest_contract: 7, next_dealer: "B", finished: false, deals: 3 }), {
    players: ["A", "C", "D"], lowest: 7,
  });
});
