/* The night's list on the score page: the deals, newest first, each a row that opens its
   actions (edit, insert before, delete: offered only where the server says the deletion can
   succeed). A row is keyed by its deal's number and content (dom.morph): a reading that adds
   a deal keeps the rows below it, and a renumbering never rebinds a held Delete to another
   deal. Testids: deal:<n>, edit, insert, delete, more. */
import { button, tap } from "./builder.js";
import { el, redraw } from "./dom.js";
import { deals, t } from "./words.js";

/** @typedef {import("./engine.js").LogItem} LogItem */

export const LIST = 30; // deals in the night's list until "all" is asked for

/**
 * A deal's key: its number and its content (a deal renumbered, or another deal under its
 * number, is another row).
 * @param {LogItem} item
 */
export function itemKey(item) {
  return item.number + "|" + item.notation + (item.forced ? " --force" : "");
}

/**
 * The list in `root` (a section).
 * @param {HTMLElement} root
 * @param {{
 *   edit: (item: LogItem) => void,
 *   insert: (item: LogItem) => void,
 *   remove: (item: LogItem) => void,
 *   all: () => void,
 *   opened: (item: LogItem, actions: HTMLElement) => void,
 * }} on what the rows' actions do; `opened` when a tap has shown a row's actions
 */
export function mountNight(root, on) {
  const head = el("h2", t("The night's deals"));
  const list = el("ol", null, "deals", { reversed: true });
  const more = button(t("all the deals"), "more", "small");
  tap(more, () => on.all());
  root.append(head, list, more);
  /** @type {string | null} */
  let open = null; // the key of the row whose actions are shown

  /**
   * @param {{items: LogItem[], count: number, all: boolean, editing: LogItem | null, readOnly: boolean, busy: boolean}} s
   *   the deals listed, how many the game has, whether all are asked for, the one being
   *   edited, and whether a line may be sent now
   */
  function draw(s) {
    head.textContent = t("The night's deals") + " · " + deals(s.count);
    if (open !== null && !s.items.some((it) => itemKey(it) === open)) open = null;
    redraw(list, (box) => {
      for (const item of [...s.items].reverse()) {
        const key = itemKey(item);
        const editing = !!s.editing && itemKey(s.editing) === key;
        const li = el("li", null, "deal" + (editing ? " editing" : ""), { "data-key": key });
        const row = button(null, "deal:" + item.number, "deal-row", { "aria-expanded": open === key ? "true" : "false" });
        row.append(el("span", "№" + item.number, "number"), el("span", item.shorthand || item.notation, "what"));
        if (item.dealer) row.append(el("span", t("{dealer} dealt", { dealer: item.dealer }), "dealer"));
        row.disabled = s.busy;
        tap(row, () => {
          open = open === key ? null : key;
          draw(s);
          const acts = /** @type {HTMLElement | null} */ (list.querySelector(".deal-actions"));
          if (open === key && acts) on.opened(item, acts);
        });
        li.append(row);
        if (open === key) {
          const acts = el("div", null, "deal-actions", { role: "group", "aria-label": t("deal {number}", { number: item.number }) });
          const edit = button(t("Edit"), "edit");
          const insert = button(t("Insert before"), "insert");
          tap(edit, () => { open = null; on.edit(item); });
          tap(insert, () => { open = null; on.insert(item); });
          acts.append(edit, insert);
          // Delete only where it can succeed: the server judges it (at four or five a deletion
          // that would seat a later deal's player out is refused), and says why not
          if (item.deletable !== false) {
            const del = button(t("Delete"), "delete", "danger");
            tap(del, () => { open = null; on.remove(item); });
            acts.append(del);
          }
          li.append(acts);
          if (item.deletable === false && item.delete_refusal) {
            li.append(el("p", item.delete_refusal, "why-not muted"));
          }
          for (const b of acts.querySelectorAll("button")) b.disabled = s.readOnly || s.busy;
        }
        box.append(li);
      }
      if (!s.items.length) box.append(el("li", t("no deals recorded yet"), "muted"));
    });
    more.hidden = s.all || s.count <= s.items.length || s.items.length < LIST;
    more.disabled = s.busy;
  }

  return {
    draw,
    /** Close the open row. */
    close() { open = null; },
  };
}
