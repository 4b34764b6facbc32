// The lobby: create a game (game, board with a preview, variants, timer, seats), open games to
// join, running games to play or watch, finished games to replay. What each game offers (seat
// range, boards, variants, options, labels) comes from the server: GET /api/kinds.

import { $, clear, h, toast } from '../dom.js';
import * as api from '../api.js';
import { gameModule } from '../games/index.js';
import { go } from '../app.js';
import { seatLabel, copyText, inviteUrl } from './common.js';
import { openRules, decorateVariants, howToPlay } from './rules.js';
import { turnsPanel } from './turns.js';
import { lobbyPanels } from './account.js';
import { challengesPanel } from './challenges.js';
import { learnPanel } from './lessons.js';
import * as savedBoards from '../editor/boards-api.js';

const BOTS = [
  ['bot:random', 'Bot · random'],
  ['bot:heuristic', 'Bot · heuristic'],
  ['bot:search:200', 'Bot · search (fast)'],
  ['bot:search:1000', 'Bot · search (strong)'],
];

export async function showLobby(root) {
  const ident = await api.ensureGuest().catch(() => api.me());
  const kinds = (await api.kinds().catch(() => ({ kinds: [] }))).kinds || [];
  const kindOf = (name) => kinds.find((k) => k.name === name);
  const page = h('div.lobby');
  root.append(page);

  // ---- create ----
  // A game the server offers but this client has no table for is listed, not playable.
  const gameSel = h('select#new-game', { name: 'game', 'aria-label': 'Game' }, kinds.map((k) => (gameModule(k.name)
    ? h('option', { value: k.name }, k.title)
    : h('option', { value: k.name, disabled: true }, `${k.title} (no table in this client)`))));
  const boardSel = h('select#new-board', { name: 'board', 'aria-label': 'Board' });
  const preview = h('div.board-preview', { 'aria-hidden': 'true' });
  const players = h('input#new-players', { type: 'number', value: 2, 'aria-label': 'Players' }); // min, max: the game's (seatsUI)
  const seatsBox = h('div.seats-edit');
  const variantsBox = h('div.variants');
  const timerSel = h('select#new-timer', { 'aria-label': 'Planning timer' }, [
    h('option', { value: 0 }, 'Off (friendly)'),
    h('option', { value: 30 }, '30 s per round'),
    h('option', { value: 60 }, '1 min per round'),
    h('option', { value: 120 }, '2 min per round'),
    // Turn-based (docs/platform.md): a clock per decision of hours or days.
    h('option', { value: 'turn:86400' }, '1 day per move (turn-based)'),
    h('option', { value: 'turn:259200' }, '3 days per move (turn-based)'),
  ]);
  const nameInput = h('input#my-name', { value: ident?.name || '', maxlength: 40, 'aria-label': 'Your name' });
  // A practice game is unrated and shown as practice to everyone; only such a game may choose
  // its seed (the server refuses a seed otherwise: docs/security.md), so the seed field shows
  // only with the box ticked.
  const practiceBox = h('input#new-practice', { type: 'checkbox', name: 'practice' });
  const seedInput = h('input#new-seed', { type: 'text', inputmode: 'numeric', placeholder: 'random', 'aria-label': 'Seed (practice games only)' });
  const seedRow = h('label.seed-row', { hidden: true }, ['Seed ', seedInput]);
  const practiceHelp = h('p.help#practice-help', 'A practice game is never rated and is marked "practice" for every player and spectator. Only a practice game may use a seed of your choice: the same seed deals the same cards and rolls again (leave it empty for a random one).');
  practiceBox.addEventListener('change', () => {
    seedRow.hidden = !practiceBox.checked;
    if (!practiceBox.checked) seedInput.value = '';
  });

  const seatRows = [];
  function seatsUI() {
    const k = kindOf(gameSel.value);
    if (!k) return;
    const n = Math.max(k.min_players, Math.min(k.max_players, Number(players.value) || k.min_players));
    players.min = k.min_players; players.max = k.max_players;
    while (seatRows.length < n) {
      const i = seatRows.length;
      const sel = h('select', { 'data-seat': i, 'aria-label': `Seat ${i + 1}` }, [
        h('option', { value: 'me' }, 'Me'),
        h('option', { value: 'open' }, 'Open (invite a friend)'),
        ...BOTS.map(([v, l]) => h('option', { value: v }, l)),
      ]);
      sel.value = i === 0 ? 'me' : 'bot:heuristic';
      seatRows.push(sel);
    }
    seatRows.length = n;
    clear(seatsBox).append(...seatRows.map((sel, i) => h('label.seat-row', [h('span.seat-dot', { style: { background: `var(--seat${i})` } }), `Seat ${i + 1}`, sel])));
  }
  function gameUI() {
    const g = kindOf(gameSel.value);
    if (!g) return;
    clear(boardSel).append(...g.boards.map((b) => h('option', { value: b.id }, b.title)));
    if (g.default_board) boardSel.value = g.default_board;
    boardSel.disabled = g.boards.length === 0;
    savedOptions(g);
    if (g.default_timer_secs) timerSel.value = String(g.default_timer_secs);
    // A game whose timer is a rule (RoboRally's hourglass, RR-4.3: it runs only for the last
    // player to program, per robot) says so; otherwise the server times every decision.
    for (const o of timerSel.options) {
      const n = Number(o.value);
      if (n) o.textContent = `${n >= 60 ? `${n / 60} min` : `${n} s`} ${g.timer_option ? 'hourglass (last player, per robot)' : 'per round'}`;
    }
    timerSel.title = g.timer_option ? 'The hourglass: when all but one have programmed, the last player has this long per robot' : 'Every decision has this long';
    clear(variantsBox).append(
      ...g.variants.map((v) => h('label.check', { title: v.help || '', 'data-help': `variant:${v.key}` }, [h('input', { type: 'checkbox', name: v.key, 'data-variant': v.key }), ` ${v.title}`])),
      ...(g.options || []).map((v) => h('label.check', { title: v.help || '', 'data-help': `variant:${v.key}` }, [h('input', { type: 'checkbox', name: v.key, 'data-option': v.key, 'data-value': v.value !== undefined ? JSON.stringify(v.value) : undefined }), ` ${v.title}`])),
    );
    variantsBox.dataset.rulesGame = g.name;
    decorateVariants(variantsBox, g.name);
    boardUI();
    seatsUI();
  }
  // Saved boards (docs/editors.md): mine and the public gallery's, as `saved:ID@VERSION`, so
  // that the game keeps the version chosen here.
  async function savedOptions(g) {
    const [mine, gallery] = await Promise.all([
      savedBoards.mine(g.name),
      savedBoards.gallery(g.name),
    ]);
    if (gameSel.value !== g.name) return;
    const opt = (b) => h('option', { value: `saved:${b.id}@${b.version}` }, `${b.name} (v${b.version}${b.owner_name ? `, ${b.owner_name}` : ''})`);
    if (mine.length) boardSel.append(h('optgroup', { label: 'My boards' }, mine.map(opt)));
    const others = gallery.filter((b) => !mine.some((m) => m.id === b.id));
    if (others.length) boardSel.append(h('optgroup', { label: 'Gallery' }, others.map(opt)));
    if (mine.length || others.length) boardSel.disabled = false;
  }
  function boardUI() {
    const k = kindOf(gameSel.value);
    const mod = gameModule(gameSel.value);
    const saved = /^saved:(\w+)@(\d+)$/.exec(boardSel.value || '');
    if (saved) { clear(preview).append(h('img.saved-board', { src: savedBoards.picture(saved[1], saved[2]), alt: '' })); return; }
    if (!k || !mod || k.boards.length === 0) { clear(preview); return; }
    clear(preview).append(mod.boardPreview(boardSel.value, k.boards));
  }
  gameSel.addEventListener('change', gameUI);
  boardSel.addEventListener('change', boardUI);
  players.addEventListener('input', seatsUI);

  const createBtn = h('button.btn.primary#create', { type: 'submit' }, 'Create game');
  const form = h('form.panel.create', { onsubmit: async (e) => {
    e.preventDefault();
    createBtn.disabled = true;
    try {
      if (nameInput.value.trim() && nameInput.value.trim() !== api.me()?.name) {
        localStorage.removeItem('robodrome.identity');
        await api.ensureGuest(nameInput.value.trim());
        window.dispatchEvent(new Event('robodrome:identity'));
      }
      const variants = {};
      variantsBox.querySelectorAll('[data-variant]').forEach((c) => { if (c.checked) variants[c.dataset.variant] = true; });
      const options = {};
      variantsBox.querySelectorAll('[data-option]').forEach((c) => { if (c.checked) options[c.dataset.option] = c.dataset.value ? JSON.parse(c.dataset.value) : true; });
      const req = {
        game: gameSel.value,
        board: boardSel.value || undefined,
        seats: seatRows.map((s) => s.value),
        variants,
        options,
        timer_secs: Number(timerSel.value) || undefined,
      };
      if (String(timerSel.value).startsWith('turn:')) req.clock = { per_move_secs: Number(timerSel.value.slice(5)) };
      if (practiceBox.checked) {
        req.practice = true;
        const seed = seedInput.value.trim();
        if (seed !== '') {
          if (!/^[0-9]+$/.test(seed) || !Number.isSafeInteger(Number(seed))) throw new Error(`the seed must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`);
          req.seed = Number(seed);
        }
      }
      const info = await api.createGame(req);
      go(`#/g/${info.id}`);
    } catch (err) {
      toast(`Could not create the game: ${err.message}`, 'error');
    } finally {
      createBtn.disabled = false;
    }
  } }, [
    h('h2', 'New game'),
    h('div.form-grid', [
      h('label', ['Your name', nameInput]),
      h('label', ['Game', h('span.with-rules', [gameSel, h('button.btn.small.ghost#game-rules', { type: 'button', title: 'The rules of this game, beside the lobby', onclick: () => openRules(gameSel.value) }, 'Rules')])]),
      h('label', ['Board', boardSel]),
      h('label', ['Players', players]),
      h('label', ['Timer', timerSel]),
    ]),
    preview,
    h('fieldset', [h('legend', 'Seats'), seatsBox]),
    h('fieldset', [h('legend', 'Variants'), variantsBox]),
    h('fieldset.practice', [h('legend', 'Practice'), h('label.check', [practiceBox, ' Practice game (unrated)']), seedRow, practiceHelp]),
    createBtn,
  ]);
  gameUI();

  // ---- lists ----
  const lists = h('div.lists');
  // My games ("your move"), invitations and followed players (docs/platform.md), and the
  // turn-based games with their optional notification (web/ui/turns.js).
  const myPanels = lobbyPanels();
  const title = (name) => kindOf(name)?.title || gameModule(name)?.title || name;
  const turns = turnsPanel(title);
  // Challenges to me (accept, decline) and mine (cancel): web/ui/challenges.js.
  const challenges = challengesPanel(title);
  page.append(form, learnPanel({ compact: true }), howToPlay(kinds), challenges.el, myPanels.box, turns.el, lists);

  let ticks = 0;
  async function refresh() {
    // Turn-based games are asked for in the background too: the tab title and the optional
    // notification say when it is your move.
    // In the background only every tenth poll (30 s).
    ticks += 1;
    if (!document.hidden || ticks % 10 === 0) turns.refresh();
    if (document.hidden) return; // a tab in the background asks nothing more
    myPanels.refresh();
    challenges.refresh();
    let games;
    try {
      const r = await api.listGames();
      if (!r.changed && lists.childElementCount) return; // 304: nothing moved
      games = r.games;
    } catch { return; }
    const mine = api.me()?.name;
    const open = games.filter((g) => g.status === 'open');
    const running = games.filter((g) => g.status === 'running');
    const finished = games.filter((g) => g.status === 'finished').slice(0, 30);
    clear(lists).append(
      section('Open games', 'open', open, (g) => [
        h('button.btn.small.primary', { onclick: () => join(g), 'data-action': 'join' }, 'Join'),
        copyButton(g),
      ], 'No open games. Create one and invite a friend.'),
      section('Running', 'running', running, (g) => [
        h('a.btn.small', { href: `#/g/${g.id}`, 'data-action': g.seats.some((s) => s.kind === 'human' && s.name === mine) ? 'play' : 'watch' },
          g.seats.some((s) => s.kind === 'human' && s.name === mine) ? 'Play' : 'Watch'),
      ], 'No games running.'),
      section('Finished', 'finished', finished, (g) => [
        h('a.btn.small', { href: `#/replay/${g.id}`, 'data-action': 'replay' }, 'Replay'),
      ], 'No finished games yet.'),
    );
  }
  function copyButton(g) {
    return h('button.btn.small.ghost', { title: 'Copy the invite link', onclick: async () => { await copyText(inviteUrl(g.id)); toast('Invite link copied'); } }, 'Copy link');
  }
  async function join(g) {
    try {
      await api.joinGame(g.id);
      go(`#/g/${g.id}`);
    } catch (e) {
      toast(`Could not join: ${e.message}`, 'error');
    }
  }
  function section(title, key, games, actions, empty) {
    return h(`section.panel.list.list-${key}`, { 'data-list': key }, [
      h('h2', [title, h('span.count', String(games.length))]),
      games.length === 0 ? h('p.empty', empty) : h('ul.games', games.map((g) => h('li.game-row', { 'data-game': g.id }, [
        h('div.game-main', [
          h('span.game-title', kindOf(g.game)?.title || gameModule(g.game)?.title || g.game),
          h('span.game-id', `#${g.id.slice(0, 6)}`),
          g.timer_secs ? h('span.tag', `timer ${g.timer_secs} s`) : null,
          g.practice ? h('span.tag.practice', { title: 'A practice game: its seed may have been chosen; never rated' }, 'practice') : null,
          h('div.game-seats', g.seats.map((s) => h('span.seat-chip', { class: s.kind }, [h('span.seat-dot', { style: { background: `var(--seat${s.seat})` } }), seatLabel(s)]))),
          g.outcome ? h('div.game-outcome', outcomeText(g)) : null,
        ]),
        h('div.game-actions', actions(g)),
      ]))),
    ]);
  }
  await refresh();
  // Conditional requests: an unchanged lobby is a 304 without a body or a database read.
  const timer = setInterval(refresh, 3000);
  const onVisible = () => { if (!document.hidden) refresh(); };
  document.addEventListener('visibilitychange', onVisible);
  return { destroy: () => { clearInterval(timer); document.removeEventListener('visibilitychange', onVisible); } };
}

function outcomeText(g) {
  const o = g.outcome;
  if (!o || !o.ranking) return '';
  const first = o.ranking[0] || [];
  const names = first.map((s) => seatLabel(g.seats[s] || { seat: s, kind: 'open' }));
  const sc = o.scores ? ` · ${o.scores.join(' : ')}` : '';
  return `Won by ${names.join(' & ')}${sc}`;
}
