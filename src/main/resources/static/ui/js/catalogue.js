// The mechanism catalogue as the API contract publishes it: QueryRequest is a oneOf with one schema per
// mechanism (discriminator "mechanism"), each naming the kinds it answers, its budget fields and its
// typed params. The query form is built from this, so new mechanisms appear without UI changes.

const BUDGET_FIELDS = ['rho', 'epsilon', 'delta'];

function deref(doc, schema) {
  let s = schema;
  for (let i = 0; s && s.$ref && i < 10; i++) {
    s = s.$ref.split('/').slice(1).reduce((o, k) => o && o[k], doc);
  }
  return s || {};
}

/**
 * [{mechanism, description, kinds, budget: [{name, description, min, max}], params: [...]}] of a oneOf
 * request schema with a "mechanism" discriminator: QueryRequest (one-shot queries) or
 * SubscriptionRequest (standing queries on streams).
 */
export function mechanisms(doc, root = 'QueryRequest') {
  const schemas = (doc.components && doc.components.schemas) || {};
  const request = schemas[root];
  if (!request || !request.discriminator || !request.discriminator.mapping) return [];
  return Object.entries(request.discriminator.mapping).map(([mechanism, ref]) => {
    const schema = deref(doc, {$ref: ref});
    const props = schema.properties || {};
    const kinds = (deref(doc, props.kind).enum) || [];
    const budget = BUDGET_FIELDS.filter((f) => props[f]).map((f) => field(f, deref(doc, props[f])));
    const paramsSchema = props.params ? deref(doc, props.params) : {};
    const params = Object.entries(paramsSchema.properties || {}).map(([n, p]) => field(n, deref(doc, p)));
    return {mechanism, description: schema.description || '', kinds, budget, params,
      example: schema.example || null};
  }).sort((a, b) => a.mechanism.localeCompare(b.mechanism));
}

function field(name, s) {
  // A schema without a type is an object when it has members (e.g. LinearWorkload: a oneOf by "type").
  const type = s.type || (s.oneOf || s.anyOf || s.properties || s.discriminator ? 'object' : 'string');
  return {name, type, description: s.description || '',
    min: s.minimum ?? s.exclusiveMinimum, max: s.maximum ?? s.exclusiveMaximum, default: s.default,
    enum: s.enum, items: s.items, example: s.example};
}

/**
 * The request body from the form's string values: budget and params fields left empty are omitted;
 * numbers are parsed; booleans from "true"/"false"; arrays and objects as JSON.
 */
export function requestBody(mechanism, kind, values, spec) {
  const body = {kind, mechanism};
  for (const f of spec.budget) {
    const v = (values[f.name] ?? '').trim();
    if (v !== '') body[f.name] = parse(v, 'number', f.name);
  }
  const params = {};
  for (const f of spec.params) {
    const v = (values['params.' + f.name] ?? '').trim();
    if (v !== '') params[f.name] = parse(v, f.type, 'params.' + f.name);
  }
  if (Object.keys(params).length) body.params = params;
  return body;
}

function parse(v, type, name) {
  if (type === 'number' || type === 'integer') {
    const n = Number(v);
    if (!Number.isFinite(n)) throw new Error(`${name} must be a number`);
    return n;
  }
  if (type === 'boolean') return v === 'true';
  if (type === 'array' || type === 'object') {
    try { return JSON.parse(v); } catch { throw new Error(`${name} must be JSON`); }
  }
  return v;
}

/**
 * The properties of a component schema as form fields: the required ones first, each group in the
 * contract's order; nested objects named by their $ref.
 */
export function schemaFields(doc, name) {
  const schema = deref(doc, {$ref: '#/components/schemas/' + name});
  const required = new Set(schema.required || []);
  return Object.entries(schema.properties || {}).map(([n, p]) => {
    const ref = p.$ref || (p.allOf && p.allOf[0] && p.allOf[0].$ref);
    const s = deref(doc, p);
    const f = field(n, s);
    f.description = p.description || s.description || '';
    f.required = required.has(n);
    if (ref) f.ref = ref.split('/').pop();
    if (s.items && s.items.$ref) f.itemRef = s.items.$ref.split('/').pop();
    return f;
  }).sort((a, b) => Number(b.required) - Number(a.required));
}

/** The content types a request body of the contract accepts (e.g. an upload's formats), in its order. */
export function requestTypes(doc, path, method) {
  const op = doc.paths && doc.paths[path] && doc.paths[path][method];
  return Object.keys((op && op.requestBody && op.requestBody.content) || {});
}

/**
 * What a quote (or a result) states about its error, for the highlighted panel: every ErrorStatement of
 * an array whose key names an expected error or accuracy ({quantity, metric, value, level, basis,
 * derivation}), and every scalar field whose key names one (e.g. expectedRmsePerQuery).
 * Returns {statements: [...], scalars: [[path, value]]}.
 */
export function expectedErrors(quote) {
  const statements = [];
  const scalars = [];
  const naming = /expected|error|accuracy/i;
  const walk = (o, path, named) => {
    if (!o || typeof o !== 'object') return;
    if (Array.isArray(o)) {
      for (const item of o) {
        if (named && item && typeof item === 'object' && 'value' in item) statements.push(item);
        else walk(item, path, named);
      }
      return;
    }
    for (const [k, v] of Object.entries(o)) {
      if (k === 'warnings') continue;
      const p = path ? path + '.' + k : k;
      if (naming.test(k) && (typeof v === 'number' || typeof v === 'string')) scalars.push([p, v]);
      else if (typeof v === 'object') walk(v, p, named || naming.test(k));
    }
  };
  walk(quote, '', false);
  return {statements, scalars};
}

/**
 * The warnings of a quote or result, if it carries a `warnings` list: each as text (a string as is; an
 * object by its message, detail or title, with its code when it has one).
 */
export function warnings(doc) {
  const list = doc && Array.isArray(doc.warnings) ? doc.warnings : [];
  return list.map((w) => {
    if (w === null || typeof w !== 'object') return String(w);
    const text = w.message || w.detail || w.title || w.text || JSON.stringify(w);
    const code = w.code || w.type;
    return code && code !== text ? `${code}: ${text}` : text;
  });
}
