// The owner's pages: create a dataset (its declaration built from the contract's schemas), upload its
// data with progress, grant analysts, and for streams append rows, subscribe, follow subscriptions and
// look at their window releases.

import {api, openapi, upload, contentTypeOf} from './api.js';
import {h, mount, fmt, facts, jsonView, errorBox, stateBadge} from './dom.js';
import {barChart, heatmap} from './charts.js';
import {schemaFields, requestTypes} from './catalogue.js';
import {Fields, FieldError} from './forms.js';
import {queryForm, tracksText} from './queryform.js';
import {releasePanel} from './results.js';

// ---- create a dataset ---------------------------------------------------------------------------

/**
 * Which parts of the declaration each kind takes (the contract's descriptions of CreateDatasetRequest
 * say the same: "HISTOGRAM only", "Required for MATRIX, EXTERNAL and matrix STREAMs", …). A STREAM
 * takes rowNormBound (rows) or vertices (edge events) besides its block structure.
 */
const SECTIONS = {
  MATRIX: ['rowNormBound'],
  EXTERNAL: ['rowNormBound', 'external'],
  GRAPH: ['vertices'],
  HISTOGRAM: ['attributes'],
  RATINGS: ['ratings'],
  STREAM: ['stream'],
};

export async function createDatasetView(root, ctx) {
  if (ctx.me.role !== 'OWNER') {
    mount(root, h('h1', {}, 'New dataset'), h('p', {class: 'notice'}, 'Only OWNER keys create datasets.'));
    return;
  }
  const doc = await openapi();
  const top = Object.fromEntries(schemaFields(doc, 'CreateDatasetRequest').map((f) => [f.name, f]));
  const fields = new Fields('c');
  const message = h('div', {id: 'create-problem'});
  const grid = (...cells) => h('div', {class: 'grid form'}, ...cells);
  const section = (name, title, ...content) => h('div', {class: 'card', id: 'create-' + name, 'data-section': name},
      h('h2', {}, title), name !== 'rowNormBound' && top[name] && top[name].description
        ? h('p', {class: 'muted small'}, top[name].description) : null,
      ...content);
  /** The fields of a nested object (BudgetRequest, StreamRequest, …) under `prefix.`. */
  const nested = (prefix, schema) => grid(schemaFields(doc, schema).map((f) => fields.add(`${prefix}.${f.name}`, f,
      {label: f.name, placeholder: f.example !== undefined ? 'e.g. ' + (Array.isArray(f.example) ? f.example.join(', ')
        : f.example) : undefined})));

  const kindCells = fields.add('kind', {...top.kind, required: true}, {label: 'kind'});
  const kind = fields.input('kind');
  const streamOf = h('select', {id: 'c-stream-of'}, h('option', {value: 'rows'}, 'rows (a matrix stream)'),
      h('option', {value: 'edges'}, 'edge events (an edge stream)'));
  const attributeRows = h('div', {id: 'c-attributes'});
  const attributeFields = schemaFields(doc, top.attributes && top.attributes.itemRef || 'AttributeRequest');
  let attributes = [{}];
  const renderAttributes = () => {
    fields.remove('attributes[');
    mount(attributeRows, attributes.map((values, i) => h('div', {class: 'attribute'},
        grid(attributeFields.map((f) => fields.add(`attributes[${i}].${f.name}`, f, {label: f.name, value: values[f.name],
          placeholder: f.example !== undefined ? 'e.g. ' + f.example : undefined}))),
        h('button', {type: 'button', class: 'secondary small', onclick: () => { keepAttributes(); attributes.splice(i, 1); renderAttributes(); }},
            'Remove attribute'))));
  };
  const keepAttributes = () => {
    attributes = attributes.map((_, i) => Object.fromEntries(attributeFields.map((f) => [f.name,
      fields.input(`attributes[${i}].${f.name}`).value])));
  };
  renderAttributes();

  const sections = {
    rowNormBound: section('rowNormBound', 'Row bound', grid(fields.add('rowNormBound', top.rowNormBound,
        {placeholder: 'e.g. 1.0'}))),
    vertices: section('vertices', 'Vertices', nested('vertices', 'VerticesRequest')),
    attributes: section('attributes', 'Attributes', attributeRows, h('button', {type: 'button', class: 'secondary',
      id: 'c-attribute-add', onclick: () => { keepAttributes(); attributes.push({}); renderAttributes(); }}, 'Add attribute')),
    stream: section('stream', 'Stream', grid(h('label', {for: 'c-stream-of'}, 'stream of'), streamOf, h('span'),
        h('span', {class: 'hint muted small'}, 'A matrix stream gives columns and rowNormBound; an edge stream gives vertices.')),
    nested('stream', 'StreamRequest')),
    ratings: section('ratings', 'Ratings', nested('ratings', 'RatingsRequest')),
    external: section('external', 'External source', nested('external', 'ExternalRequest')),
  };
  /** The parts of the declaration the chosen kind takes. */
  const visible = () => {
    const parts = [...(SECTIONS[kind.value] || [])];
    if (kind.value === 'STREAM') parts.push(streamOf.value === 'edges' ? 'vertices' : 'rowNormBound');
    return parts;
  };
  const layout = () => {
    const parts = visible();
    for (const [name, el] of Object.entries(sections)) el.hidden = !parts.includes(name);
    const columns = fields.has('stream.columns') && fields.input('stream.columns');
    if (columns) columns.disabled = kind.value === 'STREAM' && streamOf.value === 'edges';
  };
  kind.addEventListener('change', layout);
  streamOf.addEventListener('change', layout);

  const object = (prefix, schema) => {
    const out = {};
    for (const f of schemaFields(doc, schema)) {
      const key = `${prefix}.${f.name}`;
      if (fields.input(key).disabled) continue;
      const v = fields.value(key);
      if (v !== undefined) out[f.name] = v;
    }
    return out;
  };
  const body = () => {
    const b = {name: fields.value('name'), kind: fields.value('kind')};
    if (fields.value('neighbouring') !== undefined) b.neighbouring = fields.value('neighbouring');
    b.budget = object('budget', 'BudgetRequest');
    for (const part of visible()) {
      if (part === 'rowNormBound') b.rowNormBound = fields.value('rowNormBound');
      else if (part === 'attributes') {
        keepAttributes();
        b.attributes = attributes.map((_, i) => Object.fromEntries(attributeFields.map((f) => [f.name,
          fields.value(`attributes[${i}].${f.name}`)]).filter(([, v]) => v !== undefined)));
      } else {
        const schema = {vertices: 'VerticesRequest', stream: 'StreamRequest', ratings: 'RatingsRequest',
          external: 'ExternalRequest'}[part];
        const o = object(part, schema);
        if (Object.keys(o).length) b[part] = o;
      }
    }
    return b;
  };
  const create = h('button', {type: 'button', id: 'c-create', onclick: async () => {
    try {
      fields.clear();
      mount(message);
      const d = await api('/v1/datasets', {method: 'POST', body: body()});
      location.hash = `#/datasets/${d.id}`;
    } catch (e) { fields.show(e, message); }
  }}, 'Create dataset');

  mount(root, h('h1', {}, 'New dataset'),
      h('p', {class: 'muted'}, 'The declaration is public and fixed at creation: kind, privacy unit, neighbouring relation ',
          'and budget. The data is uploaded next, once (streams take batches of rows instead).'),
      h('div', {class: 'cards'},
          h('div', {class: 'card', id: 'create-dataset'}, h('h2', {}, 'Dataset'),
              grid(fields.add('name', {...top.name, required: true}, {placeholder: 'e.g. survey-2026'}), kindCells,
                  fields.add('neighbouring', top.neighbouring))),
          h('div', {class: 'card', id: 'create-budget'}, h('h2', {}, 'Budget'), nested('budget', 'BudgetRequest'))),
      h('div', {class: 'cards'}, Object.values(sections)),
      h('div', {class: 'row'}, create), message);
  kind.value = 'MATRIX';
  layout();
}

