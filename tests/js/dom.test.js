import assert from "node:assert/strict";
import { test } from "node:test";
import { dom, web } from "./setup.js";

const { el, morph, redraw, shorten, keyOf } = await web("dom.js");

/** Buttons of players, as the builder draws its declarers. @param {string[]} names */
function declarers(names) {
  return names.map((p) => {
    const b = el("button", p, "", { "data-testid": "declarer:" + p, "data-player": p });
    b.tapped = () => p;
    return b;
  });
}

test("keyed: a change of who sits out keeps every other player's button, brought up to date", () => {
  dom();
  const box = el("div");
  box.append(...declarers(["Боря", "Вера", "Глеб"]));
  const [, vera, gleb] = box.children;
  const fresh = declarers(["Аня", "Вера", "Глеб"]);
  fresh[1].setAttribute("aria-pressed", "true");
  morph(box, fresh);
  assert.deepEqual([...box.children].map((b) => b.textContent), ["Аня", "Вера", "Глеб"]);
  assert.equal(box.children[1], vera); // the same element: a press on it is not lost
  assert.equal(box.children[2], gleb);
  assert.equal(vera.getAttribute("aria-pressed"), "true");
  assert.equal(vera.tapped, fresh[1].tapped); // the newest handler
  assert.equal(box.children[0], fresh[0]); // the newcomer, inserted
});

test("keyed: a row is its deal's number and content; renumbered, it is another row", () => {
  dom();
  const row = (/** @type {number} */ n, /** @type {string} */ what) => {
    const li = el("li", null, "deal", { "data-key": n + "|" + what });
    li.append(el("button", "№" + n + " " + what, "deal-row", { "data-testid": "deal:" + n }), el("button", "Delete", "", { "data-testid": "delete" }));
    return li;
  };
  const list = el("ol");
  list.append(row(3, "passes"), row(2, "misere B 0"), row(1, "game A 7h 7"));
  const [three, two, one] = [...list.children];
  const held = two.querySelector("[data-testid=delete]");
  // a new deal at the top: every row kept
  morph(list, [row(4, "game V 6s 6"), row(3, "passes"), row(2, "misere B 0"), row(1, "game A 7h 7")]);
  assert.deepEqual([...list.children].slice(1), [three, two, one]);
  assert.equal(list.children[1 + 1].querySelector("[data-testid=delete]"), held);
  // deal 1 deleted elsewhere: the deals move up a number; none of the old rows is theirs now
  morph(list, [row(3, "game V 6s 6"), row(2, "passes"), row(1, "misere B 0")]);
  assert.ok(!held.isConnected); // the held Delete is gone, not rebound to another deal
  assert.ok(![...list.children].includes(two));
  assert.deepEqual([...list.children].map((li) => li.getAttribute("data-key")), ["3|game V 6s 6", "2|passes", "1|misere B 0"]);
});

test("elements without a key, and text, are matched in order; attributes gone are removed", () => {
  dom();
  const box = el("div");
  redraw(box, (b) => { b.append(el("span", "tricks", "label"), el("button", "0", "on", { "data-testid": "tricks:0", disabled: true })); });
  const [label, zero] = box.children;
  redraw(box, (b) => {
    b.append(el("span", "взятки", "label"), el("button", "0", "", { "data-testid": "tricks:0" }), el("span", "у Ани: 1", "auto-note"));
  });
  assert.equal(box.children[0], label);
  assert.equal(label.textContent, "взятки");
  assert.equal(box.children[1], zero);
  assert.equal(zero.hasAttribute("disabled"), false);
  assert.equal(zero.className, "");
  assert.equal(box.children.length, 3);
  assert.equal(keyOf(box.children[2]), "SPAN");
  assert.equal(keyOf(zero), "BUTTON|tricks:0");
});

test("an order changed: the elements are moved, none made anew", () => {
  dom();
  const box = el("div");
  box.append(...declarers(["A", "B", "C"]));
  const before = [...box.children];
  morph(box, declarers(["C", "A", "B"]));
  assert.deepEqual([...box.children], [before[2], before[0], before[1]]);
});

test("a name fitted: whole, cut on a consonant before a vowel, else its initial", () => {
  const width = (/** @type {number} */ n) => (/** @type {string} */ s) => s.length <= n;
  assert.equal(shorten("Борис", width(10)), "Борис");
  assert.equal(shorten("Борислав", width(5)), "Бор.");
  assert.equal(shorten("Александра", width(7)), "Алекс.");
  assert.equal(shorten("Дмитрий", width(3)), "Дм.");
  assert.equal(shorten("Ян", width(1)), "Я");
});
