// The rules pages' diagrams (web/ui/rules.js), drawn by the games' own table code from the
// static part the rule book's answer carries (the default board and the rule tables, from the
// engine): the rink and the car chart, the course legend, the track with its obstacles and
// bumpers. Nothing here is a rule: which edge of a car is its front is a picture of AS-5.5's
// words, and every figure comes from the engine's data.

import { h, s } from '../dom.js';
import { centre, corners, edge, polygon, bounds, DIRS } from '../hex.js';
import { rulesOf, rinkSvg, chartSheet, carShape } from '../games/autoscooter.js';
import { courseLegend } from '../games/roborally.js';
import { drawTrack, obstacleShape, hexOf, SIZE as BB } from '../games/bumping-bots.js';

/** A diagram by name for a topic (`perKey`: the topic's key, drawn only when one fits). */
export function diagram(game, name, st, topic, perKey = false) {
  try {
    const f = (DIAGRAMS[game] || {})[name];
    if (!f) return null;
    return f(st || {}, topic);
  } catch (e) {
    if (!perKey) console.warn(`rules diagram ${game}/${name}:`, e);
    return null;
  }
}

// AS-5.5: the six edges of a car hit by a rammer, named as the crash table names them.
function crashEdges() {
  const size = 46;
  const [x, y, w, hh] = bounds([[0, 0]], size, 2);
  const names = ['front', 'side', 'side', 'rear', 'side', 'side'];
  const svg = s('svg.crash-edges', { viewBox: `${x - 40} ${y - 10} ${w + 80} ${hh + 20}`, role: 'img', 'aria-label': 'The front, side and rear edges of a car' });
  svg.append(s('polygon.cell', { points: polygon(corners([0, 0], size)) }));
  for (let d = 0; d < 6; d++) {
    const [[x1, y1], [x2, y2]] = edge([0, 0], d, size);
    svg.append(s('line', { class: `edge ${names[d]}`, x1, y1, x2, y2 }));
    const [cx, cy] = centre(DIRS[d], size * 0.62);
    svg.append(s('text.edge-name', { x: cx * 1.25, y: cy * 1.25 + 4, 'text-anchor': 'middle' }, names[d]));
  }
  svg.append(s('g.car', { style: '--car: var(--seat0)', transform: 'scale(0.8)' }, carShape()));
  return svg;
}

function bbTrack(st, focus) {
  const board = st.track;
  if (!board || !board.cells) return null;
  const svg = s('svg.bb-track.rules-track', { role: 'img', 'aria-label': focus ? `A ${focus.kind} obstacle on the ${board.name} track` : `The ${board.name} track` });
  const g = s('g');
  const cells = drawTrack(board, g);
  for (const o of board.obstacles || []) {
    g.append(obstacleShape(o));
  }
  const around = focus ? cells.filter((c) => Math.max(Math.abs(c[0] - focus.at[0]), Math.abs(c[1] - focus.at[1]), Math.abs(c[0] + c[1] - focus.at[0] - focus.at[1])) <= 2) : cells;
  const [x, y, w, hh] = bounds(around.length ? around : cells, BB, 6);
  svg.setAttribute('viewBox', `${x} ${y} ${w} ${hh}`);
  svg.append(g);
  return svg;
}

const obstacleCrop = (st, t) => {
  const kind = t.key.replace(/^element:/, '');
  const o = ((st.track && st.track.obstacles) || []).find((x) => x.kind === kind);
  return o ? bbTrack(st, { kind, at: hexOf(o.at) }) : null;
};

const DIAGRAMS = {
  autoscooter: {
    rink: (st) => (st.board ? rinkSvg(st.board, { label: 'The standard rink with its start spaces' }) : null),
    chart: (st) => chartSheet(rulesOf(st)),
    crashes: () => crashEdges(),
  },
  roborally: {
    legend: () => { const l = courseLegend(); l.open = true; return l; },
  },
  'bumping-bots': {
    track: (st) => bbTrack(st, null),
    'element:fixed': obstacleCrop,
    'element:motorised': obstacleCrop,
    'element:mobile': obstacleCrop,
    'element:bumper': obstacleCrop,
  },
};