// ---- upload -------------------------------------------------------------------------------------

/** One file (or pasted text) sent with its content type; onProgress(fraction or null) while it goes. */
function fileSender({prefix, path, method, types, headerHelp, pasted, extra = [], onSent}) {
  const file = h('input', {type: 'file', id: prefix + '-file'});
  const type = h('select', {id: prefix + '-type'}, types.map((t) => h('option', {value: t}, t)));
  if (types.includes('text/csv')) type.value = 'text/csv';
  const header = h('select', {id: prefix + '-header'}, h('option', {value: ''}, 'detect'), h('option', {value: 'true'}, 'yes'),
      h('option', {value: 'false'}, 'no'));
  const text = pasted ? h('textarea', {id: prefix + '-text', rows: 4, placeholder: pasted}) : null;
  const progress = h('progress', {id: prefix + '-progress', max: 1, value: 0});
  const status = h('span', {id: prefix + '-status', class: 'small muted'});
  const out = h('div', {id: prefix + '-result'});
  file.addEventListener('change', () => {
    const f = file.files[0];
    const guess = f && contentTypeOf(f.name);
    if (guess && types.includes(guess)) type.value = guess;
    mount(status, f ? `${f.name}: ${fmt(f.size)} bytes` + (guess ? '' : ' (choose the content type)') : '');
  });
  const send = h('button', {type: 'button', id: prefix + '-send', onclick: async () => {
    const f = file.files[0];
    const payload = f || (text && text.value.trim() ? text.value.trim() + '\n' : null);
    if (!payload) { mount(out, errorBox(new Error('Choose a file' + (text ? ' or paste rows' : '') + ' first.'))); return; }
    const params = new URLSearchParams();
    if (header.value) params.set('header', header.value);
    for (const [name, input] of extra) if (input.value.trim()) params.set(name, input.value.trim());
    const total = f ? f.size : new Blob([payload]).size;
    send.disabled = true;
    progress.value = 0;
    mount(out);
    const started = performance.now();
    try {
      const query = params.toString();
      const answer = await upload(path + (query ? '?' + query : ''), payload, f ? type.value : 'text/csv',
          {method, onProgress: (sent, all) => {
            progress.value = (all || total) ? sent / (all || total) : 0;
            mount(status, `${fmt(sent)} of ${fmt(all || total)} bytes sent`);
          }});
      progress.value = 1;
      mount(status, `${fmt(total)} bytes in ${fmt((performance.now() - started) / 1000)} s`);
      onSent(answer, out);
    } catch (e) {
      mount(status, 'refused; nothing was stored');
      mount(out, errorBox(e));
    } finally {
      send.disabled = false;
    }
  }}, method === 'PUT' ? 'Upload' : 'Append');
  return h('div', {},
      h('div', {class: 'grid form'},
          h('label', {for: file.id}, 'file'), file, h('span'), h('span', {class: 'hint muted small'},
              'The content type follows the file\'s extension (.csv, .tsv, .mtx, .npy); change it if needed.'),
          text ? [h('label', {for: text.id}, 'or paste'), text, h('span'), h('span', {class: 'hint muted small'},
              'Rows as CSV, used when no file is chosen.')] : null,
          h('label', {for: type.id}, 'content type'), type, h('span'), h('span', {class: 'hint muted small'}, ''),
          h('label', {for: header.id}, 'header line'), header, h('span'), h('span', {class: 'hint muted small'}, headerHelp),
          extra.map(([name, input, help]) => [h('label', {for: input.id}, name), input, h('span'),
            h('span', {class: 'hint muted small'}, help)])),
      h('div', {class: 'row'}, send, progress, status), out);
}

