// Inline SVG charts: gauge, step line, bars with a cumulative line, heatmap, intervals.
// Pure functions of their input (exported for tests); no library.

import {h, fmt} from './dom.js';

/** Evenly spaced "nice" ticks covering [lo, hi]. */
export function ticks(lo, hi, count = 5) {
  if (!(hi > lo)) { hi = lo + 1; }
  const raw = (hi - lo) / count;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) || raw;
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(Number(t.toPrecision(12)));
  return out;
}

function frame(width, height, label) {
  return h('svg', {class: 'chart', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label},
      h('title', {}, label));
}

/** A half-circle gauge of a fraction in [0, 1] (colour by level). */
export function gauge(fraction, label, sub) {
  const f = Math.max(0, Math.min(1, Number(fraction) || 0));
  const r = 60, cx = 80, cy = 78;
  const end = Math.PI * (1 - f);
  const x = cx + r * Math.cos(end), y = cy - r * Math.sin(end);
  const colour = f < 0.7 ? '#2c7a4b' : f < 0.9 ? '#b26b00' : '#b3261e';
  const svg = frame(160, 120, `${label}: ${Math.round(f * 100)}% spent`);
  svg.classList.add('gauge');
  svg.appendChild(h('path', {class: 'gauge-track', d: `M ${cx - r} ${cy} A ${r} ${r} 0 0 1 ${cx + r} ${cy}`}));
  if (f > 0) {
    svg.appendChild(h('path', {class: 'gauge-value', stroke: colour,
      d: `M ${cx - r} ${cy} A ${r} ${r} 0 0 1 ${x.toFixed(2)} ${y.toFixed(2)}`}));
  }
  svg.appendChild(h('text', {class: 'gauge-label', x: cx, y: cy - 8, 'text-anchor': 'middle'}, `${Math.round(f * 100)}%`));
  svg.appendChild(h('text', {x: cx, y: cy + 18, 'text-anchor': 'middle'}, label));
  if (sub) svg.appendChild(h('text', {x: cx, y: cy + 34, 'text-anchor': 'middle'}, sub));
  return svg;
}

function axes(svg, box, xTicks, yTicks, sx, sy, xLabel, yLabel) {
  for (const t of yTicks) {
    svg.appendChild(h('line', {class: 'grid', x1: box.l, x2: box.r, y1: sy(t), y2: sy(t)}));
    svg.appendChild(h('text', {x: box.l - 6, y: sy(t) + 4, 'text-anchor': 'end'}, fmt(t)));
  }
  for (const t of xTicks) {
    svg.appendChild(h('text', {x: sx(t.v), y: box.b + 16, 'text-anchor': 'middle'}, t.label));
  }
  svg.appendChild(h('line', {class: 'axis', x1: box.l, x2: box.r, y1: box.b, y2: box.b}));
  svg.appendChild(h('line', {class: 'axis', x1: box.l, x2: box.l, y1: box.t, y2: box.b}));
  if (xLabel) svg.appendChild(h('text', {x: (box.l + box.r) / 2, y: box.b + 32, 'text-anchor': 'middle'}, xLabel));
  if (yLabel) svg.appendChild(h('text', {x: 12, y: (box.t + box.b) / 2, 'text-anchor': 'middle',
    transform: `rotate(-90 12 ${(box.t + box.b) / 2})`}, yLabel));
}

/**
 * Cumulative budget spent over ledger entries: RESERVE adds, REFUND subtracts, COMMIT makes a
 * reservation final (no change). Returns [{x: entry index (1-based), y: spent, type}].
 */
export function spentSeries(entries, track) {
  let spent = 0;
  const out = [{x: 0, y: 0, type: 'start'}];
  entries.forEach((e, i) => {
    const amount = Number(e[track] || 0);
    if (e.type === 'RESERVE') spent += amount;
    else if (e.type === 'REFUND' || e.type === 'RELEASE') spent -= amount;
    out.push({x: i + 1, y: Math.max(0, spent), type: e.type});
  });
  return out;
}

/** A step line of points {x, y}, with an optional horizontal cap. */
export function stepChart(points, {width = 640, height = 240, cap, xLabel, yLabel, label = 'chart'} = {}) {
  const box = {l: 64, r: width - 16, t: 12, b: height - 40};
  const xs = points.map((p) => p.x), ys = points.map((p) => p.y);
  const xMax = Math.max(1, ...xs), yMax = Math.max(cap || 0, ...ys, 1e-12) * 1.05;
  const sx = (v) => box.l + (v / xMax) * (box.r - box.l);
  const sy = (v) => box.b - (v / yMax) * (box.b - box.t);
  const svg = frame(width, height, label);
  const xt = ticks(0, xMax, Math.min(8, xMax)).filter((t) => Number.isInteger(t)).map((v) => ({v, label: String(v)}));
  axes(svg, box, xt, ticks(0, yMax, 4).filter((t) => t <= yMax), sx, sy, xLabel, yLabel);
  if (cap) {
    svg.appendChild(h('line', {class: 'cap', x1: box.l, x2: box.r, y1: sy(cap), y2: sy(cap)}));
    svg.appendChild(h('text', {x: box.r - 4, y: sy(cap) - 4, 'text-anchor': 'end'}, 'cap ' + fmt(cap)));
  }
  let d = '';
  points.forEach((p, i) => {
    d += i === 0 ? `M ${sx(p.x)} ${sy(p.y)}` : ` H ${sx(p.x)} V ${sy(p.y)}`;
  });
  svg.appendChild(h('path', {class: 'series', d}));
  return svg;
}

