// RoboRally's table: the course in SVG from the game's static part (belts with arrows, pushers,
// gears, lasers, flags, pits, walls, docks), robots with facing, flags and archive markers;
// the hand of cards clicked (or typed) into five registers, locked registers, power down, submit;
// the registers resolved step by step from the events; re-entry by clicking a cell and a facing;
// the stay-down choice; the option questions. Every control comes from the engine's listing in
// the seat's own view (`choices`, crates/roborally/src/choices.rs, docs/protocol.md "Choices"):
// the cards each register takes, the locked registers, how many must be filled, whether a power
// down may be announced, the option uses, the re-entry cells and facings, the answers to a
// question — no rule is decided here. The program being placed is previewed from the engine's
// `preview` (ghost robots per register, the path, falls), other robots assumed absent.

import { h, s, clear } from '../dom.js';
import { SeatTable, rememberBoard, boardPreview } from '../ui/seat-table.js';
import { Zoom, foldOnPhone } from '../ui/zoom.js';
import { squareName, stepRobots } from './roborally-words.js';

const S = 40;
const STEP = [[0, -1], [1, 0], [0, 1], [-1, 0]];
const DIR = ['north', 'east', 'south', 'west'];
const ARROW = ['↑', '→', '↓', '←'];
const CARD = {
  locked: 'Locked',
  uturn: 'U-turn', left: 'Turn left', right: 'Turn right', backup: 'Back up', move1: 'Move 1', move2: 'Move 2', move3: 'Move 3',
};
const CARD_ICON = { uturn: '⟲', left: '↶', right: '↷', backup: '⇩', move1: '1', move2: '2', move3: '3' };

const optionName = (o) => String(o).replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
const cardText = (c) => (c ? `${CARD[c.card] || c.card} (${c.priority})` : '—');
const Robot = (seat) => `Robot ${seat + 1}`;
const sq = (a) => `[${a[0]},${a[1]}]`;

/** A `use_option` action in words (the option card and what it names). */
function useLabel(a) {
  const n = optionName(a.option);
  if (a.destroy) return `${n}: destroy its ${optionName(a.destroy)}`;
  if (a.card && a.register) return `${n}: ${cardText(a.card)} with register ${a.register}`;
  if (a.register && a.option === 'fire_control') return `${n}: jam register ${a.register}`;
  if (a.register) return `${n}: take back the card of register ${a.register}`;
  if (a.card) return `${n}: put ${cardText(a.card)} on it`;
  return `Use ${n}`;
}

// ---------- the course ----------

function cellAt(b, x, y) {
  if (x < 0 || y < 0 || x >= b.width || y >= b.height) return { kind: 'void' };
  return b.cells[y * b.width + x];
}
const wallAt = (b, x, y, d) => (x >= 0 && y >= 0 && x < b.width && y < b.height ? (b.walls[y * b.width + x] & (1 << d)) !== 0 : false);

function arrowPath(cx, cy, d, len, express) {
  // An arrow pointing north, rotated to `d`.
  const k = len / 2;
  const pts = express ? `M -8 ${k - 6} L 0 ${k - 14} L 8 ${k - 6} M -8 ${-2} L 0 ${-10} L 8 ${-2}` : `M 0 ${k} L 0 ${-k} M -7 ${-k + 8} L 0 ${-k} L 7 ${-k + 8}`;
  return s('path.belt-arrow', { d: pts, transform: `translate(${cx},${cy}) rotate(${d * 90})` });
}

