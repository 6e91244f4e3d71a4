/* The hall's page of `prefcalc serve --tournament`: the round, the live standings and a card
   per table of the round, read again whenever a table's ledger (or the tournament) changes.
   Its words are the page's own (rendered by the server in its language) and common.js's. */
import { Live, follow } from "./common.js";
import { el } from "./dom.js";
import { deals, t } from "./words.js";

/**
 * @typedef {object} HallTable  a table of the round (GET /api/hall)
 * @property {number} table
 * @property {string[]} players
 * @property {boolean} complete
 * @property {number} deals
 * @property {number} over
 * @property {string} over_text
 * @property {string | null} dealer
 * @property {{name: string, whists_text: string}[]} balances
 * @property {string} watch
 * @property {string} error  why its ledger cannot be read ("" when it can: the card as usual)
 * @property {string} [error_text]  the card's title when it cannot be read
 */

/**
 * @typedef {object} Hall  the hall's answer (GET /api/hall)
 * @property {string} name
 * @property {number} round
 * @property {string} title
 * @property {string} scoring
 * @property {{name: string, place: string, points: number, points_text: string, whists_text: string}[]} standings
 * @property {string[]} over
 * @property {HallTable[]} tables
 */

/**
 * @param {import("./engine.js").HttpTable} table serve's (the hall's own answers)
 * @param {Document} [page]
 */
export function mountHall(table, page = document) {
  /** @param {string} id */
  const $ = (id) => /** @type {HTMLElement} */ (page.getElementById(id));
  const live = new Live($("live"), $("problem"));
  const card = /** @type {HTMLTemplateElement} */ ($("table-card"));

  /** @param {Hall} h */
  function renderStandings(h) {
    const body = /** @type {HTMLElement} */ ($("standings").querySelector("tbody"));
    const playing = new Set();
    for (const tb of h.tables) if (!tb.complete) tb.players.forEach((p) => playing.add(p));
    body.replaceChildren(...h.standings.map((row) => {
      const tr = el("tr", null, null, { "data-testid": "standing", "data-name": row.name, "data-points": row.points });
      // a player still playing: his points are provisional, marked on them (as the CLI's
      // standings mark them); the mark keeps its own width, so the numbers stay aligned
      const points = el("td", row.points_text, "points");
      points.append(el("span", playing.has(row.name) ? "*" : "", "mark"));
      tr.append(el("td", row.place, "place"), el("td", row.name, "name"), points, el("td", row.whists_text));
      return tr;
    }));
    $("standings-title").textContent = h.title;
    // raw scoring: the points are the whists, one column says them
    $("standings").classList.toggle("raw", h.scoring === "raw");
    $("provisional").hidden = playing.size === 0;
    $("over").replaceChildren(...h.over.map((line) => el("p", line)));
    $("over").hidden = h.over.length === 0;
  }

  /** @param {HallTable} tb */
  function renderTable(tb) {
    const node = /** @type {HTMLElement} */ (/** @type {Element} */ (card.content.firstElementChild).cloneNode(true));
    /** @param {string} name */
    const slot = (name) => /** @type {HTMLElement} */ (node.querySelector("[data-slot=" + name + "]"));
    node.dataset.table = String(tb.table);
    node.dataset.state = tb.complete ? "finished" : "playing";
    node.dataset.deals = String(tb.deals);
    slot("number").textContent = String(tb.table);
    node.dataset.over = String(tb.over);
    slot("over").textContent = tb.over_text;
    slot("over").hidden = !tb.over;
    const parts = [deals(tb.deals)];
    if (tb.dealer && !tb.complete) parts.push(t("{player} deals next", { player: tb.dealer }));
    slot("line").textContent = parts.join(" · ");
    slot("balances").replaceChildren(...tb.balances.map((b) => {
      const tr = el("tr", null, null, { "data-name": b.name });
      tr.append(el("td", b.name, b.name === tb.dealer && !tb.complete ? "dealer" : null), el("td", b.whists_text));
      return tr;
    }));
    slot("watch").setAttribute("href", tb.watch);
    if (tb.error) { // its ledger cannot be read: the card says why, every other one as usual
      node.dataset.state = "error";
      slot("playing").hidden = slot("finished").hidden = true;
      slot("over").textContent = tb.error_text ?? "";
      slot("over").hidden = false;
      slot("line").textContent = tb.error;
    }
    return node;
  }

  async function read() {
    /** @type {Hall} */
    const h = await table.get("/api/hall");
    $("event").textContent = h.name;
    document.title = "prefcalc · " + h.name;
    document.body.dataset.round = String(h.round);
    document.body.dataset.deals = String(h.tables.reduce((n, tb) => n + tb.deals, 0));
    $("status").hidden = true; // the standings' title says the round
    $("none").hidden = h.round > 0;
    $("standings-card").hidden = h.round === 0;
    renderStandings(h);
    $("tables").replaceChildren(...h.tables.map(renderTable));
  }

  return follow(table, read, live);
}
