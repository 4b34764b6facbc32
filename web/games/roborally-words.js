// RoboRally in words and step by step (docs/client.md "Readable boards"): names of squares on
// the course derived from the course's own data in the static part (presentation, not rules),
// and the players panel's numbers as of the event being animated.

const KIND = {
  pit: 'the pit', repair: 'the repair site', repair_option: 'the double repair site', pusher: 'the pusher', floor: 'the floor',
};

/** A square of the course in words: "flag 2", "the conveyor", "the pit", "dock 3", "the floor". */
export function squareName(b, at) {
  if (!at) return 'nowhere';
  const [x, y] = at;
  if (x < 0 || y < 0 || x >= b.width || y >= b.height) return 'the edge of the board';
  const fi = b.flags.findIndex((f) => f[0] === x && f[1] === y);
  if (fi >= 0) return `flag ${fi + 1}`;
  const c = b.cells[y * b.width + x] || { kind: 'void' };
  if (c.kind === 'void') return 'the edge of the board';
  if (c.kind === 'belt') return c.express ? 'the express conveyor' : 'the conveyor';
  if (c.kind === 'gear') return `the ${c.turn === 'left' ? 'left' : 'right'} gear`;
  const dock = (b.docks || []).find((d) => d.at[0] === x && d.at[1] === y);
  if (dock && (c.kind === 'floor' || !KIND[c.kind])) return `dock ${dock.number}`;
  return KIND[c.kind] || `the ${String(c.kind).replace(/_/g, ' ')}`;
}

/** The view's robots after one more event (a copy for the players panel while animating). */
export function stepRobots(view, ev) {
  const r = view.robots.find((x) => x.seat === ev.seat);
  if (!r) return false;
  switch (ev.type) {
    case 'damaged': r.damage = ev.damage; return true;
    case 'repaired': r.damage = ev.damage; return true;
    case 'life_lost': r.lives = ev.lives; return true;
    case 'flag_touched': r.flags_touched = Math.max(r.flags_touched, ev.flag); return true;
    case 'destroyed': r.destroyed = true; return true;
    case 'reentered': r.destroyed = false; r.at = ev.at; r.facing = ev.facing; if (ev.powered_down) r.powered_down = true; return true;
    case 'powered_down': r.powered_down = true; return true;
    case 'powered_up': r.powered_down = false; return true;
    case 'eliminated': r.out = true; return true;
    case 'finished': r.finished = true; return true;
    case 'option_drawn': r.options = [...(r.options || []), ev.option]; return true;
    case 'option_discarded': { const o = [...(r.options || [])]; const i = o.indexOf(ev.option); if (i >= 0) o.splice(i, 1); r.options = o; return true; }
    default: return false;
  }
}
