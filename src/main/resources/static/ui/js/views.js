// The pages. Each view renders into `root` and may register pollers with ctx.every(ms, fn), which the
// router cancels when the page changes.

import {api, ledger, openapi, session} from './api.js';
import {h, mount, fmt, stateBadge, facts, jsonView, errorBox} from './dom.js';
import {gauge, stepChart, spentSeries, barChart, heatmap, intervalPlot} from './charts.js';
import {mechanisms, requestBody, expectedErrors} from './catalogue.js';

const TERMINAL = new Set(['DONE', 'FAILED', 'CANCELLED']);
const TRACKS = ['rho', 'epsilon', 'delta'];

// ---- login ---------------------------------------------------------------------------------------

export function loginView(root, ctx) {
  const input = h('input', {type: 'password', id: 'api-key', autocomplete: 'off', placeholder: 'pm_…',
    'aria-label': 'API key'});
  const message = h('div');
  const form = h('form', {class: 'card login', id: 'login-form'},
      h('h1', {}, 'Log in'),
      h('p', {class: 'muted'}, 'Paste an API key. It is kept in this tab (sessionStorage) and sent as the ',
          h('code', {}, 'Authorization'), ' header; nothing else is stored.'),
      input, message, h('button', {type: 'submit', id: 'login'}, 'Log in'));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    session.set(input.value.trim());
    try {
      const me = await api('/v1/me');
      ctx.loggedIn(me);
      const target = me.role === 'ADMIN' ? '#/jobs' : '#/datasets';
      if (location.hash === target) ctx.reroute();
      else location.hash = target;
    } catch (e) {
      session.clear();
      mount(message, errorBox(e));
    }
  });
  mount(root, form);
  input.focus();
}

// ---- datasets ------------------------------------------------------------------------------------

/** The fraction of the budget spent (committed plus reserved) on each track in use. */
export function budgetFractions(budget) {
  const out = [];
  for (const t of TRACKS) {
    const total = Number(budget.total && budget.total.tracks && budget.total.tracks[t]);
    if (!(total > 0)) continue;
    const spent = Number(budget.spent.tracks[t] || 0) + Number((budget.reserved && budget.reserved.tracks[t]) || 0);
    out.push({track: t, total, spent, fraction: spent / total});
  }
  return out;
}

export async function datasetsView(root, ctx) {
  if (ctx.me.role === 'ADMIN') {
    mount(root, h('h1', {}, 'Datasets'), h('p', {class: 'notice'}, 'Admin keys have no access to datasets; see Jobs.'));
    return;
  }
  const first = await api('/v1/datasets?limit=50');
  // Oldest first: show the newest 50.
  const page = first.total > 50 ? await api(`/v1/datasets?offset=${first.total - 50}&limit=50`) : first;
  const items = page.items.slice().reverse();
  const budgets = await Promise.all(items.map((d) => d.status === 'DELETING' ? null
    : api(`/v1/datasets/${d.id}/budget`).catch(() => null)));
  const rows = items.map((d, i) => {
    const fractions = budgets[i] ? budgetFractions(budgets[i]) : [];
    const main = fractions[0];
    return h('tr', {'data-dataset': d.id},
        h('td', {}, h('a', {href: `#/datasets/${d.id}`}, d.name)),
        h('td', {}, d.kind), h('td', {}, d.status), h('td', {}, d.owner),
        h('td', {class: 'num'}, d.rows != null ? `${d.rows} × ${d.cols ?? '?'}` : (d.cols != null ? `? × ${d.cols}` : '–')),
        h('td', {}, main ? h('span', {}, h('progress', {max: 1, value: Math.min(1, main.fraction)}),
            ` ${Math.round(main.fraction * 100)}% of ${main.track} ${fmt(main.total)}`) : '–'));
  });
  mount(root, h('h1', {}, 'Datasets'),
      h('p', {class: 'muted small'}, `${page.total} dataset(s) visible to ${ctx.me.subject}; newest first.`),
      h('div', {class: 'card'}, h('table', {id: 'datasets'},
          h('thead', {}, h('tr', {}, ['Name', 'Kind', 'Status', 'Owner', 'Shape', 'Budget spent'].map((c) => h('th', {}, c)))),
          h('tbody', {}, rows))));
}

