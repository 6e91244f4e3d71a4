/* The score page's Record bar, fixed at the bottom of the screen: the line of the deal being
   chosen (or what to do next), Undo (Cancel while a past deal is edited) and Record; and a
   message in its place after a write: what the deal wrote, or a refusal. A message gives way
   to the deal's line at the next tap on the deal, and one without an action after 6 s; a
   refusal is shown whole (the bar grows, and scrolls past a few lines). Testids: record,
   undo, cancel, and the message's action (redo, put-back). */
import { button, tap } from "./builder.js";
import { el } from "./dom.js";
import { t } from "./words.js";

const TOAST_MS = 6000; // a message without an action gives way to the deal's line after this

/** @typedef {{label: string, testid: string, run: () => void}} Action */

/**
 * The bar, appended to `root`; its height is kept in the page's `--bar` (CSS), so that
 * nothing the page scrolls to is ever under it.
 * @param {HTMLElement} root
 */
export function mountBar(root) {
  const bar = el("div", null, "recordbar", { id: "recordbar" });
  const message = el("div", null, "message", { id: "message", role: "status", "aria-live": "polite" });
  const text = el("span", null, "text");
  message.append(text);
  const buttons = el("div", null, "bar-buttons");
  const undo = button(t("Undo"), "undo", "");
  const cancel = button(t("Cancel"), "cancel", "", { hidden: true });
  const record = button(t("Record"), "record", "primary", { id: "record" });
  buttons.append(undo, cancel, record);
  bar.append(message, buttons);
  root.append(bar);

  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let toasting = false;
  let line = "";
  let hint = "";

  const height = () => document.body.style.setProperty("--bar", bar.offsetHeight + "px");
  if (typeof ResizeObserver === "function") new ResizeObserver(height).observe(bar);

  function clearActions() {
    for (const extra of message.querySelectorAll("button")) extra.remove();
  }

  function showLine() {
    message.className = "message";
    text.textContent = line || hint;
    message.dataset.line = line;
    clearActions();
    height();
  }

  /**
   * A message in the bar: what a deal wrote, or a refusal (kind "error", shown whole); with an
   * action (put back), it stays until the next tap.
   * @param {string} said
   * @param {"done" | "error"} [kind]
   * @param {Action | null} [action]
   */
  function toast(said, kind = "done", action = null) {
    clearTimeout(timer);
    toasting = true;
    message.className = "message " + kind;
    text.textContent = said;
    delete message.dataset.line;
    clearActions();
    if (action) {
      const b = button(action.label, action.testid, "small");
      tap(b, action.run);
      message.append(b);
    } else if (kind === "done") {
      timer = setTimeout(endToast, TOAST_MS);
    }
    height();
  }

  /** The message gives way to the deal's line. */
  function endToast() {
    clearTimeout(timer);
    if (!toasting) return;
    toasting = false;
    showLine();
  }

  return {
    record,
    undo,
    cancel,
    toast,
    endToast,
    get toasting() { return toasting; },
    /**
     * The bar for the deal being chosen: its line (else the hint), the buttons' labels and
     * whether they may be tapped.
     * @param {{line: string, mode: import("./deal.js").Mode, busy: boolean, readOnly: boolean, deals: number}} s
     */
    draw(s) {
      const editing = s.mode.kind !== "new";
      record.textContent = s.mode.kind === "edit" ? t("Save deal {number}", { number: s.mode.item.number })
        : s.mode.kind === "insert" ? t("Insert as deal {number}", { number: s.mode.item.number }) : t("Record");
      record.disabled = s.readOnly || s.busy || !s.line;
      undo.hidden = editing;
      cancel.hidden = !editing;
      undo.disabled = s.readOnly || s.busy || !s.deals;
      cancel.disabled = s.busy;
      bar.classList.toggle("editing", editing);
      line = s.line;
      hint = editing ? t("change the deal above") : t("choose the deal above");
      if (!toasting) showLine();
    },
  };
}
