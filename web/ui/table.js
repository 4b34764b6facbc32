// A game's table: the status bar (whose move it is, the timer, the connection), the board of
// the game's own module, players, controls and the log of events in words. It plays what the
// server sends: `welcome` shows a view at once, `update` plays its events then shows the view.

import { h, clear, toast } from '../dom.js';
import { refusalBox, showRefusal, hideRefusal } from './refusal.js';
import * as api from '../api.js';
import { GameSocket } from '../net.js';
import { gameModule } from '../games/index.js';
import { seatLabel, copyText, inviteUrl, replayUrl, animSpeed } from './common.js';
import { createChat } from './chat.js';
import { bannerText, resultTable, winnerText } from './results.js';
import { settingsList } from './settings.js';
import { openRules, rulebook } from './rules.js';
import { linkLine } from './log.js';
import { lessonPanel } from './lessons.js';

export async function showTable(root, id) {
  let info = await api.gameInfo(id);
  const mod = gameModule(info.game);
  if (!mod) throw new Error(`This client cannot show ${info.game} yet.`);
  const page = h('div.table-page', { 'data-game': id, 'data-status': info.status });
  root.append(page);
  let destroyed = false;
  const cleanups = [];

  if (info.status === 'open') {
    info = await waitingRoom(page, info, () => destroyed, cleanups);
    if (!info) return { destroy: () => { destroyed = true; cleanups.forEach((f) => f()); } };
    clear(page);
  }

  // ---- layout ----
  const status = h('div.status', { role: 'status', 'aria-live': 'polite', 'data-testid': 'status' }, 'Connecting…');
  const timer = h('div.timer', { hidden: true, 'aria-label': 'Time left', 'data-testid': 'clock' });
  const conn = h('span.conn', { title: 'Connection' });
  // A practice game (its seed may have been chosen; never rated) says so to everyone: every
  // welcome tells whether the game is one (docs/protocol.md).
  const practice = h('span.tag.practice', { 'data-testid': 'practice', hidden: true, title: 'A practice game: its seed may have been chosen by its creator; it is never rated' }, 'Practice');
  const statusbar = h('div.statusbar', [status, practice, timer, conn]);
  const board = h('div.board-area');
  const players = h('div.panel.players-panel', { 'aria-label': 'Players' });
  const controls = h('div.panel.controls', { 'aria-label': 'Your move', hidden: true });
  const refusal = refusalBox();
  const result = h('div.panel.result', { hidden: true, 'data-testid': 'result' });
  const logList = h('ol.log', { 'aria-label': 'Game log' });
  const logPanel = h('div.panel.log-panel', [h('h3', 'Log'), logList]);
  // "A bot is playing for you" (docs/client.md): shown while the server says a bot plays my seat.
  const standin = h('div.panel.standin', { hidden: true, role: 'alert', 'data-testid': 'standin' });
  const resign = h('button.btn.small.ghost#resign', { type: 'button', hidden: true, onclick: () => confirmResign() }, 'Resign…');
  // The rules beside the board (docs/client.md "Rules and help"): a drawer over the page; the
  // table, its socket and its state go on underneath.
  page.dataset.rulesGame = info.game;
  rulebook(info.game).catch(() => {});
  const rulesBtn = h('button.btn.small#open-rules', { type: 'button', title: 'The rules of this game', 'aria-label': 'Rules', onclick: () => openRules(info.game) }, 'Rules');
  statusbar.append(rulesBtn);
  const links = h('div.table-links', [
    resign,
    h('button.btn.small.ghost#copy-invite', { type: 'button', onclick: async () => { await copyText(inviteUrl(id)); toast('Invite link copied'); } }, 'Copy invite link'),
    h('a.btn.small.ghost#replay-link', { href: `#/replay/${id}` }, 'Replay'),
    speedPicker(),
  ]);
  const presence = new Map();
  const names = (seat) => seatLabel(info.seats[seat] || { seat, kind: 'open' });
  let mySeats = [];
  const sock = new GameSocket(id);
  const ident = api.me();
  const chat = createChat({
    gameId: id,
    spectator: !info.seats.some((s) => s.kind === 'human' && s.name === ident?.name),
    mine: (line) => (line.channel === 'players' ? mySeats.includes(line.seat) : line.name === ident?.name),
    send: async (text) => { if (!sock.send({ type: 'chat', text })) throw new Error('Not connected: try again in a moment.'); },
  });
  page.append(statusbar, h('div.table-grid', [h('div.board-col', [board]), h('aside.side', [result, standin, refusal, controls, players, logPanel, chat.el, links])]));

  // Actions sent and not yet answered (`data-acting`: a RoboRally draft's places go one by one).
  let acting = 0;
  async function act(action, seat) {
    page.dataset.acting = ++acting;
    try {
      await sock.act(action, mySeats.length > 1 ? seat : undefined);
      hideRefusal(refusal);
      return true;
    } catch (e) {
      showRefusal(refusal, e);
      return false;
    } finally {
      page.dataset.acting = --acting;
    }
  }

  // The setup, the game's static part (board, rule tables: sent once, never inside views) and
  // the history for the log come from the steps of the game so far (without their views: the
  // log needs only the events).
  const history = await api.steps(id, { views: false });
  const setup = history.setup;
  sock.rememberStatic(history.static_id, history.static);

  const table = mod.createTable({
    board, controls, players, setup, static: history.static, act, names, replay: false,
    get mySeats() { return mySeats; },
    speed: animSpeed,
    say: (text) => { status.textContent = text; status.className = 'status moving'; },
    presence: (seat) => {
      const p = presence.get(seat);
      if (!p) return null;
      if (p.resigned) return h('span.badge.away', { title: 'Resigned: a bot plays this seat to the end' }, 'resigned · bot plays');
      if (p.bot) return h('span.badge.away', { title: 'Away: a bot plays for now' }, p.connected ? 'bot plays' : 'away · bot plays');
      if (!p.connected) return h('span.badge.away', 'offline');
      return null;
    },
  });

  // "Learn to play" (docs/lessons.md): a lesson's game gets its goal, hints and result here.
  const lessonUI = lessonPanel(table, page, () => mySeats.length > 0);
  page.querySelector('aside.side').prepend(lessonUI.el);

  function logLine(ev, seq) {
    // The log is the public record: a seat's own secret events (its hand, its plot — shown in
    // its own panels) are not lines, so the log after a reload, made from the steps a
    // spectator sees, is the same as the one written live.
    if (ev.private) return null;
    const text = table.describe(ev);
    if (!text) return null;
    const li = h('li', { 'data-type': ev.type, class: ev.type === 'crash' ? 'crash' : ev.type === 'round_started' || ev.type === 'turn_started' ? 'round' : '' }, text);
    if (seq !== undefined) li.dataset.seq = seq;
    return linkLine(li, table, ev);
  }
  function logEvent(ev, seq) {
    const li = logLine(ev, seq);
    if (!li) return;
    logList.append(li);
    while (logList.children.length > 400) logList.firstChild.remove();
    logList.scrollTop = logList.scrollHeight;
  }
  {
    // The history at once: one insertion and one layout, not one per event (a long finished
    // game has thousands of events).
    const lines = [];
    for (const st of history.steps) {
      for (const ev of st.events) {
        const li = logLine(ev, st.seq);
        if (li) lines.push(li);
        if (table.note) table.note(ev);
      }
    }
    logList.append(...lines.slice(-400));
    logList.scrollTop = logList.scrollHeight;
  }

  // ---- state ----
  let seq = history.steps.length - 1;
  // The log holds the events of every step up to `logged` (steps missed while disconnected
  // are fetched and written in order before anything newer: nothing is missing after a
  // reconnect).
  let logged = history.steps.length - 1;
  async function catchUp(upTo) {
    if (upTo <= logged) return;
    try {
      const st = await api.steps(id, { views: false, from: logged + 1 });
      // The steps of a running game hold the events a spectator sees: they are described as a
      // spectator's (a seat's own commitment is a line there, its secret plot is not).
      const seats = mySeats;
      mySeats = [];
      try {
        for (const s of st.steps) {
          if (s.seq <= logged || s.seq > upTo) continue;
          for (const ev of s.events) logEvent(ev, s.seq);
        }
      } finally {
        mySeats = seats;
      }
      logged = Math.max(logged, upTo);
    } catch { /* the next welcome tries again */ }
  }
  let view = null;
  let waiting = [];
  let deadline = null;
  // Who the running clock runs for (the hourglass: the last player to program).
  let clockFor = [];
  const queue = [];
  let playing = false;
  let over = null;

  function renderStatus() {
    const st = table.status(view, waiting);
    // The end banner names the winner in every game (the server's outcome).
    if (over && view && view.phase === 'over') {
      st.text = bannerText(over, names, mySeats);
      st.tone = (over.ranking?.[0] || []).some((s) => mySeats.includes(s)) ? 'win' : 'over';
    }
    status.textContent = st.text;
    status.className = `status ${st.tone || ''}`;
    page.dataset.turn = st.tone === 'mine' ? 'mine' : 'other';
    document.title = `${st.tone === 'mine' ? '● ' : ''}${mod.title} · Robodrome`;
  }
  // The clock in the status bar names whom it runs for, and each of those players' rows shows
  // it too (a per-player clock): the server sends `time_left_ms` and `clock_for`.
  function renderTimer() {
    const running = deadline !== null && view && view.phase !== 'over';
    const seconds = running ? Math.ceil(Math.max(0, deadline - Date.now()) / 1000) : 0;
    for (const row of players.querySelectorAll('[data-seat]')) {
      const seat = Number(row.dataset.seat);
      let badge = row.querySelector(':scope > .pclock');
      if (running && clockFor.includes(seat)) {
        if (!badge) { badge = h('span.pclock', { title: 'Time left for this player' }); row.append(badge); }
        badge.textContent = `⏳ ${seconds} s`;
        badge.classList.toggle('low', seconds <= 10);
      } else if (badge) badge.remove();
    }
    if (!running) { timer.hidden = true; timer.dataset.for = ''; return; }
    timer.hidden = false;
    const mine = clockFor.filter((s) => mySeats.includes(s));
    const who = [...mine.length ? ['you'] : [], ...clockFor.filter((s) => !mySeats.includes(s)).map((s) => names(s))].join(', ');
    timer.textContent = who ? `⏳ ${who}: ${seconds} s` : `${seconds} s`;
    timer.title = 'Time left for the players named; when it runs out, the rules decide by default for them (the hourglass: only the registers still empty are filled at random)';
    timer.dataset.for = clockFor.join(',');
    timer.classList.toggle('low', seconds <= 10);
    timer.classList.toggle('mine', mine.length > 0);
  }
  const tick = setInterval(renderTimer, 250);
  cleanups.push(() => clearInterval(tick));

  function renderResult() {
    if (!over || !view) return;
    const o = over;
    result.hidden = false;
    const ranking = o.ranking || [];
    let place = 1;
    const rows = [];
    for (const group of ranking) {
      for (const seat of group) {
        rows.push(h('li', { 'data-seat': seat }, [h('span.place', `${place}.`), h('span.seat-dot', { style: { background: `var(--seat${seat})` } }), h('span.pname', names(seat)), h('b.pscore', String(o.scores ? o.scores[seat] : ''))]));
      }
      place += group.length;
    }
    result.dataset.scores = JSON.stringify(o.scores || []);
    result.dataset.winners = JSON.stringify(ranking[0] || []);
    result.replaceChildren(
      h('h3', 'Final result'),
      h('p.winner', { 'data-testid': 'winner' }, winnerText(o, names) || 'No winner'),
      resultTable(o, names, mod, view),
      rematchBox,
      h('a.btn.small#result-replay', { href: `#/replay/${id}` }, 'Watch the replay'),
    );
    renderRematch();
  }

  // ---- rematch (docs/client.md): every player is asked; the last "yes" makes the game ----
  const rematchBox = h('div.rematch', { 'data-testid': 'rematch' });
  let rematch = null;
  function renderRematch() {
    rematchBox.replaceChildren();
    if (!mySeats.length) {
      if (rematch && rematch.game) rematchBox.append(h('a.btn.small', { href: `#/g/${rematch.game}` }, 'Watch the rematch'));
      return;
    }
    const ask = () => sock.send({ type: 'rematch', accept: true });
    if (!rematch || rematch.declined !== undefined && rematch.declined !== null) {
      if (rematch && rematch.declined !== undefined && rematch.declined !== null) rematchBox.append(h('p.hint', `${names(rematch.declined)} declined the rematch.`));
      rematchBox.append(h('button.btn.primary#rematch', { type: 'button', onclick: ask }, 'Rematch — same seats and settings'));
      return;
    }
    if (rematch.game) { rematchBox.append(h('p.hint', 'The rematch is ready…')); return; }
    const iAccepted = mySeats.some((s) => rematch.accepted.includes(s));
    rematchBox.append(h('p.hint', [`Rematch asked. Accepted: ${rematch.accepted.map(names).join(', ') || 'nobody yet'}`, rematch.asked.length ? `; waiting for ${rematch.asked.map(names).join(', ')}.` : '.']));
    if (!iAccepted) {
      rematchBox.append(h('button.btn.primary#rematch-accept', { type: 'button', onclick: ask }, 'Accept the rematch'));
      rematchBox.append(h('button.btn.ghost#rematch-decline', { type: 'button', onclick: () => sock.send({ type: 'rematch', accept: false }) }, 'Decline'));
    }
  }

  // ---- resign (docs/client.md): a bot plays the seat to the end; the result marks it ----
  function confirmResign() {
    standin.hidden = false;
    standin.className = 'panel standin confirm';
    standin.replaceChildren(
      h('p', [h('b', 'Resign this game? '), 'A bot plays your seat to the end of the game, the result marks you as resigned, and you go on watching. This cannot be undone.']),
      h('button.btn.danger#resign-yes', { type: 'button', onclick: async () => {
        try { info = await api.leaveGame(id); toast('You resigned: a bot plays your seat.'); } catch (e) { toast(`Could not resign: ${e.message}`, 'error'); }
        renderStandin();
      } }, 'Resign'),
      h('button.btn.ghost#resign-no', { type: 'button', onclick: () => renderStandin() }, 'Keep playing'),
    );
  }

  // ---- "a bot is playing for you" ----
  function renderStandin() {
    const p = mySeats.map((s) => presence.get(s)).find((x) => x && (x.bot || x.resigned));
    standin.className = 'panel standin';
    if (!p) { standin.hidden = true; standin.replaceChildren(); return; }
    standin.hidden = false;
    if (p.resigned) {
      standin.replaceChildren(h('p', [h('b', 'You resigned. '), 'A bot plays your seat to the end of the game; you are watching.']));
      resign.hidden = true;
      return;
    }
    standin.replaceChildren(
      h('p', [h('b', 'A bot is playing for you. '), 'You were away longer than the server waits for a player, so a bot made your moves (they are in the log) and goes on until you take your seat back.']),
      h('button.btn.primary#take-back', { type: 'button', onclick: () => sock.send({ type: 'take_back' }) }, 'Take back my seat'),
    );
  }

  async function pump() {
    if (playing) return;
    playing = true;
    while (queue.length) {
      const m = queue.shift();
      if (m.type === 'welcome') {
        mySeats = m.seats;
        view = m.view; waiting = m.waiting;
        table.show(view);
        chat.setSpectator(!mySeats.length);
        await catchUp(m.seq);
        resign.hidden = !mySeats.length || view.phase === 'over';
      } else if (m.type === 'update') {
        waiting = m.waiting;
        const pending = queue.some((x) => x.type === 'update' || x.type === 'welcome');
        const fresh = m.seq > logged;
        if (fresh && m.seq > logged + 1) await catchUp(m.seq - 1);
        await table.play(pending ? [] : m.events, m.view, (ev) => { if (fresh) logEvent(ev, m.seq); });
        if (pending && fresh) m.events.forEach((ev) => logEvent(ev, m.seq));
        if (fresh) logged = m.seq;
        view = m.view;
      } else if (m.type === 'over') {
        over = m.outcome;
        resign.hidden = true;
      } else if (m.type === 'lesson') {
        lessonUI.update(m);
        continue;
      }
      lessonUI.refresh();
      if (m.time_left_ms !== undefined) deadline = m.time_left_ms === null ? null : Date.now() + m.time_left_ms;
      else if (m.type === 'update' || m.type === 'welcome') deadline = null;
      if (m.type === 'update' || m.type === 'welcome') clockFor = m.clock_for || [];
      renderStatus();
      renderTimer();
      renderResult();
      page.dataset.seq = seq;
      page.dataset.phase = view ? view.phase : '';
    }
    playing = false;
  }

  sock.addEventListener('message', (e) => {
    const m = e.detail;
    switch (m.type) {
      case 'welcome':
        practice.hidden = !m.practice;
        if (m.seq > seq) {
          // Back after a gap: the events missed are in the steps; the view is fresh.
          api.steps(id, { views: false }).then((st) => { for (const s of st.steps.slice(seq + 1, m.seq + 1)) for (const ev of s.events) logEvent(ev, s.seq); }).catch(() => {});
        }
        seq = m.seq;
        queue.length = 0;
        queue.push(m);
        pump();
        break;
      case 'update':
        if (m.seq <= seq && view) return;
        seq = m.seq;
        queue.push(m);
        pump();
        break;
      case 'over':
      case 'lesson':
        queue.push(m);
        pump();
        break;
      case 'presence':
        presence.set(m.seat, m);
        if (view) table.renderPlayers(view);
        renderStandin();
        break;
      case 'chat':
        chat.add(m);
        break;
      case 'rematch':
        rematch = m;
        if (m.game && mySeats.length) { toast('Rematch! Off to the new game.'); location.hash = `#/g/${m.game}`; return; }
        renderRematch();
        break;
      case 'error':
        if (['bad_chat', 'not_signed_in'].includes(m.code) || (m.code === 'rate_limited' && /chat/.test(m.message))) chat.showError(m.message);
        else if (m.id == null) toast(m.message, 'error');
        break;
      default:
        break;
    }
  });
  const netbar = document.getElementById('netbar');
  sock.addEventListener('state', (e) => {
    const st = e.detail;
    conn.className = `conn ${st}`;
    conn.title = { open: 'Connected', connecting: 'Connecting…', reconnecting: 'Reconnecting…', lost: 'Connection lost' }[st] || st;
    if (st === 'lost' || st === 'reconnecting') {
      netbar.hidden = false;
      netbar.textContent = 'Connection lost — reconnecting…';
      page.classList.add('offline');
    } else if (st === 'open') {
      if (!netbar.hidden) { netbar.hidden = true; toast('Reconnected'); }
      page.classList.remove('offline');
    }
  });
  sock.connect();
  const onVis = () => { if (document.visibilityState === 'visible' && sock.state !== 'open') sock.reconnectNow(); };
  document.addEventListener('visibilitychange', onVis);

  return {
    destroy() {
      destroyed = true;
      sock.close();
      table.destroy();
      document.removeEventListener('visibilitychange', onVis);
      netbar.hidden = true;
      cleanups.forEach((f) => f());
    },
  };
}