export async function datasetView(root, ctx, id) {
  const [d, budget, entries] = await Promise.all([api(`/v1/datasets/${id}`), api(`/v1/datasets/${id}/budget`),
    ledger(id)]);
  const fractions = budgetFractions(budget);
  const main = fractions.find((f) => f.track !== 'delta') || fractions[0];
  const owner = ctx.me.subject === d.owner;
  const jobsBox = h('div', {class: 'card', id: 'dataset-jobs'});
  const sections = [
    h('h1', {}, d.name, ' ', h('span', {class: 'muted small'}, d.kind + ' · ' + d.status)),
    h('div', {class: 'card'}, facts({id: d.id, owner: d.owner, kind: d.kind, neighbouring: d.neighbouring,
      privacyUnit: d.privacyUnit, rows: d.rows, cols: d.cols, rowNormBound: d.rowNormBound, accounting: budget.accounting,
      createdAt: d.createdAt})),
    h('h2', {}, 'Budget'),
    h('div', {class: 'card row', id: 'budget-gauges'}, fractions.map((f) => gauge(f.fraction, f.track,
        `${fmt(f.spent)} of ${fmt(f.total)}`))),
    h('h2', {}, 'Ledger: budget spent over entries'),
    h('div', {class: 'card', id: 'ledger-chart'},
        main ? stepChart(spentSeries(entries, main.track), {cap: main.total, xLabel: 'ledger entry (in order)',
          yLabel: main.track + ' spent', label: 'budget spent over ledger entries'}) : 'No budget track.',
        h('p', {class: 'legend'}, 'RESERVE adds, REFUND gives back, COMMIT makes a reservation final. ',
            'The x axis is the order of entries: analysts see no worker timestamps (commit and refund times).',
            owner ? '' : ' As an analyst you see your own entries only; the gauges show the whole budget.'),
        h('table', {class: 'small'}, h('thead', {}, h('tr', {}, ['#', 'Type', 'Kind', 'Mechanism', 'Caller', main ? main.track : '', 'Time']
            .map((c) => h('th', {}, c)))),
        h('tbody', {}, entries.slice(-20).map((e) => h('tr', {},
            h('td', {}, e.id), h('td', {}, e.type), h('td', {}, e.kind), h('td', {}, e.mechanism), h('td', {}, e.caller),
            h('td', {class: 'num'}, main ? fmt(e[main.track]) : ''), h('td', {class: 'small'}, e.createdAt || '–')))))),
    h('h2', {}, 'Jobs on this dataset'), jobsBox,
  ];
  if (d.status === 'READY') {
    sections.push(h('h2', {}, 'Quote and submit a query'), await queryForm(id));
  }
  if (owner) sections.push(h('h2', {}, 'Grants'), await grantsBox(id));
  mount(root, ...sections);
  const refresh = async () => mount(jobsBox, jobsTable((await api(`/v1/jobs?datasetId=${id}&limit=20`)).items));
  await refresh();
  ctx.every(3000, refresh);
}

async function grantsBox(id) {
  const box = h('div', {class: 'card', id: 'grants'});
  const render = async () => {
    const grants = await api(`/v1/datasets/${id}/grants`);
    const input = h('input', {type: 'text', id: 'grant-analyst', placeholder: 'analyst subject'});
    const message = h('div');
    mount(box,
        h('table', {}, h('thead', {}, h('tr', {}, ['Analyst', 'Granted', 'By', ''].map((c) => h('th', {}, c)))),
            h('tbody', {}, grants.map((g) => h('tr', {},
                h('td', {}, g.analyst), h('td', {class: 'small'}, g.grantedAt), h('td', {}, g.grantedBy),
                h('td', {}, h('button', {type: 'button', class: 'secondary', onclick: async () => {
                  try { await api(`/v1/datasets/${id}/grants/${encodeURIComponent(g.analyst)}`, {method: 'DELETE'}); await render(); }
                  catch (e) { mount(message, errorBox(e)); }
                }}, 'Revoke')))))),
        h('div', {class: 'row'}, input, h('button', {type: 'button', id: 'grant-add', onclick: async () => {
          try { await api(`/v1/datasets/${id}/grants`, {method: 'POST', body: {analyst: input.value.trim()}}); await render(); }
          catch (e) { mount(message, errorBox(e)); }
        }}, 'Grant')), message);
  };
  await render();
  return box;
}

// ---- the query form ------------------------------------------------------------------------------

