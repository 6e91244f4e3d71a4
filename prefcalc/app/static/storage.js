/* The games kept on this phone: IndexedDB, one record per game, holding the ledger's text
   exactly as prefcalc wrote it (what `prefcalc show --file` reads) and what undo keeps for
   redo. A change is one readwrite transaction with strict durability: it is on the disk
   before the page says "recorded", and the version before it is kept in the same record
   (`previous`) until the next change, so a reload, a crash or a closed tab loses nothing
   and never leaves half a ledger. A game is never overwritten by another one: `add`
   refuses a name that is taken. Each record also says which prefcalc made the game and
   which one last wrote it (`createdWith`, `writtenWith`): the ledger's format is unchanged. */

const DB = "prefcalc";
const GAMES = "games";

/**
 * @template T
 * @param {IDBRequest<T>} r
 * @returns {Promise<T>}
 */
function request(r) {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

/** @param {IDBTransaction} tx @returns {Promise<void>} */
function done(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error("aborted"));
  });
}

export class Conflict extends Error {}

/**
 * What the engine says of a game (its op `summary`, or `check` of an imported file).
 * @typedef {object} Summary
 * @property {string[]} players
 * @property {string[]} [seating]
 * @property {string} created
 * @property {number} deals
 * @property {boolean} [finished]
 * @property {string} convention
 * @property {number} [target]
 * @property {Record<string, string> | null} [balance]
 */

/**
 * A game as the phone keeps it.
 * @typedef {Summary & {
 *   name: string, ledger: string, redo: string | null, previous: string | null,
 *   createdWith: string | null, writtenWith: string | null, imported?: boolean, updated: string,
 * }} Kept
 */

/** @typedef {{ledger: string, redo?: string | null}} Files */

/* Tells the other windows of the app on this phone that a game was written. */
const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("prefcalc-games") : null;

/** @param {string} name */
export function announce(name) {
  if (channel) channel.postMessage({ name });
}

/** @param {(name: string) => void} fn */
export function onWritten(fn) {
  if (channel) channel.addEventListener("message", (event) => fn(event.data && event.data.name));
}

export class Store {
  /** @param {IDBDatabase} db */
  constructor(db) {
    this.db = db;
    /** @type {((text: string, values?: Record<string, unknown>) => string) | null} the page's words */
    this.t = null;
  }

  static async open() {
    const opening = indexedDB.open(DB, 1);
    opening.onupgradeneeded = () => {
      const db = opening.result;
      if (!db.objectStoreNames.contains(GAMES)) db.createObjectStore(GAMES, { keyPath: "name" });
    };
    return new Store(await request(opening));
  }

  /** @param {IDBTransactionMode} mode */
  tx(mode) {
    return this.db.transaction(GAMES, mode, mode === "readwrite" ? { durability: "strict" } : undefined);
  }

  /** @returns {Promise<Kept[]>} */
  async list() {
    /** @type {Kept[]} */
    const all = await request(this.tx("readonly").objectStore(GAMES).getAll());
    return all.sort((a, b) => String(b.updated).localeCompare(String(a.updated)));
  }

  /** @param {string} name @returns {Promise<Kept | undefined>} */
  get(name) { return request(this.tx("readonly").objectStore(GAMES).get(name)); }

  /* A change of a game already kept: the new text, the old one as `previous`. `base` is the
     text the change was made from: if the phone holds another one (another tab of the app
     wrote meanwhile), nothing is written and the change is refused (Conflict), so a deal is
     never lost under another one. */
  /**
   * @param {string} name
   * @param {Files} files
   * @param {Summary} summary
   * @param {string} version the prefcalc that wrote it
   * @param {string} [base]
   */
  async save(name, files, summary, version, base) {
    const tx = this.tx("readwrite");
    const games = tx.objectStore(GAMES);
    const old = await request(games.get(name));
    if (!old) { tx.abort(); throw new Error("no such game"); }
    if (base !== undefined && old.ledger !== base) { tx.abort(); throw new Conflict(); }
    games.put({
      ...old,
      ...fields(summary),
      ledger: files.ledger,
      redo: files.redo || null,
      previous: old.ledger,
      writtenWith: version,
      updated: new Date().toISOString(),
    });
    await done(tx);
  }

  /**
   * A new game (started here or imported): refused if the name is taken.
   * @param {string} name
   * @param {Files} files
   * @param {Summary} summary
   * @param {string} version
   * @param {"new" | "imported"} how
   */
  async add(name, files, summary, version, how) {
    const tx = this.tx("readwrite");
    tx.objectStore(GAMES).add({
      name,
      ...fields(summary),
      ledger: files.ledger,
      redo: files.redo || null,
      previous: null,
      createdWith: how === "imported" ? null : version,
      writtenWith: how === "imported" ? null : version,
      imported: how === "imported",
      updated: new Date().toISOString(),
    });
    await done(tx);
  }

  /* The game of the phone an imported file is: the same text, or the same game (same start
     time and players) at another point. */
  /**
   * @param {string} text
   * @param {Summary} summary
   * @returns {Promise<{exact: boolean, game: Kept} | null>}
   */
  async same(text, summary) {
    const all = await this.list();
    const exact = all.find((g) => g.ledger === text);
    if (exact) return { exact: true, game: exact };
    const players = JSON.stringify(summary.players);
    const game = all.find((g) => g.created === summary.created && JSON.stringify(g.players) === players);
    return game ? { exact: false, game } : null;
  }

  /** A write the phone's storage refused, in one line. @param {unknown} error */
  refusal(error) {
    /** @type {(text: string, values?: Record<string, unknown>) => string} */
    const t = this.t || ((text, values) => text.split("{reason}").join(String((values || {}).reason)));
    if (error instanceof Conflict) return t("the game was changed in another window meanwhile: it is shown again as kept, nothing was recorded");
    const e = /** @type {{name?: string, message?: string} | null} */ (error);
    const name = e && e.name ? e.name : "";
    if (name === "QuotaExceededError") return t("the phone's storage is full: nothing was recorded");
    return t("the phone's storage refused the write ({reason}): nothing was recorded", { reason: (e && e.message) || name });
  }
}

/** @param {Summary} summary */
function fields(summary) {
  return {
    players: summary.players,
    seating: summary.seating,
    created: summary.created,
    deals: summary.deals,
    finished: summary.finished,
    convention: summary.convention,
    target: summary.target,
    balance: summary.balance || null, // each one's money as the prefcalc that wrote it scored it
  };
}

/* Ask the browser to keep this site's storage under pressure (installed apps usually get it). */
export async function persist() {
  if (!navigator.storage || !navigator.storage.persist) return "unsupported";
  try {
    if (await navigator.storage.persisted()) return "persistent";
    return (await navigator.storage.persist()) ? "persistent" : "best-effort";
  } catch (e) {
    return "best-effort";
  }
}
