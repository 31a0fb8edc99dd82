// The dashboard's router: hash routes, the login state, and pollers cancelled on every page change.

import {api, session} from './api.js';
import {h, mount, errorBox} from './dom.js';
import {loginView, datasetsView, datasetView, jobsView, jobView} from './views.js';
import {createDatasetView, subscriptionView, windowReleaseView} from './owner.js';
import {keysView} from './keys.js';

const root = document.getElementById('main');
let me = null;
let timers = [];
let generation = 0;

function stopPollers() {
  timers.forEach(clearTimeout);
  timers = [];
}

function context(gen) {
  return {
    me,
    loggedIn(caller) { me = caller; showWho(); },
    reroute() { route(); },
    /** Calls fn every ms until the page changes or fn calls its stop argument. */
    every(ms, fn) {
      let stopped = false;
      const stop = () => { stopped = true; };
      const tick = async () => {
        if (stopped || gen !== generation) return;
        try { await fn(stop); } catch (e) { /* the next tick retries */ }
        if (!stopped && gen === generation) timers.push(setTimeout(tick, ms));
      };
      timers.push(setTimeout(tick, ms));
    },
  };
}

function showWho() {
  document.getElementById('who').textContent = me ? `${me.subject} · ${me.role}` : '';
  document.getElementById('nav').hidden = !me;
  document.getElementById('logout').hidden = !me;
  document.getElementById('nav-datasets').hidden = !me || me.role === 'ADMIN';
  document.getElementById('nav-new').hidden = !me || me.role !== 'OWNER';
  document.getElementById('nav-keys').hidden = !me || me.role !== 'ADMIN';
}

async function route() {
  stopPollers();
  const gen = ++generation;
  const hash = location.hash || '#/datasets';
  if (!session.key()) {
    me = null;
    showWho();
    loginView(root, context(gen));
    return;
  }
  if (!me) {
    try {
      me = await api('/v1/me');
    } catch (e) {
      session.clear();
      me = null;
      showWho();
      loginView(root, context(gen));
      return;
    }
    showWho();
  }
  // The longest matching link is the active one (#/datasets/new over #/datasets).
  const links = [...document.querySelectorAll('#nav a')];
  const active = links.filter((a) => hash.startsWith(a.getAttribute('href')))
      .sort((a, b) => b.getAttribute('href').length - a.getAttribute('href').length)[0];
  for (const a of links) a.classList.toggle('active', a === active);
  const parts = hash.slice(2).split('/');
  mount(root, h('p', {class: 'muted'}, 'Loading…'));
  try {
    if (parts[0] === 'datasets' && parts[1] === 'new') await createDatasetView(root, context(gen));
    else if (parts[0] === 'datasets' && parts[1]) await datasetView(root, context(gen), parts[1]);
    else if (parts[0] === 'subscriptions' && parts[2] === 'releases' && parts[3]) {
      await windowReleaseView(root, context(gen), parts[1], parts[3]);
    } else if (parts[0] === 'subscriptions' && parts[1]) await subscriptionView(root, context(gen), parts[1]);
    else if (parts[0] === 'keys') await keysView(root, context(gen));
    else if (parts[0] === 'jobs' && parts[1]) await jobView(root, context(gen), parts[1]);
    else if (parts[0] === 'jobs') await jobsView(root, context(gen));
    else await datasetsView(root, context(gen));
  } catch (e) {
    if (gen === generation) mount(root, errorBox(e));
  }
}

document.getElementById('logout').addEventListener('click', () => {
  session.clear();
  me = null;
  if (location.hash === '#/login') route();
  else location.hash = '#/login';
});
window.addEventListener('hashchange', route);
route();