async function queryForm(datasetId) {
  const specs = mechanisms(await openapi());
  const box = h('div', {class: 'card', id: 'query-form'});
  const mechSelect = h('select', {id: 'q-mechanism'}, specs.map((s) => h('option', {value: s.mechanism}, s.mechanism)));
  const kindSelect = h('select', {id: 'q-kind'});
  const fields = h('div');
  const out = h('div', {id: 'quote'});
  const submit = h('button', {type: 'button', id: 'q-submit', disabled: true}, 'Submit');
  const inputs = {};
  let quoted = null;
  const spec = () => specs.find((s) => s.mechanism === mechSelect.value);
  const invalidate = () => { quoted = null; submit.disabled = true; };
  const renderFields = () => {
    const s = spec();
    mount(kindSelect, s.kinds.map((k) => h('option', {value: k}, k)));
    if (s.example && s.example.kind) kindSelect.value = s.example.kind;
    for (const k of Object.keys(inputs)) delete inputs[k];
    const rows = [];
    const add = (key, f, placeholder) => {
      const input = f.enum || f.type === 'boolean'
        ? h('select', {id: 'q-' + key.replace('.', '-')}, h('option', {value: ''}, '(default)'),
            (f.enum || ['true', 'false']).map((v) => h('option', {value: String(v)}, String(v))))
        : h('input', {type: 'text', id: 'q-' + key.replace('.', '-'), placeholder: placeholder ?? (f.default ?? '')});
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
        h('form', {class: 'grid'}, h('label', {for: 'q-kind'}, 'kind'), kindSelect, rows));
    invalidate();
    mount(out);
  };
  const body = () => requestBody(mechSelect.value, kindSelect.value,
      Object.fromEntries(Object.entries(inputs).map(([k, el]) => [k, el.value])), spec());
  const quoteButton = h('button', {type: 'button', id: 'q-quote', class: 'secondary', onclick: async () => {
    try {
      const request = body();
      const quote = await api(`/v1/datasets/${datasetId}/queries/quote`, {method: 'POST', body: request});
      quoted = JSON.stringify(request);
      submit.disabled = !quote.admissible;
      mount(out, renderQuote(quote));
    } catch (e) { invalidate(); mount(out, errorBox(e)); }
  }}, 'Quote');
  submit.addEventListener('click', async () => {
    try {
      const request = body();
      if (JSON.stringify(request) !== quoted) { invalidate(); return; }
      const job = await api(`/v1/datasets/${datasetId}/queries`, {method: 'POST', body: request});
      location.hash = `#/jobs/${job.id}`;
    } catch (e) { mount(out, errorBox(e)); }
  });
  mechSelect.addEventListener('change', renderFields);
  kindSelect.addEventListener('change', invalidate);
  mount(box, h('div', {class: 'row'}, h('label', {for: 'q-mechanism'}, 'Mechanism '), mechSelect), fields,
      h('div', {class: 'row'}, quoteButton, submit), out);
  if (specs.length) {
    mechSelect.value = specs.find((s) => s.mechanism === 'GAUSSIAN') ? 'GAUSSIAN' : specs[0].mechanism;
    renderFields();
  } else {
    mount(fields, h('p', {class: 'error'}, 'The contract lists no mechanisms.'));
  }
  return box;
}

function tracksText(t) {
  return t ? TRACKS.filter((k) => t[k] !== undefined && t[k] !== null).map((k) => `${k} ${fmt(t[k])}`).join(', ') : '–';
}

function renderQuote(q) {
  const expected = expectedErrors(q);
  return h('div', {class: 'quote'},
      h('p', {}, h('strong', {}, 'Cost: '), h('span', {id: 'quote-cost'}, tracksText(q.cost)), ' · ',
          q.admissible ? h('span', {class: 'state state-DONE'}, 'admissible') : h('span', {class: 'state state-FAILED'}, 'over budget')),
      h('p', {class: 'small'}, 'Remaining now: ', tracksText(q.remaining), ' · after: ', tracksText(q.remainingAfter)),
      expected.length ? h('div', {class: 'expected', id: 'quote-expected'}, h('strong', {}, 'Expected error: '),
          expected.map(([k, v]) => `${k} = ${typeof v === 'number' ? fmt(v) : v}`).join('; ')) : null,
      q.noise ? h('details', {open: true}, h('summary', {}, 'Noise (public facts)'), facts(q.noise)) : null,
      jsonView(q, 'Quote as JSON'));
}

// ---- jobs ----------------------------------------------------------------------------------------

