/* The entry of serve's pages: the words the server rendered into the page, the table of this
   server (engine.js, HttpTable) and the page's view. The offline app has its own entry and
   gives the same views its WorkerTable. */
import { HttpTable } from "./engine.js";
import { pageWords, setWords } from "./common.js";
import { mountScore } from "./score.js";
import { mountWatch } from "./watch.js";

setWords(pageWords());

/* The score token: from the link's fragment (#token=...), or ?token=... moved into the
   fragment; kept for this tab, so that a reload keeps it. */
function findToken() {
  const hash = new URLSearchParams(location.hash.replace(/^#/, ""));
  const query = new URLSearchParams(location.search);
  const token = hash.get("token") || query.get("token") || sessionStorage.getItem("prefcalc-token") || "";
  if (query.get("token")) history.replaceState(null, "", location.pathname + "#token=" + encodeURIComponent(token));
  if (token) sessionStorage.setItem("prefcalc-token", token);
  return token;
}

if (document.body.dataset.page === "score") {
  const readOnly = document.body.dataset.readOnly === "true";
  const table = new HttpTable("", findToken());
  const noToken = document.getElementById("no-token");
  const showToken = () => { noToken.hidden = !!table.token || readOnly; };
  window.addEventListener("hashchange", () => { table.token = findToken(); showToken(); });
  showToken();
  mountScore(table, document.getElementById("score"), { readOnly });
} else {
  mountWatch(new HttpTable(""));
}
