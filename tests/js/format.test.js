import assert from "node:assert/strict";
import { test } from "node:test";
import { EN, RU, web } from "./setup.js";

const words = await web("words.js");
const format = await web("format.js");

test("numbers: English as the CLI writes them, Russian with the comma, grouping and minus", () => {
  assert.equal(format.number(16.666666, undefined, "en"), "16.67");
  assert.equal(format.number(-2.5, undefined, "en"), "-2.5");
  assert.equal(format.number(12, 2, "en"), "12.00");
  assert.equal(format.number(-0.001, undefined, "en"), "0"); // never "-0"
  assert.equal(format.number(1234.5, undefined, "ru"), "1\u00a0234,5");
  assert.equal(format.number(-2.5, undefined, "ru"), "\u22122,5");
  assert.equal(format.signed(4, "ru"), "+4");
  assert.equal(format.signed(-4, "ru"), "\u22124");
});

test("money: the code in English, the sign in Russian", () => {
  assert.equal(format.money(12.67, "EUR", "en"), "12.67 EUR");
  assert.equal(format.money(12, "", "en"), "12");
  assert.equal(format.money(-12.5, "RUB", "ru"), "\u221212,50\u00a0₽");
  assert.equal(format.money(5, "EUR", "ru"), "5\u00a0€");
  assert.equal(format.money(5, "фишек", "ru"), "5\u00a0фишек"); // not a code: as written
  assert.equal(format.signedMoney(3, "RUB", "ru"), "+3\u00a0₽");
});

test("contracts with the page's signs", () => {
  words.setWords(RU);
  assert.equal(format.contractLabel("7h"), "7♥");
  assert.equal(format.contractLabel("8nt"), "8БК");
  words.setWords(EN);
  assert.equal(format.contractLabel("10nt"), "10NT");
  assert.equal(format.contractLabel("pass"), "pass");
});

const GAME = { convention: "Sochi", target: 20, deals: 13, finished: false, next_dealer: "Аня", lowest_contract: 7, passes_streak: 1 };

test("the status line says who deals, and at five who sits out", () => {
  words.setWords(RU);
  assert.equal(format.statusLine(GAME, ["Аня"]), "Сочи · до 20 · 13 раздач · сдаёт Аня · игры от 7 · распасы ×1");
  assert.equal(
    format.statusLine({ ...GAME, lowest_contract: 6, passes_streak: 0 }, ["Аня", "Боря"]),
    "Сочи · до 20 · 13 раздач · сдаёт Аня · Аня и Боря не играют",
  );
  assert.equal(format.statusLine({ ...GAME, finished: true, passes_streak: 0 }, []), "Сочи · до 20 · 13 раздач · игра окончена");
});

test("a deal's writes, one line per place written", () => {
  words.setWords(RU);
  const writes = [
    { player: "Боря", column: "whists", on: "Аня", amount: 8 },
    { player: "Боря", column: "whists", on: "Аня", amount: 4 },
    { player: "Аня", column: "pool", on: null, amount: 4 },
  ];
  assert.equal(format.writesText(writes, "ru"), "Боря +12 висты на Аню; Аня +4 в пулю");
  assert.equal(format.writesText([], "ru"), "ничего не записано");
  assert.equal(format.dealHead({ number: 14, dealer: "Аня" }), "№14 (сдавал Аня): ");
  assert.equal(format.dealHead({ number: 3, dealer: null }), "№3: ");
});