/** The contract's description of an upload (formats, limits), folded. */
function formats(description) {
  return description ? h('details', {class: 'small'}, h('summary', {class: 'muted'}, 'Formats and rules'),
      h('p', {class: 'muted'}, description)) : null;
}

function paramHelp(doc, path, method, name) {
  const op = doc.paths && doc.paths[path] && doc.paths[path][method];
  const p = op && (op.parameters || []).find((x) => x.name === name);
  return (p && p.description) || '';
}

/** The owner's upload of an EMPTY dataset, with progress; the page shows the stored dataset after. */
export async function uploadBox(d, ctx) {
  if (d.kind === 'EXTERNAL') {
    return h('div', {class: 'card', id: 'upload'}, h('p', {class: 'muted'}, 'An EXTERNAL dataset\'s rows stay at its declared ',
        'source; nothing is uploaded.'));
  }
  const doc = await openapi();
  const path = '/v1/datasets/{id}/data';
  return h('div', {class: 'card', id: 'upload'},
      formats(doc.paths[path].put.description),
      fileSender({prefix: 'upload', path: `/v1/datasets/${d.id}/data`, method: 'PUT', types: requestTypes(doc, path, 'put'),
        headerHelp: paramHelp(doc, path, 'put', 'header'), onSent: (stored, out) => {
          mount(out, h('div', {class: 'notice', id: 'upload-done'}, h('strong', {}, `Stored: ${stored.status}`), ' ',
              facts({rows: stored.rows, cols: stored.cols, nnz: stored.nnz, clippedRows: stored.clippedRows,
                droppedRatings: stored.droppedRatings, sourceFormat: stored.sourceFormat, storage: stored.storage,
                uploadBytes: stored.uploadBytes}),
              h('button', {type: 'button', id: 'upload-continue', onclick: () => ctx.reroute()}, 'Continue to queries')));
        }}));
}

