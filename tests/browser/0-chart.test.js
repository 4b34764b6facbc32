// The client draws the car chart and the log sheet's columns to help choosing (the server
// decides); they must be the engine's own: compare with crates/autoscooter/src/chart.rs and
// sheet.rs, and the board the client falls back on with boards/standard.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// The game module touches the DOM only when drawing: a bare stand-in is enough to import it.
globalThis.document = { createElementNS() {}, createElement() {} };
const mod = await import(join(root, 'web/games/autoscooter.js'));

test('the client\'s car chart is chart.rs\'s', () => {
  const rs = readFileSync(join(root, 'crates/autoscooter/src/chart.rs'), 'utf8');
  const rows = [...rs.matchAll(/ChartMove \{ steps: &\[([-\d, ]+)\], end: (-?\d+) \},\s*\/\/\s*([A-P])\b/g)];
  assert.equal(rows.length, 16);
  rows.forEach((m, i) => {
    const steps = m[1].split(',').map((x) => Number(x.trim()));
    assert.deepEqual(mod.CHART[i], [steps, Number(m[2])], `letter ${m[3]}`);
  });
});

test('the client\'s number columns are sheet.rs\'s', () => {
  assert.deepEqual(mod.column(0), [1, 12, 23, 26, 37, 48, 51, 62, 65, 76, 87]);
  assert.deepEqual(mod.column(1), [2, 13, 24, 27, 38, 41, 52, 63, 66, 77, 88]);
  const all = new Set([0, 1, 2, 3, 4, 5, 6, 7].flatMap((c) => mod.column(c)));
  assert.equal(all.size, 88);
});

test('a previewed path follows the hex directions (pointy-top axial, 0 = E clockwise)', () => {
  // J from [0,0] facing E: two hexes east, still facing E.
  assert.deepEqual(mod.pathOf([0, 0], 0, 'J'), { hexes: [[1, 0], [2, 0]], facing: 0, steps: [0, 0] });
  // M facing SE (1): SE then SW, ending facing SW.
  assert.deepEqual(mod.pathOf([0, 0], 1, 'M').hexes, [[0, 1], [-1, 2]]);
  // A facing W: one hex west, nose turned 120° left (to SE... W=3, 3-2=1).
  assert.deepEqual(mod.pathOf([2, 2], 3, 'A'), { hexes: [[1, 2]], facing: 1, steps: [3] });
});

test('the fallback board is boards/standard.json', () => {
  const std = JSON.parse(readFileSync(join(root, 'crates/autoscooter/boards/standard.json'), 'utf8'));
  const b = mod.default.boardOf(null);
  assert.deepEqual(b.cells, std.cells);
  assert.deepEqual(b.starts, std.starts);
});
