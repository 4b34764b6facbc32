// Bumping Bots' table: the track in SVG from the game's static part (cells, walls, the start/finish
// line, the grid, obstacles and bumpers), the bots with speed and direction, the race order and
// laps; speed buttons, the move with a rotation before the last cell and after, shock and orient
// decisions when the engine asks, tuning cards. The engine decides every rule.

import { h, s, clear } from '../dom.js';
import { SeatTable, rememberBoard, boardPreview } from '../ui/seat-table.js';
import { DIRS, DIR_NAMES, key, centre, corners, edge, polygon, bounds } from '../hex.js';
import { Zoom } from '../ui/zoom.js';
import { trackPlaces, hexDistance, directionWord, stepBots, DIR_WORDS } from './bumping-bots-words.js';

export const SIZE = 30;
const CARD = { jumper: 'Jumper', magnet: 'Magnet', nitro: 'Nitro', engine: 'Boosted engine', rotation: 'Quick rotation' };
const SPEED = [
  ['keep', 'Keep speed'], ['accelerate', 'Accelerate'], ['accelerate_to_3', 'Straight to 3'], ['decelerate', 'Decelerate'],
];
const TURN = { '-1': '↺ left', 0: 'straight', 1: '↻ right' };
export const hexOf = (a) => (Array.isArray(a) ? a : [a.q, a.r]);

export function drawTrack(board, g) {
  const cells = board.cells.map((c) => hexOf(c.at));
  for (const c of cells) g.append(s('polygon.bb-cell', { points: polygon(corners(c, SIZE)), 'data-hex': key(c) }));
  for (const spot of board.start_grid || []) {
    const [x, y] = centre(hexOf(spot.at), SIZE);
    g.append(s('circle.bb-grid', { cx: x, cy: y, r: SIZE * 0.25 }));
  }
  for (const e of board.finish_line || []) {
    const [[x1, y1], [x2, y2]] = edge(hexOf(e.at), e.side, SIZE);
    g.append(s('line.bb-line', { x1, y1, x2, y2 }));
  }
  const set = new Set(cells.map(key));
  for (const c of cells) {
    for (let d = 0; d < 6; d++) {
      if (set.has(key([c[0] + DIRS[d][0], c[1] + DIRS[d][1]]))) continue;
      const [[x1, y1], [x2, y2]] = edge(c, d, SIZE);
      g.append(s('line.bb-border', { x1, y1, x2, y2 }));
    }
  }
  for (const e of board.walls || []) {
    const [[x1, y1], [x2, y2]] = edge(hexOf(e.at), e.side, SIZE);
    g.append(s('line.bb-wall', { x1, y1, x2, y2 }));
  }
  return cells;
}

// BB-8.4: an arrow in each of the six cells round a bumper, pointing away from its centre.
function bumperArrows(g) {
  for (let d = 0; d < 6; d++) {
    const [cx, cy] = centre(DIRS[d], SIZE);
    const a = (Math.PI / 3) * d; // direction d at 60°·d on screen, clockwise from E
    const [ux, uy] = [Math.cos(a), Math.sin(a)];
    const [tip, back, notch, half] = [SIZE * 0.5, SIZE * 0.3, SIZE * 0.08, SIZE * 0.25];
    const pts = [
      [cx + ux * tip, cy + uy * tip], [cx - ux * back - uy * half, cy - uy * back + ux * half],
      [cx - ux * notch, cy - uy * notch], [cx - ux * back + uy * half, cy - uy * back - ux * half],
    ];
    g.append(s('polygon.bumper-arrow', { points: pts.map((p) => p.map((v) => v.toFixed(1)).join(',')).join(' '), 'data-dir': d }));
  }
}