/** The course as SVG groups (cells, walls, lasers, flags, docks). */
export function drawCourse(b, g) {
  for (let y = 0; y < b.height; y++) {
    for (let x = 0; x < b.width; x++) {
      const c = b.cells[y * b.width + x];
      if (!c || c.kind === 'void') continue;
      const X = x * S, Y = y * S, cx = X + S / 2, cy = Y + S / 2;
      const cls = `cell ${c.kind}${c.express ? ' express' : ''}`;
      const help = c.kind === 'belt' ? (c.express ? 'element:express' : 'element:belt') : c.kind === 'floor' ? undefined : `element:${c.kind}`;
      g.append(s('rect', { class: cls, x: X, y: Y, width: S, height: S, 'data-cell': `${x},${y}`, 'data-help': help }));
      if (c.kind === 'belt') {
        g.append(arrowPath(cx, cy, c.dir, S * 0.7, c.express));
        if (c.from !== null && c.from !== undefined) g.append(s('circle.belt-turn', { cx: cx + STEP[c.from][0] * 12, cy: cy + STEP[c.from][1] * 12, r: 3 }));
      } else if (c.kind === 'pusher') {
        const [dx, dy] = STEP[c.side];
        const regs = [0, 1, 2, 3, 4].filter((r) => c.registers & (1 << r)).map((r) => r + 1).join(' ');
        g.append(s('rect.pusher-bar', { x: cx + dx * (S / 2 - 4) - (dy ? S / 2 - 4 : 3), y: cy + dy * (S / 2 - 4) - (dx ? S / 2 - 4 : 3), width: dy ? S - 8 : 6, height: dx ? S - 8 : 6 }));
        g.append(s('text.cell-label', { x: cx, y: cy + 4, 'text-anchor': 'middle' }, regs));
      } else if (c.kind === 'gear') {
        g.append(s('circle.gear', { cx, cy, r: S * 0.32 }));
        g.append(s('text.gear-label', { x: cx, y: cy + 6, 'text-anchor': 'middle' }, c.turn === 'left' ? '↺' : '↻'));
      } else if (c.kind === 'repair' || c.kind === 'repair_option') {
        g.append(s('text.cell-label.repair-label', { x: cx, y: cy + 5, 'text-anchor': 'middle' }, c.kind === 'repair' ? 'R' : 'R+'));
      }
    }
  }
  for (const l of b.lasers) {
    let [x, y] = l.at;
    while (!wallAt(b, x, y, l.dir) && cellAt(b, x + STEP[l.dir][0], y + STEP[l.dir][1]).kind !== 'void') { x += STEP[l.dir][0]; y += STEP[l.dir][1]; }
    const [ax, ay] = [l.at[0] * S + S / 2, l.at[1] * S + S / 2];
    g.append(s('line.laser-beam', { x1: ax, y1: ay, x2: x * S + S / 2, y2: y * S + S / 2, 'stroke-width': 1 + l.beams }));
    const [dx, dy] = STEP[l.dir];
    g.append(s('rect.laser-emitter', { 'data-help': 'element:laser', x: ax - dx * S / 2 - 5, y: ay - dy * S / 2 - 5, width: 10, height: 10 }));
  }
  for (let y = 0; y < b.height; y++) {
    for (let x = 0; x < b.width; x++) {
      for (let d = 0; d < 4; d++) {
        if (!wallAt(b, x, y, d)) continue;
        const X = x * S, Y = y * S;
        const seg = [[X, Y, X + S, Y], [X + S, Y, X + S, Y + S], [X, Y + S, X + S, Y + S], [X, Y, X, Y + S]][d];
        g.append(s('line.wall', { x1: seg[0], y1: seg[1], x2: seg[2], y2: seg[3] }));
      }
    }
  }
  for (const d of b.docks) {
    g.append(s('text.dock', { x: d.at[0] * S + S / 2, y: d.at[1] * S + S / 2 + 6, 'text-anchor': 'middle' }, String(d.number)));
  }
  b.flags.forEach((f, i) => {
    // A flag on a pole: the base disc marks the cell's centre, the pennant carries its number.
    const x = f[0] * S + S / 2, y = f[1] * S + S / 2;
    g.append(s('g.flag', { 'data-flag': i + 1, 'data-help': 'element:flag' }, [
      s('circle.flag-base', { cx: x, cy: y, r: 5 }),
      s('line.flag-pole', { x1: x - 8, y1: y + 14, x2: x - 8, y2: y - 16 }),
      s('ellipse.flag-foot', { cx: x - 8, cy: y + 14, rx: 6, ry: 2.5 }),
      s('path.flag-cloth', { d: `M ${x - 8} ${y - 16} L ${x + 14} ${y - 9} L ${x - 8} ${y - 1} Z` }),
      s('text.flag-num', { x: x + 1, y: y - 5, 'text-anchor': 'middle' }, String(i + 1)),
    ]));
  });
}

/** A robot seen from above, facing north before rotation: treads on both sides, a body, a
 * visor and a big arrow in front, so its facing reads at a glance. */
function robotShape(seat) {
  const w = S * 0.62, l = S * 0.6;
  return [
    s('g.rot', [
      s('rect.tread', { x: -w / 2 - 3, y: -l / 2 + 2, width: 6, height: l - 4, rx: 2 }),
      s('rect.tread', { x: w / 2 - 3, y: -l / 2 + 2, width: 6, height: l - 4, rx: 2 }),
      s('rect.body', { x: -w / 2 + 3, y: -l / 2, width: w - 6, height: l, rx: 5 }),
      s('rect.visor', { x: -w / 2 + 7, y: -l / 2 + 3, width: w - 14, height: 5, rx: 2 }),
      s('polygon.nose', { points: `0,${-S * 0.52} ${-S * 0.17},${-S * 0.3} ${S * 0.17},${-S * 0.3}` }),
    ]),
    s('text.rnum', { y: 6, 'text-anchor': 'middle' }, String(seat + 1)),
  ];
}

/** The legend of the course's elements, each drawn by `drawCourse` on a board of one cell. */
export function courseLegend() {
  const one = (cell, extra = {}) => ({ width: 1, height: 1, cells: [cell], walls: [extra.wall || 0], lasers: extra.lasers || [], docks: extra.docks || [], flags: extra.flags || [] });
  // Words only; each line explains itself (data-help: the game crate's rule book, with its
  // rule number as a link into the rules page).
  const items = [
    ['R — repair site', one({ kind: 'repair' }), 'element:repair'],
    ['R+ — double repair site', one({ kind: 'repair_option' }), 'element:repair_option'],
    ['Conveyor belt', one({ kind: 'belt', dir: 1 }), 'element:belt'],
    ['Express belt', one({ kind: 'belt', dir: 1, express: true }), 'element:express'],
    ['Pusher, with the registers it pushes in', one({ kind: 'pusher', side: 3, registers: 0b10101 }), 'element:pusher'],
    ['Gear', one({ kind: 'gear', turn: 'right' }), 'element:gear'],
    ['Pit', one({ kind: 'pit' }), 'element:pit'],
    ['Board laser', one({ kind: 'floor' }, { lasers: [{ at: [0, 0], dir: 1, beams: 1 }] }), 'element:laser'],
    ['Wall', one({ kind: 'floor' }, { wall: 0b0010 }), 'element:wall'],
    ['Flag and its number', one({ kind: 'floor' }, { flags: [[0, 0]] }), 'element:flag'],
    ['Start dock and its number', one({ kind: 'floor' }, { docks: [{ at: [0, 0], number: 1 }] }), 'element:dock'],
  ];
  const robot = s('svg.course-key.legend-swatch', { viewBox: `-4 -4 ${S + 8} ${S + 8}`, 'aria-hidden': 'true' }, [
    s('rect.cell.floor', { x: 0, y: 0, width: S, height: S }),
    s('g.robot', { transform: `translate(${S / 2},${S / 2})`, style: '--car: var(--seat0)' }, robotShape(0)),
  ]);
  return foldOnPhone(h('details.rr-legend', { 'data-testid': 'legend' }, [
    h('summary', 'Legend'),
    h('ul', [
      ...items.map(([label, b, help]) => {
        const g = s('g');
        drawCourse(b, g);
        return h('li', { 'data-help': help, tabindex: 0 }, [s('svg.course-key.legend-swatch', { viewBox: `-4 -4 ${S + 8} ${S + 8}`, 'aria-hidden': 'true' }, [g]), h('span', label)]);
      }),
      h('li', { 'data-help': 'element:robot', tabindex: 0 }, [robot, h('span', 'Robot: its number is its seat; the arrow is where it faces')]),
    ]),
  ]));
}

