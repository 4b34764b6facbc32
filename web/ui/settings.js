// A game's settings in words, for the waiting room (an invited player reads them before
// joining): the game, the board, the variants and options ticked, the timer, the seats. The
// labels come from the server (GET /api/kinds); the values from the game's setup as the server
// stores it (GET /api/games/{id}). Nothing here knows a game's rules.

import { h } from '../dom.js';
import * as api from '../api.js';
import { seatLabel } from './common.js';

let kindsCache = null;
async function kindOf(name) {
  if (!kindsCache) kindsCache = api.kinds().catch(() => ({ kinds: [] }));
  const k = await kindsCache;
  return (k.kinds || []).find((x) => x.name === name) || null;
}

/** The board's name: a shipped board by its title, or "a custom …". */
function boardText(kind, board) {
  const noun = kind?.board_noun || 'board';
  if (typeof board === 'string') return (kind?.boards || []).find((b) => b.id === board)?.title || board;
  if (board && typeof board === 'object' && typeof board.named === 'string') return (kind?.boards || []).find((b) => b.id === board.named)?.title || board.named;
  // Some games store their board itself, not its name: with one shipped board it is that one.
  if ((kind?.boards || []).length === 1) return kind.boards[0].title;
  return `the ${noun} is shown when the game starts`;
}

/** The ticked choices (variants and options) of the setup with the lobby's labels. */
function choicesText(kind, setup) {
  const out = [];
  const all = [...(kind?.variants || []), ...(kind?.options || [])];
  const seen = { ...(setup?.variants || {}), ...(setup?.options || {}) };
  for (const [k, v] of Object.entries(seen)) {
    if (v === false || v === null || v === 0 || v === undefined) continue;
    const c = all.find((x) => x.key === k);
    out.push(c ? c.title : k.replace(/_/g, ' '));
  }
  for (const c of all) {
    if (!(c.key in seen) && setup && setup[c.key] === true) out.push(c.title);
  }
  return out;
}

/** A definition list of the game's settings. */
export async function settingsList(info) {
  const kind = await kindOf(info.game);
  const setup = (await api.gameInfo(info.id, { setup: true }).catch(() => ({}))).setup || {};
  const noun = kind?.board_noun || 'board';
  const choices = choicesText(kind, setup);
  const row = (dt, dd, key) => [h('dt', dt), h('dd', { 'data-setting': key }, dd)];
  return h('dl.settings', { 'data-testid': 'settings' }, [
    ...row('Game', kind?.title || info.game, 'game'),
    ...row(noun[0].toUpperCase() + noun.slice(1), boardText(kind, setup.board), 'board'),
    ...row('Players', `${info.seats.length}: ${info.seats.map(seatLabel).join(', ')}`, 'players'),
    ...row('Rules', choices.length ? choices.join(', ') : 'the standard rules', 'choices'),
    ...row('Timer', info.timer_secs ? `${info.timer_secs} s per decision` : 'none', 'timer'),
    info.practice ? row('Practice', 'yes: the seed may be chosen; never rated', 'practice') : null,
  ]);
}
