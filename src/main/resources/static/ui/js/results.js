// Results and releases: the plots of a job's result by its kind, the intervals and bounds it carries,
// and the free queries its stored release answers (chosen by the release's kind, as the service does).

import {api} from './api.js';
import {h, mount, fmt, facts, jsonView, errorBox} from './dom.js';
import {barChart, heatmap, intervalPlot, answerPlot} from './charts.js';
import {expectedPanel, warningsPanel} from './queryform.js';

/** Most rows a table of answers shows (the plot and the JSON keep every answer). */
const TABLE_ROWS = 200;
/** Most entries one interval plot shows. */
const INTERVAL_ITEMS = 40;

const card = (title, ...content) => h('div', {class: 'card'}, h('h2', {}, title), ...content);

/** The plots of a result, chosen by its kind; every result also gets its intervals, warnings and JSON. */
export function renderResult(r) {
  const parts = [warningsPanel(r, 'result-warnings')];
  const intervals = (r.accuracy && Array.isArray(r.accuracy.intervals)) ? r.accuracy.intervals : [];
  const shown = new Set();
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
  } else if (r.kind === 'LINEAR_QUERIES') {
    const set = intervals.find((s) => s.quantity === 'answers');
    if (set) shown.add(set);
    parts.push(linearAnswers(r, set));
  } else if (r.kind === 'COMPLETION' && Array.isArray(r.spectrum)) {
    parts.push(card('Released spectrum', barChart(r.spectrum, {xLabel: 'iteration', yLabel: 'λ̂', label: 'spectrum'})));
  } else if (r.kind === 'SUBSCRIPTION' && r.subscriptionId) {
    parts.push(card('Subscription', h('p', {}, 'A standing query on the stream: its window releases are listed on ',
        h('a', {href: `#/subscriptions/${r.subscriptionId}`, id: 'subscription-link'}, 'the subscription\'s page'), '.')));
  }
  const rest = intervals.filter((s) => !shown.has(s));
  if (rest.length || (r.accuracy && r.accuracy.bounds && r.accuracy.bounds.length)) parts.push(accuracyCard(r.accuracy, rest));
  if (r.releaseId) parts.push(releasePanel(r.releaseId, r.releaseKind, r.jobId));
  if (r.noise) parts.push(card('Noise (public facts)', facts(r.noise)));
  if (r.facts) parts.push(card('Facts', facts(r.facts)));
  parts.push(jsonView(r, 'Result as JSON'));
  return h('div', {}, parts);
}

/** The intervals (one plot per released quantity) and bounds a result states, at its level. */
function accuracyCard(accuracy, sets) {
  return h('div', {class: 'card', id: 'accuracy'}, h('h2', {}, 'Intervals and error bounds'),
      accuracy.note ? h('p', {class: 'muted small'}, accuracy.note) : null,
      sets.map((s) => {
        const n = Math.min(INTERVAL_ITEMS, (s.estimate || []).length);
        const items = [];
        for (let i = 0; i < n; i++) {
          items.push({label: `${s.quantity} ${i + 1}`, estimate: s.estimate[i], lower: s.lower[i], upper: s.upper[i]});
        }
        return h('div', {id: 'intervals-' + String(s.quantity).replace(/[^A-Za-z0-9]+/g, '-')},
            h('h3', {}, `${s.quantity}: intervals at level ${s.level} (${s.basis})`),
            intervalPlot(items, {label: s.quantity + ' intervals', xLabel: s.quantity}),
            s.estimate.length > n ? h('p', {class: 'muted small'}, `first ${n} of ${s.estimate.length}`) : null,
            s.clamp && s.clamp !== 'none' ? h('p', {class: 'muted small'}, 'Clamped: ' + s.clamp) : null);
      }),
      accuracy.bounds && accuracy.bounds.length ? expectedPanel({accuracy: {bounds: accuracy.bounds}}, 'accuracy-bounds',
          {title: 'Error bounds', note: ` (at level ${accuracy.level}, from the released values and public parameters)`}) : null);
}

