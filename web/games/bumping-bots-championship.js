// A Bumping Bots championship (BB-11): each race is played on Bumping Bots' own table (the
// track of the race from the game's static part, `tracks[view.track]`); between the races, the
// standings table and the next race's grid, where the players choose their places one at a
// time in reverse order of the standings (BB-11.2). The engine decides every rule: the chooser,
// the free places and the points all come in the view.

import { h, s, clear } from '../dom.js';
import bumpingBots, { BumpingBotsTable, drawTrack, SIZE, hexOf } from './bumping-bots.js';
import { centre, bounds } from '../hex.js';

class ChampionshipTable {
  constructor(ctx) {
    this.ctx = ctx;
    this.view = null;
    this.waiting = [];
    this.inner = null;
    this.track = -1;
    this.standingsBox = h('div.bb-standings', { 'aria-label': 'Championship standings' });
  }

  tracks() { return (this.ctx.static && this.ctx.static.tracks) || []; }
  mine(seat) { return (this.ctx.mySeats || []).includes(seat); }

  /** Bumping Bots' table for the race on track `track` (a new one when the track changes). */
  racer(track) {
    if (this.inner && this.track === track) return this.inner;
    this.dropRacer();
    const ctx = Object.create(this.ctx);
    Object.defineProperty(ctx, 'static', { value: { track: this.tracks()[track] } });
    this.inner = new BumpingBotsTable(ctx);
    this.track = track;
    return this.inner;
  }

  dropRacer() {
    if (this.inner) this.inner.destroy();
    this.inner = null;
    this.track = -1;
  }

  destroy() { this.dropRacer(); }

  show(view) {
    this.view = view;
    if (view.race_state) {
      const inner = this.racer(view.track);
      inner.waiting = this.waiting;
      inner.show(view.race_state);
    } else {
      this.dropRacer();
      this.drawGrid(view);
      this.renderPlayers(view);
      this.renderControls();
    }
    this.drawStandings(view);
  }

  async play(events, view, log) {
    const sameRace = view.race_state && this.view && this.view.race_state && this.inner && this.track === view.track && this.view.race === view.race;
    if (sameRace) {
      this.view = view;
      await this.inner.play(events, view.race_state, log);
      this.drawStandings(view);
      return;
    }
    for (const ev of events) { log(ev); this.note(ev); }
    this.show(view);
  }

  note(ev) { if (this.inner) this.inner.note(ev); }
  focusOf(ev) { return this.inner ? this.inner.focusOf(ev) : null; }
  highlight(focus) { if (this.inner) this.inner.highlight(focus); }

  status(view, waiting) {
    this.waiting = waiting || [];
    if (!view) return { text: 'Connecting…' };
    const head = `Race ${view.race}/${view.races}`;
    if (view.race_state && this.inner) {
      const st = this.inner.status(view.race_state, waiting);
      return { ...st, text: `${head} · ${st.text}` };
    }
    this.renderControls();
    if (view.phase === 'over') {
      const first = (view.ranking || [])[0] || [];
      return { text: `Championship over: ${first.map((x) => this.ctx.names(x)).join(' & ')} win${first.length === 1 ? 's' : ''}` };
    }
    if (this.waiting.some((x) => this.mine(x))) return { text: `${head} · choose your place on the grid`, tone: 'mine' };
    const chooser = view.grid && view.grid.chooser;
    return { text: chooser !== null && chooser !== undefined ? `${head} · ${this.ctx.names(chooser)} chooses a place on the grid` : head };
  }

  /** BB-11.2: my place on the grid, when it is my turn to choose. */
  renderControls() {
    const box = this.ctx.controls;
    const view = this.view;
    if (!box || !view || view.race_state) return;
    clear(box);
    const seat = this.waiting.find((x) => this.mine(x));
    if (this.ctx.replay || seat === undefined || view.phase !== 'grid_choice') { box.hidden = true; return; }
    box.hidden = false;
    box.append(
      h('div.pick-title', h('b', 'Choose your place on the grid (1 is nearest the line)')),
      h('div.actions', view.grid.places.map((p, i) => h('button.btn', {
        type: 'button', 'data-grid-place': i, disabled: p !== null,
        onclick: () => this.ctx.act({ type: 'grid_place', place: i }, seat),
      }, p === null ? `Place ${i + 1}` : `Place ${i + 1}: ${this.ctx.names(p)}`))),
    );
  }

