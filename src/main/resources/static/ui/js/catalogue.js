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

/** [{mechanism, description, kinds, budget: [{name, description, min, max}], params: [...]}] */
export function mechanisms(doc) {
  const schemas = (doc.components && doc.components.schemas) || {};
  const request = schemas.QueryRequest;
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
  return {name, type: s.type || (s.enum ? 'string' : 'string'), description: s.description || '',
    min: s.minimum ?? s.exclusiveMinimum, max: s.maximum ?? s.exclusiveMaximum, default: s.default,
    enum: s.enum, items: s.items};
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

/** Fields of a quote that state an expected error (any key naming "expected" or "error"), flattened. */
export function expectedErrors(quote) {
  const out = [];
  const walk = (o, path) => {
    if (!o || typeof o !== 'object') return;
    for (const [k, v] of Object.entries(o)) {
      const p = path ? path + '.' + k : k;
      if (/expected|error/i.test(k) && (typeof v === 'number' || typeof v === 'string')) out.push([p, v]);
      else if (typeof v === 'object') walk(v, p);
    }
  };
  walk(quote, '');
  return out;
}