// ---- grants -------------------------------------------------------------------------------------

/** Grants of a dataset: any analyst subject may be granted, also one that has no grant anywhere yet. */
export async function grantsBox(id) {
  const box = h('div', {class: 'card', id: 'grants'});
  const render = async (notice) => {
    const grants = await api(`/v1/datasets/${id}/grants`);
    const input = h('input', {type: 'text', id: 'grant-analyst', placeholder: 'e.g. analyst-b', autocomplete: 'off'});
    const message = h('div', {id: 'grant-message'}, notice || null);
    const grant = async () => {
      const analyst = input.value.trim();
      if (!analyst) { mount(message, errorBox(new FieldError('analyst', 'Type the analyst\'s subject.'))); return; }
      try {
        await api(`/v1/datasets/${id}/grants`, {method: 'POST', body: {analyst}});
        await render(h('p', {class: 'notice'}, `${analyst} may now see this dataset, quote and submit queries.`));
      } catch (e) { mount(message, errorBox(e)); }
    };
    input.addEventListener('keydown', (e) => { if (e.key === 'Enter') grant(); });
    mount(box,
        grants.length ? h('table', {}, h('thead', {}, h('tr', {}, ['Analyst', 'Granted', 'By', ''].map((c) => h('th', {}, c)))),
            h('tbody', {}, grants.map((g) => h('tr', {'data-grant': g.analyst},
                h('td', {}, g.analyst), h('td', {class: 'small'}, g.grantedAt), h('td', {}, g.grantedBy),
                h('td', {}, h('button', {type: 'button', class: 'secondary', onclick: async () => {
                  try { await api(`/v1/datasets/${id}/grants/${encodeURIComponent(g.analyst)}`, {method: 'DELETE'}); await render(); }
                  catch (e) { mount(message, errorBox(e)); }
                }}, 'Revoke')))))) : h('p', {class: 'muted'}, 'No analyst is granted yet.'),
        h('div', {class: 'grid form'}, h('label', {for: input.id}, 'analyst subject'), input, h('span'),
            h('span', {class: 'hint muted small'}, 'The subject of an ANALYST key (an admin creates keys); it need not have ',
                'any grant yet. Jobs already submitted keep running after a revoke.')),
        h('div', {class: 'row'}, h('button', {type: 'button', id: 'grant-add', onclick: grant}, 'Grant')), message);
  };
  await render();
  return box;
}

// ---- streams ------------------------------------------------------------------------------------