  /** Between the races: the next race's track with its grid places and who took them. */
  drawGrid(view) {
    const board = this.tracks()[view.track];
    const svg = s('svg.bb-track', { role: 'img', 'aria-label': 'The grid of the next race' });
    const g = s('g');
    svg.append(g);
    const cells = board && board.cells ? drawTrack(board, g) : [];
    const places = view.grid ? view.grid.places : [];
    ((board && board.start_grid) || []).forEach((spot, i) => {
      const [x, y] = centre(hexOf(spot.at), SIZE);
      const who = places[i];
      const taken = who !== null && who !== undefined;
      g.append(s('g.bb-place', { 'data-place': i, transform: `translate(${x},${y})` }, [
        taken ? s('circle', { r: SIZE * 0.55, style: `fill: var(--seat${who % 8})` }) : null,
        s('text', { y: 5, 'text-anchor': 'middle' }, taken ? String(who + 1) : `P${i + 1}`),
      ]));
    });
    const [bx, by, w, hh] = bounds(cells.length ? cells : [[0, 0]], SIZE, 6);
    svg.setAttribute('viewBox', `${bx} ${by} ${w} ${hh}`);
    const order = view.grid ? h('div.bb-order', [h('b', 'Choosing order: '), ...view.grid.order.map((seat, i) => h('span.bb-chip', { class: view.grid.chooser === seat ? 'now' : '', style: { '--car': `var(--seat${seat % 8})` } }, `${i + 1}. ${this.ctx.names(seat)}`))]) : null;
    clear(this.ctx.board).append(h('div.bb-board', [svg]), order);
  }

  /** The standings table (BB-11.1): each finished race's place and points, and the total. */
  drawStandings(view) {
    const names = this.ctx.names;
    const seats = view.standings.map((_, i) => i).sort((a, b) => view.standings[b] - view.standings[a] || a - b);
    const table = h('table.bb-standings-table', { 'data-testid': 'standings' }, [
      h('caption', `Standings after ${view.results.length} of ${view.races} race${view.races === 1 ? '' : 's'}`),
      h('thead', h('tr', [h('th', 'Bot'), ...view.results.map((r) => h('th', `Race ${r.race}`)), h('th', 'Points')])),
      h('tbody', seats.map((seat) => h('tr', { 'data-seat': seat, class: this.mine(seat) ? 'me' : '' }, [
        h('td', names(seat)),
        ...view.results.map((r) => h('td', `${r.places[seat]}. · ${r.points[seat]}`)),
        h('td.pts', String(view.standings[seat])),
      ]))),
    ]);
    const teams = view.teams ? h('p.hint', `Teams: ${view.teams.map((t) => `${t.seats.map(names).join(' & ')} ${t.points}`).join(' · ')}`) : null;
    clear(this.standingsBox).append(table, teams || '');
    if (this.standingsBox.parentNode !== this.ctx.board) this.ctx.board.append(this.standingsBox);
  }

  renderPlayers(view) {
    if (view.race_state && this.inner) { this.inner.renderPlayers(view.race_state); return; }
    clear(this.ctx.players).append(h('h3', 'Bots'), h('ul.players.rr-players', view.standings.map((p, seat) => h('li.rr-player', { 'data-seat': seat, class: this.mine(seat) ? 'me' : '' }, [
      h('span.seat-dot', { style: { background: `var(--seat${seat % 8})` } }),
      h('span.pname', `${this.ctx.names(seat)}${this.mine(seat) ? ' (you)' : ''}`),
      h('span.pstats', `${p} points`),
      this.ctx.presence ? this.ctx.presence(seat) : null,
    ]))));
  }

  describe(ev) {
    const R = (x) => this.ctx.names(x);
    switch (ev.type) {
      case 'race_started': return `Race ${ev.race} starts`;
      case 'standings': return `After race ${ev.race}: ${ev.standings.map((p, seat) => `${R(seat)} ${p}`).join(', ')}`;
      case 'grid_choice': return `Grid of race ${ev.race}: ${ev.order.map(R).join(', ')} choose in this order`;
      case 'grid_place_chosen': return `${R(ev.seat)} takes place ${ev.place + 1} on the grid`;
      case 'championship_over': return `Championship over: ${ev.ranking.map((g, i) => `${i + 1}. ${g.map(R).join(' & ')}`).join(', ')}`;
      default: {
        // Places in words on the race's track (the current one: the view says which).
        const t = (this.view && this.view.track) ?? 0;
        if (!this.words || this.words.t !== t) this.words = { t, table: Object.assign(Object.create(BumpingBotsTable.prototype), { names: this.ctx.names, ctx: { static: { track: this.tracks()[t] } } }) };
        return this.words.table.describe(ev);
      }
    }
  }
}

export default {
  name: 'bumping-bots-championship',
  title: 'Bumping Bots championship',
  boardPreview: bumpingBots.boardPreview,
  createTable: (ctx) => new ChampionshipTable(ctx),
};
