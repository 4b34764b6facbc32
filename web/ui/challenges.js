// Challenges in the browser (docs/platform.md "Challenges and bot accounts", docs/protocol.md
// "Challenges"): a form on a player's profile (reached from the leaderboard too) that asks them
// for a game with its settings — the game, real-time or turn-based (a clock per move) — and the
// lobby's "Challenges" panel: the challenges to me with Accept and Decline, and mine with
// Cancel. Accepting starts the game at once and opens its table. Sending and accepting need an
// account: a guest is told so (the server's `account_required`).

import { clear, h, toast } from '../dom.js';
import * as api from '../api.js';
import { go } from '../app.js';

const CLOCKS = [
  ['', 'Real-time (no clock)'],
  ['86400', '1 day per move (turn-based)'],
  ['259200', '3 days per move (turn-based)'],
];

/** The profile's "Challenge" form for player `p` (`kinds`: GET /api/kinds's list). */
export function challengeForm(p, kinds) {
  const gameSel = h('select#challenge-game', { 'aria-label': 'Game' },
    kinds.filter((k) => k.min_players <= 2 && k.max_players >= 2).map((k) => h('option', { value: k.name }, k.title)));
  const clockSel = h('select#challenge-clock', { 'aria-label': 'Clock' }, CLOCKS.map(([v, label]) => h('option', { value: v }, label)));
  const status = h('p.help#challenge-status', { role: 'status' });
  const button = h('button.btn.small#challenge', { type: 'submit' }, 'Challenge');
  return h('form.panel.challenge-form', { onsubmit: async (e) => {
    e.preventDefault();
    const body = { to: p.id, game: gameSel.value, seats: ['me', 'you'] };
    if (clockSel.value) body.clock = { per_move_secs: Number(clockSel.value) };
    button.disabled = true;
    try {
      await api.challenge(body);
      status.textContent = `Challenge sent to ${p.name}: it is in your lobby until they answer.`;
    } catch (err) {
      status.textContent = err.code === 'account_required' ? `${err.message}` : `Could not challenge: ${err.message}`;
    } finally { button.disabled = false; }
  } }, [h('h3', `Challenge ${p.name}`), h('div.row', [gameSel, clockSel, button]), status]);
}

function clockText(req) {
  const secs = req.clock?.per_move_secs;
  if (!secs) return 'real-time';
  const days = secs / 86400;
  return Number.isInteger(days) ? `${days} day${days === 1 ? '' : 's'} per move` : `${Math.round(secs / 3600)} h per move`;
}

/** The lobby's panel; `refresh()` asks the server again (with the lobby's poll). */
export function challengesPanel(kindTitle) {
  const list = h('ul.challenges');
  const el = h('section.panel.list.list-challenges', { 'data-list': 'challenges', hidden: true }, [h('h2', 'Challenges'), list]);
  async function accept(c) {
    try {
      const game = await api.acceptChallenge(c.id);
      go(`#/g/${game.id}`); // the game has started: its table
    } catch (err) { toast(err.message, 'error'); }
  }
  async function decline(c) {
    try { await api.declineChallenge(c.id); } catch (err) { toast(err.message, 'error'); }
    await refresh();
  }
  async function refresh() {
    const who = api.me();
    if (!who) { el.hidden = true; return; }
    let r;
    try { r = await api.challenges(); } catch { el.hidden = true; return; }
    const open = (r.challenges || []).filter((c) => c.status === 'open');
    el.hidden = open.length === 0;
    clear(list).append(...open.map((c) => {
      const toMe = c.recipient.id === who.id;
      const what = `${kindTitle(c.request.game)}, ${clockText(c.request)}`;
      return h('li.challenge', { 'data-challenge': c.id, 'data-direction': toMe ? 'in' : 'out' }, [
        toMe
          ? h('span', [h('a', { href: `#/player/${c.challenger.id}` }, c.challenger.name), ` challenges you: ${what}`])
          : h('span', [`You challenged `, h('a', { href: `#/player/${c.recipient.id}` }, c.recipient.name), `: ${what}`]),
        h('span.game-actions', toMe
          ? [h('button.btn.small', { type: 'button', 'data-action': 'accept', onclick: () => accept(c) }, 'Accept'),
            h('button.btn.small.ghost', { type: 'button', 'data-action': 'decline', onclick: () => decline(c) }, 'Decline')]
          : [h('button.btn.small.ghost', { type: 'button', 'data-action': 'cancel', onclick: () => decline(c) }, 'Cancel')]),
      ]);
    }));
  }
  return { el, refresh };
}
