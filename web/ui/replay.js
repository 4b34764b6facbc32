// Replay: step back and forth through a finished game (or a running one, up to now, as a
// spectator sees it). Every step is the view after one log entry and the events it caused,
// computed by the server through the engine. The address holds the position (?step=N), so a
// link shares it.

import { h, clear, toast } from '../dom.js';
import * as api from '../api.js';
import { gameModule } from '../games/index.js';
import { seatLabel, copyText, replayUrl, animSpeed } from './common.js';
import { resultTable, winnerText } from './results.js';
import { linkLine } from './log.js';
import { openRules, rulebook } from './rules.js';

export async function showReplay(root, id, startStep) {
  const data = await api.steps(id).catch(async (e) => {
    if (e.status !== 404) throw new Error(`This game has no replay yet (${e.message}).`);
    // A server without the steps endpoint: show the finished game's final position only.
    const r = await api.replay(id).catch(() => { throw new Error('No such game, or it has not finished yet.'); });
    toast('This server gives the final position only: stepping needs /api/games/{id}/steps.', 'error');
    return { ...r, status: 'finished', steps: [{ seq: 0, entry: null, events: [], view: r.final }] };
  });
  const mod = gameModule(data.game);
  if (!mod) throw new Error(`This client cannot show ${data.game} yet.`);
  const steps = data.steps;
  const last = steps.length - 1;
  const names = (seat) => seatLabel(data.seats[seat] || { seat, kind: 'open' });
  // A game with a fixed number of rounds says its last in its static part (the engine's).
  const lastRound = data.static && data.static.last_round;

  const page = h('div.table-page.replay', { 'data-game': id });
  root.append(page);
  // The rules and the context help here too (docs/client.md "Rules and help"): the drawer opens
  // over the replay, which stays where it is.
  page.dataset.rulesGame = data.game;
  rulebook(data.game).catch(() => {});
  const status = h('div.status', { role: 'status', 'aria-live': 'polite' });
  const pos = h('span.replay-pos', { 'data-testid': 'replay-pos' });
  const slider = h('input.replay-slider', { type: 'range', min: 0, max: last, value: 0, 'aria-label': 'Replay position' });
  const btn = (label, title, f, idn) => h(`button.btn.small${idn ? `#${idn}` : ''}`, { type: 'button', title, 'aria-label': title, onclick: f }, label);
  const controls = h('div.replay-controls', [
    btn('|◀', 'First step (Home)', () => go(0), 'rp-first'),
    btn('◀', 'Step back (←)', () => go(cur - 1), 'rp-prev'),
    btn('▶', 'Step forward (→)', () => go(cur + 1, true), 'rp-next'),
    btn('▶|', 'Last step (End)', () => go(last), 'rp-last'),
    btn('Play', 'Play / pause (space)', () => togglePlay(), 'rp-play'),
    slider, pos,
    btn('Link to this step', 'Copy a link to this position', async () => { await copyText(replayUrl(id, cur)); toast('Link to this position copied'); }, 'rp-link'),
  ]);
  const board = h('div.board-area');
  const players = h('div.panel.players-panel');
  const ctrl = h('div.panel.controls', { hidden: true });
  const logList = h('ol.log', { 'aria-label': 'Game log' });
  // The result belongs to the end: shown only at the last step of a finished game.
  const outcome = data.outcome && data.outcome.ranking
    ? h('div.panel.result', { 'data-testid': 'result', 'data-scores': JSON.stringify(data.outcome.scores || []), hidden: true }, [h('h3', 'Final result'), h('p.winner', { 'data-testid': 'winner' }, winnerText(data.outcome, names)), resultTable(data.outcome, names, mod, steps[last].view)])
    : null;
  page.append(
    h('div.statusbar', [h('span.replay-badge', data.status === 'finished' ? 'Replay' : 'Replay · up to now'), status,
      h('button.btn.small#open-rules', { type: 'button', title: 'The rules of this game', 'aria-label': 'Rules', onclick: () => openRules(data.game) }, 'Rules')]),
    controls,
    h('div.table-grid', [h('div.board-col', [board]), h('aside.side', [outcome, players, h('div.panel.log-panel', [h('h3', 'Log'), logList]), h('div.table-links', [
      data.status !== 'finished' ? h('a.btn.small.ghost', { href: `#/g/${id}` }, 'Back to the table') : null,
      h('a.btn.small.ghost', { href: '#/' }, 'Lobby'),
    ])])]),
  );
  const table = mod.createTable({
    board, controls: ctrl, players, setup: data.setup, static: data.static, names, replay: true, mySeats: [], speed: animSpeed,
    act: async () => false, presence: () => null,
  });

  // The log: every event of every step, each line tagged with its step; lines after the
  // current step are hidden.
  const lines = [];
  for (const st of steps) {
    for (const ev of st.events) {
      const text = table.describe(ev);
      if (!text) continue;
      const li = h('li', { 'data-seq': st.seq, 'data-type': ev.type, class: ev.type === 'crash' ? 'crash' : ev.type === 'round_started' || ev.type === 'turn_started' ? 'round' : '', onclick: () => go(st.seq) }, text);
      linkLine(li, table, ev);
      lines.push(li);
      logList.append(li);
    }
  }

  let cur = Number.isFinite(startStep) ? Math.max(0, Math.min(last, startStep)) : last;
  let playTimer = null;
  let animating = false;

  function render() {
    slider.value = cur;
    pos.textContent = `Step ${cur} / ${last}`;
    page.dataset.step = cur;
    if (outcome) outcome.hidden = !(cur === last && data.status === 'finished');
    const v = steps[cur].view;
    const entry = steps[cur].entry;
    status.textContent = cur === 0 ? 'Before the first move' : `${v.turn !== undefined ? `Turn ${v.turn}` : `Round ${lastRound ? Math.min(v.round, lastRound) : v.round}`} · ${entryText(entry, names)}`;
    for (const li of lines) {
      const s = Number(li.dataset.seq);
      li.hidden = s > cur;
      li.classList.toggle('now', s === cur);
    }
    const now = [...logList.querySelectorAll('li:not([hidden])')].pop();
    if (now) now.scrollIntoView({ block: 'nearest' });
    const url = `#/replay/${id}?step=${cur}`;
    if (location.hash !== url) history.replaceState(null, '', url);
  }

  async function go(n, animate = false) {
    n = Math.max(0, Math.min(last, n));
    if (n === cur && table.view) return;
    const from = cur;
    cur = n;
    render();
    if (animate && n === from + 1 && animSpeed() > 0) {
      animating = true;
      await table.play(steps[n].events, steps[n].view, () => {});
      animating = false;
    } else {
      table.show(steps[n].view);
    }
  }

  function togglePlay() {
    const b = document.getElementById('rp-play');
    if (playTimer) { clearTimeout(playTimer); playTimer = null; b.textContent = 'Play'; return; }
    b.textContent = 'Pause';
    const stepOn = async () => {
      if (cur >= last) { togglePlay(); return; }
      await go(cur + 1, true);
      if (playTimer) playTimer = setTimeout(stepOn, 250 * Math.max(animSpeed(), 0.2));
    };
    playTimer = setTimeout(stepOn, 0);
  }

  slider.addEventListener('input', () => go(Number(slider.value)));
  const onKey = (e) => {
    const tag = (e.target.tagName || '').toLowerCase();
    if (tag === 'input' && e.target !== slider) return;
    if (e.key === 'ArrowRight') { e.preventDefault(); go(cur + 1, true); }
    else if (e.key === 'ArrowLeft') { e.preventDefault(); go(cur - 1); }
    else if (e.key === 'Home') { e.preventDefault(); go(0); }
    else if (e.key === 'End') { e.preventDefault(); go(last); }
    else if (e.key === ' ' && tag !== 'button') { e.preventDefault(); togglePlay(); }
  };
  document.addEventListener('keydown', onKey);
  table.show(steps[cur].view);
  render();
  return {
    destroy() {
      document.removeEventListener('keydown', onKey);
      clearTimeout(playTimer);
      table.destroy();
    },
  };
}

function entryText(entry, names) {
  if (!entry) return '';
  if (entry.time_up) return 'time ran out';
  const a = entry.action;
  if (!a) return `${names(entry.seat)} acted`;
  switch (a.type) {
    case 'plot': return `${names(entry.seat)} plotted car ${a.car + 1}: ${a.number}${a.letter ? ` · ${a.letter}` : ''}`;
    case 'plot_wild': return `${names(entry.seat)} plotted the wild car: ${a.letter || 'straight'}`;
    case 'start': return `${names(entry.seat)} started car ${a.car + 1}`;
    case 'take': case 'pay': return `${names(entry.seat)} chose colours`;
    case 'program': return `${names(entry.seat)} programmed`;
    case 'place': return `${names(entry.seat)} ${a.card ? `placed a card in register ${a.register}` : `took back register ${a.register}`}`;
    case 'speed': return `${names(entry.seat)} chose speed: ${a.choice.replace(/_/g, ' ')}`;
    default: return `${names(entry.seat)}: ${a.type}`;
  }
}
