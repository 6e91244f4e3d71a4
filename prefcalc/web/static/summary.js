/* The sheet folded to three rows at the top of the score page (pool, mountain, each one's
   money so far); a tap opens the whole sheet under it. Testid: summary. */
import { el, fitsIn, shorten } from "./dom.js";
import { number, signedMoney } from "./format.js";
import { t } from "./words.js";

/**
 * Draw the folded sheet of a reading into `summary` (a button).
 * @param {HTMLElement} summary
 * @param {import("./engine.js").Reading} r
 */
export function drawSummary(summary, r) {
  const game = r.game;
  const grid = el("span", null, "summary-grid");
  const n = game.players.length;
  grid.style.gridTemplateColumns = "auto repeat(" + n + ", minmax(0, 1fr))";
  const cellWidth = Math.max(30, (summary.clientWidth || 340) - 52) / n - 6;
  const fits = fitsIn(cellWidth, "600 14px system-ui, sans-serif");
  const out = r.seats.sitting_out;
  grid.append(el("span", "", "corner"));
  for (const p of game.players) {
    const cls = "name" + (p.name === game.next_dealer && !game.finished ? " dealer" : "") + (out.includes(p.name) ? " out" : "");
    grid.append(el("span", shorten(p.name, fits), cls, { title: p.name }));
  }
  const money = new Map(r.settle.players.map((p) => [p.name, p.money]));
  /** @type {[string, (p: import("./engine.js").Player) => string, string][]} */
  const rows = [
    [t("pool"), (p) => number(p.pool), "pool"],
    [t("mountain"), (p) => number(p.mountain), "mountain"],
    ["±", (p) => { const m = money.get(p.name); return m === undefined ? "" : signedMoney(m, r.settle.currency); }, "balance"],
  ];
  for (const [label, value, cls] of rows) {
    grid.append(el("span", label, "row-label"));
    for (const p of game.players) grid.append(el("span", value(p), cls));
  }
  summary.replaceChildren(grid);
  summary.setAttribute("aria-label", t("the sheet, folded: tap to open it"));
}