/** A STREAM dataset's sections: append (owner), its subscriptions, and the subscribe form. */
export async function streamSections(d, ctx, owner) {
  const doc = await openapi();
  const list = h('div', {class: 'card', id: 'subscriptions'});
  const refresh = async () => {
    const page = await api(`/v1/datasets/${d.id}/subscriptions?limit=50`);
    mount(list, subscriptionsTable(page.items),
        page.total > page.items.length ? h('p', {class: 'muted small'}, `first ${page.items.length} of ${page.total}`) : null);
  };
  await refresh();
  ctx.every(3000, refresh);
  const out = [];
  if (owner) {
    const path = '/v1/datasets/{id}/rows';
    const eventTime = h('input', {type: 'text', id: 'append-event-time', placeholder: 'now'});
    out.push(h('h2', {}, 'Append rows'), h('div', {class: 'card', id: 'append'},
        formats(doc.paths[path].post.description),
        fileSender({prefix: 'append', path: `/v1/datasets/${d.id}/rows`, method: 'POST', types: requestTypes(doc, path, 'post'),
          headerHelp: paramHelp(doc, path, 'post', 'header'),
          pasted: d.stream && d.stream.edges ? 'u,v[,w] one event a line' : 'one row a line: 0.1,0.2,-0.2',
          extra: [['eventTime', eventTime, paramHelp(doc, path, 'post', 'eventTime')]],
          onSent: async (a, box) => {
            mount(box, h('div', {class: 'notice', id: 'append-done'}, h('strong', {}, `Appended ${a.rows} row(s)`), ' ',
                facts({completedBlocks: a.completedBlocks, openRows: a.openRows, clippedRows: a.clippedRows, eventTime: a.eventTime}),
                a.releases && a.releases.length ? h('ul', {}, a.releases.map((r) => h('li', {},
                    h('a', {href: `#/subscriptions/${r.subscriptionId}/releases/${r.block}`}, `release ${r.block}`),
                    ` of subscription ${r.subscriptionId.slice(0, 8)} (stream block ${r.streamBlock})`)))
                  : h('p', {class: 'muted small'}, d.stream && d.stream.blockRule === 'TIME'
                    ? 'Time blocks are closed by the scheduler on the clock, never by an append; each release is shown at its publishedAt.'
                    : 'No block completed: no release.')));
            await refresh();
          }})));
  }
  out.push(h('h2', {}, 'Subscriptions'), list);
  out.push(h('h2', {}, 'Subscribe: a standing query, charged once'), await queryForm({root: 'SubscriptionRequest',
    quotePath: `/v1/datasets/${d.id}/subscriptions/quote`, submitPath: `/v1/datasets/${d.id}/subscriptions`,
    prefix: 's', id: 'subscription-form', preferred: 'BLOCKS', submitLabel: 'Subscribe',
    onSubmitted: (s) => { location.hash = `#/subscriptions/${s.id}`; }}));
  return out;
}

function subscriptionsTable(items) {
  if (!items.length) return h('p', {class: 'muted'}, 'No subscriptions.');
  return h('table', {}, h('thead', {}, h('tr', {}, ['Subscription', 'Kind', 'Mechanism', 'State', 'Releases', 'Cost', 'Created']
      .map((c) => h('th', {}, c)))),
  h('tbody', {}, items.map((s) => h('tr', {'data-subscription': s.id},
      h('td', {class: 'mono'}, h('a', {href: `#/subscriptions/${s.id}`}, s.id.slice(0, 8))), h('td', {}, s.kind),
      h('td', {}, s.mechanism), h('td', {}, stateBadge(s.state)), h('td', {class: 'num'}, s.completedBlocks),
      h('td', {class: 'small'}, tracksText(s.cost)), h('td', {class: 'small'}, s.createdAt)))));
}

