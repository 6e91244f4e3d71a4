/* The pages' few DOM tools: an element in one call, the reconciliation that brings what is on
   the screen up to date with what a reading draws (keyed: a control kept is the same element),
   and a name fitted to its width. */

/**
 * An element with its text, class and attributes (an attribute false, null or undefined is
 * left out; true is written empty).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {unknown} [text]
 * @param {string | null} [cls]
 * @param {Record<string, unknown>} [attrs]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, text, cls, attrs) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : String(v));
  }
  return e;
}

/**
 * A control's handler: `tapped` is called on a click. Kept on the element, so that a control
 * brought up to date by `morph` answers with the handler of the reading that drew it last.
 * @typedef {HTMLElement & {tapped?: (ev: Event) => void}} Tappable
 */

/**
 * Make `node`'s children the nodes `fresh` (drawn anew), keeping the elements already there
 * that have the same key: their text, attributes and `tapped` handler are brought up to date
 * in place, all the way down, and they are not moved unless their order changed. The others
 * are removed, then the new ones inserted where they belong.
 *
 * A reading draws the controls again after every change, and a click needs its press and its
 * release on one element: a tap whose press fell on a button and whose release fell on the
 * button drawn in its place would be lost. Keyed, a control survives any reading that still
 * draws it (a change of who sits out at four or five keeps every other player's buttons, a
 * new deal in the list keeps the rows below it), and a control that is no longer the same
 * thing is never reused for another: a deal's row is keyed by its number and its content, so
 * a held Delete is lost with its row when the deals are renumbered, never rebound to another.
 *
 * The key of an element: its tag and its `data-key`, else its `data-testid`, else its
 * `data-player`; elements without one, and text, are matched in order among their like.
 * @param {Node} node
 * @param {Node[]} fresh
 */
export function morph(node, fresh) {
  /** @type {Map<string, Node[]>} */
  const waiting = new Map();
  for (const o of node.childNodes) {
    const k = keyOf(o);
    const list = waiting.get(k);
    if (list) list.push(o); else waiting.set(k, [o]);
  }
  const kept = fresh.map((n) => {
    const list = waiting.get(keyOf(n));
    const o = list && list.shift();
    return o && alike(o, n) ? o : null;
  });
  const keep = new Set(kept);
  for (const o of [...node.childNodes]) if (!keep.has(o)) o.remove();
  fresh.forEach((n, k) => {
    const o = kept[k];
    const target = o || n;
    if (o) bringUp(o, n);
    const at = node.childNodes[k];
    if (at !== target) node.insertBefore(target, at || null);
  });
}

/** @param {Node} n */
export function keyOf(n) {
  if (n.nodeType !== 1) return "#" + n.nodeType;
  const e = /** @type {Element} */ (n);
  const id = e.getAttribute("data-key") ?? e.getAttribute("data-testid") ?? e.getAttribute("data-player");
  return e.tagName + (id === null ? "" : "|" + id);
}

/** @param {Node} a @param {Node} b */
function alike(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName;
}

/** @param {Node} o @param {Node} n */
function bringUp(o, n) {
  if (o.nodeType !== 1) {
    if (o.nodeValue !== n.nodeValue) o.nodeValue = n.nodeValue;
    return;
  }
  const oe = /** @type {Tappable} */ (o);
  const ne = /** @type {Tappable} */ (n);
  for (const a of [...oe.attributes]) if (!ne.hasAttribute(a.name)) oe.removeAttribute(a.name);
  for (const a of ne.attributes) if (oe.getAttribute(a.name) !== a.value) oe.setAttribute(a.name, a.value);
  oe.tapped = ne.tapped;
  morph(oe, [...ne.childNodes]);
}

/**
 * Draw `node`'s children with `fill(box)` into a box of the same kind, then morph them in.
 * @param {HTMLElement} node
 * @param {(box: HTMLElement) => void} fill
 */
export function redraw(node, fill) {
  const box = document.createElement(node.tagName);
  fill(box);
  morph(node, [...box.childNodes]);
}

const VOWELS = new Set("aeiouyаеёиоуыэюяйьъAEIOUYАЕЁИОУЫЭЮЯЙЬЪ");

/**
 * A name as it fits: whole, else cut as a table cuts it (Бор., Алекс., Дм.: on a consonant
 * before a vowel), else its initial; never cut with "…".
 * @param {string} name
 * @param {(text: string) => boolean} fits whether a text fits the place
 */
export function shorten(name, fits) {
  if (fits(name)) return name;
  const chars = Array.from(name);
  for (let k = chars.length - 2; k >= 2; k--) { // two letters off at least: Александр. is another name
    const last = chars[k - 1];
    if (!/\p{L}/u.test(last) || VOWELS.has(last) || !VOWELS.has(chars[k])) continue;
    const short = chars.slice(0, k).join("") + ".";
    if (fits(short)) return short;
  }
  return fits(chars[0] + ".") ? chars[0] + "." : chars[0] || name;
}

/** @type {CanvasRenderingContext2D | null} */
let measurer = null;

/**
 * Whether a text fits `px` pixels in `font` (measured on a canvas).
 * @param {number} px
 * @param {string} font
 * @returns {(text: string) => boolean}
 */
export function fitsIn(px, font) {
  measurer = measurer || document.createElement("canvas").getContext("2d");
  const m = measurer;
  if (!m) return () => true;
  return (text) => {
    m.font = font;
    return m.measureText(text).width <= px;
  };
}
