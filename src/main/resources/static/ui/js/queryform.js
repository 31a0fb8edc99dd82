// Quote before submit, for one-shot queries (QueryRequest) and for stream subscriptions
// (SubscriptionRequest): the form is built from the contract's catalogue, and only the mechanisms the
// service would plan on this dataset are offered.

import {api, openapi} from './api.js';
import {h, mount, fmt, facts, jsonView, errorBox} from './dom.js';
import {mechanisms, requestBody, expectedErrors, warnings} from './catalogue.js';

const TRACKS = ['rho', 'epsilon', 'delta'];
const REFUSED_HERE = /\/(wrong-dataset-kind|incompatible-accounting)$/;

/** Whether a problem says that this mechanism does not read this dataset (its kind, relation or accounting). */
export function refusesDataset(e) {
  const p = e && e.problem;
  if (!p) return false;
  return REFUSED_HERE.test(p.type || '') || (e.status === 400 && p.parameter === 'mechanism');
}

const probes = new Map();

/**
 * Asks the service which mechanisms read this dataset: a quote naming the mechanism and one of its
 * kinds, with no budget. The service checks the mechanism against the dataset's kind, relation and
 * ratings relation before it reads the budget, so a mechanism that cannot run here is refused (409
 * wrong-dataset-kind, or 400 naming the mechanism) and any other is refused for the missing budget
 * (400) before anything is planned: nothing is computed, nothing charged. Any other answer offers the
 * mechanism (its own quote then says what is wrong). Kept for the page's life (a dataset's declaration
 * never changes). Returns {offered: [spec], refused: [{spec, reason}]}.
 */
export async function applicable(quotePath, specs) {
  if (!probes.has(quotePath)) {
    probes.set(quotePath, (async () => {
      // One probe at a time: quotes are free work, bounded per key at once (429 beyond; docs/reliability.md),
      // so parallel probes were refused and their mechanisms offered on every dataset kind.
      const refusals = new Map();
      for (const s of specs) {
        const reason = await probe(quotePath, s);
        if (reason !== null) refusals.set(s.mechanism, reason);
      }
      return refusals;
    })());
  }
  const refused = await probes.get(quotePath);
  return {offered: specs.filter((s) => !refused.has(s.mechanism)),
    refused: specs.filter((s) => refused.has(s.mechanism)).map((s) => ({spec: s, reason: refused.get(s.mechanism)}))};
}

/** One probe: the refusal's text when the mechanism does not read this dataset, else null; waits out 429/503. */
async function probe(quotePath, s) {
  for (let attempt = 0; ; attempt++) {
    try {
      await api(quotePath, {method: 'POST', body: {kind: s.kinds[0], mechanism: s.mechanism}});
      return null;
    } catch (e) {
      if (refusesDataset(e)) return e.problem.detail || e.message;
      if ((e.status === 429 || e.status === 503) && attempt < 5) {
        const seconds = Number((e.problem && e.problem.retryAfterSeconds) || 1);
        await new Promise((resolve) => setTimeout(resolve, Math.min(5, Math.max(0.2, seconds)) * 1000));
        continue;
      }
      return null;
    }
  }
}

/**
 * The quote-and-submit form. options: root (the request schema), quotePath, submitPath, prefix (ids),
 * preferred (the mechanism selected first), submitLabel, onSubmitted(answer).
 */
