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

export async function api(path, {method = 'GET', body} = {}) {
  const key = session.key();
  if (!key) throw new ApiError(401, {title: 'Not logged in'});
  const headers = {'Authorization': 'Bearer ' + key, 'Accept': 'application/json'};
  let payload;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const r = await fetch(path, {method, headers, body: payload, credentials: 'omit', cache: 'no-store'});
  const text = await r.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = {detail: text}; }
  }
  if (!r.ok) throw new ApiError(r.status, data);
  return data;
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