/** The cumulative share of each prefix of non-negative values (captured variance). */
export function cumulativeShare(values) {
  const v = values.map((x) => Math.max(0, Number(x)));
  const total = v.reduce((a, b) => a + b, 0);
  let run = 0;
  return v.map((x) => { run += x; return total > 0 ? run / total : 0; });
}

/** Bars of values (a scree plot), optionally with a cumulative-share line on a right axis in [0, 1]. */
export function barChart(values, {width = 640, height = 260, labels, xLabel, yLabel, cumulative, label = 'bars'} = {}) {
  const n = values.length;
  const box = {l: 64, r: width - (cumulative ? 48 : 16), t: 12, b: height - 40};
  const lo = Math.min(0, ...values.map(Number)), hi = Math.max(0, ...values.map(Number));
  const yt = ticks(lo, hi === lo ? lo + 1 : hi, 4);
  const y0 = Math.min(lo, yt[0]), y1 = Math.max(hi * 1.05, yt[yt.length - 1]);
  const sy = (v) => box.b - ((v - y0) / (y1 - y0 || 1)) * (box.b - box.t);
  const bw = (box.r - box.l) / Math.max(1, n);
  const sx = (i) => box.l + bw * (i + 0.5);
  const svg = frame(width, height, label);
  const every = Math.max(1, Math.ceil(n / 16));
  const xt = values.map((_, i) => ({v: i, label: labels ? labels[i] : String(i + 1)})).filter((_, i) => i % every === 0);
  axes(svg, box, xt, yt, sx, sy, xLabel, yLabel);
  values.forEach((v, i) => {
    const top = sy(Math.max(0, v)), bottom = sy(Math.min(0, v));
    svg.appendChild(h('rect', {class: 'bar', x: sx(i) - bw * 0.38, width: bw * 0.76, y: top, height: Math.max(0.5, bottom - top)},
        h('title', {}, `${labels ? labels[i] : i + 1}: ${fmt(v)}`)));
  });
  if (cumulative) {
    const share = cumulativeShare(values);
    const cy = (s) => box.b - s * (box.b - box.t);
    svg.appendChild(h('polyline', {class: 'series2', points: share.map((s, i) => `${sx(i)},${cy(s)}`).join(' ')}));
    for (const s of [0, 0.5, 1]) {
      svg.appendChild(h('text', {x: box.r + 6, y: cy(s) + 4}, `${Math.round(s * 100)}%`));
    }
    svg.appendChild(h('line', {class: 'axis', x1: box.r, x2: box.r, y1: box.t, y2: box.b}));
  }
  return svg;
}

/** A colour for v in [-m, m] (diverging, blue–white–red) or [0, m] (sequential). */
export function colour(v, m, diverging) {
  const t = m > 0 ? Math.max(-1, Math.min(1, v / m)) : 0;
  if (!diverging) {
    const s = Math.abs(t);
    return `rgb(${Math.round(255 - 208 * s)},${Math.round(255 - 160 * s)},${Math.round(255 - 76 * s)})`;
  }
  if (t >= 0) return `rgb(255,${Math.round(255 - 180 * t)},${Math.round(255 - 200 * t)})`;
  return `rgb(${Math.round(255 + 208 * t)},${Math.round(255 + 160 * t)},255)`;
}

/** A heatmap of a matrix (rows of numbers), at most `limit` rows and columns shown. */
export function heatmap(matrix, {cell = 0, limit = 120, label = 'heatmap', diverging = true} = {}) {
  const rows = Math.min(matrix.length, limit), cols = Math.min(matrix[0] ? matrix[0].length : 0, limit);
  const size = cell || Math.max(3, Math.min(28, Math.floor(480 / Math.max(rows, cols, 1))));
  let m = 0;
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) m = Math.max(m, Math.abs(Number(matrix[i][j])));
  const width = cols * size + 90, height = rows * size + 30;
  const svg = frame(width, height, label);
  const g = h('g', {transform: 'translate(4,4)'});
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const v = Number(matrix[i][j]);
      g.appendChild(h('rect', {x: j * size, y: i * size, width: size, height: size, fill: colour(v, m, diverging)},
          h('title', {}, `[${i}, ${j}] ${fmt(v)}`)));
    }
  }
  svg.appendChild(g);
  const lx = cols * size + 14;
  for (let k = 0; k <= 10; k++) {
    const v = diverging ? m - (2 * m * k) / 10 : m - (m * k) / 10;
    svg.appendChild(h('rect', {x: lx, y: 4 + k * 12, width: 12, height: 12, fill: colour(v, m, diverging)}));
  }
  svg.appendChild(h('text', {x: lx + 16, y: 14}, fmt(m)));
  svg.appendChild(h('text', {x: lx + 16, y: 4 + 10 * 12 + 10}, fmt(diverging ? -m : 0)));
  if (matrix.length > rows || (matrix[0] && matrix[0].length > cols)) {
    svg.appendChild(h('text', {x: 4, y: height - 8}, `first ${rows} × ${cols} of ${matrix.length} × ${matrix[0].length}`));
  }
  return svg;
}