// BB-8.2: the sense a motorised obstacle turns at the end of every round (the view's `turn`), as a
// three-quarter circle with an arrowhead, clockwise or anticlockwise on screen.
function turnArrow(g, turn) {
  const r = SIZE * 0.75, sign = turn === 'cw' ? 1 : -1;
  const at = (deg) => [r * Math.cos((deg * Math.PI) / 180), r * Math.sin((deg * Math.PI) / 180)];
  const [sx, sy] = at(-90), end = -90 + sign * 270, [ex, ey] = at(end);
  const t = (end * Math.PI) / 180, [tx, ty] = [-Math.sin(t) * sign, Math.cos(t) * sign], [nx, ny] = [Math.cos(t), Math.sin(t)], hd = SIZE * 0.3;
  const head = [[ex + tx * hd, ey + ty * hd], [ex + nx * hd * 0.6, ey + ny * hd * 0.6], [ex - nx * hd * 0.6, ey - ny * hd * 0.6]];
  g.append(s(`g.turn.${turn}`, { 'data-turn': turn }, [
    s('path', { d: `M ${sx.toFixed(1)} ${sy.toFixed(1)} A ${r} ${r} 0 1 ${turn === 'cw' ? 1 : 0} ${ex.toFixed(1)} ${ey.toFixed(1)}` }),
    s('polygon', { points: head.map((p) => p.map((v) => v.toFixed(1)).join(',')).join(' ') }),
  ]));
}

function obstacleShape(o) {
  const [x, y] = centre(hexOf(o.at), SIZE);
  const g = s('g.bb-obstacle', { class: o.kind, transform: `translate(${x},${y})`, 'data-kind': o.kind });
  if (o.kind === 'bumper') {
    g.append(s('polygon', { points: polygon(corners([0, 0], SIZE * 0.75)) }), s('text', { y: 5, 'text-anchor': 'middle' }, '➤'));
    bumperArrows(g);
  } else if (o.kind === 'mobile') g.append(s('circle', { r: SIZE * 0.5 }));
  else if (o.kind === 'motorised') {
    g.append(s('circle', { r: SIZE * 0.35 }));
    for (const d of o.arms || []) { const [ax, ay] = centre(DIRS[d], SIZE); g.append(s('line.arm', { x1: 0, y1: 0, x2: ax, y2: ay })); }
    if (o.turn === 'cw' || o.turn === 'ccw') turnArrow(g, o.turn);
  } else g.append(s('polygon', { points: polygon(corners([0, 0], SIZE * 0.8)) }));
  return g;
}

// A bot fills most of its hex (issue 21: not a 10 px arrow): a round body with a white arrow
// on its front edge for its facing, and its number large in the middle.
function botShape(seat) {
  const r = SIZE * 0.72;
  return [
    s('g.rot', [
      s('circle.body', { r }),
      s('polygon.nose', { points: `${r + SIZE * 0.15},0 ${r - SIZE * 0.3},${-SIZE * 0.34} ${r - SIZE * 0.3},${SIZE * 0.34}` }),
    ]),
    s('text.bnum', { y: SIZE * 0.3, 'text-anchor': 'middle' }, String(seat + 1)),
  ];
}

export class BumpingBotsTable extends SeatTable {
  constructor(ctx) {
    super(ctx);
    this.drawn = new Map();
    this.sel = { before: 0, after: 0 };
    this.botEls = new Map();
  }

  bot(seat) { return this.view.bots.find((b) => b.seat === seat); }

  destroy() { super.destroy(); if (this.resizer) this.resizer.disconnect(); }

