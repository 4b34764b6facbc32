// What the RoboRally and Bumping Bots tables share: the seat bookkeeping (whose decision is
// mine, the waiting list that redraws the controls when it changes), animation timing, the
// keyboard guard, the controls box (hidden, waiting or a decision), the players list and the
// lobby's preview of a board seen before. A game's table extends `SeatTable` and fills in
// `render`, `statusText`, `idleControls` and `decisionControls`.

import { h, clear, sleep } from '../dom.js';

export class SeatTable {
  constructor(ctx) {
    this.ctx = ctx;
    this.names = ctx.names;
    this.view = null;
    this.waiting = [];
    this.epoch = 0;
    this.svg = null;
    this.onKey = this.onKey.bind(this);
    document.addEventListener('keydown', this.onKey);
  }

  destroy() { this.epoch++; document.removeEventListener('keydown', this.onKey); }
  speedFactor() { return this.ctx.speed ? this.ctx.speed() : 1; }
  wait(ms) { const f = this.speedFactor(); return f ? sleep(ms * f) : Promise.resolve(); }
  mine(seat) { return (this.ctx.mySeats || []).includes(seat); }
  /** The first of my seats the engine waits for (undefined: none). */
  mySeatToAct() { return this.waiting.find((x) => this.mine(x)); }
  say(text) { if (this.ctx.say) this.ctx.say(text); }

  show(view) {
    this.epoch++;
    this.busy = false;
    this.render(view);
  }

  /** The status line; a changed waiting list redraws the controls first. */
  status(view, waiting) {
    const w = waiting || [];
    const changed = JSON.stringify(w) !== JSON.stringify(this.waiting);
    this.waiting = w;
    if (changed) this.renderControls();
    if (!view) return { text: 'Connecting…' };
    return this.statusText(view, w);
  }

  renderControls() {
    const box = this.ctx.controls;
    const view = this.view;
    if (!view || this.ctx.replay || this.busy) { if (box && !this.busy) box.hidden = true; return; }
    clear(box);
    const seat = this.mySeatToAct();
    if (seat === undefined || view.phase === 'over') { this.idleControls(box, view); return; }
    box.hidden = false;
    this.decisionControls(box, view, seat);
  }

  /** The element a key press is for, as a lower-case tag name; null when the table ignores it. */
  keyTag(e) {
    if (this.ctx.replay || !this.view || e.ctrlKey || e.metaKey || e.altKey) return null;
    const tag = (e.target.tagName || '').toLowerCase();
    if (tag === 'input' || tag === 'select' || tag === 'textarea') return null;
    return tag;
  }

  onKey() {}
  note() {}

  /** The players panel: a title and one row per seat (dot, name, the game's stats, extra). */
  playersList(title, rows) {
    clear(this.ctx.players).append(h('h3', title), h('ul.players.rr-players', rows.map(({ seat, colour, stats, extra }) => h('li.rr-player', { 'data-seat': seat, class: this.mine(seat) ? 'me' : '' }, [
      h('span.seat-dot', { style: { background: `var(--seat${colour ?? seat})` } }),
      h('span.pname', `${this.names(seat)}${this.mine(seat) ? ' (you)' : ''}`),
      h('span.pstats', stats),
      extra || null,
      this.ctx.presence ? this.ctx.presence(seat) : null,
    ]))));
  }
}

/** Keep a board this browser has drawn, for the lobby's preview (the server serves no pictures). */
export function rememberBoard(kind, name, board) {
  if (name) try { localStorage.setItem(`robodrome.${kind}.${name}`, JSON.stringify(board)); } catch { /* full */ }
}

/** The lobby's preview: `draw(board)` of a board seen before, else its name and a hint. */
export function boardPreview(kind, boards, id, draw) {
  const b = boards.find((x) => x.id === id) || boards[0];
  let seen = null;
  try { seen = JSON.parse(localStorage.getItem(`robodrome.${kind}.${b.id}`) || 'null'); } catch { seen = null; }
  if (seen && seen.cells) return draw(seen, b);
  return h('div.course-preview', [h('b', b.title), h('span.hint', ` — the ${kind} is drawn at the table (and here once seen)`)]);
}
