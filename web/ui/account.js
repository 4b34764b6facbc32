// The account page (#/account: sign up, sign in, rename, sign out, delete) and the lobby's
// own panels: "my games" with "your move", invitations, followed players with presence
// (docs/platform.md). Everything is the server's answer; this page decides nothing.

import { clear, h, toast } from '../dom.js';
import * as api from '../api.js';
import { go } from '../app.js';

const field = (id, label, attrs = {}) => h('label', [label, h(`input#${id}`, { required: true, ...attrs })]);

export async function showAccount(root) {
  const page = h('div.account-page');
  root.append(page);
  let acc = null;
  try { acc = await api.account(); } catch { acc = null; }
  if (!acc || acc.guest) {
    const signUp = h('form.panel#sign-up-form', { onsubmit: async (e) => {
      e.preventDefault();
      try {
        await api.signUp(page.querySelector('#signup-username').value.trim(), page.querySelector('#signup-password').value);
        toast('Account created: your games as a guest are kept.');
        go(`#/player/${api.me().id}`);
      } catch (err) { toast(`Could not sign up: ${err.message}`, 'error'); }
    } }, [
      h('h2', 'Sign up'),
      h('p.help', 'Keep this guest identity and its games under a username and a password (no e-mail). Usernames: 3 to 20 letters, digits, _ or -. Passwords: 8 to 128 characters.'),
      field('signup-username', 'Username', { minlength: 3, maxlength: 20, autocomplete: 'username' }),
      field('signup-password', 'Password', { type: 'password', minlength: 8, maxlength: 128, autocomplete: 'new-password' }),
      h('button.btn.primary#sign-up', { type: 'submit' }, 'Sign up'),
    ]);
    const signIn = h('form.panel#sign-in-form', { onsubmit: async (e) => {
      e.preventDefault();
      try {
        await api.signIn(page.querySelector('#signin-username').value.trim(), page.querySelector('#signin-password').value);
        toast('Signed in.');
        go('#/');
      } catch (err) { toast(`Could not sign in: ${err.message}`, 'error'); }
    } }, [
      h('h2', 'Sign in'),
      field('signin-username', 'Username', { maxlength: 20, autocomplete: 'username' }),
      field('signin-password', 'Password', { type: 'password', maxlength: 128, autocomplete: 'current-password' }),
      h('button.btn#sign-in', { type: 'submit' }, 'Sign in'),
    ]);
    page.append(signUp, signIn);
    return {};
  }
  const nameIn = h('input#account-name', { value: acc.name, maxlength: 40 });
  const pw = h('input#delete-password', { type: 'password', maxlength: 128, autocomplete: 'current-password' });
  page.append(h('section.panel', [
    h('h2', ['Account ', h('span.username', acc.username)]),
    h('p', [h('a#my-profile', { href: `#/player/${acc.id}` }, 'My profile')]),
    h('form.row', { onsubmit: async (e) => {
      e.preventDefault();
      try { await api.rename(nameIn.value); toast('Name changed.'); } catch (err) { toast(err.message, 'error'); }
    } }, [h('label', ['Displayed name ', nameIn]), h('button.btn.small', { type: 'submit' }, 'Change')]),
    h('div.row', [
      h('button.btn.small#sign-out-here', { type: 'button', onclick: async () => {
        await api.signOut().catch(() => {});
        await api.ensureGuest();
        window.dispatchEvent(new Event('robodrome:identity'));
        go('#/');
      } }, 'Sign out'),
    ]),
    h('form.row.danger', { onsubmit: async (e) => {
      e.preventDefault();
      try {
        const r = await api.deleteAccount(pw.value);
        toast(`Account deleted: your games now show "${r.name}".`);
        await api.ensureGuest();
        window.dispatchEvent(new Event('robodrome:identity'));
        go('#/');
      } catch (err) { toast(`Could not delete: ${err.message}`, 'error'); }
    } }, [h('label', ['Delete the account (password) ', pw]), h('button.btn.small.ghost', { type: 'submit' }, 'Delete')]),
  ]));
  return {};
}

/** The lobby's own panels; refreshed with the lobby. */
export function lobbyPanels() {
  const box = h('div.my-panels');
  let mineLoaded = false;
  async function refresh() {
    let mine; let notes; let fol;
    try {
      [mine, notes, fol] = await Promise.all([api.myGames(), api.notices(), api.follows().catch(() => ({ players: [] }))]);
    } catch { return; }
    mineLoaded = true;
    const yours = mine.your_move || 0;
    document.title = yours ? `(${yours}) Your move — Robodrome` : 'Robodrome';
    clear(box).append(
      h('section.panel.list.list-mine', { 'data-list': 'mine' }, [
        h('h2', ['My games', h('span.count', String(mine.games.length))]),
        mine.games.length === 0 ? h('p.empty', 'None running.') : h('ul.games', mine.games.map((g) => h('li.game-row', { 'data-game': g.id }, [
          h('div.game-main', [h('span.game-title', g.game), h('span.game-id', `#${g.id.slice(0, 6)}`), g.your_move ? h('span.tag.your-move', 'your move') : null]),
          h('div.game-actions', [h('a.btn.small', { href: `#/g/${g.id}` }, g.status === 'open' ? 'Open' : 'Play')]),
        ]))),
      ]),
      notes.notices.length ? h('section.panel.list.list-notices', { 'data-list': 'notices' }, [
        h('h2', 'Invitations'),
        h('ul', notes.notices.map((n) => h('li', [`${n.from_name} invites you: `, h('a', { href: `#/g/${n.game}` }, 'open the table')]))),
      ]) : null,
      fol.players.length ? h('section.panel.list.list-follows', { 'data-list': 'follows' }, [
        h('h2', 'Following'),
        h('ul', fol.players.map((p) => h('li', [h('span.presence', { class: p.online ? 'online' : 'offline', title: p.online ? 'online' : 'offline' }, p.online ? '●' : '○'), ' ', h('a', { href: `#/player/${p.id}` }, p.name)]))),
      ]) : null,
    );
  }
  return { box, refresh, loaded: () => mineLoaded };
}