  ensureBoard(view) {
    if (this.svg) return;
    // The track: the game's static part (sent once per game), never inside a view.
    const board = this.ctx.static && this.ctx.static.track;
    this.svg = s('svg.bb-track', { role: 'img', 'aria-label': 'The track' });
    this.gTrack = s('g');
    this.gObs = s('g');
    this.gBots = s('g');
    this.svg.append(this.gTrack, this.gObs, this.gBots);
    let cells = [];
    if (board && board.cells) {
      cells = drawTrack(board, this.gTrack);
      rememberBoard('track', board.name, board);
    }
    if (!cells.length) cells = view.bots.filter((b) => b.at).map((b) => hexOf(b.at));
    const full = bounds(cells.length ? cells : [[0, 0]], SIZE, 6);
    this.svg.setAttribute('viewBox', full.join(' '));
    this.places = trackPlaces(board || { cells: [] }, (a) => centre(hexOf(a), SIZE));
    // Zoom and pan (web/ui/zoom.js): in a race of mine the view follows my bot at a zoom where
    // the bots read large; the whole track is one button (or 0) away.
    this.zoom = new Zoom(this.svg, full, {
      name: 'Whole track', minWidth: SIZE * 8,
      follow: !this.ctx.replay && view.bots.some((b) => this.mine(b.seat)) ? 'Follow my bot' : null,
    });
    this.gHl = s('g.hl');
    this.svg.append(this.gHl);
    this.orderBar = h('div.bb-order', { 'aria-label': 'Race order' });
    clear(this.ctx.board).append(h('div.bb-board', [this.zoom.el, this.svg]), this.orderBar);
    if (this.zoom.followBtn) {
      // The closest readable zoom: about 0.8 SVG units per pixel on a desktop (a bot about 50 px
      // across), 1.3 on a phone (about 33 px); again when the panel's width changes.
      const readable = () => {
        const r = this.svg.getBoundingClientRect();
        if (r.width) this.zoom.zoomTo(Math.min(full[2], r.width * (r.width < 600 ? 1.3 : 0.8)));
      };
      requestAnimationFrame(() => { if (this.view && this.view.phase === 'over') return; readable(); this.zoom.setFollow(true); this.followMine(0); });
      let width = 0;
      this.resizer = new ResizeObserver(([e]) => {
        const w = Math.round(e.contentRect.width);
        if (width && w !== width && this.zoom.following) { readable(); this.followMine(0); }
        width = w;
      });
      this.resizer.observe(this.svg);
    }
  }

  /** Keep my bot in view (the zoom follows it when following is on). */
  followMine(ms = 250, at) {
    if (!this.zoom || !this.view) return;
    const b = this.view.bots.find((x) => this.mine(x.seat) && x.at);
    const p = at || (b && hexOf(b.at));
    if (p) this.zoom.track(centre(p, SIZE), ms);
  }

  /** Highlight what a log line is about (web/ui/log.js): hexes and bots. */
  highlight(focus) {
    if (!this.gHl) return;
    clear(this.gHl);
    if (!focus) return;
    for (const hx of focus.hexes || []) this.gHl.append(s('polygon.log-hl', { points: polygon(corners(hexOf(hx), SIZE, SIZE * 0.95)), 'data-hl': key(hexOf(hx)) }));
    for (const seat of focus.seats || []) {
      const el = this.botEls.get(seat);
      if (el && el.dataset.at) this.gHl.append(s('circle.log-hl', { cx: centre(el.dataset.at.split(',').map(Number), SIZE)[0], cy: centre(el.dataset.at.split(',').map(Number), SIZE)[1], r: SIZE * 0.95, 'data-hl-seat': seat }));
    }
  }

  /** What an event is about on the board, for the log's highlighting. */
  focusOf(ev) {
    const hexes = [];
    for (const k of ['from', 'to', 'at']) if (ev[k] !== undefined && ev[k] !== null && typeof ev[k] === 'object') hexes.push(hexOf(ev[k]));
    const seats = [];
    if (ev.seat !== undefined) seats.push(ev.seat);
    if (ev.target !== undefined) seats.push(ev.target);
    return hexes.length || seats.length ? { hexes, seats } : null;
  }

  placeBot(el, at, facing) {
    const [x, y] = centre(at, SIZE);
    el.setAttribute('transform', `translate(${x},${y})`);
    el.querySelector('.rot').setAttribute('transform', `rotate(${facing * 60})`);
    el.dataset.at = key(at);
    el.dataset.facing = facing;
  }

  render(view) {
    this.view = view;
    delete this.ctx.board.dataset.animating;
    this.ensureBoard(view);
    clear(this.gObs);
    for (const o of view.obstacles) this.gObs.append(obstacleShape(o));
    clear(this.gBots);
    this.botEls.clear();
    for (const b of view.bots) {
      if (!b.at) continue;
      const el = s('g.bb-bot', { 'data-seat': b.seat, class: `${this.mine(b.seat) ? 'me' : ''} ${view.to_act === b.seat ? 'acting' : ''}`, style: `--car: var(--seat${b.seat % 8})` }, botShape(b.seat));
      this.placeBot(el, hexOf(b.at), b.facing);
      const [x, y] = centre(hexOf(b.at), SIZE);
      this.gBots.append(el, s('text.bb-speed', { x: x + SIZE * 0.45, y: y - SIZE * 0.35, 'data-speed-of': b.seat }, `${b.reverse ? 'R' : ''}${b.speed}`));
      this.botEls.set(b.seat, el);
    }
    this.drawOrder(view);
    this.renderPlayers(view);
    this.renderControls();
    // The race over: the whole track with every bot (following stops).
    if (view.phase === 'over' && this.zoom && this.zoom.following && !this.overShown) { this.overShown = true; this.zoom.setFollow(false); this.zoom.fit(); }
    this.followMine(0);
  }

