/* The deal being chosen on the score page, apart from the page: what each tap makes of it
   (pure functions: a deal in, a new deal out), who defends and who whists, the all-pass
   tricks worked out, and the deal as the play line the server reads, written with the
   table's words of the page's language (words.js). No DOM here. */
import { table } from "./words.js";

/** @typedef {"game" | "misere" | "passes"} Kind */
/** @typedef {"w" | "p" | "h" | "r"} Role */

/**
 * @typedef {object} Deal  what has been tapped so far
 * @property {Kind} kind
 * @property {string | null} declarer
 * @property {string | null} contract  a contract's code: "7h", "8nt"
 * @property {number | null} tricks  the declarer's
 * @property {Record<string, Role>} roles  a defender untapped passes
 * @property {number | null} wtricks  the first whister's tricks, when both whist
 * @property {Record<string, number>} passes  the all-pass tricks tapped, by player
 */

/**
 * The table of the deal: who holds cards, in seating order, and the lowest contract.
 * @typedef {object} Hand
 * @property {string[]} players
 * @property {number} lowest
 */

/**
 * What the page is doing with the deal: recording a new one, or editing (inserting before)
 * a deal of the night's list.
 * @typedef {{kind: "new", item: null} | {kind: "edit" | "insert", item: import("./engine.js").LogItem}} Mode
 */

/** A word of the table by its group and code (words.js's `table`). @typedef {(group: keyof import("./words.js").TableWords, code: string) => string} Word */

export const SUITS = ["s", "c", "d", "h", "nt"];

/** A deal with nothing tapped. @param {Kind} [kind] @returns {Deal} */
export function fresh(kind = "game") {
  return { kind, declarer: null, contract: null, tricks: null, roles: {}, wtricks: null, passes: {} };
}

/** @type {Mode} */
export const NEW = { kind: "new", item: null };

/**
 * The next deal's table, from the seats (who sits out holds no cards).
 * @param {import("./engine.js").Seats | null} seats
 * @returns {Hand}
 */
export function nextHand(seats) {
  if (!seats) return { players: [], lowest: 6 };
  return { players: seats.players.filter((p) => !seats.sitting_out.includes(p)), lowest: seats.lowest_contract };
}

/**
 * A past deal's own table (its players then, its lowest contract then).
 * @param {import("./engine.js").LogItem} item
 * @returns {Hand}
 */
export function itemHand(item) {
  return { players: item.players || [], lowest: item.lowest_contract || 6 };
}

/** The defenders in the order they speak: clockwise from the declarer. @param {Deal} d @param {Hand} hand */
export function defendersOf(d, hand) {
  const k = d.declarer === null ? -1 : hand.players.indexOf(d.declarer);
  if (k < 0) return [];
  return [...hand.players.slice(k + 1), ...hand.players.slice(0, k)];
}

/** A defender's role: he passes unless tapped otherwise. @param {Deal} d @param {string} p @returns {Role} */
export function roleOf(d, p) { return d.roles[p] || "p"; }

/** @param {Deal} d @param {Hand} hand */
export function whistersOf(d, hand) {
  return defendersOf(d, hand).filter((p) => roleOf(d, p) === "w");
}

/** Whether a defender half-whisted (the game is then not played). @param {Deal} d @param {Hand} hand */
export function halfWhisted(d, hand) {
  return defendersOf(d, hand).some((p) => roleOf(d, p) === "h");
}

/** Whether the declarer's tricks are asked: a misère, or a game someone whisted (not half). @param {Deal} d @param {Hand} hand */
export function needsTricks(d, hand) {
  return d.kind === "misere" || (d.kind === "game" && !halfWhisted(d, hand));
}

/**
 * The all-pass tricks: as tapped; the one player left untapped takes what 10 leaves (null
 * while more are untapped, or the tapped ones are more than 10).
 * @param {Deal} d
 * @param {Hand} hand
 * @returns {Record<string, number> | null}
 */
export function passCounts(d, hand) {
  /** @type {Record<string, number>} */
  const counts = {};
  const missing = [];
  let sum = 0;
  for (const p of hand.players) {
    const n = d.passes[p];
    if (n === undefined) missing.push(p);
    else { counts[p] = n; sum += n; }
  }
  if (missing.length === 1 && sum <= 10) counts[missing[0]] = 10 - sum;
  else if (missing.length) return null;
  return counts;
}

/** The one player whose all-pass tricks are worked out, not tapped. @param {Deal} d @param {Hand} hand */
export function autoPasser(d, hand) {
  const missing = hand.players.filter((p) => d.passes[p] === undefined);
  return missing.length === 1 ? missing[0] : null;
}

/** A word of the line, quoted as play reads it when it has a space or a quote. @param {string} word */
export function quote(word) {
  return /^[^\s'"\\]+$/.test(word) ? word : "'" + word.replace(/'/g, "'\"'\"'") + "'";
}

/**
 * The deal as a play line in the table's shorthand of the page's language ("" until it is
 * whole): `игра Аня 7ч 7 Боря:п Вера:в` / `game Anna 7h 7 Boris:p Vera:w`, `мизер Аня 0`,
 * `распасы Аня=2 Боря=5 Вера=3`. The line the server reads, and the one the bar shows.
 * @param {Deal} d
 * @param {Hand} hand
 * @param {Word} [word]
 */