// ---------- the table ----------

class RoboRallyTable extends SeatTable {
  constructor(ctx) {
    super(ctx);
    this.sel = { turn: -1, regs: [null, null, null, null, null], powerDown: false, reenter: null, poweredDown: false };
    this.robotEls = new Map();
  }

  mySeat() { return (this.ctx.mySeats || [])[0]; }
  /** The course: the game's static part (sent once per game), never inside a view. */
  board() { return this.ctx.static.board; }
  robot(view, seat) { return (view || this.view).robots.find((r) => r.seat === seat); }

  ensureBoard(view) {
    if (this.svg) return;
    const b = this.board();
    const full = [-4, -4, b.width * S + 8, b.height * S + 8];
    this.svg = s('svg.course', { viewBox: full.join(' '), role: 'img', 'aria-label': 'The course', style: `aspect-ratio: ${full[2]} / ${full[3]}` });
    this.gCourse = s('g.course-cells');
    this.gMarks = s('g.marks');
    this.gPick = s('g.picks');
    this.gRobots = s('g.robots');
    this.gPreview = s('g.rr-preview', { 'data-testid': 'program-preview' });
    this.gFx = s('g.fx');
    drawCourse(b, this.gCourse);
    // Remembered for the lobby's preview (the server serves no course pictures).
    rememberBoard('course', this.ctx.setup && typeof this.ctx.setup.board === 'string' ? this.ctx.setup.board : null, b);
    this.gHl = s('g.hl');
    this.svg.append(this.gCourse, this.gMarks, this.gHl, this.gPreview, this.gRobots, this.gPick, this.gFx);
    this.svg.addEventListener('click', (e) => this.onBoardClick(e));
    // The whole course fits its panel; zoom and pan for a closer look (web/ui/zoom.js).
    this.zoom = new Zoom(this.svg, full, { name: 'Whole course', minWidth: S * 4 });
    this.strip = h('div.reveal-strip', { 'aria-label': 'Revealed cards' });
    clear(this.ctx.board).append(h('div.rr-board', [this.zoom.el, this.svg]), this.strip, courseLegend());
  }

  /** Highlight what a log line is about (web/ui/log.js): squares and robots. */
  highlight(focus) {
    if (!this.gHl) return;
    clear(this.gHl);
    if (!focus) return;
    for (const [x, y] of focus.squares || []) this.gHl.append(s('rect.log-hl', { x: x * S + 1, y: y * S + 1, width: S - 2, height: S - 2, 'data-hl': `${x},${y}` }));
    for (const seat of focus.seats || []) {
      const el = this.robotEls.get(seat);
      if (el && el.dataset.at) { const [x, y] = el.dataset.at.split(',').map(Number); this.gHl.append(s('circle.log-hl', { cx: x * S + S / 2, cy: y * S + S / 2, r: S * 0.6, 'data-hl-seat': seat })); }
    }
  }

  /** What an event is about on the board, for the log's highlighting. */
  focusOf(ev) {
    const squares = [];
    for (const k of ['from', 'to', 'at']) if (Array.isArray(ev[k])) squares.push(ev[k]);
    if (ev.type === 'flag_touched') { const f = this.board().flags[ev.flag - 1]; if (f) squares.push(f); }
    const seats = ev.seat !== undefined ? [ev.seat] : [];
    if (ev.by && typeof ev.by === 'object' && ev.by.board) squares.push(ev.by.board.at);
    return squares.length || seats.length ? { squares, seats } : null;
  }

  placeRobot(el, at, facing) {
    el.setAttribute('transform', `translate(${at[0] * S + S / 2},${at[1] * S + S / 2})`);
    el.querySelector('.rot').setAttribute('transform', `rotate(${facing * 90})`);
    el.dataset.at = `${at[0]},${at[1]}`;
    el.dataset.facing = facing;
  }

  drawRobots(view) {
    clear(this.gRobots); clear(this.gMarks);
    this.robotEls.clear();
    for (const r of view.robots) {
      this.gMarks.append(s('rect.archive', { x: r.archive[0] * S + 3, y: r.archive[1] * S + 3, width: S - 6, height: S - 6, style: `stroke: var(--seat${r.seat})`, 'data-archive': r.seat }));
      if (!r.at) continue;
      const el = s('g.robot', { 'data-seat': r.seat, class: `${r.powered_down ? 'down' : ''} ${this.mine(r.seat) ? 'me' : ''}`, style: `--car: var(--seat${r.seat})` }, robotShape(r.seat));
      this.placeRobot(el, r.at, r.facing);
      this.gRobots.append(el);
      this.robotEls.set(r.seat, el);
    }
  }

  render(view) {
    this.view = view;
    delete this.ctx.board.dataset.animating;
    this.ensureBoard(view);
    if (this.sel.turn !== view.turn) {
      // RR-4.3: the draft the engine holds for me (after a reload, the cards I had placed).
      const mine = view.robots.find((r) => this.mine(r.seat) && r.draft);
      const regs = mine ? mine.draft.map((c) => c || null) : [null, null, null, null, null];
      this.sel = { turn: view.turn, regs, powerDown: false, reenter: null, poweredDown: false };
    }
    this.drawRobots(view);
    clear(this.gPreview);
    this.ctx.board.dataset.turn = view.turn;
    this.drawStrip(view);
    this.renderPlayers(view);
    this.renderControls();
  }