  drawOrder(view, active) {
    clear(this.orderBar).append(h('b', `Round ${view.round} · ${view.laps_to_run} lap${view.laps_to_run === 1 ? '' : 's'} · order: `),
      ...view.order.map((seat, i) => h('span.bb-chip', { class: (active ?? view.to_act) === seat ? 'now' : '', style: { '--car': `var(--seat${seat % 8})` } }, `${i + 1}. ${this.names(seat)}`)));
  }

  renderPlayers(view) {
    this.playersList('Bots', view.bots.map((b) => ({
      seat: b.seat,
      colour: b.seat % 8,
      stats: [
        h('span', { 'data-laps': b.laps }, `lap ${Math.max(0, b.laps)}/${view.laps_to_run}`),
        ` · speed ${b.reverse ? 'reverse ' : ''}${b.speed}`,
        ` · ${DIR_NAMES[b.facing]}`,
        ` · cards ${b.cards ? b.cards.map((c) => CARD[c] || c).join(', ') || 'none' : b.card_count}`,
        b.finished_place ? h('span.badge', `${b.finished_place}. place`) : null,
      ],
    })));
  }

  statusText(view, w) {
    if (view.phase === 'over') return { text: `Race over${view.ranking.length ? `: ${this.names(view.ranking[0].seat)} wins` : ''}` };
    const me = w.find((x) => this.mine(x));
    const what = { speed: 'choose your speed', move: 'move', shock_choice: 'push or turn', orient: 'orient your bot', magnet: 'use the Magnet?', pick_cards: 'pick a card' }[view.phase] || 'decide';
    if (me !== undefined) return { text: `Round ${view.round} · your turn: ${what}`, tone: 'mine' };
    if (w.length) return { text: `Round ${view.round} · ${this.names(w[0])}: ${what}` };
    return { text: `Round ${view.round}` };
  }

  idleControls(box, view) {
    box.hidden = !view.bots.some((b) => this.mine(b.seat)) || view.phase === 'over';
    box.append(h('p.hint', 'Waiting…'));
  }

