// The API client of the dashboard. The key lives in sessionStorage only (gone when the tab closes)
// and is sent as "Authorization: Bearer <key>" on every call; nothing else is stored.

const KEY = 'privmat.apiKey';

export const session = {
  key: () => sessionStorage.getItem(KEY),
  set: (key) => sessionStorage.setItem(KEY, key),
  clear: () => sessionStorage.removeItem(KEY),
};

export class ApiError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || ('HTTP ' + status));
    this.status = status;
    this.problem = problem;
  }
}

function authorization() {
  const key = session.key();
  if (!key) throw new ApiError(401, {title: 'Not logged in'});
  return 'Bearer ' + key;
}

/** A response body as JSON (problem+json included); text that is not JSON becomes {detail: text}. */
function parse(text) {
  if (!text) return null;
  try { return JSON.parse(text); } catch { return {detail: text}; }
}

export async function api(path, {method = 'GET', body} = {}) {
  const headers = {'Authorization': authorization(), 'Accept': 'application/json'};
  let payload;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const r = await fetch(path, {method, headers, body: payload, credentials: 'omit', cache: 'no-store'});
  const data = parse(await r.text());
  if (!r.ok) throw new ApiError(r.status, data);
  return data;
}

/**
 * Sends a file (or a string) as the raw body with its content type, through XMLHttpRequest so that
 * onProgress(sent, total) follows the upload; resolves with the JSON answer, rejects with an ApiError
 * carrying the problem (RFC 9457) the service answered.
 */
export function upload(path, body, contentType, {method = 'PUT', onProgress} = {}) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    xhr.setRequestHeader('Authorization', authorization());
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', contentType);
    if (onProgress) xhr.upload.addEventListener('progress', (e) => onProgress(e.loaded, e.lengthComputable ? e.total : null));
    xhr.addEventListener('load', () => {
      const data = parse(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve(data);
      else reject(new ApiError(xhr.status, data));
    });
    xhr.addEventListener('error', () => reject(new ApiError(0, {title: 'Network error',
      detail: 'The upload did not reach the service or its answer was lost.'})));
    xhr.addEventListener('abort', () => reject(new ApiError(0, {title: 'Cancelled', detail: 'The upload was cancelled.'})));
    xhr.send(body);
  });
}

/** The content type of an upload, from the file's name (null when the extension says nothing). */
export function contentTypeOf(name) {
  const ext = String(name || '').toLowerCase().split('.').pop();
  return {csv: 'text/csv', txt: 'text/csv', tsv: 'text/tab-separated-values', tab: 'text/tab-separated-values',
    mtx: 'application/x-matrix-market', mm: 'application/x-matrix-market', npy: 'application/x-npy'}[ext] || null;
}

let contract;
/** The OpenAPI document (public, no key): the mechanism catalogue as schemas. */
export async function openapi() {
  if (!contract) {
    const r = await fetch('/v3/api-docs', {headers: {'Accept': 'application/json'}, credentials: 'omit'});
    if (!r.ok) throw new ApiError(r.status, {title: 'The API contract could not be loaded'});
    contract = await r.json();
  }
  return contract;
}

/** All ledger entries of a dataset (keyset pages), up to a bound. */
export async function ledger(datasetId, bound = 2000) {
  const entries = [];
  let after = 0;
  while (entries.length < bound) {
    const page = await api(`/v1/datasets/${datasetId}/ledger?after=${after}&limit=500`);
    entries.push(...page.entries);
    if (!page.entries.length || page.next === null || page.next === undefined || page.next === after) break;
    after = page.next;
  }
  return entries;
}
