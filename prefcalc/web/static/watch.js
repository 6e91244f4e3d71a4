/* The watcher's page: the pool sheet, the last deal and the settlement so far, live. */
import { Live, follow, renderLast, renderSettle, statusLine } from "./common.js";

export function mountWatch(table, page = document) {
  const $ = (id) => page.getElementById(id);
  const live = new Live($("live"), $("problem"));
  let method = "pairwise";

  async function read() {
    const [game, svg, last, settle] = await Promise.all([
      table.game(), table.sheetSvg(), table.log(1), table.settle(method),
    ]);
    $("status").textContent = statusLine(game);
    document.body.dataset.deals = String(game.deals);
    $("sheet").innerHTML = svg; // drawn by prefcalc, every name escaped
    renderLast(last, $("last-deal"), $("last-writes"));
    renderSettle(settle, page.querySelector("#money tbody"), $("payments"));
  }

  const followed = follow(table, read, live);
  page.querySelectorAll("[data-method]").forEach((b) => {
    b.addEventListener("click", () => {
      method = b.dataset.method;
      page.querySelectorAll("[data-method]").forEach((o) => {
        o.classList.toggle("on", o === b);
        o.setAttribute("aria-pressed", o === b ? "true" : "false");
      });
      followed.refresh();
    });
  });
  return followed;
}
