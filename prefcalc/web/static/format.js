/* Numbers, money, contracts and the lines the pages write, in the page's language: the one
   place the pages' scripts format anything (the watch view, the score page, the hall and the
   app all import it). Its Russian is prefcalc.views.numbers' (the decimal comma, grouped
   thousands, the minus sign, the rouble sign), checked against it by tests/test_pages_format.py;
   the words come from the page's dictionary (words.js). */
import { deals, lang, signs, t } from "./words.js";

const MINUS = "\u2212";

/**
 * An amount (a JSON number) for people: at most two decimals, or exactly `places`; in Russian
 * the decimal comma, grouped thousands and the minus sign (as prefcalc.views.numbers).
 * @param {number} v
 * @param {number} [places]
 * @param {string} [language] the page's language (the dictionary's by default)
 */
export function number(v, places, language = lang()) {
  const rounded = Math.round(v * 100) / 100 + 0; // + 0: no "-0"
  if (language !== "ru") {
    return places === undefined ? String(rounded) : rounded.toFixed(places);
  }
  const digits = places === undefined ? { maximumFractionDigits: 2 } : { minimumFractionDigits: places, maximumFractionDigits: places };
  const text = new Intl.NumberFormat("ru-RU", digits).format(Math.abs(rounded));
  return (rounded < 0 ? MINUS : "") + text;
}

/** An amount with its sign: "+4", "−2,5". @param {number} v @param {string} [language] */
export function signed(v, language = lang()) {
  return (v > 0 ? "+" : "") + number(v, undefined, language);
}

/** @type {Map<string, string>} */
const SYMBOLS = new Map();

/** A currency's sign in Russian ("RUB" -> "₽"); a code Intl does not know keeps its letters. @param {string} currency */
function symbol(currency) {
  if (!/^[A-Za-z]{3}$/.test(currency)) return currency;
  let found = SYMBOLS.get(currency);
  if (found === undefined) {
    found = currency.toUpperCase();
    try {
      const parts = new Intl.NumberFormat("ru-RU", { style: "currency", currency: found, currencyDisplay: "narrowSymbol" }).formatToParts(1);
      found = (parts.find((p) => p.type === "currency") || { value: found }).value;
    } catch { /* a code Intl does not know keeps its letters */ }
    SYMBOLS.set(currency, found);
  }
  return found;
}

/**
 * A sum of money: "12.67 EUR" in English (as the CLI writes it), "−12,67 ₽" in Russian.
 * @param {number} v
 * @param {string} currency
 * @param {string} [language]
 */
export function money(v, currency, language = lang()) {
  const places = Number.isInteger(v) ? 0 : 2;
  if (language !== "ru") return (number(v, places, language) + (currency ? " " + currency : "")).trim();
  return number(v, places, language) + (currency ? "\u00a0" + symbol(currency) : "");
}

/** Money with its sign: "+12 ₽". @param {number} v @param {string} currency @param {string} [language] */
export function signedMoney(v, currency, language = lang()) {
  return (v > 0 ? "+" : "") + money(v, currency, language);
}

/**
 * "7♥", "8NT" / "8БК" for a contract's code ("7h", "8nt"): the signs are the page's
 * (WORDS.signs: prefcalc.terms.suit).
 * @param {string} code
 * @param {Record<string, string>} [given] the signs (the dictionary's by default)
 */
export function contractLabel(code, given = signs()) {
  const m = /^(\d+)(s|c|d|h|nt)$/.exec(String(code || ""));
  if (!m) return String(code || "");
  return m[1] + (given[m[2]] || m[2]);
}

/**
 * @typedef {object} GameStatus  what the status line says (show --json, and the seats)
 * @property {string} convention
 * @property {number} target
 * @property {number} deals
 * @property {boolean} finished
 * @property {string | null} next_dealer
 * @property {number} lowest_contract
 * @property {number} passes_streak
 */

/**
 * The game in one line: "Sochi · to 20 · 13 deals · Anna deals next"; at five, who sits the
 * next deal out ("Boris and Vera sit out").
 * @param {GameStatus} game
 * @param {string[]} [out] who sits the next deal out
 */
export function statusLine(game, out = []) {
  const parts = [t(game.convention), t("to {target}", { target: game.target }), deals(game.deals)];
  if (game.finished) parts.push(t("finished"));
  else {
    parts.push(t("{player} deals next", { player: game.next_dealer }));
    if (out.length > 1) parts.push(t("{players} sit out", { players: out.join(" " + t("and") + " ") }));
    if (game.lowest_contract > 6) parts.push(t("lowest contract {level}", { level: game.lowest_contract }));
  }
  if (game.passes_streak) parts.push(t("all-pass ×{n}", { n: game.passes_streak }));
  return parts.join(" · ");
}

/**
 * @typedef {object} Write  one write of a deal (log --json)
 * @property {string} player
 * @property {string} column  pool, mountain or whists
 * @property {string | null} [on]  whose whists
 * @property {number} amount
 * @property {string} [reason]
 * @property {string} [said]  the reason in the page's words
 */

/**
 * What a write is, in words: "Anna +4 pool", "Boris +12 whists on Anna".
 * @param {Write} w
 * @param {string} [language]
 */
export function writeText(w, language = lang()) {
  const where = w.on ? t("whists on {player}", { player: w.on }) : into(w.column);
  return w.player + " " + signed(w.amount, language) + " " + where;
}

/** Where a write goes, after its amount: +4 pool / +4 в пулю (prefcalc.terms.into). @param {string} column */
function into(column) {
  if (column === "pool") return t("into pool");
  if (column === "mountain") return t("into mountain");
  if (column === "whists") return t("into whists");
  return t(column);
}

/**
 * The writes of a deal, one line per place written ("Anna +24 whists on Vera; Vera +4 pool"),
 * or "nothing written".
 * @param {Write[]} writes
 * @param {string} [language]
 */
export function writesText(writes, language = lang()) {
  /** @type {Map<string, Write>} */
  const merged = new Map();
  for (const w of writes) {
    const key = [w.player, w.column, w.on || ""].join("\u0000");
    const was = merged.get(key);
    merged.set(key, was ? { ...was, amount: was.amount + w.amount } : { ...w });
  }
  return merged.size ? [...merged.values()].map((w) => writeText(w, language)).join("; ") : t("nothing written");
}

/**
 * A deal's head: "№14 (Anna dealt): " in the page's words.
 * @param {{number: number, dealer?: string | null}} d
 */
export function dealHead(d) {
  return d.dealer ? t("№{number} ({dealer} dealt): ", { number: d.number, dealer: d.dealer }) : "№" + d.number + ": ";
}
