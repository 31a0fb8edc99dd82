// The pages. Each view renders into `root` and may register pollers with ctx.every(ms, fn), which the
// router cancels when the page changes.

import {api, ledger, session} from './api.js';
import {h, mount, fmt, stateBadge, facts, errorBox} from './dom.js';
import {gauge, stepChart, spentSeries} from './charts.js';
import {queryForm, tracksText} from './queryform.js';
import {renderResult} from './results.js';
import {grantsBox, uploadBox, streamSections} from './owner.js';

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
      const target = me.role === 'ADMIN' ? '#/keys' : '#/datasets';
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
    mount(root, h('h1', {}, 'Datasets'), h('p', {class: 'notice'}, 'Admin keys have no access to datasets; see Jobs and API keys.'));
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
      ctx.me.role === 'OWNER' ? h('p', {}, h('a', {class: 'button', href: '#/datasets/new', id: 'new-dataset'}, 'New dataset')) : null,
      h('p', {class: 'muted small'}, `${page.total} dataset(s) visible to ${ctx.me.subject}; newest first.`),
      h('div', {class: 'card'}, h('table', {id: 'datasets'},
          h('thead', {}, h('tr', {}, ['Name', 'Kind', 'Status', 'Owner', 'Shape', 'Budget spent'].map((c) => h('th', {}, c)))),
          h('tbody', {}, rows))));
}

/** The kind-specific part of a dataset's public declaration (stream blocks, ratings, attributes, source). */
function declaration(d) {
  const parts = [];
  if (d.stream) parts.push(h('h3', {}, 'Stream'), facts(d.stream));
  if (d.ratings) parts.push(h('h3', {}, 'Ratings'), facts(d.ratings));
  if (d.external) parts.push(h('h3', {}, 'External source'), facts(d.external));
  if (Array.isArray(d.attributes) && d.attributes.length) {
    parts.push(h('h3', {}, 'Attributes'), h('ul', {class: 'small'}, d.attributes.map((a) => h('li', {},
        `${a.name}: ${a.size} values` + (a.labels ? ` (${a.labels.join(', ')})` : '')))));
  }
  if (Array.isArray(d.columns) && d.columns.length) parts.push(h('h3', {}, 'Columns'), h('p', {class: 'small'}, d.columns.join(', ')));
  return parts;
}

export async function datasetView(root, ctx, id) {
  const [d, budget, entries, record] = await Promise.all([api(`/v1/datasets/${id}`), api(`/v1/datasets/${id}/budget`),
    ledger(id), api(`/v1/datasets/${id}/transparency?limit=100`)]);
  const fractions = budgetFractions(budget);
  const main = fractions.find((f) => f.track !== 'delta') || fractions[0];
  const owner = ctx.me.subject === d.owner;
  const jobsBox = h('div', {class: 'card', id: 'dataset-jobs'});
  const sections = [
    h('h1', {}, d.name, ' ', h('span', {class: 'muted small'}, d.kind + ' · ' + d.status)),
    h('div', {class: 'card', id: 'dataset-facts'}, facts({id: d.id, owner: d.owner, kind: d.kind, status: d.status,
      neighbouring: d.neighbouring, privacyUnit: d.privacyUnit, rows: d.rows, cols: d.cols, nnz: d.nnz,
      rowNormBound: d.rowNormBound, clippedRows: d.clippedRows, droppedRatings: d.droppedRatings,
      sourceFormat: d.sourceFormat, accounting: budget.accounting, createdAt: d.createdAt, uploadedAt: d.uploadedAt}),
    declaration(d)),
    owner && d.status === 'EMPTY' && d.kind !== 'STREAM' ? [h('h2', {}, 'Upload the data'), await uploadBox(d, ctx)] : null,
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
    h('h2', {}, 'Transparency record'), transparencyBox(record, main),
    h('h2', {}, 'Jobs on this dataset'), jobsBox,
  ];
  if (d.kind === 'STREAM') sections.push(...await streamSections(d, ctx, owner));
  else if (d.status === 'READY') {
    sections.push(h('h2', {}, 'Quote and submit a query'), await queryForm({quotePath: `/v1/datasets/${id}/queries/quote`,
      submitPath: `/v1/datasets/${id}/queries`, onSubmitted: (job) => { location.hash = `#/jobs/${job.id}`; }}));
  }
  if (owner) sections.push(h('h2', {}, 'Grants'), await grantsBox(id));
  mount(root, ...sections);
  const refresh = async () => mount(jobsBox, jobsTable((await api(`/v1/jobs?datasetId=${id}&limit=20`)).items));
  await refresh();
  ctx.every(3000, refresh);
}

/** The transparency record's first page: one row per charged release (docs/accounting.md §12). */
function transparencyBox(record, main) {
  const rows = record.releases;
  return h('div', {class: 'card', id: 'transparency'},
      h('p', {class: 'legend'}, `Privacy unit: ${record.privacyUnit} (${record.relation}); ${record.total} charged `
          + `release(s). Each charge is also shown as the (ε, δ) it amounts to under ${record.totals.accounting} `
          + 'accounting. The registry YAML: GET …/transparency with Accept: application/yaml.'),
      rows.length ? h('table', {class: 'small'}, h('thead', {}, h('tr', {}, ['Entry', 'Mechanism', 'Release',
        main ? main.track : '', 'ε', 'δ', 'Expected error', 'Analyst', 'Admitted'].map((c) => h('th', {}, c)))),
      h('tbody', {}, rows.map((r) => h('tr', {'data-entry': r.entry},
          h('td', {}, r.entry), h('td', {}, r.mechanism), h('td', {}, r.releaseType),
          h('td', {class: 'num'}, main ? fmt(r.charged[main.track]) : ''),
          h('td', {class: 'num'}, fmt(r.guarantee.epsilon)), h('td', {class: 'num'}, fmt(r.guarantee.delta)),
          h('td', {class: 'small'}, r.expectedError && r.expectedError.length
            ? `${r.expectedError[0].quantity} ${r.expectedError[0].metric} ${fmt(r.expectedError[0].value)}` : '–'),
          h('td', {}, r.analyst), h('td', {class: 'small'}, r.admittedAt)))))
        : h('p', {class: 'muted'}, 'No charged releases yet.'));
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