  decisionControls(box, view, seat) {
    const b = this.bot(seat);
    const act = (a) => this.ctx.act(a, seat);
    const cards = (b.cards || []);
    if (view.phase === 'speed') {
      box.append(h('div.pick-title', h('b', `Speed (now ${b.reverse ? 'reverse ' : ''}${b.speed})`)));
      box.append(h('div.actions', [
        ...SPEED.map(([c, l], i) => h('button.btn', { type: 'button', 'data-speed': c, onclick: () => act({ type: 'speed', choice: c }) }, `${l} (${i + 1})`)),
        h('button.btn', { type: 'button', 'data-speed': 'reverse1', onclick: () => act({ type: 'speed', choice: 'reverse', new_speed: 1 }) }, 'Reverse 1'),
        h('button.btn', { type: 'button', 'data-speed': 'reverse2', onclick: () => act({ type: 'speed', choice: 'reverse', new_speed: 2 }) }, 'Reverse 2'),
      ]));
      if (cards.length) {
        // A tuning card is played before the speed choice (BB-9); the engine checks it.
        const jumpAt = h('select.jump-at', { 'aria-label': 'Leap after how many cells' }, [0, 1, 2, 3, 4, 5, 6].map((n) => h('option', { value: n }, `after ${n}`)));
        const others = view.bots.filter((o) => o.seat !== seat && o.at);
        const buttons = [];
        for (const c of new Set(cards)) {
          if (c === 'nitro' || c === 'engine') buttons.push(h('button.btn.small', { type: 'button', 'data-card': c, onclick: () => act({ type: 'card', card: c }) }, CARD[c]));
          else if (c === 'jumper') buttons.push(h('span.card-play', [h('button.btn.small', { type: 'button', 'data-card': c, onclick: () => act({ type: 'card', card: c, at_cell: Number(jumpAt.value) }) }, 'Jumper'), jumpAt]));
          else if (c === 'rotation') buttons.push(...[-1, 1].map((tn) => h('button.btn.small', { type: 'button', 'data-card': c, onclick: () => act({ type: 'card', card: c, rotations: [{ at_cell: 0, turn: tn }] }) }, `Quick rotation ${TURN[tn]}`)));
          else if (c === 'magnet') buttons.push(...others.map((o) => h('button.btn.small', { type: 'button', 'data-card': c, onclick: () => act({ type: 'card', card: c, target: o.seat, when: 'start' }) }, `Magnet → ${this.names(o.seat)}`)));
        }
        box.append(h('div.pick-title', h('b', 'Tuning cards (before the speed)')), h('div.actions.cards-row', buttons));
      }
    } else if (view.phase === 'move') {
      const row = (label, k) => h('div.actions', [h('span.hint', label), ...[-1, 0, 1].map((t) => h('button.btn.small', { type: 'button', class: this.sel[k] === t ? 'on' : '', 'data-rot': `${k}:${t}`, onclick: () => { this.sel[k] = t; this.renderControls(); } }, TURN[t]))]);
      const cells = view.move_cells ?? b.speed;
      box.append(h('div.pick-title', h('b', `Move ${cells} cell${cells === 1 ? '' : 's'}`)), row('Before the last cell: ', 'before'), row('After the move: ', 'after'));
      box.append(h('button.btn.primary#do-move', { type: 'button', onclick: async () => { if (await act({ type: 'move', rotate_before_last: this.sel.before, rotate_after: this.sel.after })) this.sel = { before: 0, after: 0 }; } }, 'Move (Enter)'));
    } else if (view.phase === 'orient') {
      box.append(h('div.pick-title', h('b', 'After the collision: turn once?')), h('div.actions', [-1, 0, 1].map((t) => h('button.btn', { type: 'button', 'data-orient': t, onclick: () => act({ type: 'orient', turn: t }) }, t === 0 ? 'No turn' : TURN[t]))));
    } else if (view.phase === 'shock_choice') {
      this.shockControls(box, view, seat);
    } else if (view.phase === 'magnet') {
      const others = view.bots.filter((o) => o.seat !== seat && o.at);
      box.append(h('div.pick-title', h('b', 'Use the Magnet?')), h('div.actions', [
        h('button.btn#magnet-no', { type: 'button', 'data-magnet': 'no', onclick: () => act({ type: 'card', card: null }) }, 'No'),
        ...others.map((o) => h('button.btn.small', { type: 'button', 'data-magnet': o.seat, onclick: () => act({ type: 'card', card: 'magnet', target: o.seat, when: 'end' }) }, `Pull to ${this.names(o.seat)}`)),
      ]));
    } else if (view.phase === 'pick_cards') {
      const offer = this.drawn.get(seat) || ['jumper', 'magnet', 'nitro', 'engine', 'rotation'];
      box.append(h('div.pick-title', h('b', 'Pick a tuning card')), h('div.actions', offer.map((c) => h('button.btn', { type: 'button', 'data-card': c, onclick: () => act({ type: 'card', card: c }) }, CARD[c] || c))));
    } else {
      box.append(h('p.hint', `Decision: ${view.phase}`));
    }
  }