export function dealLine(d, hand, word = table) {
  if (d.kind === "passes") {
    const counts = passCounts(d, hand);
    if (!counts || !hand.players.length) return "";
    return [word("kinds", "passes"), ...hand.players.map((p) => quote(p + "=" + counts[p]))].join(" ");
  }
  if (!d.declarer || !hand.players.includes(d.declarer)) return "";
  if (d.kind === "misere") {
    return d.tricks === null ? "" : [word("kinds", "misere"), quote(d.declarer), String(d.tricks)].join(" ");
  }
  if (!d.contract) return "";
  const defs = defendersOf(d, hand);
  const whisters = whistersOf(d, hand);
  let taken = "-"; // nobody whisted, or a half-whist: not played
  if (whisters.length && !halfWhisted(d, hand)) {
    if (d.tricks === null) return "";
    taken = String(d.tricks);
  }
  const level = d.contract.replace(/\D+$/, "");
  const suit = d.contract.slice(level.length);
  const words = [word("kinds", "game"), quote(d.declarer), level + word("suits", suit), taken];
  for (const p of defs) {
    const role = roleOf(d, p);
    let said = p + ":" + word("roles", role);
    if (whisters.length === 2 && role === "w" && d.tricks !== null && taken !== "-") {
      const first = d.wtricks;
      if (first === null || first > 10 - d.tricks) return "";
      said += p === whisters[0] ? first : 10 - d.tricks - first;
    }
    words.push(quote(said));
  }
  return words.join(" ");
}

/**
 * The whole line the Record bar sends and shows: the deal, or `edit N <deal>` / `insert N
 * <deal>` in the page's words (`исправить 2 игра …`); "" until the deal is whole.
 * @param {Mode} mode
 * @param {Deal} d
 * @param {Hand} hand
 * @param {Word} [word]
 */
export function commandLine(mode, d, hand, word = table) {
  const deal = dealLine(d, hand, word);
  if (!deal || mode.kind === "new") return deal;
  return word("commands", mode.kind) + " " + mode.item.number + " " + deal;
}

/** The deals the taps can say whole (a change of terms, a penalty... are edited as lines). */
const TAPPED = new Set(["contract", "misere", "passes"]);

/**
 * Whether a deal of the list is edited with the taps (else its line is put in the line
 * field): a contract, a misère or an all-pass deal without Classic's flags.
 * @param {import("./engine.js").LogItem} item
 */
export function tappable(item) {
  return TAPPED.has(item.kind) && !/ --/.test(item.notation);
}

/**
 * A deal of the night's list as the taps would have chosen it.
 * @param {import("./engine.js").LogItem} item
 * @returns {Deal}
 */
export function fromItem(item) {
  if (item.kind === "contract") {
    /** @type {Record<string, Role>} */
    const roles = {};
    for (const x of item.defenders || []) roles[x.player] = x.role;
    const tricks = typeof item.tricks === "number" ? item.tricks : null;
    const deal = { ...fresh("game"), declarer: item.declarer || null, contract: item.contract || null, tricks, roles };
    const whisters = whistersOf(deal, itemHand(item));
    if (whisters.length === 2) {
      const first = (item.defenders || []).find((x) => x.player === whisters[0]);
      deal.wtricks = first && typeof first.tricks === "number" ? first.tricks : null;
    }
    return deal;
  }
  if (item.kind === "misere") {
    return { ...fresh("misere"), declarer: item.declarer || null, tricks: typeof item.tricks === "number" ? item.tricks : null };
  }
  const tricks = item.tricks && typeof item.tricks === "object" ? item.tricks : {};
  return { ...fresh("passes"), passes: { ...tricks } };
}

/* --- the taps: each gives the deal it makes ------------------------------------------------ */

/** A kind's tab: the declarer stays for a game or a misère. @param {Deal} d @param {Kind} kind @returns {Deal} */
export function withKind(d, kind) {
  if (d.kind === kind) return d;
  return { ...fresh(kind), declarer: kind === "passes" ? null : d.declarer };
}

/** Another declarer: the defenders' roles start again. @param {Deal} d @param {string} p @returns {Deal} */
export function withDeclarer(d, p) {
  if (d.declarer === p) return d;
  return { ...d, declarer: p, roles: {}, wtricks: null };
}

/** @param {Deal} d @param {string} code @returns {Deal} */
export function withContract(d, code) { return { ...d, contract: code }; }

/** The declarer's tricks; the first whister's, if now more than are left, are asked again. @param {Deal} d @param {number} n @returns {Deal} */
export function withTricks(d, n) {
  return { ...d, tricks: n, wtricks: d.wtricks !== null && d.wtricks > 10 - n ? null : d.wtricks };
}

/** A defender's role. @param {Deal} d @param {string} p @param {Role} role @returns {Deal} */
export function withRole(d, p, role) {
  return { ...d, roles: { ...d.roles, [p]: role }, wtricks: role === "w" ? d.wtricks : null };
}

/** @param {Deal} d @param {number} n @returns {Deal} */
export function withWhistTricks(d, n) { return { ...d, wtricks: n }; }

/** A player's all-pass tricks; the same count tapped again is taken back. @param {Deal} d @param {string} p @param {number} n @returns {Deal} */
export function withPasses(d, p, n) {
  const passes = { ...d.passes };
  if (passes[p] === n) delete passes[p];
  else passes[p] = n;
  return { ...d, passes };
}

/**
 * The deal at the table `hand`: a declarer who holds no cards there, or a contract below its
 * lowest, is dropped.
 * @param {Deal} d
 * @param {Hand} hand
 * @returns {Deal}
 */
export function seated(d, hand) {
  let out = d;
  if (out.declarer && !hand.players.includes(out.declarer)) out = { ...out, declarer: null };
  if (out.contract && parseInt(out.contract, 10) < hand.lowest) out = { ...out, contract: null };
  return out;
}
