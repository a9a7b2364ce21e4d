// Tiny DOM helpers: the client builds its screens from plain elements, no framework.

/** h('div', {class: 'x', onclick: f}, child, ...) -> an element. Children may be strings,
 *  nodes, arrays or null (skipped). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  if (FORM_TAGS.has(el.tagName)) el._stateful = true;
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') on(el, key.slice(2), value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'value') {
      el.value = el._value = String(value);
      el._stateful = true;
    }
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** The same for SVG elements. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') on(el, key.slice(2), value);
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

/** Children as h() takes them (strings, nodes, nested arrays, nulls skipped) -> nodes. */
function nodes(children) {
  const out = [];
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    out.push(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return out;
}

function append(el, children) {
  const list = nodes(children);
  el.append(...list);
  if (list.some((n) => n._stateful)) stateful(el);
}

// ---- What a redraw may keep as it is --------------------------------------------------------
// morph() leaves a drawn element alone when the new one is equal to it (isEqualNode: the same
// tags, attributes and text all the way down, compared in the browser's own code) unless either
// holds something equality does not see: handlers (on()), an input's value or choice, or an
// element that must be drawn anew (fresh()). `_stateful` marks such an element and every element
// above it; h() and s() mark an element whose children are marked, and on() and fresh() mark
// upwards from an element already placed. Without this a step's redraw compared every attribute
// of the whole table in JavaScript (the log of a long game most of it: docs/benchmarks.md,
// "Build and CI time").
const FORM_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA', 'OPTION']);

function stateful(el) {
  for (let e = el; e && !e._stateful; e = e.parentNode) e._stateful = true;
}

/** Replaces everything inside `el`. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

// ---- Handlers that a redraw can hand over ---------------------------------------------------
// Every listener that h(), s() and on() attach is this one function: it calls the handlers the
// element holds now, so that morph() can give a kept element the handlers of the element drawn
// in its place (a listener added with addEventListener could be neither read nor removed).
function dispatch(event) {
  for (const fn of this._on?.[event.type] || []) fn.call(this, event);
}

/** Calls `fn` on `el`'s `type` events, as addEventListener does; use it (or h()'s `onclick`)
 *  for anything drawn by a screen that morph()s, so that the handler follows a redraw. */
export function on(el, type, fn) {
  ((el._on ||= {})[type] ||= []).push(fn);
  el.addEventListener(type, dispatch);
  stateful(el);
  return el;
}

/** Marks `el` as never patched by morph(): a redraw replaces it whole. For an element that
 *  runs something of its own (a timer reading the view it was drawn from). */
export function fresh(el) {
  el._fresh = true;
  stateful(el);
  return el;
}

// ---- Redrawing in place ---------------------------------------------------------------------

/** Makes `el`'s children the given ones, as mount() does, but keeps each element that is drawn
 *  again alike (same tag and id, at the same place) and only brings its attributes, text,
 *  handlers and children in line with the new one's. The browser then restyles, lays out and
 *  paints what changed rather than the whole screen, and keeps focus, hover, text selection
 *  and scroll positions. Children that are live elements already (a chat panel kept across
 *  redraws) are moved into place, never patched. */
export function morph(el, ...children) {
  morphChildren(el, nodes(children));
}

function alike(a, b) {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return true;
  return !a._fresh && !b._fresh && a.getAttribute('id') === b.getAttribute('id');
}

function morphChildren(parent, next) {
  const live = new Set(next.filter((n) => n.isConnected));
  let old = parent.firstChild;
  for (const n of next) {
    // An old child that is gone from the new list, followed by one alike to the new child: drop
    // it (a notice that disappeared at the top keeps the rest from being drawn anew).
    if (old && old !== n && !live.has(old) && !alike(old, n) && old.nextSibling && old.nextSibling !== n && alike(old.nextSibling, n) && !n.isConnected) {
      const gone = old;
      old = old.nextSibling;
      gone.remove();
    }
    if (old === n) {
      old = old.nextSibling;
    } else if (old && !live.has(old) && !n.isConnected && alike(old, n)) {
      patch(old, n);
      old = old.nextSibling;
    } else {
      parent.insertBefore(n, old);
    }
  }
  while (old) {
    const gone = old;
    old = old.nextSibling;
    gone.remove();
  }
}

function patch(old, n) {
  if (old.nodeType !== Node.ELEMENT_NODE) {
    if (old.data !== n.data) old.data = n.data;
    return;
  }
  if (!old._stateful && !n._stateful && old.isEqualNode(n)) return;
  if (n._stateful) stateful(old);
  else old._stateful = false;
  for (const a of n.attributes) if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
  for (const a of [...old.attributes]) if (!n.hasAttribute(a.name)) old.removeAttribute(a.name);
  old._on = n._on;
  for (const type of Object.keys(n._on || {})) old.addEventListener(type, dispatch);
  // What the attributes do not say: an input's value and check, a select's choice.
  if ('_value' in n && old.value !== n._value) old.value = n._value;
  if (old.tagName === 'INPUT' && (old.type === 'checkbox' || old.type === 'radio') && old.checked !== n.checked) old.checked = n.checked;
  const choice = old.tagName === 'SELECT' ? n.value : undefined;
  morphChildren(old, [...n.childNodes]);
  if (choice !== undefined && old.value !== choice) old.value = choice;
}

/** "3 min ago"-style relative time for a date string, in the current language. */
export { ago } from './i18n/index.js';

/** m:ss (or h:mm:ss) for a number of milliseconds. */
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}
