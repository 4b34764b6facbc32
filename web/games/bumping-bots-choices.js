// Bumping Bots' decision controls and move previews, drawn only from the engine's listing: the
// `choices` of the acting seat's own view (crates/bumping-bots/src/choices.rs, docs/protocol.md
// "Choices"). Every button sends an action the engine listed; nothing here knows a rule. Each
// control carries its action as JSON in `data-action` (the browser tests read it).

import { h, s, clear } from '../dom.js';
import { key, centre, corners, polygon } from '../hex.js';

const hexOf = (a) => (Array.isArray(a) ? a : [a.q, a.r]);
const TURN = { '-1': '↺ left', 0: 'straight', 1: '↻ right' };
const CARD = { jumper: 'Jumper', magnet: 'Magnet', nitro: 'Nitro', engine: 'Boosted engine', rotation: 'Quick rotation' };
// Keyboard shortcuts of the speed choices: letters, so that they never read like speeds.
export const SPEED_KEYS = { keep: 'k', accelerate: 'a', accelerate_to_3: 't', decelerate: 'd' };
const SPEED_WORDS = { keep: 'Keep speed', accelerate: 'Accelerate', accelerate_to_3: 'Straight to 3', decelerate: 'Decelerate', reverse: 'Change direction' };
const AGAINST = { wall: 'a wall', obstacle: 'an obstacle', mobile: 'a mobile obstacle', bot: 'a bot', bumper: 'a bumper' };

const btn = (cls, action, label, extra = {}) => h(`button.btn${cls}`, { type: 'button', 'data-action': JSON.stringify(action), ...extra }, label);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The words for one speed option: what it does and the speed it gives. */
export function speedLabel(o) {
  const to = `${o.reverse ? 'reverse ' : ''}${o.speed}`;
  return `${SPEED_WORDS[o.action.choice] || o.action.choice} → speed ${to}`;
}

/** One sentence about a previewed move (what the board draws). */
export function previewWords(p, names) {
  if (!p) return '';
  const parts = [];
  const cells = p.path.filter((x) => x.how !== 'turn' && x.how !== 'start').length;
  if (p.finishes) parts.push('finishes the race');
  else parts.push(`ends ${cells} cell${cells === 1 ? '' : 's'} on, at speed ${p.speed}`);
  if (p.hits.length) parts.push(`hits ${p.hits.map((x) => AGAINST[x.against] || x.against).join(', then ')}`);
  if (p.pushes.length) parts.push(`pushes ${p.pushes.map((x) => names(x.seat)).join(' and ')}`);
  return `Preview: ${parts.join('; ')}.`;
}

export const ASSUMPTION = 'The preview assumes the other bots stay where they are (they do not move during your move) and that any question on the way gets its default answer (push, no turn, no Magnet).';

/**
 * Draw a preview on the track's preview layer `g`: the path through each cell's centre, a
 * marker on every cell entered, the stop (or the finish), what is hit, and the pushed bots.
 */
export function drawPreview(g, p, size) {
  clear(g);
  if (!p) return;
  const pts = p.path.map((x) => centre(hexOf(x.at), size));
  g.append(s('polyline.bb-pv-path', { points: pts.map((q) => q.map((v) => v.toFixed(1)).join(',')).join(' ') }));
  for (const x of p.path.slice(1)) {
    if (x.how === 'turn') continue;
    g.append(s('polygon.bb-pv-cell', { points: polygon(corners(hexOf(x.at), size, size * 0.55)), 'data-pv': x.how, 'data-hex': key(hexOf(x.at)) }));
  }
  for (const x of p.hits) {
    const [cx, cy] = centre(hexOf(x.at), size);
    const r = size * 0.35;
    g.append(s('g.bb-pv-hit', { 'data-hit': x.against, 'data-hex': key(hexOf(x.at)) }, [
      s('line', { x1: cx - r, y1: cy - r, x2: cx + r, y2: cy + r }), s('line', { x1: cx - r, y1: cy + r, x2: cx + r, y2: cy - r }),
    ]));
  }
  for (const x of p.pushes) {
    g.append(s('polygon.bb-pv-push', { points: polygon(corners(hexOf(x.to), size, size * 0.7)), 'data-pushed': x.seat, 'data-hex': key(hexOf(x.to)) }));
  }
  if (p.end) {
    const [cx, cy] = centre(hexOf(p.end), size);
    const a = (Math.PI / 3) * p.facing;
    g.append(s('g.bb-pv-end', { 'data-hex': key(hexOf(p.end)), 'data-facing': p.facing }, [
      s('circle', { cx, cy, r: size * 0.78 }),
      s('line', { x1: cx, y1: cy, x2: cx + Math.cos(a) * size * 0.85, y2: cy + Math.sin(a) * size * 0.85 }),
    ]));
  }
}

/**
 * The controls of a decision from `choices` (the engine's listing). `t` is the table: `act`,
 * `names`, `showPreview(p)`, `rerender()`, and `sel` (the move's selected rotations) and
 * `quick` (the quick rotations being put together) kept across redraws.
 */