/** A table of linear-query answers (the first TABLE_ROWS) and a plot of all of them with their intervals. */
export function answersTable(rows, {id, intervalTitle}) {
  const shown = rows.slice(0, TABLE_ROWS);
  const hasBias = rows.some((r) => r.bias != null);
  return h('div', {id},
      h('div', {class: 'plot'}, answerPlot(rows.map((r) => ({label: r.label, estimate: r.value, lower: r.lower, upper: r.upper})),
          {label: 'linear-query answers', yLabel: 'answer'})),
      h('p', {class: 'legend'}, 'Points: the answers. Bars: ', intervalTitle, '.'),
      h('div', {class: 'scroll'}, h('table', {class: 'small answers'},
          h('thead', {}, h('tr', {}, ['Query', 'Answer', 'Std. dev.', 'Lower', 'Upper', hasBias ? 'Bias factor' : null]
              .filter(Boolean).map((c) => h('th', {}, c)))),
          h('tbody', {}, shown.map((r) => h('tr', {'data-answer': r.label},
              h('td', {}, r.label), h('td', {class: 'num'}, fmt(r.value)), h('td', {class: 'num'}, fmt(r.sd)),
              h('td', {class: 'num'}, fmt(r.lower)), h('td', {class: 'num'}, fmt(r.upper)),
              hasBias ? h('td', {class: 'num'}, fmt(r.bias)) : null))))),
      rows.length > shown.length ? h('p', {class: 'muted small'}, `The table shows the first ${shown.length} of ${rows.length} answers; the plot and the JSON all of them.`) : null);
}

/** ± 2 standard deviations where no interval is stated (no coverage is claimed for it). */
function twoSd(value, sd) {
  return Number.isFinite(Number(sd)) ? {lower: value - 2 * sd, upper: value + 2 * sd} : {lower: null, upper: null};
}

function linearAnswers(r, set) {
  if (!r.answersInline || !Array.isArray(r.answers)) {
    return card('Workload answers', h('p', {class: 'muted'}, `${r.queries} answers: too many to inline; `
        + 'they are served as application/x-npy by the result (Accept: application/x-npy).'));
  }
  const sds = r.standardDeviations || [];
  const rows = r.answers.map((value, i) => {
    const bounds = set ? {lower: set.lower[i], upper: set.upper[i]} : twoSd(value, sds[i]);
    return {label: 'q' + (i + 1), value, sd: sds[i], ...bounds};
  });
  return card(`Workload answers (${rows.length} queries)`,
      r.expectedRmsePerQuery != null ? h('p', {class: 'small'}, 'Expected RMSE per query (stated by the quote): ',
          h('strong', {}, fmt(r.expectedRmsePerQuery))) : null,
      answersTable(rows, {id: 'linear-result', intervalTitle: set
        ? `intervals that each hold with probability ≥ ${set.level} on their own (${set.basis})`
        : '± 2 standard deviations (no coverage stated)'}));
}

// ---- free queries on a stored release --------------------------------------------------------------

/**
 * The free queries a release answers, chosen by its kind: cuts on graph sketches and edge-stream
 * windows, directional variances on matrix sketches, covariances and matrix-stream windows, linear
 * queries (boxes) on histogram estimates, none on a completion model. The kind comes with the result
 * or from GET /v1/releases/{id}.
 */
export function releasePanel(releaseId, knownKind, jobId) {
  const box = h('div', {class: 'card', id: 'release'});
  mount(box, h('p', {class: 'muted small'}, 'Loading the release…'));
  (async () => {
    try {
      const release = await api(`/v1/releases/${releaseId}`);
      mount(box, ...freeQueries(release, knownKind || release.kind, jobId));
    } catch (e) { mount(box, errorBox(e)); }
  })();
  return box;
}

function freeQueries(release, kind, jobId) {
  const head = (title) => [h('h2', {}, title), h('p', {class: 'muted small'},
      `Release ${release.id} (${kind}): any number of queries, no further budget.`)];
  if (kind === 'GRAPH_SKETCH' || kind === 'WINDOW_LAPLACIAN') return [...head('Cut queries (free)'), intervalQueries(release.id, true)];
  if (kind === 'HISTOGRAM_ESTIMATE') return [...head('Linear queries (free)'), linearQueries(release)];
  if (kind === 'COMPLETION_MODEL') {
    return [h('h2', {}, 'Release'), h('p', {class: 'muted', id: 'release-none'}, `Release ${release.id} is a completion model: `
        + 'it answers no free query. The data owner gets each user\'s completed row from ',
    h('code', {}, `GET /v1/jobs/${jobId || release.jobId}/predictions`), '.')];
  }
  return [...head('Directional variance (free)'), intervalQueries(release.id, false)];
}

