/* The score page's deal on one screen: the kind's tabs, the declarers, the contracts, the
   tricks, the defenders' roles, the whisters' split and the all-pass tricks. Drawn from a
   deal (deal.js) and its table; each tap gives the page the deal it makes. Every control has
   its data-testid (README, "The sheet on the phones"): kind:game|misere|passes,
   declarer:<Name>, contract:<level><s|c|d|h|nt>, tricks:<n>, role:<Name>:<w|p|h|r>,
   wtricks:<Name>:<n>, passes:<Name>:<n>. */
import {
  SUITS,
  autoPasser,
  defendersOf,
  needsTricks,
  passCounts,
  roleOf,
  whistersOf,
  withContract,
  withDeclarer,
  withKind,
  withPasses,
  withRole,
  withTricks,
  withWhistTricks,
} from "./deal.js";
import { el, fitsIn, redraw, shorten } from "./dom.js";
import { contractLabel } from "./format.js";
import { t } from "./words.js";

/** @typedef {import("./deal.js").Deal} Deal */
/** @typedef {import("./deal.js").Hand} Hand */
/** @typedef {import("./dom.js").Tappable} Tappable */

/**
 * A control's handler is its `tapped` (a control brought up to date keeps its element:
 * dom.morph); the click itself is listened to once.
 * @param {Tappable} b
 * @param {(ev: Event) => void} fn
 */
export function tap(b, fn) {
  b.tapped = fn;
  b.addEventListener("click", (ev) => {
    ev.preventDefault();
    if (b.tapped) b.tapped(ev);
  });
}

/**
 * A button with its testid.
 * @param {string | null} text
 * @param {string} testid
 * @param {string} [cls]
 * @param {Record<string, unknown>} [attrs]
 */
export function button(text, testid, cls, attrs) {
  return /** @type {HTMLButtonElement & Tappable} */ (el("button", text, cls, { type: "button", "data-testid": testid, ...attrs }));
}

/**
 * The builder in `root` (a section): call draw(deal, hand, classic) after every change;
 * a tap calls `onTap(deal)` with the deal it makes.
 * @param {HTMLElement} root
 * @param {{readOnly: boolean, onTap: (deal: Deal) => void}} options
 */
