// The router: the lobby (#/), a table (#/g/ID, or the server's invite path /games/ID) and a
// replay (#/replay/ID?step=N, or /replay/ID?step=N). The browser renders what the server and
// the engine say; it decides no rule.

import { $, clear, h, toast } from './dom.js';
import { ensureGuest, me, signOutEverywhere } from './api.js';
import { showLobby } from './ui/lobby.js';
import { showTable } from './ui/table.js';
import { showReplay } from './ui/replay.js';
import { showRules } from './ui/rules.js';
import './ui/help.js';
import { showAccount } from './ui/account.js';
import { showProfile } from './ui/profile.js';
import { showLeaderboard } from './ui/leaderboard.js';
import { showLearn } from './ui/lessons.js';
import { showEditor } from './editor/index.js';

let current = null;

export function parseRoute() {
  const hash = location.hash.replace(/^#/, '');
  const [path, query] = (hash || location.pathname + location.search).split('?');
  const params = new URLSearchParams(query || '');
  let m;
  if ((m = path.match(/^\/(?:g|games)\/([\w-]+)\/?$/))) return { page: 'table', id: m[1], params };
  if ((m = path.match(/^\/replay\/([\w-]+)\/?$/))) return { page: 'replay', id: m[1], params };
  if ((m = path.match(/^\/rules\/([\w-]+)\/?$/))) return { page: 'rules', id: m[1], params };
  if ((m = path.match(/^\/player\/([\w:-]+)\/?$/))) return { page: 'player', id: m[1], params };
  if ((m = path.match(/^\/leaderboard(?:\/([\w-]+))?\/?$/))) return { page: 'leaderboard', id: m[1], params };
  if ((m = path.match(/^\/editor(?:\/([\w-]+)(?:\/([\w-]+))?)?\/?$/))) return { page: 'editor', game: m[1], id: m[2], params };
  if (path === '/account') return { page: 'account', params };
  if (path === '/learn') return { page: 'learn', params };
  return { page: 'lobby', params };
}

export function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

const SIGN_OUT_HELP = 'Signs this guest out in every browser and on every device: the server forgets every token of it. '
  + 'A guest has no password, so this identity cannot be signed in again: its seats in running games are left to a bot '
  + 'stand-in, and this browser continues as a new guest. Use it when this computer was shared or your sign-in may have leaked.';

const ACCOUNT_SIGN_OUT_HELP = 'Signs this account out in every browser and on every device: the server ends every session of it. '
  + 'Sign in again with your username and password; this browser continues as a new guest meanwhile.';
const signOutHelp = () => (me()?.username ? ACCOUNT_SIGN_OUT_HELP : SIGN_OUT_HELP);

function renderWho() {
  const who = $('#who');
  const ident = me();
  clear(who);
  if (!ident) return;
  who.append(
    h('a.name#who-name', { href: ident.username ? `#/player/${ident.id}` : '#/account', title: ident.username ? `Signed in as @${ident.username}` : 'A guest: sign up to keep your games and get a rating' }, ident.name),
    ident.username ? null : h('a.btn.small#sign-up-link', { href: '#/account' }, 'Sign up / in'),
    h('button.btn.small.ghost#sign-out', { type: 'button', title: signOutHelp(), onclick: askSignOut }, 'Sign out everywhere'),
  );
}

/** Explain, then ask once more before revoking. */
function askSignOut() {
  if (document.getElementById('sign-out-dialog')) return;
  const close = () => box.remove();
  const box = h('div.panel.sign-out#sign-out-dialog', { role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'sign-out-title' }, [
    h('h2#sign-out-title', 'Sign out everywhere?'),
    h('p', signOutHelp()),
    h('div.row', [
      h('button.btn.primary#confirm-sign-out', { type: 'button', onclick: async () => {
        try {
          await signOutEverywhere();
          close();
          toast('Signed out everywhere. You continue as a new guest.');
          await ensureGuest();
          renderWho();
          route();
        } catch (e) {
          toast(`Could not sign out: ${e.message}`, 'error');
        }
      } }, 'Sign out everywhere'),
      h('button.btn.ghost', { type: 'button', onclick: close }, 'Cancel'),
    ]),
  ]);
  document.querySelector('.topbar').after(box);
  box.querySelector('#confirm-sign-out').focus();
}

let generation = 0;

async function route() {
  if (current && current.destroy) current.destroy();
  current = null;
  const gen = ++generation;
  const main = $('#app');
  clear(main);
  // Each visit draws into its own holder, so a page still loading for an old address cannot
  // draw over the new one.
  const root = h('div.route');
  main.append(root);
  // A server invite path (/games/ID) becomes the client's own route, keeping the address clean.
  if (!location.hash && location.pathname !== '/' && location.pathname !== '/index.html') {
    const r = parseRoute();
    if (r.page === 'table' || r.page === 'replay' || r.page === 'rules') {
      history.replaceState(null, '', `/#/${{ table: 'g', replay: 'replay', rules: 'rules' }[r.page]}/${r.id}${location.search}`);
    }
  }
  const r = parseRoute();
  document.querySelectorAll('[data-nav]').forEach((a) => a.classList.toggle('active', a.dataset.nav === r.page));
  try {
    let page;
    if (r.page === 'table') page = await showTable(root, r.id);
    else if (r.page === 'replay') page = await showReplay(root, r.id, Number(r.params.get('step') ?? NaN));
    else if (r.page === 'rules') page = await showRules(root, r.id, r.params.get('at'));
    else if (r.page === 'account') page = await showAccount(root);
    else if (r.page === 'player') page = await showProfile(root, r.id);
    else if (r.page === 'leaderboard') page = await showLeaderboard(root, r.id);
    else if (r.page === 'learn') page = await showLearn(root);
    else if (r.page === 'editor') page = await showEditor(root, r.game, r.id);
    else page = await showLobby(root);
    // The address changed while the page was loading: that page is already gone.
    if (gen !== generation) { if (page && page.destroy) page.destroy(); root.remove(); return; }
    current = page;
  } catch (e) {
    if (gen !== generation) { root.remove(); return; }
    console.warn(e);
    clear(root).append(h('div.panel.error-page', [h('h2', 'Something went wrong'), h('p', e.message || String(e)), h('a.btn', { href: '#/' }, 'Back to the lobby')]));
  }
  renderWho();
}

window.addEventListener('hashchange', route);
window.addEventListener('robodrome:identity', renderWho);

(async () => {
  try { await ensureGuest(); } catch (e) { toast(`Could not sign in as a guest: ${e.message}`, 'error'); }
  renderWho();
  route();
})();