  drawStrip(view) {
    clear(this.strip);
    const reg = view.register;
    this.strip.append(h('span.turn-no', [h('b', `Turn ${view.turn}`), reg ? ` · register ${reg}` : '']));
    for (const r of view.robots) {
      const k = reg ? reg - 1 : -1;
      const rv = k >= 0 ? r.registers[k] : null;
      if (rv && rv.kind === 'card') this.strip.append(h('span.rev-card', { style: { '--car': `var(--seat${r.seat})` } }, `${r.seat + 1}: ${cardText(rv.card)}`));
    }
  }

  renderPlayers(view) {
    const flags = this.board().flags.length;
    this.playersList('Robots', view.robots.map((r) => ({
      seat: r.seat,
      stats: [
        h('span', { title: 'Flags touched', 'data-flags': r.flags_touched }, `⚑ ${r.flags_touched}/${flags}`),
        h('span', { title: 'Damage', 'data-damage': r.damage, 'data-help': 'badge:damage' }, ` · ✖ ${r.damage}`),
        h('span', { title: 'Lives', 'data-lives': r.lives, 'data-help': 'badge:lives' }, ` · ♥ ${r.lives}`),
        r.powered_down ? h('span.badge', 'powered down') : null,
        r.destroyed ? h('span.badge', 'destroyed') : null,
        r.out ? h('span.badge', 'out') : null,
        r.finished ? h('span.badge', 'finished') : null,
        ...(r.options || []).map((o) => h('span.badge.option', { 'data-option': o, 'data-help': `option:${o}`, tabindex: 0 }, optionName(o))),
      ],
      extra: h('span.regs', r.registers.map((rv, k) => h('span.reg-mini', { class: `k-${rv.kind}${r.locked_registers.includes(k + 1) ? ' locked' : ''}`, title: rv.kind === 'card' ? cardText(rv.card) : rv.kind }, rv.kind === 'card' ? CARD_ICON[rv.card.card] : rv.kind === 'hidden' ? '▮' : '·'))),
    })));
  }

  statusText(view, w) {
    if (view.phase === 'over') {
      return { text: view.winner !== null && view.winner !== undefined ? `Game over: ${this.names(view.winner)} wins` : 'Game over' };
    }
    const me = w.filter((x) => this.mine(x));
    if (me.length) {
      const asked = view.choices ? ['use_option', 'discard_option'].includes(view.choices.kind) : !!view.question;
      const t = asked ? 'Answer the option card question' : { program: 'Program your registers', stay_down: 'Stay powered down?', reenter: 'Choose where your robot re-enters', execute: 'Decide about your option card' }[view.phase] || 'Your move';
      return { text: `Turn ${view.turn} · ${t}`, tone: 'mine' };
    }
    if (w.length) return { text: `Turn ${view.turn} · waiting for ${w.map((x) => this.names(x)).join(', ')}` };
    return { text: `Turn ${view.turn}` };
  }

  // ---- controls ----
  idleControls(box, view) {
    const me = this.robot(view, this.mySeat());
    box.hidden = !me || view.phase === 'over';
    if (me && me.hand && view.phase === 'program') box.append(h('p.hint', 'Program sent. Waiting for the other robots…'));
    else if (me) box.append(h('p.hint', 'Waiting…'));
  }

  decisionControls(box, view, seat) {
    const r = this.robot(view, seat);
    // The kind of decision is the engine's (`choices.kind`): while one seat answers a question
    // during programming (Recompile's damage, RR-7.4), the others go on programming.
    const kind = view.choices ? view.choices.kind : view.question ? 'use_option' : view.phase;
    if (kind === 'use_option' || kind === 'discard_option') this.optionControls(box, r);
    else if (kind === 'program') this.programControls(box, r);
    else if (kind === 'stay_down') {
      const ch = this.choices('stay_down');
      box.append(h('div.pick-title', h('b', 'Your robot is powered down. Stay down another turn?')), h('div.actions', (ch ? ch.actions : []).map((a) => (a.value
        ? h('button.btn.primary#stay-down', { type: 'button', 'data-action': JSON.stringify(a), onclick: () => this.ctx.act(a, seat) }, 'Stay down')
        : h('button.btn#power-up', { type: 'button', 'data-action': JSON.stringify(a), onclick: () => this.ctx.act(a, seat) }, 'Power up')))));
    } else if (kind === 'reenter') this.reenterControls(box, r);
    else this.optionControls(box, r);
  }

  /** The engine's listing for my decision now, if it is of `kind` (docs/protocol.md "Choices"). */
  choices(kind) {
    const c = this.view && this.view.choices;
    return c && c.kind === kind ? c : null;
  }

