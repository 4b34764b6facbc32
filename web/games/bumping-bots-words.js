// Bumping Bots in words and step by step (docs/client.md "Readable boards"): names of places on
// a track derived from the track's own data in the static part (presentation, not rules), and
// the players panel's numbers as of the event being animated.

const DIRS = [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]];
export const DIR_WORDS = ['east', 'south-east', 'south-west', 'west', 'north-west', 'north-east'];
const hexOf = (a) => (Array.isArray(a) ? a : [a.q, a.r]);
const k = (p) => `${p[0]},${p[1]}`;

export function hexDistance(a, b) {
  const dq = b[0] - a[0], dr = b[1] - a[1];
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
}

/** The direction word of a straight line from `a` to `b` (null when it is not straight). */
export function directionWord(a, b) {
  const n = hexDistance(a, b);
  if (!n) return null;
  const d = DIRS.findIndex(([dq, dr]) => a[0] + dq * n === b[0] && a[1] + dr * n === b[1]);
  return d >= 0 ? DIR_WORDS[d] : null;
}

/**
 * `placeOf(hex)`: a place on the track in words ("the start/finish line", "grid place 2", "beside
 * the bumper", "the north-east of the track"). `at(hex)` gives the pixel centre (for the compass
 * part: the side of the track's middle a cell is on).
 */
export function trackPlaces(board, at) {
  const special = new Map();
  for (const e of board.finish_line || []) special.set(k(hexOf(e.at)), 'the start/finish line');
  (board.start_grid || []).forEach((spot, i) => { if (!special.has(k(hexOf(spot.at)))) special.set(k(hexOf(spot.at)), `grid place ${spot.place ?? i + 1}`); });
  const obstacleName = { bumper: 'the bumper', motorised: 'a motorised obstacle', fixed: 'an obstacle' };
  // Mobile obstacles move (BB-8.1): only the ones that stay put name places.
  for (const o of (board.obstacles || []).filter((x) => x.kind !== 'mobile')) {
    const c = hexOf(o.at);
    for (const [dq, dr] of DIRS) {
      const n = k([c[0] + dq, c[1] + dr]);
      if (!special.has(n)) special.set(n, `beside ${obstacleName[o.kind] || 'an obstacle'}`);
    }
  }
  const cells = (board.cells || []).map((c) => at(c.at));
  const mx = cells.reduce((s, p) => s + p[0], 0) / (cells.length || 1);
  const my = cells.reduce((s, p) => s + p[1], 0) / (cells.length || 1);
  const compass = ['east', 'south-east', 'south', 'south-west', 'west', 'north-west', 'north', 'north-east'];
  return function placeOf(hx) {
    const p = hexOf(hx);
    const s = special.get(k(p));
    if (s) return s;
    const [x, y] = at(p);
    if (Math.hypot(x - mx, y - my) < 1) return 'the middle of the track';
    const a = Math.atan2(y - my, x - mx); // screen: y grows southwards
    const i = ((Math.round(a / (Math.PI / 4)) % 8) + 8) % 8;
    return `the ${compass[i]} of the track`;
  };
}

/** The view's bots after one more event (a copy for the players panel while animating). */
export function stepBots(view, ev) {
  const b = view.bots.find((x) => x.seat === ev.seat);
  if (!b) return false;
  switch (ev.type) {
    case 'speed_chosen': b.speed = ev.speed; b.reverse = ev.reverse; return true;
    case 'speed_lost': b.speed = ev.speed; return true;
    case 'line_crossed': b.laps = ev.laps; return true;
    case 'turned': b.facing = ev.facing; return true;
    case 'moved': case 'leapt': case 'pushed': case 'thrown': case 'magnet': b.at = ev.to; return false;
    case 'placed': b.finished_place = ev.place; return true;
    case 'card_picked':
      if (b.cards) b.cards = [...b.cards, ev.card]; else b.card_count = (b.card_count || 0) + 1;
      return true;
    case 'card_played':
      if (b.cards) { const i = b.cards.indexOf(ev.card); if (i >= 0) b.cards = [...b.cards.slice(0, i), ...b.cards.slice(i + 1)]; } else b.card_count = Math.max(0, (b.card_count || 0) - 1);
      return true;
    default: return false;
  }
}
