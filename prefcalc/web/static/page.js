/* The entry of serve's pages: the words the server rendered into the page, the table of this
   server (engine.js, HttpTable) and the page's view. The offline app has its own entry and
   gives the same views its WorkerTable. */
import { HttpTable } from "./engine.js";
import { mountHall } from "./hall.js";
import { mountScore } from "./score.js";
import { mountWatch } from "./watch.js";
import { pageWords, setWords } from "./words.js";

setWords(pageWords());

/* Where this page's table answers: "" for serve's one game, "/t/<round>/<table>" for a table
   of a tournament's hall (serve --tournament). */
const base = document.body.dataset.base || "";
const kept = "prefcalc-token" + (base ? ":" + base : ""); // one table's token is its own

/* The score token: from the link's fragment (#token=...), or ?token=... moved into the
   fragment; kept for this tab, so that a reload keeps it. */
function findToken() {
  const hash = new URLSearchParams(location.hash.replace(/^#/, ""));
  const query = new URLSearchParams(location.search);
  const token = hash.get("token") || query.get("token") || sessionStorage.getItem(kept) || "";
  if (query.get("token")) history.replaceState(null, "", location.pathname + "#token=" + encodeURIComponent(token));
  if (token) sessionStorage.setItem(kept, token);
  return token;
}

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

if (document.body.dataset.page === "score") {
  const readOnly = document.body.dataset.readOnly === "true";
  const table = new HttpTable(base, findToken());
  const noToken = $("no-token");
  const showToken = () => { noToken.hidden = !!table.token || readOnly; };
  window.addEventListener("hashchange", () => { table.token = findToken(); showToken(); });
  showToken();
  mountScore(table, $("score"), { readOnly });
} else if (document.body.dataset.page === "hall") {
  mountHall(new HttpTable(""));
} else {
  mountWatch(new HttpTable(base));
}