export function choiceControls(box, c, t) {
  const act = (a) => t.act(a);
  if (c.kind === 'speed') {
    const keep = c.speeds.find((o) => o.action.choice === 'keep') || c.speeds[0];
    t.showPreview(keep?.preview);
    const words = h('p.hint.bb-pv-words', previewWords(keep?.preview, t.names));
    box.append(h('div.pick-title', h('b', 'Speed')), h('div.actions.bb-speeds', c.speeds.map((o) => {
      const k = SPEED_KEYS[o.action.choice];
      const show = () => { t.showPreview(o.preview); words.textContent = previewWords(o.preview, t.names); };
      return btn('', o.action, [speedLabel(o), k && !o.action.new_speed ? h('kbd', { title: `Key ${k.toUpperCase()}` }, k.toUpperCase()) : null], {
        'data-speed': o.action.choice === 'reverse' ? `reverse${o.action.new_speed}` : o.action.choice,
        onclick: () => act(o.action), onmouseenter: show, onfocus: show,
      });
    })), words, h('p.hint.small.bb-pv-assume', ASSUMPTION));
    cardControls(box, c, t);
  } else if (c.kind === 'move') {
    const pairs = c.moves.map((m) => m.action);
    const befores = [...new Set(pairs.map((a) => a.rotate_before_last))];
    if (!befores.includes(t.sel.before)) t.sel.before = 0;
    const afters = pairs.filter((a) => a.rotate_before_last === t.sel.before).map((a) => a.rotate_after);
    if (!afters.includes(t.sel.after)) t.sel.after = afters.includes(0) ? 0 : afters[0];
    const chosen = c.moves.find((m) => m.action.rotate_before_last === t.sel.before && m.action.rotate_after === t.sel.after);
    const row = (label, k, allowed) => h('div.actions', [h('span.hint', label), ...[-1, 0, 1].filter((v) => allowed.includes(v)).map((v) => h('button.btn.small', {
      type: 'button', class: t.sel[k] === v ? 'on' : '', 'data-rot': `${k}:${v}`,
      onclick: () => { t.sel[k] = v; t.rerender(); },
    }, TURN[v]))]);
    box.append(h('div.pick-title', h('b', `Move ${c.cells} cell${c.cells === 1 ? '' : 's'}`)));
    // A row is shown only when the engine lists a rotation there.
    if (befores.some((v) => v !== 0)) box.append(row('Before the last cell: ', 'before', befores));
    if (pairs.some((a) => a.rotate_after !== 0)) box.append(row('After the move: ', 'after', afters));
    t.showPreview(chosen?.preview);
    box.append(h('p.hint.bb-pv-words', previewWords(chosen?.preview, t.names)), h('p.hint.small.bb-pv-assume', ASSUMPTION));
    if (chosen) {
      box.append(btn('.primary#do-move', chosen.action, 'Move (Enter)', {
        onclick: async () => { if (await act(chosen.action)) t.sel = { before: 0, after: 0 }; },
      }));
    }
  } else if (c.kind === 'orient') {
    box.append(h('div.pick-title', h('b', 'After the collision: turn once?')), h('div.actions', c.actions.map((a) => btn('', a, a.turn === 0 ? 'No turn' : TURN[a.turn], { 'data-orient': a.turn, onclick: () => act(a) }))));
  } else if (c.kind === 'magnet') {
    box.append(h('div.pick-title', h('b', 'Use the Magnet?')), h('div.actions', c.actions.map((a) => (a.card === null
      ? btn('#magnet-no', a, 'No', { 'data-magnet': 'no', onclick: () => act(a) })
      : btn('.small', a, `Pull to ${t.names(a.target)}`, { 'data-magnet': a.target, onclick: () => act(a) })))));
  } else if (c.kind === 'pick') {
    box.append(h('div.pick-title', h('b', 'Pick a tuning card')), h('div.actions', c.actions.map((a) => btn('', a, CARD[a.card] || a.card, { 'data-card': a.card, 'data-help': `card:${a.card}`, onclick: () => act(a) }))));
  }
}

/** The card plays the engine lists before the speed (BB-9), and the quick rotation composer. */
function cardControls(box, c, t) {
  const buttons = c.cards.map((a) => {
    let label = CARD[a.card] || a.card;
    if (a.card === 'jumper') label = `Jumper: leap after ${a.at_cell} cell${a.at_cell === 1 ? '' : 's'}`;
    if (a.card === 'magnet') label = `Magnet → ${t.names(a.target)}`;
    return btn('.small', a, label, { 'data-card': a.card, 'data-help': `card:${a.card}`, onclick: () => t.act(a) });
  });
  const q = c.quick_rotation;
  if (!buttons.length && !q) return;
  box.append(h('div.pick-title', h('b', 'Tuning cards (before the speed)')), h('div.actions.cards-row', buttons));
  if (!q) return;
  // Up to `most` rotations at distinct points of `points`: one toggle per point (none, ↺, ↻).
  if (!t.quick || !same(t.quick.points, q.points)) t.quick = { points: q.points, turns: {} };
  const turns = t.quick.turns;
  const count = Object.values(turns).filter(Boolean).length;
  const rotations = q.points.filter((p) => turns[p]).map((p) => ({ at_cell: p, turn: turns[p] }));
  const action = { type: 'card', card: 'rotation', rotations };
  box.append(h('div.bb-quick', [
    h('span.hint', `Quick rotation: up to ${q.most} turn${q.most === 1 ? '' : 's'} of 60°, at most one per point (0 = before the first cell)`),
    ...q.points.map((p) => h('div.actions', [h('span.hint', `at ${p}: `), ...[0, -1, 1].map((v) => h('button.btn.small', {
      type: 'button', class: (turns[p] || 0) === v ? 'on' : '', 'data-quick': `${p}:${v}`,
      disabled: v !== 0 && !turns[p] && count >= q.most,
      onclick: () => { turns[p] = v; t.rerender(); },
    }, v === 0 ? 'none' : TURN[v]))])),
    btn('.small#quick-go', action, 'Play quick rotation', { 'data-card': 'rotation', disabled: count === 0, onclick: () => t.act(action) }),
  ]));
}
