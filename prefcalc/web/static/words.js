/* The page's words: the dictionary the server (or the app's build) gives the page in its
   language (prefcalc/web/words.py, script_words: English message -> the page's words), the
   names' Russian cases each reading brings, and the table's words (suits, roles, kinds of
   deal, commands) the page writes its play lines with. Nothing here knows a language: every
   word comes from the dictionary. */

/** @typedef {"nom" | "gen" | "dat" | "acc" | "ins" | "pre"} Case */
/** @typedef {Record<string, Partial<Record<Case, string>>>} Cases */

/**
 * The table's words in the page's language, as play reads them back (WORDS.table).
 * @typedef {object} TableWords
 * @property {Record<string, string>} suits     s c d h nt -> the letters of a contract
 * @property {Record<string, string>} roles     w p h r -> the letters of a defender's role
 * @property {Record<string, string>} kinds     game misere passes -> the word a deal starts with
 * @property {Record<string, string>} commands  edit insert delete undo redo explain settle ...
 * @property {Record<string, string>} [methods]  pairwise average exact whole (settle's words)
 */

/**
 * @typedef {object} Words
 * @property {string} [lang]
 * @property {Cases} [cases]
 * @property {TableWords} [table]
 * @property {Record<string, string>} [signs]  s c d h nt -> ♠ ♣ ♦ ♥ NT (prefcalc.terms.suit)
 */

/** @type {Words & Record<string, unknown>} */
let WORDS = {};

/** The page's dictionary from now on. @param {(Words & Record<string, unknown>) | null | undefined} given */
export function setWords(given) { WORDS = given || {}; }

/** The names' cases of the reading just read (a late arrival, a gender just set). @param {Cases} cases */
export function setCases(cases) { WORDS = { ...WORDS, cases: cases || {} }; }

/** The dictionary the server rendered into the page (#words), or none. */
export function pageWords() {
  const node = document.getElementById("words");
  try { return node ? JSON.parse(node.textContent || "{}") : {}; } catch { return {}; }
}

/** The page's language: "en" unless the dictionary says otherwise. */
export function lang() { return typeof WORDS.lang === "string" ? WORDS.lang : "en"; }

/**
 * A message in the page's language; a name's Russian case ({player:acc}) from the players'
 * forms of the last reading (WORDS.cases: prefcalc.cases.forms); without them, as typed.
 * @param {string} text the message as the scripts write it in English
 * @param {Record<string, unknown>} [values]
 */
export function t(text, values) {
  const said = WORDS[text];
  let out = typeof said === "string" ? said : text;
  for (const [k, v] of Object.entries(values || {})) {
    out = out.replace(new RegExp("\\{" + k + "(?::(nom|gen|dat|acc|ins|pre))?\\}", "g"), (_m, c) => {
      const forms = c && WORDS.cases ? WORDS.cases[String(v)] : undefined;
      const form = forms ? forms[/** @type {Case} */ (c)] : undefined;
      return typeof form === "string" ? form : String(v);
    });
  }
  return out;
}

/**
 * A message with a count: the language's plural form (WORDS[key] lists them: one, few, many).
 * @param {string} key
 * @param {number} n
 */
export function plural(key, n) {
  const forms = WORDS[key];
  let form = key;
  if (Array.isArray(forms) && forms.length) {
    const k = lang() !== "ru" ? (n === 1 ? 0 : 1)
      : n % 10 === 1 && n % 100 !== 11 ? 0
        : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 10 || n % 100 >= 20) ? 1 : 2;
    form = String(forms[Math.min(k, forms.length - 1)]);
  } else if (n === 1) {
    form = key.replace("{n} deals", "{n} deal");
  }
  return form.split("{n}").join(String(n));
}

/** "13 deals" / "13 раздач". @param {number} n */
export function deals(n) { return plural("{n} deals", n); }

/** The suits' signs by code: ♠ ♣ ♦ ♥, and NT / БК (prefcalc.terms.suit). */
export function signs() { return WORDS.signs || {}; }

/** @type {TableWords} */
const CODES = { suits: {}, roles: {}, kinds: {}, commands: {} };

/**
 * A word of the table in the page's language: `table("suits", "h")` is "h" in English and
 * "ч" in Russian, `table("commands", "edit")` "edit" / "исправить". A word the dictionary
 * lacks is its code, which is play's English word (play reads it in every language).
 * @param {keyof TableWords} group
 * @param {string} code
 */
export function table(group, code) {
  const said = (WORDS.table || CODES)[group] || {};
  const word = said[code];
  return typeof word === "string" && word ? word : code;
}
