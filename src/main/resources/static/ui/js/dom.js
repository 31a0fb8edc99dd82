// Small DOM helpers. Everything is built with createElement and setAttribute: no innerHTML, no
// inline style (the Content-Security-Policy forbids both inline script and inline style).

const SVG_NS = 'http://www.w3.org/2000/svg';
const SVG_TAGS = new Set(['svg', 'g', 'path', 'rect', 'line', 'circle', 'text', 'polyline', 'title', 'tspan']);

/** Creates an element: h('div', {class: 'x'}, child, 'text', [more children]). */
export function h(tag, attrs = {}, ...children) {
  const el = SVG_TAGS.has(tag) ? document.createElementNS(SVG_NS, tag) : document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      el.addEventListener(name.slice(2), value);
    } else if (name === 'value' && 'value' in el && !SVG_TAGS.has(tag)) {
      el.value = value;
    } else {
      el.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces an element's children. */
export function mount(el, ...children) {
  while (el.firstChild) el.removeChild(el.firstChild);
  append(el, children);
  return el;
}

/** A number for people: up to 4 significant digits, exponent form for very small or large values. */
export function fmt(x) {
  if (x === null || x === undefined || x === '') return '–';
  const v = Number(x);
  if (!Number.isFinite(v)) return String(x);
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e-3 && a < 1e6) return String(Number(v.toPrecision(4)));
  return v.toExponential(3);
}

export function stateBadge(state) {
  return h('span', {class: 'state state-' + state}, state);
}

/** A definition list of the scalar fields of an object. */
export function facts(obj) {
  const dl = h('dl', {class: 'facts'});
  for (const [k, v] of Object.entries(obj || {})) {
    if (v === null || v === undefined || typeof v === 'object') continue;
    dl.appendChild(h('dt', {}, k));
    dl.appendChild(h('dd', {}, typeof v === 'number' ? fmt(v) : String(v)));
  }
  return dl;
}

export function jsonView(obj, title = 'JSON') {
  return h('details', {class: 'json-view'}, h('summary', {}, title),
      h('pre', {class: 'json'}, JSON.stringify(obj, null, 2)));
}

/**
 * An RFC 9457 problem (or any error) as an alert: title and detail, then the members that locate it
 * (parameter and allowed range; line, column or byte offset of an upload; what a budget lacks).
 */
export function errorBox(e) {
  const p = e && e.problem;
  if (!p) return h('div', {class: 'error', role: 'alert'}, String(e && e.message || e));
  const where = [];
  if (p.parameter) where.push(`parameter ${p.parameter}` + (p.allowedRange ? ` (allowed: ${p.allowedRange})` : ''));
  if (p.line != null) where.push(`line ${p.line}` + (p.column != null ? `, column ${p.column}` : ''));
  if (p.byteOffset != null) where.push(`byte offset ${p.byteOffset}`);
  if (p.retryAfterSeconds != null) where.push(`retry after ${p.retryAfterSeconds} s`);
  return h('div', {class: 'error', role: 'alert', 'data-problem': p.type || ''},
      h('strong', {}, (p.title || 'Error') + (p.status ? ` (${p.status})` : '')), p.detail ? ': ' + p.detail : '',
      where.length ? h('div', {class: 'small'}, where.join(' · ')) : null);
}