  programControls(box, r) {
    const ch = this.choices('program');
    if (!ch) { box.append(h('p.hint', 'Waiting for the game…')); return; }
    const regs = this.sel.regs;
    const used = new Set(regs.filter(Boolean).map((c) => c.priority));
    const fits = (c) => ch.registers.some((x, k) => !x.locked && !regs[k] && x.cards.some((y) => y.priority === c.priority));
    box.append(h('div.pick-title', [h('b', 'Your hand'), h('span.hint', ' click a card (or type 1–9) to fill the next register; Backspace takes one back')]));
    box.append(h('div.hand', ch.hand.map((c, i) => h('button.card', {
      type: 'button', 'data-card': c.card, 'data-priority': c.priority, 'data-help': `card:${c.card}`,
      disabled: (ch.distinct && used.has(c.priority)) || !fits(c) || undefined,
      title: cardText(c), onclick: () => this.pickCard(c),
    }, [h('span.ck', `${i + 1}`), h('span.ci', CARD_ICON[c.card]), h('span.cn', CARD[c.card]), h('span.cp', String(c.priority))]))));
    box.append(h('div.pick-title', h('b', 'Registers')));
    box.append(h('div.registers', ch.registers.map((x, k) => {
      if (x.locked) {
        const c = x.card || { card: 'locked', priority: '' };
        return h('div.register.locked', { 'data-register': k + 1, 'data-help': 'badge:locked', title: x.card ? `Locked by damage: ${cardText(c)} stays` : 'Locked by damage: filled from the deck' }, [h('span.rk', `${k + 1} locked`), h('span.cn', CARD[c.card]), h('span.cp', String(c.priority))]);
      }
      const c = regs[k];
      return h('button.register', { type: 'button', 'data-register': k + 1, class: c ? 'filled' : 'empty', onclick: () => this.setRegister(k, null) },
        [h('span.rk', String(k + 1)), c ? h('span.cn', CARD[c.card]) : h('span.cn', '—'), c ? h('span.cp', String(c.priority)) : null]);
    })));
    const filled = ch.registers.filter((x, k) => !x.locked && regs[k]).length;
    const ready = filled >= ch.fill;
    box.append(h('div.actions', [
      // RR-4.4: the engine says whether a power down may be announced (only a damaged robot).
      h('label.check', { title: ch.power_down ? 'Repair all damage by sitting out the next turn' : 'Only a damaged robot may power down', 'data-help': 'RR-4.4' }, [h('input#power-down', { type: 'checkbox', checked: (ch.power_down && this.sel.powerDown) || undefined, disabled: !ch.power_down || undefined, onchange: (e) => { this.sel.powerDown = e.target.checked; } }), ' Power down next turn (P)']),
      h('button.btn.primary#submit-program', { type: 'button', disabled: !ready || undefined, onclick: () => this.submit() }, 'Submit program (Enter)'),
    ]));
    if (ch.options && ch.options.length) {
      box.append(h('div.pick-title', h('b', 'Option cards')), h('div.actions.program-options', ch.options.map((a) => h('button.btn.small', {
        type: 'button', 'data-action': JSON.stringify(a), 'data-option': a.option, 'data-help': `option:${a.option}`,
        onclick: () => this.ctx.act(a, r.seat),
      }, useLabel(a)))));
    }
    box.append(this.previewText(ch.preview));
    this.drawPreview(ch.preview, r.seat);
  }

  /** The engine's preview of the program placed so far, in words (the assumption said). */
  previewText(p) {
    const regs = (p && p.registers) || [];
    const line = (x) => {
      const fall = x.falls && squareName(this.board(), x.falls);
      const at = x.end ? `${squareName(this.board(), x.end.at)}, facing ${DIR[x.end.facing]}` : fall === 'the edge of the board' ? 'falls off the board' : `falls into ${fall}`;
      return h('li', { 'data-preview-register': x.register }, `${CARD[x.card.card]} → ${at}${x.laser_damage ? ` · ${x.laser_damage} laser damage` : ''}`);
    };
    return h('div.rr-preview-text', { 'data-testid': 'preview-text' }, [
      h('div.pick-title', [h('b', 'Preview'), h('span.hint', ' if no robot is in the way (other robots may push or block yours)')]),
      regs.length ? h('ol', regs.map(line)) : h('p.hint', 'Place cards to see where your robot goes.'),
    ]);
  }

  /** Ghost robots on the course: one per register previewed, the path, a cross where it falls. */
  drawPreview(p, seat) {
    if (!this.gPreview) return;
    clear(this.gPreview);
    if (!p || !p.start) return;
    const c = (a) => `${a[0] * S + S / 2},${a[1] * S + S / 2}`;
    const pts = [c(p.start.at)];
    for (const x of p.registers) {
      for (const at of x.path) pts.push(c(at));
      if (x.end) {
        const g = s('g.robot.ghost-robot', { 'data-preview-register': x.register, 'data-at': `${x.end.at[0]},${x.end.at[1]}`, 'data-facing': x.end.facing, style: `--car: var(--seat${seat})` }, robotShape(seat));
        g.setAttribute('transform', `translate(${x.end.at[0] * S + S / 2},${x.end.at[1] * S + S / 2})`);
        g.querySelector('.rot').setAttribute('transform', `rotate(${x.end.facing * 90})`);
        g.querySelector('.rnum').textContent = String(x.register);
        this.gPreview.append(g);
      } else if (x.falls) {
        const [X, Y] = [x.falls[0] * S + S / 2, x.falls[1] * S + S / 2];
        this.gPreview.append(s('path.preview-fall', { 'data-preview-fall': `${x.falls[0]},${x.falls[1]}`, 'data-preview-register': x.register, d: `M ${X - 12} ${Y - 12} L ${X + 12} ${Y + 12} M ${X + 12} ${Y - 12} L ${X - 12} ${Y + 12}` }));
      }
    }
    if (pts.length > 1) this.gPreview.prepend(s('polyline.preview-path', { points: pts.join(' ') }));
  }

  pickCard(c) {
    const ch = this.choices('program');
    if (!ch) return;
    const regs = this.sel.regs;
    if (ch.distinct && regs.some((x) => x && x.priority === c.priority)) return;
    const k = ch.registers.findIndex((x, i) => !x.locked && !regs[i] && x.cards.some((y) => y.priority === c.priority));
    if (k < 0) return;
    this.setRegister(k, c);
  }

  /**
   * RR-4.3: a card placed in (or taken back from) register k+1. The engine keeps the draft
   * secret and, when the hourglass runs out, fills only the registers still empty: each change
   * is sent as one `place` (one per click or key, never repeated; the engine caps a turn's
   * places).
   */
  setRegister(k, c) {
    const regs = this.sel.regs;
    const was = regs[k];
    if ((was && c && was.priority === c.priority) || (!was && !c)) return;
    regs[k] = c;
    this.renderControls();
    const seat = this.mySeatToAct();
    // The engine caps a turn's placements (`places_left`); past it, the program alone is sent.
    const ch = this.choices('program');
    if (seat !== undefined && ch && ch.places_left > 0) {
      ch.places_left--;
      this.ctx.act({ type: 'place', register: k + 1, card: c }, seat);
    }
  }