function speedPicker() {
  const sel = h('select.anim-speed', { 'aria-label': 'Animation speed', title: 'Animation speed' }, [
    ['slow', 'Slow'], ['normal', 'Normal'], ['fast', 'Fast'], ['off', 'No animation'],
  ].map(([v, l]) => h('option', { value: v }, l)));
  sel.value = localStorage.getItem('robodrome.anim') || 'normal';
  sel.addEventListener('change', () => localStorage.setItem('robodrome.anim', sel.value));
  return sel;
}

/** An open game: its settings, the seats, the invite link, the chat, join (under a name of
 * one's choosing), leave and start. Resolves when the game runs. */
async function waitingRoom(page, info, gone, cleanups) {
  const box = h('div.panel.waiting-room');
  const ident0 = api.me();
  const chat = createChat({
    gameId: info.id,
    spectator: !info.seats.some((s) => s.kind === 'human' && s.name === ident0?.name),
    mine: (line) => line.name === api.me()?.name,
    send: async (text) => { const line = await api.say(info.id, text); chat.add(line); },
  });
  const settings = h('div.panel.settings-box');
  page.append(h('div.waiting-grid', [box, h('aside.side', [settings, chat.el])]));
  const nameInput = h('input#join-name', { type: 'text', maxlength: 40, value: api.savedName() || ident0?.name || '', 'aria-label': 'Your name at this table', autocomplete: 'nickname' });
  settingsList(info).then((el) => settings.replaceChildren(h('h3', 'Settings'), el)).catch(() => {});
  return new Promise((resolve) => {
    let timer = null;
    // Seated: the seat holds the identity's id, which the lobby does not show; the client
    // remembers the seats it took (by game), and the guest name otherwise.
    const mine = () => {
      const took = sessionStorage.getItem(`robodrome.seat.${info.id}`);
      return info.seats.find((s) => s.kind === 'human' && (String(s.seat) === took || (took === null && s.name === api.me()?.name)));
    };
    const draw = () => {
      const seat = mine();
      clear(box).append(
        h('h2', [`${gameModule(info.game).title} — waiting for players`, info.practice ? h('span.tag.practice', 'practice') : null]),
        h('ul.seat-list', info.seats.map((s) => h('li', { class: s.kind }, [h('span.seat-dot', { style: { background: `var(--seat${s.seat})` } }), `Seat ${s.seat + 1}: `, h('b', seatLabel(s))]))),
        h('div.invite', [
          h('input.invite-url', { readonly: true, value: inviteUrl(info.id), 'aria-label': 'Invite link', onfocus: (e) => e.target.select() }),
          h('button.btn#copy-invite', { type: 'button', onclick: async () => { await copyText(inviteUrl(info.id)); toast('Invite link copied — send it to a friend'); } }, 'Copy invite link'),
        ]),
        !seat ? h('label.join-name', ['Your name at this table ', nameInput]) : null,
        h('div.actions', [
          !seat ? h('button.btn.primary#join', { type: 'button', onclick: async () => {
            const name = nameInput.value.trim();
            if (!name) { toast('Choose a name first', 'error'); return; }
            try {
              await api.ensureGuest();
              info = await api.joinGame(info.id, undefined, name);
              localStorage.setItem('robodrome.name', name);
              const taken = info.seats.find((s) => s.kind === 'human' && s.name === name);
              if (taken) sessionStorage.setItem(`robodrome.seat.${info.id}`, String(taken.seat));
              draw(); check();
            } catch (e) { toast(`Could not join: ${e.message}`, 'error'); }
          } }, 'Take a seat') : h('span.hint', 'You are seated. The game starts when every seat is taken.'),
          seat ? h('button.btn#start-now', { type: 'button', onclick: async () => {
            try { info = await api.startGame(info.id); check(); } catch (e) { toast(`Could not start: ${e.message}`, 'error'); }
          } }, 'Start now (bots take the open seats)') : null,
          seat ? h('button.btn.ghost#leave', { type: 'button', title: 'Your seat becomes open again', onclick: async () => {
            try { info = await api.leaveGame(info.id); sessionStorage.removeItem(`robodrome.seat.${info.id}`); toast('You left: your seat is open again'); draw(); } catch (e) { toast(`Could not leave: ${e.message}`, 'error'); }
          } }, 'Leave (free my seat)') : null,
          h('a.btn.ghost', { href: '#/' }, 'Back to the lobby'),
        ]),
      );
    };
    const pollChat = () => api.chatLines(info.id).then((r) => (r.lines || []).forEach((l) => chat.add(l))).catch(() => {});
    const check = async () => {
      if (gone()) return resolve(null);
      try { info = await api.gameInfo(info.id); } catch {}
      if (info.status !== 'open') { clearTimeout(timer); page.dataset.status = info.status; return resolve(info); }
      // Redraw the seats only when they changed (the name being typed stays).
      const sig = JSON.stringify(info.seats);
      if (sig !== box.dataset.seats) { box.dataset.seats = sig; draw(); }
      pollChat();
      clearTimeout(timer);
      timer = setTimeout(check, 1200);
    };
    cleanups.push(() => clearTimeout(timer));
    box.dataset.seats = JSON.stringify(info.seats);
    draw();
    pollChat();
    timer = setTimeout(check, 1200);
  });
}