  /** BB-7.4–7.6: for each push cell, push or turn the pushed bot instead; maybe turn the first bot. */
  shockControls(box, view, seat) {
    const sh = view.shock || { pushed: null, turn_cells: 0, turn_first: null };
    const sel = this.shockSel && this.shockSel.round === view.round && this.shockSel.seat === seat && this.shockSel.cells.length === sh.turn_cells ? this.shockSel : { round: view.round, seat, cells: Array(sh.turn_cells).fill(0), first: 0 };
    this.shockSel = sel;
    const choice = (label, zero, value, set, attr) => h('div.actions', [h('span.hint', label), ...[0, -1, 1].map((t) => h('button.btn.small', { type: 'button', class: value === t ? 'on' : '', [attr[0]]: attr[1](t), onclick: () => { set(t); this.renderControls(); } }, t === 0 ? zero : TURN[t]))]);
    box.append(h('div.pick-title', h('b', sh.pushed !== null ? `The shock: push ${this.names(sh.pushed)}, or turn it instead?` : 'The shock')));
    sel.cells.forEach((v, i) => box.append(choice(`Push cell ${i + 1}: `, 'push', v, (t) => { sel.cells[i] = t; }, ['data-shock', (t) => `${i}:${t}`])));
    if (sh.turn_first !== null && sh.turn_first !== undefined) box.append(choice(`Turn ${this.names(sh.turn_first)} (first of the chain): `, 'no turn', sel.first, (t) => { sel.first = t; }, ['data-shock-first', (t) => t]));
    box.append(h('button.btn.primary#shock-go', { type: 'button', onclick: async () => {
      if (await this.ctx.act({ type: 'shock_choice', turn_passive: sel.cells, turn_first: sel.first }, seat)) this.shockSel = null;
    } }, sel.cells.some((t) => t) || sel.first ? 'Confirm' : 'Push (Enter)'));
  }

  onKey(e) {
    if (this.zoom && this.zoom.key(e)) return;
    const tag = this.keyTag(e);
    if (tag === null) return;
    const seat = this.mySeatToAct();
    if (seat === undefined) return;
    if (this.view.phase === 'speed' && /^[1-4]$/.test(e.key)) { e.preventDefault(); this.ctx.act({ type: 'speed', choice: SPEED[Number(e.key) - 1][0] }, seat); }
    else if (this.view.phase === 'move' && e.key === 'Enter' && tag !== 'button') { e.preventDefault(); document.getElementById('do-move')?.click(); }
    else if (this.view.phase === 'shock_choice' && e.key === 'Enter' && tag !== 'button') { e.preventDefault(); document.getElementById('shock-go')?.click(); }
  }

  note(ev) {
    if (ev.type === 'cards_drawn') this.drawn.set(ev.seat, ev.cards);
  }

  /** A place on the track in words (web/games/bumping-bots-words.js). */
  placeOf(a) {
    if (!this.places) this.places = trackPlaces((this.ctx.static && this.ctx.static.track) || { cells: [] }, (x) => centre(hexOf(x), SIZE));
    return this.places(a);
  }

  /** A move in words: how far, which way, and where it ends. */
  moveWords(ev) {
    const [a, b] = [hexOf(ev.from), hexOf(ev.to)];
    const n = hexDistance(a, b);
    const way = directionWord(a, b);
    return `${n} cell${n === 1 ? '' : 's'}${way ? ` ${way}` : ''} to ${this.placeOf(b)}`;
  }

  describe(ev) {
    const R = (x) => this.names(x);
    switch (ev.type) {
      case 'round_started': return `Round ${ev.round}: ${ev.order.map(R).join(', ')} move in this order`;
      case 'cards_drawn': return `Cards drawn: ${ev.cards.map((c) => CARD[c] || c).join(', ')}`;
      case 'card_picked': return `${R(ev.seat)} picks ${CARD[ev.card] || ev.card}`;
      case 'card_played': return `${R(ev.seat)} plays ${CARD[ev.card] || ev.card}`;
      case 'speed_chosen': return `${R(ev.seat)} goes ${ev.reverse ? 'in reverse ' : ''}at speed ${ev.speed}`;
      case 'moved': return null;
      case 'leapt': return `${R(ev.seat)} leaps ${this.moveWords(ev)}`;
      case 'leap_cancelled': return `${R(ev.seat)}'s leap is cancelled`;
      case 'turned': return `${R(ev.seat)} turns to face ${DIR_WORDS[ev.facing]}`;
      case 'collision': return `${R(ev.seat)} hits ${ev.against === 'bot' ? 'a bot' : `a ${ev.against}`} at ${this.placeOf(ev.at)}`;
      case 'speed_lost': return `${R(ev.seat)} slows to ${ev.speed}`;
      case 'pushed': return `${R(ev.seat)} is pushed ${this.moveWords(ev)}`;
      case 'thrown': return `${R(ev.seat)} is thrown by a bumper ${this.moveWords(ev)}`;
      case 'obstacle_moved': return `A ${ev.kind} obstacle moves ${this.moveWords(ev)}`;
      case 'motor_turned': return `The motorised obstacle at ${this.placeOf(ev.at)} turns`;
      case 'motor_blocked': return `The motorised obstacle at ${this.placeOf(ev.at)} is blocked`;
      case 'magnet': return `${R(ev.seat)} pulls itself to ${R(ev.target)}, ${this.moveWords(ev)}`;
      // `laps`: the laps the bot has done after this crossing (BB-10; 0 or less: none yet).
      case 'line_crossed': return ev.forward
        ? `${R(ev.seat)} crosses the line: ${ev.laps >= 1 ? `lap ${ev.laps} done` : 'lap 1 begins'}`
        : `${R(ev.seat)} crosses the line backwards (laps done: ${Math.max(0, ev.laps)})`;
      case 'finished': return `${R(ev.seat)} finishes!`;
      case 'placed': return `${R(ev.seat)} takes place ${ev.place}`;
      case 'race_over': return `Race over: ${ev.ranking.map((g, i) => `${i + 1}. ${g.map(R).join(' & ')}`).join(', ')}`;
      default: return ev.type.replace(/_/g, ' ');
    }
  }