  async submit() {
    const seat = this.mySeatToAct();
    const ch = this.choices('program');
    if (!ch) return;
    const registers = ch.registers.map((x, k) => (x.locked ? null : this.sel.regs[k]));
    await this.ctx.act({ type: 'program', registers, power_down_next: !!(ch.power_down && this.sel.powerDown) }, seat);
  }

  /** RR-8.3: the cells the engine allows the re-entering robot, each with its facings. */
  reentryCells(r) {
    const ch = this.choices('reenter');
    if (!ch || !r) return [];
    const cells = [];
    for (const a of ch.actions) {
      let c = cells.find((x) => x.at[0] === a.at[0] && x.at[1] === a.at[1]);
      if (!c) cells.push(c = { at: a.at, facings: [] });
      if (!c.facings.includes(a.facing)) c.facings.push(a.facing);
    }
    for (const c of cells) c.facings.sort((x, y) => x - y);
    return cells.sort((p, q) => p.at[1] - q.at[1] || p.at[0] - q.at[0]);
  }

  /** Whether the engine lists re-entering powered down (RR-8.3). */
  reenterDownAllowed() {
    const ch = this.choices('reenter');
    return !!ch && ch.actions.some((a) => a.powered_down);
  }

  reenterChoices(r) { return this.reentryCells(r).map((c) => c.at); }

  facingsAt(at, r) {
    const c = this.reentryCells(r).find((x) => x.at[0] === at[0] && x.at[1] === at[1]);
    return c ? c.facings : [];
  }

  reenterControls(box, r) {
    const pick = this.sel.reenter;
    box.append(h('div.pick-title', [h('b', 'Re-enter'), h('span.hint', ' click a highlighted cell on the course (your archive first), then a facing')]));
    box.append(h('div.reenter-cells', this.reenterChoices(r).map((at) => h('button.btn.small', {
      type: 'button', 'data-reenter': `${at[0]},${at[1]}`, class: pick && pick[0] === at[0] && pick[1] === at[1] ? 'on' : '',
      onclick: () => { this.sel.reenter = at; this.renderControls(); },
    }, at[0] === r.archive[0] && at[1] === r.archive[1] ? `archive ${sq(at)}` : sq(at)))));
    if (pick) {
      const ok = this.facingsAt(pick, r);
      box.append(h('div.facings', [0, 1, 2, 3].map((d) => h('button.btn', { type: 'button', 'data-facing': d, disabled: !ok.includes(d) || undefined, onclick: () => this.commitReenter(d) }, `${ARROW[d]} ${DIR[d]}`))));
    }
    if (this.reenterDownAllowed()) box.append(h('label.check', [h('input#reenter-down', { type: 'checkbox', checked: this.sel.poweredDown || undefined, onchange: (e) => { this.sel.poweredDown = e.target.checked; } }), ' Re-enter powered down']));
    this.drawPicks(r);
  }

  drawPicks(r) {
    clear(this.gPick);
    if (!r || this.view.phase !== 'reenter') return;
    for (const at of this.reenterChoices(r)) {
      const on = this.sel.reenter && this.sel.reenter[0] === at[0] && this.sel.reenter[1] === at[1];
      this.gPick.append(s('rect.reenter-target', { class: on ? 'on' : '', x: at[0] * S + 2, y: at[1] * S + 2, width: S - 4, height: S - 4, 'data-reenter': `${at[0]},${at[1]}`, tabindex: 0, role: 'button', 'aria-label': `Re-enter at ${sq(at)}` }));
    }
    if (this.sel.reenter) {
      const [x, y] = this.sel.reenter;
      const cx = x * S + S / 2, cy = y * S + S / 2;
      for (const d of this.facingsAt(this.sel.reenter, r)) {
        const tx = cx + STEP[d][0] * S * 0.36, ty = cy + STEP[d][1] * S * 0.36;
        this.gPick.append(s('g.facing-pick', { 'data-facing': d, tabindex: 0, role: 'button', 'aria-label': `Face ${DIR[d]}` }, [s('circle', { cx: tx, cy: ty, r: 8 }), s('text', { x: tx, y: ty + 4, 'text-anchor': 'middle' }, ARROW[d])]));
      }
    }
  }

  async commitReenter(facing) {
    const seat = this.mySeatToAct();
    if (!this.sel.reenter) return;
    if (await this.ctx.act({ type: 'reenter', at: this.sel.reenter, facing, powered_down: !!(this.sel.poweredDown && this.reenterDownAllowed()) }, seat)) this.sel.reenter = null;
  }