export async function queryForm({root = 'QueryRequest', quotePath, submitPath, prefix = 'q', id = 'query-form',
  preferred = 'GAUSSIAN', submitLabel = 'Submit', onSubmitted}) {
  const all = mechanisms(await openapi(), root);
  const box = h('div', {class: 'card', id});
  if (!all.length) return mount(box, h('p', {class: 'error'}, 'The contract lists no mechanisms.'));
  const {offered: specs, refused} = await applicable(quotePath, all);
  if (!specs.length) {
    return mount(box, h('p', {class: 'muted'}, 'No mechanism of the catalogue reads this dataset.'),
        refusedList(refused, prefix));
  }
  const mechSelect = h('select', {id: prefix + '-mechanism'}, specs.map((s) => h('option', {value: s.mechanism}, s.mechanism)));
  const kindSelect = h('select', {id: prefix + '-kind'});
  const fields = h('div');
  const out = h('div', {id: prefix === 'q' ? 'quote' : prefix + '-quote-panel'});
  const submit = h('button', {type: 'button', id: prefix + '-submit', disabled: true}, submitLabel);
  const inputs = {};
  let quoted = null;
  const spec = () => specs.find((s) => s.mechanism === mechSelect.value);
  const invalidate = () => { quoted = null; submit.disabled = true; };
  const fieldId = (key) => prefix + '-' + key.replace('.', '-');
  const renderFields = () => {
    const s = spec();
    mount(kindSelect, s.kinds.map((k) => h('option', {value: k}, k)));
    if (s.example && s.example.kind) kindSelect.value = s.example.kind;
    for (const k of Object.keys(inputs)) delete inputs[k];
    const rows = [];
    const add = (key, f, placeholder) => {
      const input = f.enum || f.type === 'boolean'
        ? h('select', {id: fieldId(key)}, h('option', {value: ''}, '(default)'),
            (f.enum || ['true', 'false']).map((v) => h('option', {value: String(v)}, String(v))))
        : h('input', {type: 'text', id: fieldId(key), placeholder: placeholder ?? (f.default ?? '')});
      input.addEventListener('input', invalidate);
      input.addEventListener('change', invalidate);
      inputs[key] = input;
      rows.push(h('label', {for: input.id}, key), input, h('span', {class: 'hint muted small'}, f.description));
    };
    for (const f of s.budget) add(f.name, f, s.example && s.example[f.name] !== undefined ? String(s.example[f.name]) : '');
    for (const f of s.params) add('params.' + f.name, f);
    const budgetValue = s.example && s.budget.find((f) => s.example[f.name] !== undefined);
    if (budgetValue) inputs[budgetValue.name].value = String(s.example[budgetValue.name]);
    for (const [k, v] of Object.entries((s.example && s.example.params) || {})) {
      if (inputs['params.' + k]) inputs['params.' + k].value = typeof v === 'object' ? JSON.stringify(v) : String(v);
    }
    mount(fields, h('p', {class: 'muted small'}, s.description),
        h('form', {class: 'grid'}, h('label', {for: kindSelect.id}, 'kind'), kindSelect, rows));
    invalidate();
    mount(out);
  };
  const body = () => requestBody(mechSelect.value, kindSelect.value,
      Object.fromEntries(Object.entries(inputs).map(([k, el]) => [k, el.value])), spec());
  /** A refusal that says the mechanism cannot run here greys it out, so it is not picked again. */
  const refuse = (e) => {
    if (!refusesDataset(e)) return;
    const option = [...mechSelect.options].find((o) => o.value === mechSelect.value);
    if (option && !option.disabled) { option.disabled = true; option.textContent += ' (refused on this dataset)'; }
  };
  const quoteButton = h('button', {type: 'button', id: prefix + '-quote', class: 'secondary', onclick: async () => {
    try {
      const request = body();
      const quote = await api(quotePath, {method: 'POST', body: request});
      quoted = JSON.stringify(request);
      submit.disabled = !quote.admissible;
      mount(out, renderQuote(quote, prefix));
    } catch (e) { invalidate(); refuse(e); mount(out, errorBox(e)); }
  }}, 'Quote');
  submit.addEventListener('click', async () => {
    try {
      const request = body();
      if (JSON.stringify(request) !== quoted) { invalidate(); return; }
      onSubmitted(await api(submitPath, {method: 'POST', body: request}));
    } catch (e) { mount(out, errorBox(e)); }
  });
  mechSelect.addEventListener('change', renderFields);
  kindSelect.addEventListener('change', invalidate);
  mount(box, h('div', {class: 'row'}, h('label', {for: mechSelect.id}, 'Mechanism '), mechSelect,
      h('span', {class: 'muted small'}, `${specs.length} of ${all.length} mechanisms read this dataset`)),
  fields, h('div', {class: 'row'}, quoteButton, submit), out, refusedList(refused, prefix));
  mechSelect.value = specs.find((s) => s.mechanism === preferred) ? preferred : specs[0].mechanism;
  renderFields();
  return box;
}

function refusedList(refused, prefix) {
  if (!refused.length) return null;
  return h('details', {class: 'small', id: prefix + '-refused'},
      h('summary', {class: 'muted'}, `Not offered here (${refused.length}): the service refuses them on this dataset`),
      h('ul', {}, refused.map((r) => h('li', {}, h('strong', {}, r.spec.mechanism), ': ', r.reason))));
}

export function tracksText(t) {
  return t ? TRACKS.filter((k) => t[k] !== undefined && t[k] !== null).map((k) => `${k} ${fmt(t[k])}`).join(', ') : '–';
}

/** The expected error a quote or result states, highlighted: its statements as a table, other fields after. */
export function expectedPanel(doc, id, {title = 'Expected error',
  note = ' (from public parameters only, before anything is spent)'} = {}) {
  const {statements, scalars} = expectedErrors(doc);
  if (!statements.length && !scalars.length) return null;
  return h('div', {class: 'expected', id},
      h('strong', {}, title), h('span', {class: 'muted small'}, note),
      statements.length ? h('table', {class: 'small'},
          h('thead', {}, h('tr', {}, ['Quantity', 'Metric', 'Value', 'Level', 'Basis', 'Derivation'].map((c) => h('th', {}, c)))),
          h('tbody', {}, statements.map((s) => h('tr', {},
              h('td', {}, s.quantity ?? '–'), h('td', {}, s.metric ?? '–'),
              h('td', {class: 'num'}, h('strong', {}, fmt(s.value))),
              h('td', {class: 'num'}, s.level == null ? 'RMS' : fmt(s.level)), h('td', {}, s.basis ?? '–'),
              h('td', {class: 'small muted'}, s.derivation ?? ''))))) : null,
      scalars.length ? h('p', {class: 'small'}, scalars.map(([k, v]) => `${k} = ${typeof v === 'number' ? fmt(v) : v}`)
          .join('; ')) : null);
}

/** The warnings a quote or result carries, if any (rendered generically). */
export function warningsPanel(doc, id) {
  const list = warnings(doc);
  if (!list.length) return null;
  return h('div', {class: 'warning', id, role: 'note'}, h('strong', {}, 'Warnings'),
      h('ul', {}, list.map((w) => h('li', {}, w))));
}

export function renderQuote(q, prefix = 'q') {
  const id = (name) => (prefix === 'q' ? 'quote-' : prefix + '-quote-') + name;
  return h('div', {class: 'quote'},
      h('p', {}, h('strong', {}, 'Cost: '), h('span', {id: id('cost')}, tracksText(q.cost)), ' · ',
          q.admissible ? h('span', {class: 'state state-DONE'}, 'admissible') : h('span', {class: 'state state-FAILED'}, 'over budget')),
      h('p', {class: 'small'}, 'Remaining now: ', tracksText(q.remaining), ' · after: ', tracksText(q.remainingAfter)),
      expectedPanel(q, id('expected')),
      warningsPanel(q, id('warnings')),
      q.noise ? h('details', {open: true}, h('summary', {}, 'Noise (public facts)'), facts(q.noise)) : null,
      jsonView(q, 'Quote as JSON'));
}
