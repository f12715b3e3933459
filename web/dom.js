// A small helper for building HTML.

/**
 * Creates an element: `h("button", {class: "x", onclick: f}, "text", child)`.
 * Attributes starting with `on` become listeners; `false`/null/undefined attributes are skipped.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Node | string | null | undefined | false)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c !== null && c !== undefined && c !== false) el.append(c);
  }
  return el;
}

/**
 * Replaces an element's children, skipping empty ones.
 * @param {Element} el
 * @param {...(Node | string | null | undefined | false)} children
 */
export function fill(el, ...children) {
  el.replaceChildren(...children.filter((c) => c !== null && c !== undefined && c !== false));
}

/**
 * Like `fill`, but keeps the element's children when the new ones would draw the same HTML.
 * A redraw that changes nothing then never swaps a button under the pointer between its press
 * and its release, which would lose the click. Only for children whose listeners read the
 * current state when they run rather than capturing parts of it, since the old ones stay.
 * @param {Element} el
 * @param {...(Node | string | null | undefined | false)} children
 */
export function refill(el, ...children) {
  const next = document.createElement(el.tagName);
  fill(next, ...children);
  if (next.innerHTML !== el.innerHTML) el.replaceChildren(...next.childNodes);
}