/** Cuts (vertex sets) or directional variances (vectors), answered with their intervals. */
function intervalQueries(releaseId, graph) {
  const text = h('textarea', {id: 'release-input', placeholder: graph ? 'one set per line: a,b,c' : 'one vector per line: 1,0,0'});
  const out = h('div', {id: 'release-answers'});
  const ask = h('button', {type: 'button', id: 'release-ask', onclick: async () => {
    const lines = text.value.split('\n').map((l) => l.trim()).filter(Boolean);
    try {
      const body = graph ? {sets: lines.map((l) => l.split(',').map((s) => s.trim()).filter(Boolean))}
        : {vectors: lines.map((l) => l.split(',').map(Number))};
      const a = await api(`/v1/releases/${releaseId}/${graph ? 'cuts' : 'directional-variance'}`, {method: 'POST', body});
      mount(out, intervalPlot(a.answers.map((x, i) => ({label: lines[i].slice(0, 18), estimate: x.estimate,
        lower: x.lower, upper: x.upper})), {label: graph ? 'cut answers' : 'directional variances',
        xLabel: `${graph ? 'cut weight' : 'variance'} (intervals hold with probability ≥ ${a.confidence})`}),
      jsonView(a, 'Answers as JSON'));
    } catch (e) { mount(out, errorBox(e)); }
  }}, graph ? 'Answer cuts' : 'Answer directional variances');
  return h('div', {}, text, ask, out);
}

/** The histogram's attributes and sizes from a release's public meta ("age:16,region:8"). */
export function domainOf(meta) {
  return String((meta && meta.domain) || '').split(',').filter(Boolean).map((part) => {
    const [name, size] = part.split(':');
    return {name: name.trim(), size: Number(size)};
  });
}

/**
 * Boxes typed one a line, "age=0-3, region=1" (attribute = lo-hi or one code; attributes not named span
 * their domain), or a JSON array of boxes.
 */
export function parseBoxes(text) {
  const t = text.trim();
  if (t.startsWith('[')) return JSON.parse(t);
  return t.split('\n').map((l) => l.trim()).filter(Boolean).map((line) => {
    const box = {};
    for (const part of line.split(/[,;]/).map((p) => p.trim()).filter(Boolean)) {
      const m = /^([^=:]+)[=:]\s*(-?\d+)\s*(?:(?:-|\.\.|–)\s*(-?\d+))?$/.exec(part);
      if (!m) throw new Error(`"${part}" is not attribute=lo-hi`);
      box[m[1].trim()] = [Number(m[2]), Number(m[3] ?? m[2])];
    }
    return box;
  });
}

function linearQueries(release) {
  const domain = domainOf(release.meta);
  const text = h('textarea', {id: 'linear-boxes', rows: 4, placeholder: domain.length
    ? domain.map((a, i) => `${a.name}=0-${Math.max(0, Math.floor((a.size - 1) / (i + 2)))}`).join(', ') : 'attribute=lo-hi, …'});
  const out = h('div', {id: 'linear-answers'});
  const ask = h('button', {type: 'button', id: 'linear-ask', onclick: async () => {
    const lines = text.value.split('\n').map((l) => l.trim()).filter(Boolean);
    try {
      const boxes = parseBoxes(text.value);
      const a = await api(`/v1/releases/${release.id}/linear-queries`, {method: 'POST', body: {boxes}});
      const rows = a.answers.map((x, i) => ({label: (lines[i] || 'box ' + (i + 1)).slice(0, 40), value: x.value,
        sd: x.standardDeviation, bias: x.biasFactor, ...twoSd(x.value, x.standardDeviation)}));
      mount(out, h('p', {class: 'small'}, `Strategy ${a.strategyMethod}; noise variance per measurement ${fmt(a.noiseVariance)}`,
          a.biased ? '; biased estimate: each answer states a bias factor' : ''),
      answersTable(rows, {id: 'linear-table', intervalTitle: '± 2 standard deviations (no coverage stated)'}),
      jsonView(a, 'Answers as JSON'));
    } catch (e) { mount(out, errorBox(e)); }
  }}, 'Answer boxes');
  return h('div', {},
      h('p', {class: 'small'}, 'One box a line: ', h('code', {}, 'attribute=lo-hi'), ' (value codes, inclusive), comma-separated; ',
          'attributes not named span their domain. Domain: ', domain.map((a) => `${a.name} 0…${a.size - 1}`).join(', ') || '–', '.'),
      text, ask, out);
}