  /** The option-card question of the view (RR-7.4, RR-8.2, RR-9): one button per answer the
   * engine lists (`choices.actions`), worded as the question asks. */
  optionControls(box, r) {
    const seat = r.seat;
    const q = this.view.question || { kind: 'unknown' };
    const ch = this.choices('use_option') || this.choices('discard_option');
    const actions = ch ? ch.actions : [];
    const title = {
      damage: `${q.points} damage coming: discard an option card to prevent one point?`,
      lose_option: 'Your robot was destroyed: give up one option card',
      move_option: `Use ${optionName(q.option)} on the card about to run?`,
      reveal: `Before register ${q.register} is revealed: use an option card?`,
      weapon: `Your laser hits ${q.target !== undefined ? this.names(q.target) : 'a robot'} (${q.points}): use a weapon instead?`,
      stabilizer: 'Before register 1: is the Gyroscopic Stabilizer active this turn?',
      arm: 'Mechanical Arm: which flag or repair site does it touch?',
    }[q.kind] || 'An option card question';
    const decline = { damage: 'Take the damage', weapon: 'No, the laser', stabilizer: 'Not this turn', arm: 'Only the cell it stands on' }[q.kind] || 'No';
    const label = (a) => {
      const n = optionName(a.option);
      if (a.type === 'discard_option') return q.kind === 'lose_option' ? `Give up ${n}` : `Discard ${n}`;
      if (q.kind === 'stabilizer') return 'Active';
      if (a.at) return `Touch ${squareName(this.board(), a.at)}`;
      return useLabel(a);
    };
    const buttons = actions.map((a) => (a.option === null || a.option === undefined
      ? h('button.btn#decline-option', { type: 'button', 'data-action': JSON.stringify(a), onclick: () => this.ctx.act(a, seat) }, decline)
      : h('button.btn', { type: 'button', 'data-action': JSON.stringify(a), 'data-option': a.option, 'data-help': `option:${a.option}`, 'data-site': a.at ? `${a.at[0]},${a.at[1]}` : undefined, onclick: () => this.ctx.act(a, seat) }, label(a))));
    box.append(h('div.pick-title', h('b', title)), h('div.actions', { 'data-question': q.kind }, buttons));
  }

  onBoardClick(e) {
    const t = e.target.closest('[data-reenter],[data-facing]');
    if (!t || !this.view || this.view.phase !== 'reenter') return;
    if (t.dataset.reenter) { this.sel.reenter = t.dataset.reenter.split(',').map(Number); this.renderControls(); }
    else if (t.dataset.facing !== undefined) this.commitReenter(Number(t.dataset.facing));
  }

  onKey(e) {
    if (this.zoom && this.zoom.key(e)) return;
    const tag = this.keyTag(e);
    if (tag === null) return;
    if (e.key === 'Enter' && e.target instanceof SVGElement && e.target.closest('[data-reenter],[data-facing]')) {
      e.preventDefault();
      e.target.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      return;
    }
    const seat = this.mySeatToAct();
    if (seat === undefined || this.view.phase !== 'program') return;
    const r = this.robot(this.view, seat);
    if (/^[1-9]$/.test(e.key)) {
      const c = (r.hand || [])[Number(e.key) - 1];
      if (c) { this.pickCard(c); e.preventDefault(); }
    } else if (e.key === 'Backspace') {
      const k = [4, 3, 2, 1, 0].find((i) => this.sel.regs[i]);
      if (k !== undefined) this.setRegister(k, null);
      e.preventDefault();
    } else if ((e.key === 'p' || e.key === 'P') && this.choices('program') && this.choices('program').power_down) {
      this.sel.powerDown = !this.sel.powerDown; this.renderControls(); e.preventDefault();
    } else if (e.key === 'Enter' && tag !== 'button') {
      const b = document.getElementById('submit-program');
      if (b && !b.disabled) { e.preventDefault(); this.submit(); }
    }
  }

  // ---- the log in words ----
  describe(ev) {
    const R = (x) => this.names(x);
    switch (ev.type) {
      case 'turn_started': return `Turn ${ev.turn} begins`;
      case 'stayed_down': return `${R(ev.seat)} ${ev.value ? 'stays powered down' : 'powers up'}`;
      case 'powered_down': return `${R(ev.seat)} is powered down`;
      case 'powered_up': return `${R(ev.seat)} powers up`;
      case 'dealt': return null;
      case 'hand': return `${R(ev.seat)} is dealt: ${ev.cards.map(cardText).join(', ')}`;
      case 'programmed': return `${R(ev.seat)} has programmed`;
      case 'program': return null;
      case 'power_down_announced': return `${R(ev.seat)} announces a power down`;
      case 'register_revealed': return `Register ${ev.register}: ${ev.cards.map((c) => `${R(c.seat)} ${cardText(c.card)}`).join(', ') || 'no cards'}`;
      case 'moved': {
        const onto = squareName(this.board(), ev.to);
        const way = DIR[[0, 1, 2, 3].find((d) => ev.from[0] + STEP[d][0] === ev.to[0] && ev.from[1] + STEP[d][1] === ev.to[1])] || '';
        const how = { card: `moves ${way}`, push: `is pushed ${way}`, belt: 'rides the conveyor', pusher: `is pushed ${way} by a pusher`, gear: 'is moved' }[ev.by] || `is moved (${ev.by})`;
        return `${R(ev.seat)} ${how} onto ${onto}`.replace(/ +/g, ' ');
      }
      case 'turned': return `${R(ev.seat)} ${ev.by === 'gear' ? 'is turned by the gear' : 'turns'} from ${DIR[ev.from]} to ${DIR[ev.to]}`;
      case 'blocked': return `${R(ev.seat)} bumps into the wall on the ${DIR[ev.dir]} side of ${squareName(this.board(), ev.at)}`;
      case 'destroyed': return `${R(ev.seat)} is destroyed: ${{ pit: 'it falls into the pit', off_board: 'it falls off the board', damage: 'too much damage' }[ev.cause] || String(ev.cause).replace('_', ' ')}`;
      case 'shot': return `${R(ev.seat)} is shot by ${ev.by.board ? 'a board laser' : ev.by.robot ? R(ev.by.robot.seat) : ev.by.rear ? R(ev.by.rear.seat) : 'a laser'}`;
      case 'damaged': return `${R(ev.seat)} takes ${ev.points} damage (${ev.damage} in all)`;
      case 'flag_touched': return `${R(ev.seat)} reaches flag ${ev.flag}`;
      case 'archive_moved': return `${R(ev.seat)}'s archive moves to ${squareName(this.board(), ev.at)}`;
      case 'repaired': return `${R(ev.seat)} is repaired (${ev.damage} damage left)`;
      case 'option_drawn': return `${R(ev.seat)} draws the option ${optionName(ev.option)}`;
      case 'option_discarded': return `${R(ev.seat)} gives up the option ${optionName(ev.option)}`;
      case 'option_used': return `${R(ev.seat)} uses ${optionName(ev.option)}`;
      case 'stay_down_sent': return `${R(ev.seat)} has decided whether to stay down`;
      case 'register_filled': return `${R(ev.seat)}'s locked register ${ev.register} is filled from the deck: ${cardText(ev.card)}`;
      case 'stashed': return `${R(ev.seat)} keeps a card with ${optionName(ev.option)}`;
      case 'side_revealed': return `${R(ev.seat)}'s second card in register ${ev.register}: ${cardText(ev.card)}`;
      case 'option_absorbed': return `${optionName(ev.option)} absorbs ${ev.points} damage for ${R(ev.seat)}`;
      case 'scrambled': return `${R(ev.seat)}'s register ${ev.register} is scrambled`;
      case 'radio_controlled': return `${R(ev.seat)} runs ${R(ev.by)}'s program (Radio Control)`;
      case 'register_jammed': return `${R(ev.seat)}'s register ${ev.register} is jammed (Fire Control)`;
      case 'damage_prevented': return `${R(ev.seat)} prevents a damage point with an option card`;
      case 'life_lost': return `${R(ev.seat)} loses a life (${ev.lives} left)`;
      case 'eliminated': return `${R(ev.seat)} is out of the game`;
      case 'reentered': return `${R(ev.seat)} re-enters on ${squareName(this.board(), ev.at)} facing ${DIR[ev.facing]}${ev.powered_down ? ', powered down' : ''}`;
      case 'finished': return `${R(ev.seat)} finishes ${ev.place}.`;
      case 'game_over': return ev.winner !== null && ev.winner !== undefined ? `Game over: ${R(ev.winner)} wins` : 'Game over';
      case 'shuffled': return 'The deck is shuffled';
      default: return ev.type.replace(/_/g, ' ') + (ev.seat !== undefined ? `: ${R(ev.seat)}` : '');
    }
  }