export async function subscriptionView(root, ctx, id) {
  const head = h('div', {class: 'card', id: 'subscription'});
  const releases = h('div', {class: 'card', id: 'releases'});
  mount(root, h('h1', {}, 'Subscription ', h('span', {class: 'mono'}, id)), head, h('h2', {}, 'Window releases (newest first)'), releases);
  const refresh = async () => {
    const [s, page] = await Promise.all([api(`/v1/subscriptions/${id}`), api(`/v1/subscriptions/${id}/releases?limit=50`)]);
    mount(head, h('div', {class: 'row'}, stateBadge(s.state), h('span', {}, `${s.kind} by ${s.mechanism}`),
        h('a', {href: `#/datasets/${s.datasetId}`}, 'Stream')),
    facts({kind: s.kind, mechanism: s.mechanism, state: s.state, releases: s.completedBlocks, firstStreamBlock: s.firstStreamBlock,
      cost: tracksText(s.cost), createdAt: s.createdAt, cancelledAt: s.cancelledAt, errorCode: s.errorCode}),
    s.noise ? h('details', {}, h('summary', {}, 'Noise (public facts)'), facts(s.noise)) : null,
    s.state === 'ACTIVE' ? h('button', {type: 'button', class: 'secondary', id: 'subscription-cancel', onclick: async () => {
      try { await api(`/v1/subscriptions/${id}`, {method: 'DELETE'}); await refresh(); } catch (e) { head.appendChild(errorBox(e)); }
    }}, 'Cancel (the charge stays)') : null, jsonView(s, 'Subscription as JSON'));
    mount(releases, page.items.length ? h('table', {}, h('thead', {}, h('tr', {}, ['Release', 'Stream block', 'Window blocks',
      'Window rows', 'Noise variance τ²', 'Spectral error', 'Created'].map((c) => h('th', {}, c)))),
    h('tbody', {}, page.items.map((r) => h('tr', {'data-release': r.block},
        h('td', {}, h('a', {href: `#/subscriptions/${id}/releases/${r.block}`}, `release ${r.block}`)),
        h('td', {class: 'num'}, r.streamBlock), h('td', {class: 'num'}, `${r.firstBlock}…${r.firstBlock + r.blocks - 1}`),
        h('td', {class: 'num'}, r.windowRows ?? '–'), h('td', {class: 'num'}, fmt(r.noiseVariance)),
        h('td', {class: 'num'}, fmt(r.predictedSpectralError)), h('td', {class: 'small'}, r.createdAt || '–')))))
      : h('p', {class: 'muted'}, 'No release yet: one follows each completed block.'),
    page.total > page.items.length ? h('p', {class: 'muted small'}, `newest ${page.items.length} of ${page.total}`) : null);
  };
  await refresh();
  ctx.every(3000, refresh);
}

export async function windowReleaseView(root, ctx, id, block) {
  const r = await api(`/v1/subscriptions/${id}/releases/${block}`);
  const parts = [h('h1', {}, `Release ${r.block} `, h('span', {class: 'muted small'}, `of subscription ${id}`)),
    h('p', {}, h('a', {href: `#/subscriptions/${id}`}, 'Subscription')),
    h('div', {class: 'card', id: 'window'}, facts({block: r.block, streamBlock: r.streamBlock, firstBlock: r.firstBlock,
      blocks: r.blocks, windowRows: r.windowRows, blockEndsAt: r.blockEndsAt, publishedAt: r.publishedAt,
      noiseVariance: r.noiseVariance,
      predictedSpectralError: r.predictedSpectralError, roundingBound: r.roundingBound, createdAt: r.createdAt}))];
  if (Array.isArray(r.covariance)) {
    parts.push(h('div', {class: 'card'}, h('h2', {}, 'Window covariance (PSD-projected)'),
        h('div', {id: 'window-heatmap'}, heatmap(r.covariance, {label: 'window covariance'}))));
  }
  if (Array.isArray(r.eigenvalues)) {
    parts.push(h('div', {class: 'card'}, h('h2', {}, 'Eigenvalues'), h('div', {id: 'window-eigenvalues'},
        barChart(r.eigenvalues, {cumulative: true, xLabel: 'component', yLabel: 'eigenvalue', label: 'window eigenvalues'}))));
  }
  if (Array.isArray(r.components)) parts.push(h('div', {class: 'card'}, h('h2', {}, 'Components (d × k)'), heatmap(r.components, {label: 'components'})));
  if (r.releaseId) parts.push(releasePanel(r.releaseId));
  parts.push(jsonView(r, 'Release as JSON'));
  mount(root, ...parts);
}