function jobsTable(items) {
  if (!items.length) return h('p', {class: 'muted'}, 'No jobs.');
  return h('table', {class: 'jobs'},
      h('thead', {}, h('tr', {}, ['Job', 'Kind', 'Mechanism', 'State', 'Phase', 'Progress', 'ETA', 'Submitted']
          .map((c) => h('th', {}, c)))),
      h('tbody', {}, items.map((j) => h('tr', {'data-job': j.id},
          h('td', {class: 'mono'}, h('a', {href: `#/jobs/${j.id}`}, j.id.slice(0, 8))),
          h('td', {}, j.kind), h('td', {}, j.mechanism), h('td', {}, stateBadge(j.state)), h('td', {class: 'small'}, j.phase),
          h('td', {}, h('progress', {max: 1, value: j.progress}), ` ${Math.round(j.progress * 100)}%`),
          h('td', {class: 'num'}, j.etaSeconds != null ? `${j.etaSeconds} s` : '–'),
          h('td', {class: 'small'}, j.createdAt)))));
}

export async function jobsView(root, ctx) {
  const stateSelect = h('select', {id: 'jobs-state'}, h('option', {value: ''}, 'any state'),
      ['QUEUED', 'RUNNING', 'DONE', 'FAILED', 'CANCELLED'].map((s) => h('option', {value: s}, s)));
  const table = h('div', {class: 'card', id: 'jobs'});
  const summary = h('p', {class: 'muted small'});
  const refresh = async () => {
    const q = stateSelect.value ? `&state=${stateSelect.value}` : '';
    const page = await api(`/v1/jobs?limit=50${q}`);
    mount(summary, `${page.total} job(s) visible to ${ctx.me.subject} (${ctx.me.role}); newest first, refreshed every 2 s.`);
    mount(table, jobsTable(page.items));
  };
  stateSelect.addEventListener('change', refresh);
  mount(root, h('h1', {}, 'Jobs'), h('div', {class: 'row'}, h('label', {for: 'jobs-state'}, 'Filter '), stateSelect), summary, table);
  await refresh();
  ctx.every(2000, refresh);
}

export async function jobView(root, ctx, id) {
  const head = h('div', {class: 'card', id: 'job'});
  const result = h('div', {id: 'result'});
  mount(root, h('h1', {}, 'Job ', h('span', {class: 'mono'}, id)), head, result);
  let shown = false;
  const refresh = async () => {
    const j = await api(`/v1/jobs/${id}`);
    mount(head, h('div', {class: 'row'}, stateBadge(j.state), h('span', {}, j.phase),
        h('progress', {max: 1, value: j.progress, id: 'job-progress'}), `${Math.round(j.progress * 100)}%`,
        j.etaSeconds != null ? h('span', {}, `about ${j.etaSeconds} s left`) : null),
        facts({kind: j.kind, mechanism: j.mechanism, dataset: j.datasetId, dataAccessStarted: j.dataAccessStarted,
          createdAt: j.createdAt, startedAt: j.startedAt, finishedAt: j.finishedAt, cost: tracksText(j.cost)}),
        j.error ? h('p', {class: 'error'}, `${j.error.code}: ${j.error.message}`) : null,
        h('p', {}, h('a', {href: `#/datasets/${j.datasetId}`}, 'Dataset')),
        !TERMINAL.has(j.state) ? h('button', {type: 'button', class: 'secondary', onclick: async () => {
          await api(`/v1/jobs/${id}`, {method: 'DELETE'}).catch((e) => mount(result, errorBox(e)));
          await refresh();
        }}, 'Cancel') : null);
    if (j.state === 'DONE' && !shown) {
      shown = true;
      const r = await api(`/v1/jobs/${id}/result`);
      mount(result, h('h2', {}, 'Result'), renderResult(r));
    }
    return TERMINAL.has(j.state);
  };
  if (!(await refresh())) {
    ctx.every(1000, async (stop) => { if (await refresh()) stop(); });
  }
}

// ---- results -------------------------------------------------------------------------------------