export function mountBuilder(root, { readOnly, onTap }) {
  const tabs = el("div", null, "tabs", { role: "tablist" });
  /** @type {Record<string, HTMLButtonElement>} */
  const kindButtons = {};
  /** @type {Deal} */
  let d;
  for (const [kind, label] of /** @type {const} */ ([["game", t("Game")], ["misere", t("Misère")], ["passes", t("All-pass")]])) {
    const b = button(label, "kind:" + kind, "", { role: "tab", "data-kind": kind });
    tap(b, () => onTap(withKind(d, kind)));
    kindButtons[kind] = b;
    tabs.append(b);
  }
  const declarers = el("div", null, "choices declarers", { role: "group", "aria-label": t("Declarer") });
  const contracts = el("div", null, "grid5 contracts", { role: "group", "aria-label": t("Contract") });
  const tricks = el("div", null, "tricks", { role: "group", "aria-label": t("Declarer's tricks") });
  const defenders = el("div", null, "defenders", { role: "group", "aria-label": t("Defenders") });
  const wtricks = el("div", null, "wtricks", { role: "group", "aria-label": t("The whisters' tricks") });
  const passes = el("div", null, "passes", { role: "group", "aria-label": t("Tricks of each player") });
  root.append(tabs, declarers, contracts, tricks, defenders, wtricks, passes);

  /**
   * A choice: pressed or not; a tap makes `next()`'s deal.
   * @param {HTMLElement} box
   * @param {string} label
   * @param {boolean} on
   * @param {string} testid
   * @param {() => Deal} next
   * @param {Record<string, unknown>} [attrs]
   */
  function choice(box, label, on, testid, next, attrs) {
    const b = button(label, testid, on ? "on" : "", { "aria-pressed": on ? "true" : "false", ...attrs });
    b.disabled = readOnly;
    tap(b, () => onTap(next()));
    box.append(b);
    return b;
  }

  /** A name as it fits a button `parts` of the builder's width share (never broken). @param {string} name @param {number} parts */
  function fitted(name, parts, gap = 5) {
    const width = root.clientWidth || 340;
    const font = getComputedStyle(kindButtons.game).font || "16px sans-serif";
    return shorten(name, fitsIn((width - gap * (parts - 1)) / parts - 14, font));
  }

  /** @param {Hand} hand */
  function drawDeclarers(hand) {
    declarers.hidden = d.kind === "passes";
    redraw(declarers, (box) => {
      for (const p of hand.players) {
        choice(box, fitted(p, hand.players.length), p === d.declarer, "declarer:" + p, () => withDeclarer(d, p), {
          "data-player": p, title: p, "aria-label": p,
        });
      }
    });
  }

  /** @param {Hand} hand */
  function drawContracts(hand) {
    contracts.hidden = d.kind !== "game";
    redraw(contracts, (box) => {
      for (let level = Math.max(6, hand.lowest || 6); level <= 10; level++) {
        for (const suit of SUITS) {
          const code = level + suit;
          const b = choice(box, contractLabel(code), d.contract === code, "contract:" + code, () => withContract(d, code));
          if (suit === "d" || suit === "h") b.classList.add("red");
        }
      }
    });
  }

  /** @param {Hand} hand */
  function drawTricks(hand) {
    const needed = needsTricks(d, hand);
    tricks.hidden = !needed;
    tricks.classList.toggle("idle", d.kind === "game" && !whistersOf(d, hand).length);
    redraw(tricks, (box) => {
      if (!needed) return;
      box.append(el("span", t("tricks"), "label"));
      for (let n = 0; n <= 10; n++) choice(box, String(n), d.tricks === n, "tricks:" + n, () => withTricks(d, n));
    });
  }

  /** @param {Hand} hand @param {boolean} classic */
  function drawDefenders(hand, classic) {
    defenders.hidden = d.kind !== "game";
    redraw(defenders, (box) => {
      if (d.kind !== "game") return;
      /** @type {[import("./deal.js").Role, string][]} */
      const roles = [["w", t("whist")], ["p", t("pass")], ["h", "½"]];
      if (classic) roles.push(["r", "↩"]);
      const titles = { w: t("whist"), p: t("pass"), h: t("half-whist"), r: t("returned the whist") };
      const defs = d.declarer ? defendersOf(d, hand) : hand.players.slice(0, Math.max(0, hand.players.length - 1));
      for (const p of defs) {
        const row = el("div", null, "defender", { "data-player": p });
        row.append(el("span", p, "who"));
        const group = el("div", null, "roles");
        for (const [role, label] of roles) {
          const b = choice(group, label, !!d.declarer && roleOf(d, p) === role, "role:" + p + ":" + role, () => withRole(d, p, role), {
            "data-role": role, title: titles[role], "aria-label": p + ": " + titles[role],
          });
          b.disabled = readOnly || !d.declarer;
        }
        row.append(group);
        box.append(row);
      }
    });
  }

  /** @param {Hand} hand */
  function drawWhistTricks(hand) {
    const whisters = whistersOf(d, hand);
    const shown = d.kind === "game" && whisters.length === 2;
    wtricks.hidden = !shown;
    redraw(wtricks, (box) => {
      if (!shown) return;
      const [first, second] = whisters;
      box.append(el("span", t("{player}'s tricks", { player: first }), "label"));
      const most = d.tricks === null ? 10 : 10 - d.tricks;
      for (let n = 0; n <= most; n++) choice(box, String(n), d.wtricks === n, "wtricks:" + first + ":" + n, () => withWhistTricks(d, n));
      if (d.wtricks !== null && d.tricks !== null) {
        box.append(el("span", t("{player} took {n}", { player: second, n: 10 - d.tricks - d.wtricks }), "auto-note"));
      }
    });
  }

  /** @param {Hand} hand */
  function drawPasses(hand) {
    passes.hidden = d.kind !== "passes";
    redraw(passes, (box) => {
      if (d.kind !== "passes") return;
      const counts = passCounts(d, hand) || {};
      const auto = autoPasser(d, hand);
      for (const p of hand.players) {
        const row = el("div", null, "passer", { "data-player": p });
        row.append(el("span", p, "who"));
        const buttons = el("div", null, "counts", { role: "group", "aria-label": t("{player}'s tricks", { player: p }) });
        for (let n = 0; n <= 10; n++) {
          const worked = p === auto && counts[p] === n;
          const b = choice(buttons, String(n), d.passes[p] === n || worked, "passes:" + p + ":" + n, () => withPasses(d, p, n));
          if (worked) b.classList.add("auto");
        }
        row.append(buttons);
        box.append(row);
      }
    });
  }

  return {
    /**
     * Draw the deal `deal` at the table `hand` (Classic: a returned whist is offered).
     * @param {Deal} deal
     * @param {Hand} hand
     * @param {boolean} classic
     */
    draw(deal, hand, classic) {
      d = deal;
      for (const [kind, b] of Object.entries(kindButtons)) {
        const on = d.kind === kind;
        b.classList.toggle("on", on);
        b.setAttribute("aria-selected", on ? "true" : "false");
        b.disabled = readOnly;
      }
      drawDeclarers(hand);
      drawContracts(hand);
      drawTricks(hand);
      drawDefenders(hand, classic);
      drawWhistTricks(hand);
      drawPasses(hand);
    },
  };
}