  // ---- animation of the registers ----
  async play(events, view, log) {
    const epoch = ++this.epoch;
    const fast = this.speedFactor() === 0 || !this.view || !this.svg;
    if (!fast && events.some((e) => e.type === 'register_revealed') && !this.ctx.replay) {
      this.busy = true;
      this.ctx.controls.hidden = false;
      this.ctx.controls.replaceChildren(h('p.hint', 'The registers are resolving…'));
    }
    clear(this.gPick);
    if (this.gPreview) clear(this.gPreview);
    // The players panel as of the event being animated (the final view only at the end).
    const live = !fast ? JSON.parse(JSON.stringify(this.view)) : null;
    if (!fast) this.ctx.board.dataset.animating = '1';
    for (const ev of events) {
      log(ev);
      if (fast || epoch !== this.epoch) continue;
      if (stepRobots(live, ev)) this.renderPlayers(live);
      const el = this.robotEls.get(ev.seat);
      switch (ev.type) {
        case 'register_revealed':
          this.say(`Register ${ev.register}`);
          clear(this.strip).append(h('span.turn-no', h('b', `Register ${ev.register}`)), ...ev.cards.map((c) => h('span.rev-card', { style: { '--car': `var(--seat${c.seat})` } }, `${c.seat + 1}: ${cardText(c.card)}`)));
          await this.wait(450);
          break;
        case 'moved':
          if (el) { el.classList.add('acting'); this.placeRobot(el, ev.to, Number(el.dataset.facing)); await this.wait(ev.by === 'card' ? 280 : 200); el.classList.remove('acting'); }
          break;
        case 'turned':
          if (el) { this.placeRobot(el, el.dataset.at.split(',').map(Number), ev.to); await this.wait(220); }
          break;
        case 'shot': {
          const at = el ? el.dataset.at.split(',').map(Number) : null;
          if (!at) break;
          let from = null;
          if (ev.by.board) from = ev.by.board.at;
          else { const o = this.robotEls.get((ev.by.robot || ev.by.rear || {}).seat); if (o) from = o.dataset.at.split(',').map(Number); }
          if (from) {
            const beam = s('line.shot', { x1: from[0] * S + S / 2, y1: from[1] * S + S / 2, x2: at[0] * S + S / 2, y2: at[1] * S + S / 2 });
            this.gFx.append(beam);
            await this.wait(200);
            beam.remove();
          }
          break;
        }
        case 'destroyed':
          if (el) { el.classList.add('boom'); await this.wait(350); el.remove(); this.robotEls.delete(ev.seat); }
          break;
        case 'flag_touched':
          this.say(`${this.names(ev.seat)} touches flag ${ev.flag}`);
          await this.wait(300);
          break;
        case 'reentered':
          await this.wait(150);
          break;
        default:
          break;
      }
    }
    if (epoch !== this.epoch) return;
    this.busy = false;
    this.render(view);
  }
}

export default {
  name: 'roborally',
  title: 'RoboRally',
  // The result's columns (web/ui/results.js): the score is the flags touched (RR-10).
  scoreLabel: 'Flags',
  resultColumns: (view) => [{ label: 'Lives', of: (seat) => (view.robots.find((r) => r.seat === seat) || {}).lives ?? '' }],
  // The lobby's picture of a course (`boards`: the server's list, GET /api/kinds).
  boardPreview(id, boards) {
    return boardPreview('course', boards, id, (seen, b) => {
      const svg = s('svg.course', { viewBox: `-4 -4 ${seen.width * S + 8} ${seen.height * S + 8}`, role: 'img', 'aria-label': b.title });
      const g = s('g');
      drawCourse(seen, g);
      svg.append(g);
      return svg;
    });
  },
  createTable: (ctx) => new RoboRallyTable(ctx),
};
