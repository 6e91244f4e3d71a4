import assert from "node:assert/strict";
import { test } from "node:test";
import { EN, RU, web } from "./setup.js";

const words = await web("words.js");

test("a message in the page's words, a name declined as the reading's cases say", () => {
  words.setWords(RU);
  assert.equal(words.t("whists on {player}", { player: "Аня" }), "висты на Аню");
  assert.equal(words.t("whists on {player}", { player: "Боря" }), "висты на Боря"); // no forms: as typed
  assert.equal(words.t("not in the dictionary {x}", { x: 1 }), "not in the dictionary 1");
  words.setCases({ "Боря": { acc: "Борю" } });
  assert.equal(words.t("whists on {player}", { player: "Боря" }), "висты на Борю");
  assert.equal(words.t("whists on {player}", { player: "Аня" }), "висты на Аня"); // this reading's cases only
});

test("Russian plurals: one, few, many", () => {
  words.setWords(RU);
  assert.deepEqual([1, 2, 5, 11, 21, 22, 25, 112].map(words.deals), [
    "1 раздача", "2 раздачи", "5 раздач", "11 раздач", "21 раздача", "22 раздачи", "25 раздач", "112 раздач",
  ]);
  words.setWords(EN);
  assert.deepEqual([1, 2].map(words.deals), ["1 deal", "2 deals"]);
});

test("the table's words: the page's language, else play's own code", () => {
  words.setWords(RU);
  assert.equal(words.table("suits", "h"), "ч");
  assert.equal(words.table("commands", "edit"), "исправить");
  assert.equal(words.table("commands", "explain"), "explain"); // not given: play's English word
  words.setWords(EN);
  assert.equal(words.table("kinds", "passes"), "passes");
  assert.equal(words.lang(), "en");
});
