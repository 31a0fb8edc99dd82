// Forms built from the contract's schemas (type, enum, description, default) with RFC 9457 problems shown
// inline: a problem's `parameter` (e.g. "budget.epsilon", "vertices.labels[3]") names the field whose
// input is marked and gets the message under it; the whole problem also shows below the form.

import {h, mount, errorBox} from './dom.js';

/** The input of one field: a select for enums and booleans, a textarea for lists, else a text input. */
export function inputFor(id, f, {value, placeholder} = {}) {
  let input;
  if (f.enum || f.type === 'boolean') {
    input = h('select', {id}, f.required ? null : h('option', {value: ''}, f.default !== undefined
        ? `(default: ${f.default})` : '(none)'),
    (f.enum || ['true', 'false']).map((v) => h('option', {value: String(v)}, String(v))));
  } else if (f.type === 'array') {
    input = h('textarea', {id, rows: 3, placeholder: placeholder ?? 'one per line (or comma-separated)'});
  } else {
    input = h('input', {type: 'text', id, placeholder: placeholder ?? (f.default ?? '')});
  }
  if (value !== undefined && value !== null) input.value = String(value);
  return input;
}

/**
 * A field's value for a request body, or undefined when left empty: numbers parsed, booleans from
 * "true"/"false", lists one item a line (or comma-separated; numbers parsed where the items are numbers).
 */
export function valueOf(raw, f, name) {
  const v = String(raw ?? '').trim();
  if (v === '') return undefined;
  if (f.type === 'number' || f.type === 'integer') {
    const n = Number(v);
    if (!Number.isFinite(n)) throw new FieldError(name, `${name} must be a number`);
    return n;
  }
  if (f.type === 'boolean') return v === 'true';
  if (f.type === 'array') {
    if (v.startsWith('[')) {
      try { return JSON.parse(v); } catch { throw new FieldError(name, `${name} must be a JSON array or one item a line`); }
    }
    const items = v.split(/\n|,/).map((x) => x.trim()).filter(Boolean);
    const numeric = f.items && (f.items.type === 'number' || f.items.type === 'integer');
    return numeric ? items.map(Number) : items;
  }
  if (f.type === 'object') {
    try { return JSON.parse(v); } catch { throw new FieldError(name, `${name} must be JSON`); }
  }
  return v;
}

/** A client-side refusal of one field, shown like a problem with that parameter. */
export class FieldError extends Error {
  constructor(parameter, message) {
    super(message);
    this.problem = {title: 'Invalid parameter', detail: message, parameter};
  }
}

/**
 * A set of labelled fields in a grid form, keyed by their request path ("budget.epsilon"). add() makes
 * the label, the input, the hint and the spot for an inline error; show(e) puts a problem at its field.
 */
export class Fields {
  constructor(prefix) {
    this.prefix = prefix;
    this.entries = new Map();
  }

  id(key) {
    return this.prefix + '-' + key.replace(/[^A-Za-z0-9]+/g, '-');
  }

  /** The grid cells of a field: label, input, error spot and hint. */
  add(key, f, opts = {}) {
    const input = opts.input || inputFor(this.id(key), f, opts);
    const error = h('span', {class: 'field-error', role: 'alert', id: this.id(key) + '-error', hidden: true});
    this.entries.set(key, {f, input, error});
    input.addEventListener('input', () => this.unmark(key));
    input.addEventListener('change', () => this.unmark(key));
    return [h('label', {for: input.id}, opts.label || key, f.required ? ' *' : ''), input, error,
      h('span', {class: 'hint muted small'}, f.description || '')];
  }

  has(key) {
    return this.entries.has(key);
  }

  input(key) {
    return this.entries.get(key).input;
  }

  /** The parsed value of a field (undefined when empty). */
  value(key) {
    const e = this.entries.get(key);
    return e ? valueOf(e.input.value, e.f, key) : undefined;
  }

  /** Removes a field's mark and message (when it is edited). */
  unmark(key) {
    const e = this.entries.get(key);
    if (!e) return;
    e.input.removeAttribute('aria-invalid');
    e.error.hidden = true;
    mount(e.error);
  }

  clear() {
    for (const key of this.entries.keys()) this.unmark(key);
  }

  /** Forgets the fields whose key starts with this prefix (rows of a list that is rebuilt). */
  remove(prefix) {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  /**
   * The field a problem's parameter names: the field itself; else the longest field the parameter lies
   * under ("vertices.labels[3]" → "vertices.labels"); else the first field of the group it names
   * ("stream" → "stream.blockRows"); else the same field without list indices.
   */
  fieldFor(parameter) {
    const keys = [...this.entries.keys()];
    if (this.entries.has(parameter)) return parameter;
    const under = keys.filter((k) => parameter.startsWith(k + '.') || parameter.startsWith(k + '['))
        .sort((a, b) => b.length - a.length)[0];
    if (under) return under;
    const group = keys.find((k) => k.startsWith(parameter + '.') || k.startsWith(parameter + '['));
    if (group) return group;
    const bare = (k) => k.replace(/\[\d+\]/g, '');
    return keys.find((k) => bare(k) === bare(parameter)) || null;
  }

  /** Marks the field a problem names and shows the whole problem in `box`. Returns whether a field was marked. */
  show(e, box) {
    this.clear();
    if (box) mount(box, errorBox(e));
    const parameter = e && e.problem && e.problem.parameter;
    const key = parameter ? this.fieldFor(String(parameter)) : null;
    if (!key) return false;
    const {input, error} = this.entries.get(key);
    input.setAttribute('aria-invalid', 'true');
    mount(error, e.problem.detail || e.message);
    if (e.problem.allowedRange) error.appendChild(h('span', {class: 'small'}, ` (allowed: ${e.problem.allowedRange})`));
    error.hidden = false;
    return true;
  }
}
