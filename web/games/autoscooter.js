// Autoscooter's table: the rink in SVG from the board data, the cars with speed and facing,
// the car chart as a picture (the letter picker), number and letter choice with the chosen
// move previewed on the rink, the case D start by clicking a hex and a facing, colour payments,
// and the round played out event by event. It renders the engine's views and events; the
// server and the engine decide every rule (a refused action comes back as an error).

import { h, s, clear, sleep } from '../dom.js';
import { rememberBoard, boardPreview } from '../ui/seat-table.js';
import { DIRS, DIR_NAMES, key, neighbour, turn, centre, corners, edge, polygon, bounds } from '../hex.js';
import { Zoom, foldOnPhone } from '../ui/zoom.js';

/**
 * A hex of the rink in words, from the rink's own cells (presentation, not rules): "the barrier
 * in the north-east" for a hex on the rink's edge, "the middle of the rink", or "the south-west
 * of the rink" (docs/client.md "Readable boards").
 */
export function rinkPlaces(board) {
  const cells = new Set(board.cells.map(key));
  const pts = board.cells.map((c) => centre(c, SIZE));
  const mx = pts.reduce((s2, p) => s2 + p[0], 0) / (pts.length || 1);
  const my = pts.reduce((s2, p) => s2 + p[1], 0) / (pts.length || 1);
  const rad = Math.max(1, ...pts.map((p) => Math.hypot(p[0] - mx, p[1] - my)));
  const compass = ['east', 'south-east', 'south', 'south-west', 'west', 'north-west', 'north', 'north-east'];
  return (hx) => {
    if (!hx) return 'nowhere';
    const [x, y] = centre(hx, SIZE);
    const side = compass[((Math.round(Math.atan2(y - my, x - mx) / (Math.PI / 4)) % 8) + 8) % 8];
    if (!cells.has(key(hx))) return `outside the rink (${side})`;
    if (DIRS.some((d) => !cells.has(key([hx[0] + d[0], hx[1] + d[1]])))) return `the barrier in the ${side}`;
    if (Math.hypot(x - mx, y - my) < rad * 0.35) return 'the middle of the rink';
    return `the ${side} of the rink`;
  };
}

const SIZE = 40;
// Words for the chart's letters (the moves themselves come from the engine's chart).
const LETTER_NOTES = {
  A: 'turn hard left', B: 'turn left', C: 'straight on', D: 'turn right', E: 'turn hard right',
  F: 'bend left, nose further left', G: 'bend left', H: 'side step left', I: 'straight, turn left',
  J: 'two straight', K: 'straight, turn right', L: 'side step right', M: 'bend right',
  N: 'bend right, nose further right', O: 'the spin', P: 'three straight',
};

export const carName = (c) => `car ${c + 1}`;
const Car = (c) => `Car ${c + 1}`;

/**
 * The engine's tables from the game's static part (sent once per game, docs/protocol.md):
 * the rink, the car chart (AS-3.2), the letters allowed at each speed (AS-3.3), each car's
 * column of turn numbers (AS-2.1) and the last round. The client keeps no copy of them.
 */
export function rulesOf(st) {
  const chart = new Map(st.chart.map((e) => [e.letter, e]));
  const letters = st.chart.map((e) => e.letter);
  return {
    board: st.board,
    letters,
    lastRound: st.last_round,
    /** The hexes a letter's move passes from `at` facing `facing`, and its end facing. */
    path(at, facing, letter) {
      const { steps, end } = chart.get(letter);
      const hexes = [];
      let p = at;
      for (const st2 of steps) {
        p = neighbour(p, turn(facing, st2));
        hexes.push(p);
      }
      return { hexes, facing: turn(facing, end), steps: steps.map((st2) => turn(facing, st2)) };
    },
    /** The letters a car at `speed` may plot (none for a car standing still). */
    lettersAt(speed) {
      const r = st.ranges.find((x) => x.speed === speed);
      return r ? letters.slice(letters.indexOf(r.first), letters.indexOf(r.last) + 1) : [];
    },
    /** Car `c`'s column of turn numbers on the log sheet. */
    column(c) { return st.columns[c] || []; },
  };
}

// ---------- pictures ----------

