// Hex maths for pointy-top axial coordinates [q, r]; directions 0..5 clockwise from east
// (E, SE, SW, W, NW, NE), as in docs/scenarios.md.

export const DIRS = [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]];
export const DIR_NAMES = ['E', 'SE', 'SW', 'W', 'NW', 'NE'];

export const key = (h) => `${h[0]},${h[1]}`;
export const neighbour = (h, d) => [h[0] + DIRS[((d % 6) + 6) % 6][0], h[1] + DIRS[((d % 6) + 6) % 6][1]];
export const turn = (d, t) => (((d + t) % 6) + 6) % 6;

/** Centre of a hex in pixels. */
export function centre(h, size) {
  return [size * Math.sqrt(3) * (h[0] + h[1] / 2), size * 1.5 * h[1]];
}

/** The six corners of a hex (pointy top), clockwise from the north-east end of its east edge.
 * `size` places the cell (the grid's hex size); `radius` (default `size`) is the drawn hex's
 * own size: a smaller radius draws a shrunken hex around the same centre as the cell's. */
export function corners(h, size, radius = size) {
  const [x, y] = centre(h, size);
  const out = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 30);
    out.push([x + radius * Math.cos(a), y + radius * Math.sin(a)]);
  }
  return out;
}

/** The two corners of the edge of `h` in direction `d` (d = 0 is the east edge). */
export function edge(h, d, size) {
  const c = corners(h, size);
  // corner i sits at angle 60i-30: the east edge (angle 0) lies between corners 0 and 1.
  return [c[d % 6], c[(d + 1) % 6]];
}

/** Angle in degrees of a direction (0 = east, clockwise, as SVG rotates). */
export const angle = (d) => d * 60;

export function polygon(points) {
  return points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
}

/** Bounding box of a set of hexes, with a margin. */
export function bounds(cells, size, margin = 0) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const h of cells) {
    for (const [x, y] of corners(h, size)) {
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
    }
  }
  return [x0 - margin, y0 - margin, x1 - x0 + 2 * margin, y1 - y0 + 2 * margin];
}
