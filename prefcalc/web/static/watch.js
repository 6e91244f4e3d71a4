/* The watcher's page: the pool sheet, the last deal and the settlement so far, live, drawn
   from one reading of the table. */
import { Live, follow, renderLast, renderSettle } from "./common.js";
import { statusLine } from "./format.js";
import { setCases } from "./words.js";

/**
 * @param {import("./engine.js").Table} table
 * @param {Document} [page]
 */
export function mountWatch(table, page = document) {
  /** @param {string} id */
  const $ = (id) => /** @type {HTMLElement} */ (page.getElementById(id));
  const live = new Live($("live"), $("problem"));
  let method = "pairwise";
  let drawn = "";

  async function read() {
    const r = await table.reading({ last: 1, method, sheet: true });
    const key = r.version + "|" + method;
    if (key === drawn) return r.version; // this state is on the screen already
    setCases(r.cases);
    $("status").textContent = statusLine(r.game, r.seats.sitting_out);
    document.body.dataset.deals = String(r.game.deals);
    $("sheet").innerHTML = r.sheet || ""; // drawn by prefcalc, every name escaped
    renderLast(r.log, $("last-deal"), $("last-writes"));
    renderSettle(r.settle, /** @type {HTMLElement} */ (page.querySelector("#money tbody")), $("payments"));
    drawn = key;
    return r.version;
  }

  const followed = follow(table, read, live);
  page.querySelectorAll("[data-method]").forEach((node) => {
    const b = /** @type {HTMLElement} */ (node);
    b.addEventListener("click", () => {
      method = b.dataset.method || "pairwise";
      page.querySelectorAll("[data-method]").forEach((o) => {
        o.classList.toggle("on", o === b);
        o.setAttribute("aria-pressed", o === b ? "true" : "false");
      });
      followed.refresh();
    });
  });
  return followed;
}