function rinkSvg(board, opts = {}) {
  const cells = board.cells;
  const [x, y, w, hh] = bounds(cells, SIZE, 8);
  // Moves previewed off the rink stay visible (the svg does not clip them).
  const svg = s('svg.rink', { viewBox: `${x} ${y} ${w} ${hh}`, role: 'img', 'aria-label': opts.label || 'The rink' });
  const set = new Set(cells.map(key));
  const defs = s('defs', [
    s('pattern#hatch', { width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, [s('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: 'rgba(0,0,0,.25)', 'stroke-width': 3 })]),
    s('marker#arrow', { viewBox: '0 0 10 10', refX: 6, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' }, [s('path', { d: 'M0,0 L10,5 L0,10 z', fill: 'currentColor' })]),
  ]);
  const gCells = s('g.cells');
  for (const c of cells) {
    gCells.append(s('polygon.cell', { points: polygon(corners(c, SIZE, SIZE * 0.97)), 'data-hex': key(c) }));
  }
  const gStarts = s('g.starts');
  (board.starts || []).forEach((st, i) => {
    const [cx, cy] = centre(st.at, SIZE);
    gStarts.append(s('text.start-mark', { x: cx, y: cy + SIZE * 0.62, 'text-anchor': 'middle' }, `S${i + 1}`));
  });
  const gWall = s('g.barrier');
  for (const c of cells) {
    for (let d = 0; d < 6; d++) {
      if (!set.has(key(neighbour(c, d)))) {
        const [[x1, y1], [x2, y2]] = edge(c, d, SIZE);
        gWall.append(s('line', { x1, y1, x2, y2 }));
      }
    }
  }
  svg.append(defs, s('rect.rink-bg', { x, y, width: w, height: hh, rx: 18 }), gCells, gStarts, gWall);
  return svg;
}

function carShape() {
  return [
    s('rect.car-body', { x: -19, y: -13, width: 38, height: 26, rx: 11 }),
    s('path.car-nose', { d: 'M6,-9 Q17,-8 17,0 Q17,8 6,9 Z' }),
    s('circle.car-seat', { cx: -4, cy: 0, r: 6 }),
  ];
}

/** One option of the chart as a small picture: the hexes passed and the end facing. */
function chartPicture(rules, letter) {
  const start = [0, 0];
  const { hexes, facing } = rules.path(start, 0, letter);
  const all = [start, ...hexes];
  const sz = 10;
  const area = [];
  for (let r = -1; r <= 1; r++) for (let q = -1; q <= 3; q++) if (q + r / 2 >= -0.5 && q + r / 2 <= 3) area.push([q, r]);
  const [x, y, w, hh] = bounds(area, sz, 1);
  const pts = all.map((c) => centre(c, sz));
  const onPath = new Set(all.map(key));
  const [ex, ey] = pts[pts.length - 1];
  const a = (facing * 60 * Math.PI) / 180;
  return s('svg.chart-pic', { viewBox: `${x} ${y} ${w} ${hh}`, 'aria-hidden': 'true' }, [
    ...area.filter((c) => !onPath.has(key(c))).map((c) => s('polygon.bg', { points: polygon(corners(c, sz, sz * 0.94)) })),
    ...all.map((c, i) => s('polygon', { class: i === 0 ? 'from' : 'via', points: polygon(corners(c, sz, sz * 0.94)) })),
    s('polyline.path', { points: polygon(pts) }),
    s('line.end', { x1: ex, y1: ey, x2: ex + Math.cos(a) * sz * 0.9, y2: ey + Math.sin(a) * sz * 0.9, 'marker-end': 'url(#chart-arrow)' }),
  ]);
}

/** The whole chart (AS-3.2) as a picture. */
function chartSheet(rules) {
  return h('div.chart-sheet', rules.letters.map((l) => h('div.chart-cell', { title: `${l}: ${LETTER_NOTES[l] || l}` }, [chartPicture(rules, l), h('b', l)])));
}

// ---------- the module ----------

export default {
  name: 'autoscooter',
  title: 'Autoscooter',
  // The result's columns (web/ui/results.js): the score is chits, or chits × colours (AS-7.3).
  scoreLabel: 'Score',
  resultColumns: (view) => [{ label: 'Chits', of: (seat) => (view.players.find((p) => p.seat === seat) || {}).chits ?? '' }],
  // The lobby's picture of the rink (`boards`: the server's list, GET /api/kinds).
  boardPreview(id, boards) {
    return boardPreview('rink', boards, id, (b, meta) => {
      const svg = rinkSvg(b, { label: `${meta.title} preview` });
      const cars = s('g.cars');
      (b.starts || []).forEach((st, i) => {
        const [x, y] = centre(st.at, SIZE);
        cars.append(s('g.car.preview', { transform: `translate(${x},${y}) rotate(${st.facing * 60})`, style: `--car: var(--seat${i % 2})` }, carShape()));
      });
      svg.append(cars);
      return svg;
    });
  },
  createTable: (ctx) => new AutoscooterTable(ctx),
  describe,
  rulesOf,
};

function holderName(hd, names) {
  if (hd === 'box') return 'the box';
  if (hd && hd.player !== undefined) return names(hd.player);
  if (hd && hd.car !== undefined) return Car(hd.car);
  return '?';
}

/** An event in words, for the log (`names(seat)` gives a seat's name). */
function describe(ev, names = (s) => `Seat ${s + 1}`, placeOf = () => 'the rink') {
  switch (ev.type) {
    case 'round_started': return `Round ${ev.round} begins.`;
    case 'committed': return `${names(ev.seat)} committed ${carName(ev.car)}.`;
    case 'plotted': return `${names(ev.seat)}'s plot for ${carName(ev.car)}: number ${ev.number}${ev.letter ? `, letter ${ev.letter}` : ''} (secret until revealed).`;
    case 'wild_committed': return `${names(ev.seat)} committed the wild car.`;
    case 'wild_plotted': return `${names(ev.seat)}'s letter for the wild car: ${ev.letter || 'straight on'}.`;
    case 'auto_plotted': return `Time ran out: ${carName(ev.car)} gets number ${ev.number} and goes straight on.`;
    case 'numbers_revealed': return `Numbers revealed: ${ev.order.map(([c, n]) => `${carName(c)} ${n}`).join(', ')}.`;
    case 'letter_converted': return `${Car(ev.car)}'s ${ev.plotted} is not allowed at its speed: it plays ${ev.used}.`;
    case 'moved': return ev.path.length
      ? `${Car(ev.car)} plays ${ev.letter}: ${ev.path.length} hex${ev.path.length === 1 ? '' : 'es'} to ${placeOf(ev.path[ev.path.length - 1])}, facing ${DIR_NAMES[ev.facing]}, speed ${ev.speed}.`
      : `${Car(ev.car)} plays ${ev.letter}: stays, facing ${DIR_NAMES[ev.facing]}, speed ${ev.speed}.`;
    case 'started': return `${Car(ev.car)} starts onto ${placeOf(ev.to)} facing ${DIR_NAMES[ev.facing]}.`;
    case 'cannot_start': return `${Car(ev.car)} cannot start: no free hex beside it.`;
    case 'crash': {
      const what = ev.with === null || ev.with === undefined ? 'the barrier' : carName(ev.with);
      const kind = { front: 'head-on', side: 'in the side', rear: 'from behind', stationary: '(standing still)', barrier: '' }[ev.kind] ?? ev.kind;
      return `Crash! ${Car(ev.car)} crashes into ${what} ${kind} at speed ${ev.speed}${ev.indirect ? ' (through a jolt)' : ''}.`.replace(/ +\./, '.');
    }
    case 'chits': {
      const from = holderName(ev.from, names), to = holderName(ev.to, names);
      const n = `${ev.amount} chit${ev.amount === 1 ? '' : 's'}`;
      if (ev.to === 'box') return `${from} pays ${n} into the box.`;
      return `${to} takes ${n} from ${from}.`;
    }
    case 'speed_set': return `${Car(ev.car)} now has speed ${ev.speed}.`;
    case 'turned': return `${Car(ev.car)} is turned to face ${DIR_NAMES[ev.facing]}.`;
    case 'jolted': return `${Car(ev.car)} is jolted onto ${placeOf(ev.to)}.`;
    case 'game_over': return `Game over. ${ev.winners.map(names).join(' & ')} win${ev.winners.length === 1 ? 's' : ''} (${ev.scores.join(' : ')}).`;
    default: return null;
  }
}

class AutoscooterTable {
  constructor(ctx) {
    this.ctx = ctx;
    // The rink and the rule tables: the game's static part, as the server sent it.
    this.rules = rulesOf(ctx.static);
    this.board = this.rules.board;
    const name = ctx.setup && ctx.setup.board && ctx.setup.board.name;
    rememberBoard('rink', name || 'standard', this.board);
    this.cellSet = new Set(this.board.cells.map(key));
    this.view = null;
    this.waiting = [];
    this.sel = { car: null, number: null, letter: null, wild: null, startHex: null };
    this.carEls = new Map();
    this.angles = new Map();
    this.busy = false;
    this.epoch = 0;

    this.svg = rinkSvg(this.board);
    this.svg.prepend(s('defs', [s('marker#chart-arrow', { viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 4, markerHeight: 4, orient: 'auto' }, [s('path', { d: 'M0,0 L10,5 L0,10 z' })])]));
    this.gHi = s('g.highlights');
    this.gPreview = s('g.preview');
    this.gCars = s('g.cars');
    this.gFx = s('g.fx');
    this.gPick = s('g.pick');
    this.gHl2 = s('g.hl');
    this.svg.append(this.gHl2, this.gHi, this.gPreview, this.gCars, this.gFx, this.gPick);
    this.svg.addEventListener('click', (e) => this.onBoardClick(e));
    this.placeOf = rinkPlaces(this.board);
    // The whole rink fits its panel; zoom and pan for a closer look (web/ui/zoom.js).
    const vb = this.svg.getAttribute('viewBox').split(' ').map(Number);
    this.svg.style.aspectRatio = `${vb[2]} / ${vb[3]}`;
    this.zoom = new Zoom(this.svg, vb, { name: 'Whole rink', minWidth: SIZE * 6 });

    this.orderStrip = h('div.order-strip', { 'aria-label': 'Acting order' });
    this.roundInfo = h('div.round-info');
    ctx.board.append(h('div.board-head', [this.roundInfo, this.orderStrip]), h('div.rink-wrap', [this.zoom.el, this.svg]));
    this.chartBox = foldOnPhone(h('details.chart-box', [h('summary', 'The car chart (AS-3.2)'), chartSheet(this.rules)]));
    ctx.board.append(this.chartBox);
    this.keyHandler = (e) => this.onKey(e);
    document.addEventListener('keydown', this.keyHandler);
  }

  destroy() { document.removeEventListener('keydown', this.keyHandler); }

  names(seat) { return this.ctx.names(seat); }
  describe(ev) {
    // Your own commitment is told by your plot's line.
    if ((ev.type === 'committed' || ev.type === 'wild_committed') && this.mine(ev.seat)) return null;
    return describe(ev, (s) => this.names(s), this.placeOf);
  }

  /** Highlight what a log line is about (web/ui/log.js): hexes and cars. */
  highlight(focus) {
    clear(this.gHl2);
    if (!focus) return;
    for (const hx of focus.hexes || []) this.gHl2.append(s('polygon.log-hl', { points: polygon(corners(hx, SIZE, SIZE * 0.95)), 'data-hl': key(hx) }));
    for (const c of focus.cars || []) {
      const car = this.view && this.view.cars.find((x) => x.car === c);
      if (car && car.at) { const [x, y] = centre(car.at, SIZE); this.gHl2.append(s('circle.log-hl', { cx: x, cy: y, r: SIZE * 0.95, 'data-hl-car': c })); }
    }
  }

  /** What an event is about on the rink, for the log's highlighting. */
  focusOf(ev) {
    const hexes = [];
    if (ev.type === 'moved' && ev.path.length) hexes.push(...ev.path);
    for (const k of ['to', 'at']) if (Array.isArray(ev[k])) hexes.push(ev[k]);
    const cars = [ev.car, ev.with].filter((c) => c !== undefined && c !== null);
    return hexes.length || cars.length ? { hexes, cars } : null;
  }
  mine(seat) { return this.ctx.mySeats.includes(seat); }
  speedFactor() { return this.ctx.speed(); }
  wait(ms) { const f = this.speedFactor(); return f ? sleep(ms * f) : Promise.resolve(); }

  // ---- status ----
  status(view = this.view, waiting = this.waiting) {
    if (!view) return { text: 'Loading…' };
    if (view.phase === 'over') {
      const w = view.winner.map((s) => this.names(s));
      const iWin = view.winner.some((s) => this.mine(s));
      return { text: iWin ? 'You win! ★' : `Game over — ${w.join(' & ')} win${w.length === 1 ? 's' : ''}`, tone: iWin ? 'win' : 'over' };
    }
    const wt = view.waiting;
    if (wt && wt.kind === 'plan') {
      const owe = this.ctx.mySeats.filter((s) => wt.seats.includes(s));
      if (owe.length) {
        const car = this.nextCarToPlot(view);
        return { text: car !== null ? `Your move — plot ${carName(car)}` : 'Your move — plot the wild car', tone: 'mine' };
      }
      const others = wt.seats.map((s) => this.names(s));
      const n = view.players.length;
      if (this.ctx.mySeats.length) return { text: `Plotted ✓ — waiting for ${others.join(', ')}`, tone: 'wait' };
      return { text: `Round ${view.round}: players are plotting (${n - wt.seats.length} of ${n} done)`, tone: 'wait' };
    }
    if (wt && wt.kind === 'start') {
      if (this.mine(wt.seat)) return { text: `Your move — start ${carName(wt.car)}: pick a hex, then a facing`, tone: 'mine' };
      return { text: `${this.names(wt.seat)} is starting ${carName(wt.car)}…`, tone: 'wait' };
    }
    if (wt && wt.kind === 'payment') {
      if (this.mine(wt.seat)) return { text: `Your move — choose the colours to ${wt.take ? 'take' : 'pay'}`, tone: 'mine' };
      return { text: `${this.names(wt.seat)} is choosing colours…`, tone: 'wait' };
    }
    return { text: `Round ${view.round}: cars moving`, tone: 'wait' };
  }

  myCars(view = this.view) { return view.cars.filter((c) => c.owner !== null && c.owner !== undefined && this.mine(c.owner)); }
  plotOf(car, view = this.view) { return view.plots.find((p) => p.car === car); }
  nextCarToPlot(view = this.view) {
    const c = this.myCars(view).find((c) => !this.plotOf(c.car, view));
    return c ? c.car : null;
  }

  // ---- drawing ----
  /** Show a view at once (stopping any animation still running). */
  show(view) {
    this.epoch++;
    this.busy = false;
    this.render(view);
  }

  /** Draw again after a choice of the user's (not while a round is being played out). */
  refresh() {
    if (!this.busy && this.view) this.render(this.view);
  }

  render(view) {
    const prevRound = this.view && this.view.round;
    this.view = view;
    if (prevRound !== view.round) this.sel = { car: null, number: null, letter: null, wild: null, startHex: null };
    this.drawCars(view);
    this.roundInfo.replaceChildren(
      h('span.round', [h('b', `Round ${Math.min(view.round, this.rules.lastRound)}`), ` / ${this.rules.lastRound}`]),
      h('span.box', { title: 'Chits in the box', 'data-box': view.box }, `Box: ${view.box}`),
    );
    this.drawOrder(view.order);
    this.renderPlayers(view);
    this.renderControls(view);
    this.drawPreview();
  }

  drawOrder(order, acting) {
    this.orderStrip.replaceChildren(...(order || []).map(([c, n]) => {
      const car = this.view && this.view.cars.find((x) => x.car === c);
      return h('span.order-chip', { class: acting === c ? 'acting' : '', style: { '--car': this.carColour(car) }, title: `${Car(c)} acts with number ${n}` }, [h('i'), `${n}`]);
    }));
  }

  carColour(car) {
    if (!car) return 'var(--nobody)';
    if (car.owner === null || car.owner === undefined) return 'var(--nobody)';
    return `var(--seat${car.owner})`;
  }

  placeCar(el, carId, at, facing) {
    const [x, y] = centre(at, SIZE);
    let prev = this.angles.get(carId);
    let a = facing * 60;
    if (prev !== undefined) {
      let d = ((a - prev) % 360 + 540) % 360 - 180;
      a = prev + d;
    }
    this.angles.set(carId, a);
    el.style.transform = `translate(${x}px, ${y}px)`;
    el.querySelector('.car-rot').style.transform = `rotate(${a}deg)`;
  }

  drawCars(view) {
    const seen = new Set();
    for (const c of view.cars) {
      seen.add(c.car);
      let el = this.carEls.get(c.car);
      if (!el) {
        el = s('g.car', { 'data-car': c.car }, [
          s('g.car-rot', carShape()),
          s('text.car-label', { y: 4, 'text-anchor': 'middle' }, String(c.car + 1)),
          s('g.speed', { transform: 'translate(17,-19)' }, [s('circle', { r: 8 }), s('text', { y: 3.5, 'text-anchor': 'middle' }, '0')]),
        ]);
        el.style.transition = 'none';
        this.gCars.append(el);
        this.carEls.set(c.car, el);
        this.placeCar(el, c.car, c.at, c.facing);
        requestAnimationFrame(() => { el.style.transition = ''; });
      } else {
        this.placeCar(el, c.car, c.at, c.facing);
      }
      el.style.setProperty('--car', this.carColour(c));
      el.classList.toggle('nobody', c.owner === null || c.owner === undefined);
      el.classList.toggle('wild', !!c.wild);
      el.classList.toggle('mine', c.owner !== null && c.owner !== undefined && this.mine(c.owner));
      el.classList.toggle('selected', this.sel.car === c.car);
      el.querySelector('.speed text').textContent = String(c.speed);
      // Plots the observer may see (their own while planning; all in a finished game's replay).
      const plot = view.phase === 'plan' ? this.plotOf(c.car, view) : null;
      let tag = el.querySelector('.plot-tag');
      if (plot) {
        if (!tag) { tag = s('g.plot-tag', { transform: 'translate(0,27)' }, [s('rect', { x: -22, y: -9, width: 44, height: 16, rx: 8 }), s('text', { y: 3, 'text-anchor': 'middle' })]); el.append(tag); }
        tag.querySelector('text').textContent = `${plot.number}${plot.letter ? `·${plot.letter}` : ''}`;
      } else if (tag) tag.remove();
      el.querySelector('.speed').classList.toggle('still', c.speed === 0);
      el.setAttribute('aria-label', `${Car(c.car)}${c.owner !== null && c.owner !== undefined ? ` of ${this.names(c.owner)}` : ''}, speed ${c.speed}, facing ${DIR_NAMES[c.facing]}`);
      const title = el.querySelector('title') || el.appendChild(s('title'));
      title.textContent = el.getAttribute('aria-label');
    }
    for (const [id, el] of this.carEls) if (!seen.has(id)) { el.remove(); this.carEls.delete(id); }
  }

  renderPlayers(view) {
    const wt = view.waiting;
    const rows = view.players.map((p) => {
      const seat = p.seat;
      let state = '';
      if (view.phase === 'over') state = view.winner.includes(seat) ? '★ winner' : '';
      else if (wt && wt.kind === 'plan') state = wt.seats.includes(seat) ? 'plotting…' : '✓ plotted';
      else if (wt && (wt.kind === 'start' || wt.kind === 'payment')) state = wt.seat === seat ? 'to move' : '';
      const done = (c) => view.phase === 'plan' && ((!this.ctx.replay && this.committed && this.committed.has(c.car)) || this.plotOf(c.car, view));
      const cars = view.cars.filter((c) => c.owner === seat).map((c) => h('span.mini-car', {
        class: done(c) ? 'done' : '', style: { '--car': `var(--seat${seat})` }, title: `${Car(c.car)}${done(c) ? ': plotted' : ''}`,
      }, String(c.car + 1)));
      const pres = this.ctx.presence(seat);
      return h('li.player', {
        'data-seat': seat,
        class: [this.mine(seat) ? 'me' : '', state === 'plotting…' || state === 'to move' ? 'active' : '', state === '✓ plotted' ? 'done' : ''].join(' '),
      }, [
        h('span.seat-dot', { style: { background: `var(--seat${seat})` } }),
        h('span.pname', [this.names(seat), this.mine(seat) ? h('em.you', ' (you)') : null, pres]),
        h('span.pcars', [...cars, ...(p.colours ? Object.entries(p.colours).map(([c, n]) => h('span.colour-count', { title: `${n} chits of colour ${Number(c) + 1}` }, `${n}×c${Number(c) + 1}`)) : [])]),
        h('span.pstate', state),
        h('span.pchits', { title: 'Chits' }, [h('b.chits', String(p.chits)), p.score !== p.chits ? h('small', ` = ${p.score}`) : null]),
      ]);
    });
    this.ctx.players.replaceChildren(h('ul.players', rows));
  }

  // ---- controls ----
  renderControls(view) {
    const box = this.ctx.controls;
    box.replaceChildren();
    if (this.ctx.replay) return;
    const wt = view.waiting;
    if (view.phase === 'over' || !wt) { box.hidden = true; return; }
    box.hidden = false;
    if (wt.kind === 'plan') this.planControls(view, box);
    else if (wt.kind === 'start') this.startControls(view, box);
    else if (wt.kind === 'payment') this.paymentControls(view, box);
  }

  planControls(view, box) {
    const wt = view.waiting;
    const mine = this.myCars(view);
    if (!this.ctx.mySeats.length) {
      box.append(h('p.hint', 'You are watching: plots stay secret until every player has committed.'));
      return;
    }
    const done = mine.filter((c) => this.plotOf(c.car, view));
    const todo = mine.filter((c) => !this.plotOf(c.car, view));
    if (done.length) {
      box.append(h('div.plotted', done.map((c) => { const p = this.plotOf(c.car, view); return h('span.plot-chip', { style: { '--car': `var(--seat${c.owner})` } }, `${Car(c.car)}: ${p.number}${p.letter ? ` · ${p.letter}` : ''} ✓`); })));
    }
    const owes = this.ctx.mySeats.some((s) => wt.seats.includes(s));
    if (!todo.length) {
      const wild = view.cars.find((c) => c.wild);
      if (owes && wild) return this.wildControls(wild, box);
      box.append(h('p.hint', 'All your cars are plotted. Waiting for the others…'));
      return;
    }
    if (this.sel.car === null || !todo.some((c) => c.car === this.sel.car)) {
      this.sel.car = todo[0].car; this.sel.number = null; this.sel.letter = null;
    }
    const car = view.cars.find((c) => c.car === this.sel.car);
    if (todo.length > 1) {
      box.append(h('div.car-tabs', { role: 'tablist' }, todo.map((c) => h('button.car-tab', {
        role: 'tab', 'aria-selected': String(c.car === car.car), class: c.car === car.car ? 'on' : '', style: { '--car': `var(--seat${c.owner})` },
        onclick: () => { this.sel = { ...this.sel, car: c.car, number: null, letter: null }; this.refresh(); },
      }, `${Car(c.car)}`))));
    }
    const used = new Set(car.used_numbers);
    const col = this.rules.column(car.car);
    const unused = col.filter((n) => !used.has(n));
    if (this.sel.number === null || used.has(this.sel.number)) this.sel.number = null;
    box.append(h('div.pick-title', [h('b', `${Car(car.car)}`), ` · speed ${car.speed} · facing ${DIR_NAMES[car.facing]}`]));
    box.append(h('div.label', 'Turn number (low numbers act first)'));
    box.append(h('div.numbers', { role: 'group', 'aria-label': 'Turn number' }, col.map((n) => h('button.num', {
      type: 'button', disabled: used.has(n), 'data-number': n, 'aria-pressed': String(this.sel.number === n),
      class: this.sel.number === n ? 'on' : '',
      onclick: () => { this.sel.number = n; this.refresh(); },
    }, String(n)))));
    if (car.speed === 0) {
      box.append(h('p.hint', 'This car stands still: when its number comes up you will start it by hand (pick a hex beside it and a facing).'));
    } else {
      const allowed = new Set(this.rules.lettersAt(car.speed));
      box.append(h('div.label', 'Move letter (the car chart; keys A–P)'));
      box.append(h('div.letters', { role: 'group', 'aria-label': 'Move letter' }, this.rules.letters.map((l) => h('button.letter', {
        type: 'button', disabled: !allowed.has(l), 'data-letter': l, 'aria-pressed': String(this.sel.letter === l),
        class: this.sel.letter === l ? 'on' : '', title: `${l}: ${LETTER_NOTES[l] || l}`,
        onclick: () => { this.sel.letter = l; this.refresh(); },
      }, [chartPicture(this.rules, l), h('b', l)]))));
    }
    const ready = this.sel.number !== null && (car.speed === 0 || this.sel.letter);
    const label = ready ? `Plot ${carName(car.car)}: ${this.sel.number}${car.speed ? ` · ${this.sel.letter}` : ''}` : 'Choose a number' + (car.speed ? ' and a letter' : '');
    box.append(h('button.btn.primary.commit#commit', { type: 'button', disabled: !ready, onclick: () => this.commitPlot() }, [label, ready ? h('kbd', '⏎') : null]));
    if (!unused.length) box.append(h('p.hint', 'No numbers left.'));
    box.append(h('p.keys', [todo.length > 1 ? [h('kbd', '1'), '–', h('kbd', '8'), ' car · '] : null, h('kbd', '←'), h('kbd', '→'), ' number · ', h('kbd', 'A'), '–', h('kbd', 'P'), ' letter · ', h('kbd', 'Enter'), ' plot']));
  }

  async commitPlot() {
    const car = this.view.cars.find((c) => c.car === this.sel.car);
    if (!car || this.sel.number === null || (car.speed > 0 && !this.sel.letter)) return;
    if (this.sending) return;
    const action = { type: 'plot', car: car.car, number: this.sel.number, letter: car.speed > 0 ? this.sel.letter : null };
    this.sending = true;
    const btn = this.ctx.controls.querySelector('#commit');
    if (btn) btn.disabled = true;
    const ok = await this.ctx.act(action, car.owner).finally(() => { this.sending = false; });
    if (ok) this.sel = { car: null, number: null, letter: null, wild: null, startHex: null };
  }

  wildControls(wild, box) {
    const allowed = new Set(this.rules.lettersAt(wild.speed));
    box.append(h('div.pick-title', [h('b', 'The wild car'), ` · speed ${wild.speed} — the highest number this round steers it`]));
    box.append(h('div.letters', { role: 'group', 'aria-label': 'Wild car letter' }, this.rules.letters.map((l) => h('button.letter', {
      type: 'button', disabled: !allowed.has(l), 'data-letter': l, class: this.sel.wild === l ? 'on' : '', 'aria-pressed': String(this.sel.wild === l),
      onclick: () => { this.sel.wild = l; this.refresh(); },
    }, [chartPicture(this.rules, l), h('b', l)]))));
    box.append(h('button.btn.primary.commit#commit', { type: 'button', disabled: !this.sel.wild, onclick: () => this.commitWild() }, this.sel.wild ? `Plot the wild car: ${this.sel.wild}` : 'Choose a letter'));
  }

  async commitWild() {
    if (!this.sel.wild) return;
    const seat = this.ctx.mySeats.find((s) => this.view.waiting.seats.includes(s));
    if (await this.ctx.act({ type: 'plot_wild', letter: this.sel.wild }, seat)) this.sel.wild = null;
  }

  startOptions(view = this.view) {
    const wt = view.waiting;
    const car = view.cars.find((c) => c.car === wt.car);
    const taken = new Set(view.cars.map((c) => key(c.at)));
    const out = [];
    for (let d = 0; d < 6; d++) {
      const n = neighbour(car.at, d);
      if (this.cellSet.has(key(n)) && !taken.has(key(n))) out.push({ d, hex: n });
    }
    return { car, options: out };
  }

  startControls(view, box) {
    const wt = view.waiting;
    if (!this.mine(wt.seat)) { box.append(h('p.hint', `${this.names(wt.seat)} chooses where ${carName(wt.car)} starts.`)); return; }
    const { car, options } = this.startOptions(view);
    box.append(h('div.pick-title', [h('b', `Start ${Car(car.car)}`), ' — click a highlighted hex on the rink, then a facing']));
    box.append(h('div.label', 'Where to'));
    box.append(h('div.start-hexes', options.map((o) => h('button.btn.small', {
      type: 'button', 'data-start-dir': o.d, class: this.sel.startHex && key(this.sel.startHex.hex) === key(o.hex) ? 'on' : '',
      onclick: () => { this.sel.startHex = o; this.refresh(); },
    }, `${DIR_NAMES[o.d]} [${o.hex}]`))));
    if (this.sel.startHex) {
      const o = this.sel.startHex;
      box.append(h('div.label', 'Facing (measured from the way it moved)'));
      box.append(h('div.start-facings', [-2, -1, 0, 1, 2].map((t) => {
        const f = turn(o.d, t);
        return h('button.btn.small', { type: 'button', 'data-facing': f, onclick: () => this.commitStart(o, f) }, `${'↺↺,↺,↑,↻,↻↻'.split(',')[t + 2]} ${DIR_NAMES[f]}`);
      })));
    }
  }

  async commitStart(o, facing) {
    const wt = this.view.waiting;
    if (await this.ctx.act({ type: 'start', car: wt.car, to: o.hex, facing }, wt.seat)) this.sel.startHex = null;
  }

  paymentControls(view, box) {
    const wt = view.waiting;
    if (!this.mine(wt.seat)) { box.append(h('p.hint', `${this.names(wt.seat)} chooses colours.`)); return; }
    box.append(h('div.pick-title', h('b', wt.take ? 'Choose the colours you take' : 'Choose the colours you pay into the box')));
    box.append(h('div.payments', wt.options.map((opt, i) => h('button.btn', {
      type: 'button', 'data-payment': i,
      onclick: () => this.ctx.act({ type: wt.take ? 'take' : 'pay', colours: opt }, wt.seat),
    }, Object.entries(opt).map(([c, n]) => h('span.colour-chip', { style: { '--car': `var(--seat${Number(c) % 8})` } }, `${n}× colour ${Number(c) + 1}`))))));
  }

  // ---- preview and picking on the rink ----
  drawPreview() {
    clear(this.gPreview); clear(this.gHi); clear(this.gPick);
    const view = this.view;
    if (!view || this.ctx.replay) return;
    const wt = view.waiting;
    if (wt && wt.kind === 'plan' && this.sel.car !== null && this.nextCarToPlot(view) !== null) {
      const car = view.cars.find((c) => c.car === this.sel.car);
      if (!car) return;
      const [cx, cy] = centre(car.at, SIZE);
      this.gHi.append(s('circle.sel-ring', { cx, cy, r: SIZE * 0.8 }));
      if (car.speed > 0 && this.sel.letter) this.drawPath(car, this.sel.letter);
    }
    if (wt && wt.kind === 'plan' && this.sel.wild) {
      const wild = view.cars.find((c) => c.wild);
      if (wild) this.drawPath(wild, this.sel.wild);
    }
    if (wt && wt.kind === 'start' && this.mine(wt.seat)) {
      const { car, options } = this.startOptions(view);
      const [cx, cy] = centre(car.at, SIZE);
      this.gHi.append(s('circle.sel-ring', { cx, cy, r: SIZE * 0.8 }));
      for (const o of options) {
        const on = this.sel.startHex && key(this.sel.startHex.hex) === key(o.hex);
        this.gPick.append(s('polygon.start-target', { class: on ? 'on' : '', points: polygon(corners(o.hex, SIZE, SIZE * 0.9)), 'data-start-hex': key(o.hex), 'data-dir': o.d, tabindex: 0, role: 'button', 'aria-label': `Start towards ${DIR_NAMES[o.d]}` }));
      }
      if (this.sel.startHex) {
        const o = this.sel.startHex;
        const [x, y] = centre(o.hex, SIZE);
        for (const t of [-2, -1, 0, 1, 2]) {
          const f = turn(o.d, t);
          const a = (f * 60 * Math.PI) / 180;
          const x2 = x + Math.cos(a) * SIZE * 0.78, y2 = y + Math.sin(a) * SIZE * 0.78;
          this.gPick.append(s('g.facing-pick', { 'data-facing': f, tabindex: 0, role: 'button', 'aria-label': `Face ${DIR_NAMES[f]}` }, [
            s('line', { x1: x, y1: y, x2, y2, 'marker-end': 'url(#arrow)' }),
            s('circle', { cx: x2, cy: y2, r: 9 }),
          ]));
        }
      }
    }
  }

  drawPath(car, letter) {
    const p = this.rules.path(car.at, car.facing, letter);
    const pts = [car.at, ...p.hexes].map((c) => centre(c, SIZE));
    const taken = new Set(this.view.cars.filter((c) => c.car !== car.car).map((c) => key(c.at)));
    for (const hx of p.hexes) {
      const bad = !this.cellSet.has(key(hx)) || taken.has(key(hx));
      this.gPreview.append(s('polygon.path-hex', { class: bad ? 'blocked' : '', 'data-hex': key(hx), points: polygon(corners(hx, SIZE, SIZE * 0.9)) }));
    }
    this.gPreview.append(s('polyline.path-line', { points: polygon(pts), 'marker-end': 'url(#arrow)' }));
    const last = p.hexes[p.hexes.length - 1];
    const [x, y] = centre(last, SIZE);
    this.gPreview.append(s('g.ghost-car', { transform: `translate(${x},${y}) rotate(${p.facing * 60})`, style: `--car: ${this.carColour(car)}` }, carShape()));
  }

  onBoardClick(e) {
    const t = e.target.closest('[data-start-hex],[data-facing]');
    if (!t || !this.view || !this.view.waiting || this.view.waiting.kind !== 'start') return;
    if (t.dataset.startHex) {
      const { options } = this.startOptions();
      this.sel.startHex = options.find((o) => key(o.hex) === t.dataset.startHex) || null;
      this.refresh();
    } else if (t.dataset.facing && this.sel.startHex) {
      this.commitStart(this.sel.startHex, Number(t.dataset.facing));
    }
  }

  onKey(e) {
    if (this.zoom && this.zoom.key(e)) return;
    if (this.ctx.replay || !this.view || e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = (e.target.tagName || '').toLowerCase();
    if (tag === 'input' || tag === 'select' || tag === 'textarea') return;
    const wt = this.view.waiting;
    if (e.key === 'Enter' && e.target.closest && e.target.closest('[data-start-hex],[data-facing]')) { e.preventDefault(); e.target.dispatchEvent(new MouseEvent('click', { bubbles: true })); return; }
    if (!wt || wt.kind !== 'plan' || !this.ctx.mySeats.some((s) => wt.seats.includes(s))) return;
    const car = this.view.cars.find((c) => c.car === this.sel.car);
    const L = e.key.length === 1 ? e.key.toUpperCase() : '';
    if (L && this.rules.letters.includes(L)) {
      if (car && this.nextCarToPlot() !== null) { if (this.rules.lettersAt(car.speed).includes(L)) { this.sel.letter = L; this.refresh(); } }
      else if (this.rules.lettersAt((this.view.cars.find((c) => c.wild) || {}).speed).includes(L)) { this.sel.wild = L; this.refresh(); }
      e.preventDefault();
    } else if (/^[1-8]$/.test(e.key)) {
      // 1–8: switch to that car, if it is one of yours still to plot.
      const c = Number(e.key) - 1;
      const mine = this.myCars().find((x) => x.car === c && !this.plotOf(c));
      if (mine) { this.sel = { ...this.sel, car: c, number: null, letter: null }; this.refresh(); e.preventDefault(); }
    } else if ((e.key === 'ArrowRight' || e.key === 'ArrowLeft') && car) {
      const used = new Set(car.used_numbers);
      const free = this.rules.column(car.car).filter((n) => !used.has(n));
      let i = free.indexOf(this.sel.number);
      i = e.key === 'ArrowRight' ? (i + 1) % free.length : (i <= 0 ? free.length - 1 : i - 1);
      this.sel.number = free[i];
      this.refresh();
      e.preventDefault();
    } else if (e.key === 'Enter' && tag !== 'button') {
      e.preventDefault();
      if (this.nextCarToPlot() !== null) this.commitPlot(); else this.commitWild();
    }
  }

  say(text) { if (this.ctx.say) this.ctx.say(text); }

  /** Follow the events (also the history's): which cars are committed this round. */
  note(ev) {
    if (!this.committed) this.committed = new Set();
    if (ev.type === 'committed') this.committed.add(ev.car);
    else if (ev.type === 'round_started' || ev.type === 'numbers_revealed') this.committed.clear();
  }

  // ---- animation of a round ----
  async play(events, view, log) {
    const epoch = ++this.epoch;
    this.busy = true;
    if (events.some((e) => e.type === 'numbers_revealed' || e.type === 'moved' || e.type === 'started') && !this.ctx.replay) {
      this.ctx.controls.hidden = false;
      this.ctx.controls.replaceChildren(h('p.hint', 'The cars are moving…'));
    }
    clear(this.gPreview); clear(this.gHi); clear(this.gPick);
    let lastCrash = null;
    let order = (this.view && this.view.order) || [];
    const cars = new Map((this.view ? this.view.cars : view.cars).map((c) => [c.car, { ...c }]));
    const fast = this.speedFactor() === 0;
    for (const ev of events) {
      log(ev);
      this.note(ev);
      if (fast || epoch !== this.epoch) continue;
      const c = cars.get(ev.car);
      const el = this.carEls.get(ev.car);
      switch (ev.type) {
        case 'numbers_revealed':
          order = ev.order;
          this.drawOrder(order);
          await this.wait(500);
          break;
        case 'moved': {
          this.drawOrder(order, ev.car);
          this.say(`${Car(ev.car)} moves: ${ev.letter}`);
          if (!el || !c) break;
          el.classList.add('acting');
          let at = c.at;
          for (const hx of ev.path) {
            const d = DIRS.findIndex(([dq, dr]) => at[0] + dq === hx[0] && at[1] + dr === hx[1]);
            this.placeCar(el, ev.car, hx, d >= 0 ? d : c.facing);
            at = hx;
            await this.wait(260);
          }
          this.placeCar(el, ev.car, at, ev.facing);
          el.querySelector('.speed text').textContent = String(ev.speed);
          Object.assign(c, { at, facing: ev.facing, speed: ev.speed });
          await this.wait(220);
          el.classList.remove('acting');
          break;
        }
        case 'started':
          if (!el || !c) break;
          this.say(`${Car(ev.car)} starts`);
          this.drawOrder(order, ev.car);
          this.placeCar(el, ev.car, ev.to, ev.facing);
          Object.assign(c, { at: ev.to, facing: ev.facing, speed: 1 });
          el.querySelector('.speed text').textContent = '1';
          await this.wait(380);
          break;
        case 'jolted':
          if (!el || !c) break;
          this.placeCar(el, ev.car, ev.to, c.facing);
          c.at = ev.to;
          await this.wait(260);
          break;
        case 'turned':
          if (!el || !c) break;
          this.placeCar(el, ev.car, c.at, ev.facing);
          c.facing = ev.facing;
          await this.wait(260);
          break;
        case 'speed_set':
          if (el) el.querySelector('.speed text').textContent = String(ev.speed);
          break;
        case 'crash': {
          const at = c ? c.at : ev.at;
          const other = ev.with !== null && ev.with !== undefined ? cars.get(ev.with) : null;
          const [x1, y1] = centre(at, SIZE);
          const [x2, y2] = other ? centre(other.at, SIZE) : centre(ev.at, SIZE);
          const x = other ? (x1 + x2) / 2 : x1, y = other ? (y1 + y2) / 2 : y1;
          lastCrash = [x, y];
          this.say(`Crash! ${Car(ev.car)} hits ${ev.with !== null && ev.with !== undefined ? carName(ev.with) : 'the barrier'}`);
          // The burst scales around its own centre: the group placed at the crash holds the
          // animated one (a CSS scale on the placed group would scale its translation too).
          const boom = s('g.boom-at', { transform: `translate(${x},${y})`, 'data-crash-at': `${x.toFixed(1)},${y.toFixed(1)}` }, s('g.boom', [s('polygon', { points: '0,-22 6,-8 21,-10 10,1 18,15 3,9 -6,20 -8,6 -22,4 -10,-5' }), s('text', { y: 4, 'text-anchor': 'middle' }, String(ev.speed))]));
          this.gFx.append(boom);
          el && el.classList.add('shake');
          await this.wait(520);
          el && el.classList.remove('shake');
          setTimeout(() => boom.remove(), 900 * Math.max(this.speedFactor(), 0.2));
          break;
        }
        case 'chits': {
          const [x, y] = lastCrash || [0, 0];
          const to = ev.to && ev.to.player !== undefined ? ev.to.player : null;
          const txt = s('text.chit-float', { x, y: y - 16, 'text-anchor': 'middle', style: `fill: ${to !== null ? `var(--seat${to})` : '#ffe08a'}` },
            `${ev.to === 'box' ? '→ box ' : '+'}${ev.amount}`);
          this.gFx.append(txt);
          // The chits shown as of this payment (the final view only at the end of the round).
          for (const [hd, sign] of [[ev.from, -1], [ev.to, 1]]) {
            if (hd && hd.player !== undefined) {
              const b = this.ctx.players.querySelector(`[data-seat="${hd.player}"] .chits`);
              if (b) b.textContent = String(Number(b.textContent) + sign * ev.amount);
            }
            if (hd === 'box') { const bx = this.roundInfo.querySelector('.box'); if (bx) { bx.dataset.box = String(Number(bx.dataset.box) + sign * ev.amount); bx.textContent = `Box: ${bx.dataset.box}`; } }
          }
          for (const hd of [ev.from, ev.to]) {
            if (hd && hd.player !== undefined) {
              const row = this.ctx.players.querySelector(`[data-seat="${hd.player}"]`);
              row && row.classList.remove('pulse');
              row && void row.offsetWidth;
              row && row.classList.add('pulse');
            }
          }
          await this.wait(450);
          setTimeout(() => txt.remove(), 1200 * Math.max(this.speedFactor(), 0.2));
          break;
        }
        default:
          break;
      }
    }
    if (epoch !== this.epoch) return; // a newer view was shown meanwhile
    this.busy = false;
    this.render(view);
  }
}