/** The plots of a result, chosen by its kind; every result also gets its JSON. */
export function renderResult(r) {
  const parts = [];
  const card = (title, ...content) => h('div', {class: 'card'}, h('h2', {}, title), ...content);
  if (r.kind === 'PCA' && Array.isArray(r.eigenvalues)) {
    parts.push(card('Scree plot and captured variance',
        h('div', {id: 'scree'}, barChart(r.eigenvalues, {cumulative: true, xLabel: 'component', yLabel: 'eigenvalue',
          label: 'scree plot'})),
        h('p', {class: 'legend'}, 'Bars: the released eigenvalues. Line (right axis): the share of their total captured by the first k components.')));
    if (Array.isArray(r.components)) parts.push(card('Components (d × k)', heatmap(r.components, {label: 'components'})));
  } else if (r.kind === 'COVARIANCE' && Array.isArray(r.covariance)) {
    parts.push(card('Covariance heatmap', h('div', {id: 'heatmap'}, heatmap(r.covariance, {label: 'covariance'})),
        r.noiseDominated ? h('p', {class: 'expected'}, 'The noise dominates this estimate (noiseDominated).') : null));
    if (Array.isArray(r.eigenvalues)) parts.push(card('Eigenvalues', barChart(r.eigenvalues, {cumulative: true,
      xLabel: 'component', yLabel: 'eigenvalue', label: 'eigenvalues'})));
  } else if ((r.kind === 'LOW_RANK' || r.kind === 'TOP_SINGULAR_VECTORS') && Array.isArray(r.v)) {
    if (Array.isArray(r.singularValues)) {
      parts.push(card('Singular values', h('div', {id: 'singular-values'}, barChart(r.singularValues,
          {xLabel: 'factor', yLabel: 'singular value', label: 'singular values'}))));
    }
    parts.push(card('Factors V (d × k)', h('div', {id: 'factors'}, heatmap(r.v, {label: 'factors V'}))));
    if (Array.isArray(r.u) && r.u.length) parts.push(card('Factors U (rows × k)', heatmap(r.u, {label: 'factors U'})));
  } else if (r.kind === 'COLUMN_SUMS' && Array.isArray(r.columnSums)) {
    parts.push(card('Column sums', h('div', {id: 'column-sums'}, barChart(r.columnSums, {xLabel: 'column',
      yLabel: 'noisy sum', label: 'column sums'}))));
  } else if (r.kind === 'REGRESSION' && Array.isArray(r.coefficients)) {
    parts.push(card('Coefficients with intervals', intervalPlot(r.coefficients.map((c) => ({label: 'column ' + c.column,
      estimate: c.estimate, lower: c.lower, upper: c.upper})), {label: 'coefficients'})));
  }
  if (r.releaseId) parts.push(releaseQueries(r));
  if (r.noise) parts.push(card('Noise (public facts)', facts(r.noise)));
  if (r.facts) parts.push(card('Facts', facts(r.facts)));
  parts.push(jsonView(r, 'Result as JSON'));
  return h('div', {}, parts);
}

/** Free queries on a stored release: cuts on graph sketches, directional variance on matrix releases. */
function releaseQueries(r) {
  const graph = r.releaseKind === 'GRAPH_SKETCH' || r.releaseKind === 'WINDOW_LAPLACIAN';
  const text = h('textarea', {id: 'release-input', placeholder: graph ? 'one set per line: a,b,c' : 'one vector per line: 1,0,0'});
  const out = h('div', {id: 'release-answers'});
  const ask = h('button', {type: 'button', id: 'release-ask', onclick: async () => {
    const lines = text.value.split('\n').map((l) => l.trim()).filter(Boolean);
    try {
      const body = graph ? {sets: lines.map((l) => l.split(',').map((s) => s.trim()).filter(Boolean))}
        : {vectors: lines.map((l) => l.split(',').map(Number))};
      const a = await api(`/v1/releases/${r.releaseId}/${graph ? 'cuts' : 'directional-variance'}`, {method: 'POST', body});
      mount(out, intervalPlot(a.answers.map((x, i) => ({label: lines[i].slice(0, 18), estimate: x.estimate,
        lower: x.lower, upper: x.upper})), {label: graph ? 'cut answers' : 'directional variances',
        xLabel: `${graph ? 'cut weight' : 'variance'} (intervals hold with probability ≥ ${a.confidence})`}),
          jsonView(a, 'Answers as JSON'));
    } catch (e) { mount(out, errorBox(e)); }
  }}, graph ? 'Answer cuts' : 'Answer directional variances');
  return h('div', {class: 'card', id: 'release'}, h('h2', {}, graph ? 'Cut queries (free)' : 'Directional variance (free)'),
      h('p', {class: 'muted small'}, `Release ${r.releaseId} (${r.releaseKind || r.kind}): any number of queries, no further budget.`),
      text, ask, out);
}