/** Point estimates with intervals: items [{label, estimate, lower, upper}]. */
export function intervalPlot(items, {width = 640, label = 'intervals', xLabel = 'estimate'} = {}) {
  const rowH = 24, height = items.length * rowH + 50;
  const box = {l: 140, r: width - 16, t: 8, b: height - 40};
  const all = items.flatMap((i) => [i.lower, i.upper, i.estimate].map(Number).filter(Number.isFinite));
  let lo = Math.min(...all), hi = Math.max(...all);
  if (!(hi > lo)) { lo -= 1; hi += 1; }
  const pad = (hi - lo) * 0.05;
  lo -= pad; hi += pad;
  const sx = (v) => box.l + ((v - lo) / (hi - lo)) * (box.r - box.l);
  const svg = frame(width, height, label);
  for (const t of ticks(lo, hi, 5)) {
    if (t < lo || t > hi) continue;
    svg.appendChild(h('line', {class: 'grid', x1: sx(t), x2: sx(t), y1: box.t, y2: box.b}));
    svg.appendChild(h('text', {x: sx(t), y: box.b + 16, 'text-anchor': 'middle'}, fmt(t)));
  }
  svg.appendChild(h('line', {class: 'axis', x1: box.l, x2: box.r, y1: box.b, y2: box.b}));
  svg.appendChild(h('text', {x: (box.l + box.r) / 2, y: box.b + 32, 'text-anchor': 'middle'}, xLabel));
  items.forEach((it, k) => {
    const y = box.t + rowH * (k + 0.5);
    svg.appendChild(h('text', {x: box.l - 8, y: y + 4, 'text-anchor': 'end'}, it.label));
    if (Number.isFinite(Number(it.lower)) && Number.isFinite(Number(it.upper))) {
      svg.appendChild(h('line', {class: 'interval', x1: sx(it.lower), x2: sx(it.upper), y1: y, y2: y}));
      svg.appendChild(h('line', {class: 'interval', x1: sx(it.lower), x2: sx(it.lower), y1: y - 5, y2: y + 5}));
      svg.appendChild(h('line', {class: 'interval', x1: sx(it.upper), x2: sx(it.upper), y1: y - 5, y2: y + 5}));
    }
    svg.appendChild(h('circle', {class: 'point', cx: sx(it.estimate), cy: y, r: 4},
        h('title', {}, `${it.label}: ${fmt(it.estimate)} [${fmt(it.lower)}, ${fmt(it.upper)}]`)));
  });
  return svg;
}

/**
 * Answers over their index with vertical interval bars: items [{label, estimate, lower, upper}] (lower
 * and upper may be absent). For many answers the bars thin out; every point keeps its tooltip.
 */
export function answerPlot(items, {width = 720, height = 280, label = 'answers', xLabel = 'query', yLabel = 'answer'} = {}) {
  const n = items.length;
  const box = {l: 64, r: width - 16, t: 12, b: height - 40};
  const all = items.flatMap((i) => [i.lower, i.upper, i.estimate].map(Number).filter(Number.isFinite));
  let lo = Math.min(0, ...all), hi = Math.max(...all, lo + 1e-12);
  const pad = (hi - lo) * 0.05 || 1;
  lo -= lo < 0 ? pad : 0;
  hi += pad;
  const yt = ticks(lo, hi, 5).filter((t) => t >= lo && t <= hi);
  const step = (box.r - box.l) / Math.max(1, n);
  const sx = (i) => box.l + step * (i + 0.5);
  const sy = (v) => box.b - ((v - lo) / (hi - lo)) * (box.b - box.t);
  const svg = frame(width, height, label);
  const every = Math.max(1, Math.ceil(n / 12));
  const xt = items.map((it, i) => ({v: i, label: it.label})).filter((_, i) => i % every === 0);
  axes(svg, box, xt, yt, sx, sy, xLabel, yLabel);
  if (lo < 0) svg.appendChild(h('line', {class: 'axis', x1: box.l, x2: box.r, y1: sy(0), y2: sy(0)}));
  const r = Math.max(1.5, Math.min(4, step / 3));
  items.forEach((it, i) => {
    const x = sx(i);
    if (Number.isFinite(Number(it.lower)) && Number.isFinite(Number(it.upper))) {
      svg.appendChild(h('line', {class: 'interval', x1: x, x2: x, y1: sy(it.lower), y2: sy(it.upper)}));
    }
    svg.appendChild(h('circle', {class: 'point', cx: x, cy: sy(it.estimate), r},
        h('title', {}, `${it.label}: ${fmt(it.estimate)}` + (it.lower != null ? ` [${fmt(it.lower)}, ${fmt(it.upper)}]` : ''))));
  });
  return svg;
}
