// The leaderboard of each game (#/leaderboard/GAME): the best Glicko-2 ratings, people and the
// bots (robodrome's and the Bot API's bot accounts, marked BOT) on one scale, with a player search (docs/platform.md). The games come from
// GET /api/kinds.

import { clear, h } from '../dom.js';
import * as api from '../api.js';
import { go } from '../app.js';

export async function showLeaderboard(root, game) {
  const kinds = (await api.kinds()).kinds;
  const name = game || kinds[0]?.name;
  const sel = h('select#board-game', { 'aria-label': 'Game', onchange: () => go(`#/leaderboard/${sel.value}`) },
    kinds.map((k) => h('option', { value: k.name }, k.title)));
  sel.value = name;
  const board = await api.leaderboard(name);
  const me = api.me();
  const found = h('ul.found');
  const search = h('input#player-search', { placeholder: 'Find a player (username)', maxlength: 20, oninput: async () => {
    const q = search.value.trim();
    if (!q) { clear(found); return; }
    const r = await api.searchPlayers(q).catch(() => ({ players: [] }));
    clear(found).append(...r.players.map((p) => h('li', h('a', { href: `#/player/${p.id}` }, `${p.name} (@${p.username})`))));
  } });
  root.append(h('div.leaderboard-page', [
    h('section.panel', [h('h2', ['Leaderboard ', sel]),
      board.players.length === 0 ? h('p.empty', 'No rated games yet.') : h('table.leaderboard', [
        h('thead', h('tr', [h('th', '#'), h('th', 'Player'), h('th', 'Rating'), h('th', 'Games'), h('th', '')])),
        h('tbody', board.players.map((p, i) => h('tr', [h('td', String(i + 1)), h('td', [h('a', { href: `#/player/${p.player}` }, p.name), p.bot ? h('span.bot-mark', { title: 'A bot: robodrome\'s own or a bot account of the Bot API' }, 'BOT') : null]), h('td', `${Math.round(p.rating)} ± ${Math.round(2 * p.deviation)}`), h('td', String(p.games)),
          // A challenge is made on the player's profile (game and clock): web/ui/challenges.js.
          h('td', me && me.id !== p.player && !p.player.startsWith('bot:') ? h('a.btn.small', { href: `#/player/${p.player}`, 'data-action': 'challenge' }, 'Challenge') : null)]))),
      ])]),
    h('section.panel', [h('h2', 'Players'), search, found]),
  ]));
  return {};
}