  async play(events, view, log) {
    const epoch = ++this.epoch;
    const fast = this.speedFactor() === 0 || !this.view || !this.svg;
    // The players panel as of the event being animated (the final view only at the end).
    const live = !fast ? JSON.parse(JSON.stringify(this.view)) : null;
    if (!fast) this.ctx.board.dataset.animating = '1';
    for (const ev of events) {
      log(ev);
      this.note(ev);
      if (fast || epoch !== this.epoch) continue;
      if (stepBots(live, ev)) this.renderPlayers(live);
      const el = this.botEls.get(ev.seat);
      switch (ev.type) {
        case 'moved': case 'leapt': case 'pushed': case 'thrown': case 'magnet':
          if (el) {
            this.placeBot(el, hexOf(ev.to), Number(el.dataset.facing));
            const sp = this.gBots.querySelector(`[data-speed-of="${ev.seat}"]`);
            if (sp) { const [x, y] = centre(hexOf(ev.to), SIZE); sp.setAttribute('x', x + SIZE * 0.45); sp.setAttribute('y', y - SIZE * 0.35); }
            if (this.mine(ev.seat)) this.followMine(ev.type === 'moved' ? 150 : 260, hexOf(ev.to));
            await this.wait(ev.type === 'moved' ? 150 : 260);
          }
          break;
        case 'speed_chosen': case 'speed_lost': {
          const sp = this.gBots.querySelector(`[data-speed-of="${ev.seat}"]`);
          if (sp) sp.textContent = `${ev.reverse ? 'R' : ''}${ev.speed}`;
          break;
        }
        case 'turned':
          if (el) { this.placeBot(el, el.dataset.at.split(',').map(Number), ev.facing); await this.wait(150); }
          break;
        case 'collision':
          if (el) { el.classList.add('shake'); await this.wait(300); el.classList.remove('shake'); }
          break;
        case 'line_crossed':
          await this.wait(200);
          break;
        default:
          break;
      }
    }
    if (epoch !== this.epoch) return;
    this.render(view);
  }
}

export default {
  name: 'bumping-bots',
  title: 'Bumping Bots',
  // The result's columns (web/ui/results.js): the score is the race points (BB-11).
  scoreLabel: 'Points',
  resultColumns: (view) => [{ label: 'Laps', of: (seat) => Math.max(0, (view.bots.find((b) => b.seat === seat) || {}).laps ?? 0) }],
  // The lobby's picture of a track (`boards`: the server's list, GET /api/kinds).
  boardPreview(id, boards) {
    return boardPreview('track', boards, id, (seen, b) => {
      const svg = s('svg.bb-track', { role: 'img', 'aria-label': b.title });
      const g = s('g');
      const cells = drawTrack(seen, g);
      for (const o of seen.obstacles || []) g.append(obstacleShape(o));
      const [x, y, w, hh] = bounds(cells, SIZE, 6);
      svg.setAttribute('viewBox', `${x} ${y} ${w} ${hh}`);
      svg.append(g);
      return svg;
    });
  },
  createTable: (ctx) => new BumpingBotsTable(ctx),
};
