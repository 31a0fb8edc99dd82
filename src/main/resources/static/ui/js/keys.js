// The admin's key page: create keys with a role (the new key is shown once), list them, revoke them.

import {api, openapi} from './api.js';
import {h, mount, errorBox} from './dom.js';
import {schemaFields} from './catalogue.js';
import {Fields} from './forms.js';

/** Most keys listed (pages of 100, oldest first from the API; shown newest first). */
const MAX_KEYS = 1000;

async function allKeys() {
  const keys = [];
  for (let offset = 0; offset < MAX_KEYS; offset += 100) {
    const page = await api(`/v1/api-keys?offset=${offset}&limit=100`);
    keys.push(...page);
    if (page.length < 100) break;
  }
  return keys.reverse();
}

export async function keysView(root, ctx) {
  if (ctx.me.role !== 'ADMIN') {
    /** Empty fields, and the least privileged role selected. */
  const reset = () => {
    for (const f of spec) {
      const input = fields.input(f.name);
      input.value = f.enum && f.enum.includes('ANALYST') ? 'ANALYST' : '';
    }
  };
  mount(root, h('h1', {}, 'API keys'), h('p', {class: 'notice'}, 'Only ADMIN keys manage keys.'));
    return;
  }
  const doc = await openapi();
  const fields = new Fields('k');
  const spec = schemaFields(doc, 'CreateApiKeyRequest');
  const message = h('div', {id: 'key-problem'});
  const created = h('div', {id: 'key-created'});
  const list = h('div', {class: 'card', id: 'keys'});
  const render = async () => {
    const keys = await allKeys();
    mount(list, h('table', {}, h('thead', {}, h('tr', {}, ['Name', 'Subject', 'Role', 'Prefix', 'Created', 'By', 'Revoked', '']
        .map((c) => h('th', {}, c)))),
    h('tbody', {}, keys.map((k) => h('tr', {'data-key': k.id, class: k.revokedAt ? 'revoked' : null},
        h('td', {}, k.name), h('td', {}, k.subject), h('td', {}, k.role), h('td', {class: 'mono'}, k.prefix + '…'),
        h('td', {class: 'small'}, k.createdAt), h('td', {}, k.createdBy), h('td', {class: 'small'}, k.revokedAt || '–'),
        h('td', {}, k.revokedAt || k.id === ctx.me.keyId ? null : revokeButton(k, render, message)))))));
  };
  const create = h('button', {type: 'button', id: 'k-create', onclick: async () => {
    try {
      fields.clear();
      mount(message);
      const body = {};
      for (const f of spec) {
        const v = fields.value(f.name);
        if (v !== undefined) body[f.name] = v;
      }
      const k = await api('/v1/api-keys', {method: 'POST', body});
      const value = h('code', {id: 'new-key'}, k.key);
      mount(created, h('div', {class: 'expected'}, h('strong', {}, `New ${k.role} key for ${k.subject}: `), value, ' ',
          h('button', {type: 'button', class: 'secondary', onclick: async () => {
            try { await navigator.clipboard.writeText(k.key); } catch { /* select it instead */ }
            const range = document.createRange();
            range.selectNodeContents(value);
            getSelection().removeAllRanges();
            getSelection().addRange(range);
          }}, 'Copy'),
          h('p', {class: 'small'}, 'Store it now: it is shown this once (privmat keeps a hash). Hand it to ',
              `${k.subject}; an owner then grants this subject on a dataset by name.`)));
      reset();
      await render();
    } catch (e) { fields.show(e, message); }
  }}, 'Create key');
  /** Empty fields, and the least privileged role selected. */
  const reset = () => {
    for (const f of spec) {
      const input = fields.input(f.name);
      input.value = f.enum && f.enum.includes('ANALYST') ? 'ANALYST' : '';
    }
  };
  mount(root, h('h1', {}, 'API keys'),
      h('div', {class: 'card', id: 'key-form'}, h('h2', {}, 'Create a key'),
          h('div', {class: 'grid form'}, spec.map((f) => fields.add(f.name, f))), h('div', {class: 'row'}, create),
          message, created),
      h('h2', {}, 'Keys (newest first)'), list);
  reset();
  await render();
}

/** Revoke asks once more on the same button (no dialog): the key stops working at once. */
function revokeButton(k, render, message) {
  let armed = false;
  const b = h('button', {type: 'button', class: 'secondary', 'data-revoke': k.id, onclick: async () => {
    if (!armed) { armed = true; b.textContent = 'Confirm revoke'; return; }
    try { await api(`/v1/api-keys/${k.id}`, {method: 'DELETE'}); await render(); } catch (e) { mount(message, errorBox(e)); }
  }}, 'Revoke');
  return b;
}
