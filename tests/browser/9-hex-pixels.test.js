// A pixel-level check of the hex drawing (web/hex.js): every highlighted, shrunken hex of the
// Autoscooter rink (the start targets of AS-5.4 and the move preview's hexes) is drawn centred
// on the cell it marks, within 1 px on the screen, and the facing arrows start at the chosen
// hex's centre; the crash burst grows around the crash. Positions come from a golden scenario
// file played by `robodrome scenario --view` on the standard rink (whose hexes lie far from hex
// [0,0], where a shrunken centre would show).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, ARTIFACTS } from './helpers.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = process.env.ROBODROME_BIN || join(ROOT, 'target', 'debug', 'robodrome');
const FILE = JSON.parse(readFileSync(join(ROOT, 'crates', 'autoscooter', 'tests', 'golden', 'as-1.2-standard-rink-start.json'), 'utf8'));

/** The engine's view for seat 0 after `actions` (`robodrome scenario --view 0`). */
function viewAfter(actions) {
  const doc = { ...FILE, actions };
  delete doc.expect;
  const r = spawnSync(BIN, ['scenario', '--view', '0', '-'], { input: JSON.stringify(doc), encoding: 'utf8' });
  assert.equal(r.status, 0, `robodrome scenario: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

async function draw(page, out, speed = 0) {
  await page.evaluate(async ([sd, v, sp]) => {
    const mod = (await import('/games/index.js')).gameModule('autoscooter');
    if (window.testTable) window.testTable.destroy();
    const box = document.getElementById('test-table') || document.body.appendChild(Object.assign(document.createElement('div'), { id: 'test-table' }));
    box.replaceChildren();
    box.style.width = '900px';
    const el = (cls) => box.appendChild(Object.assign(document.createElement('div'), { className: cls }));
    const [board, controls, players] = [el('board-area'), el('panel controls'), el('panel players-panel')];
    window.testTable = mod.createTable({
      board, controls, players, setup: null, static: sd, names: (s) => `Seat ${s + 1}`, mySeats: [0], replay: false,
      speed: () => sp, say: () => {}, presence: () => null, act: async () => true,
    });
    window.testTable.show(v);
  }, [out.static, out.view, speed]);
}

/** Screen centres (bounding boxes) of the highlighted polygons matching `sel` and of the cells
 * they name in `attr`. */
const centres = (page, sel, attr) => page.evaluate(([s, a]) => {
  const mid = (el) => { const r = el.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
  return [...document.querySelectorAll(`#test-table ${s}`)].map((el) => {
    const cell = document.querySelector(`#test-table polygon.cell[data-hex="${el.getAttribute(a)}"]`);
    return { hex: el.getAttribute(a), at: mid(el), cell: cell ? mid(cell) : null, size: el.getBoundingClientRect().width, cellSize: cell ? cell.getBoundingClientRect().width : 0 };
  });
}, [sel, attr]);

function expectCentred(list, what) {
  assert.ok(list.length > 0, `some ${what} are drawn`);
  for (const c of list) {
    assert.ok(c.cell, `${what} ${c.hex} marks a cell of the rink`);
    assert.ok(c.size < c.cellSize, `${what} ${c.hex} is shrunken (${c.size.toFixed(1)} < ${c.cellSize.toFixed(1)} px)`);
    const d = Math.hypot(c.at[0] - c.cell[0], c.at[1] - c.cell[1]);
    assert.ok(d <= 1, `${what} ${c.hex}: its centre is ${d.toFixed(2)} px from the cell's`);
  }
}

test('Autoscooter: shrunken highlight hexes are centred on their cells (within 1 px); the crash burst stays on the crash', async () => {
  assert.ok(existsSync(BIN), `the robodrome binary (${BIN}) is needed: cargo build`);
  const b = await launch();
  try {
    const page = await b.page({ name: 'Hex' });
    await page.goto('/');
    await page.waitForSelector('#create');
    // AS-5.4: seat 0's stationary car 0 on [1,0] starts; the table highlights its free neighbours.
    const start = viewAfter(FILE.actions.slice(0, 2));
    assert.equal(start.view.waiting.kind, 'start');
    await draw(page, start);
    expectCentred(await centres(page, 'polygon.start-target', 'data-start-hex'), 'start target');
    // The facing arrows of a chosen target start at that hex's centre.
    const target = page.locator('#test-table polygon.start-target').first();
    const hex = await target.getAttribute('data-start-hex');
    await target.dispatchEvent('click');
    const arrows = await page.evaluate((hx) => {
      const cell = document.querySelector(`#test-table polygon.cell[data-hex="${hx}"]`).getBoundingClientRect();
      const svg = document.querySelector('#test-table svg.rink');
      return [...document.querySelectorAll('#test-table .facing-pick line')].map((l) => {
        const p = svg.createSVGPoint();
        p.x = l.x1.baseVal.value; p.y = l.y1.baseVal.value;
        const q = p.matrixTransform(l.getScreenCTM());
        return Math.hypot(q.x - (cell.x + cell.width / 2), q.y - (cell.y + cell.height / 2));
      });
    }, hex);
    assert.equal(arrows.length, 5, 'five facings offered');
    for (const d of arrows) assert.ok(d <= 1, `a facing arrow starts ${d.toFixed(2)} px from the hex's centre`);
    await page.locator('#test-table .board-area').screenshot({ path: join(ARTIFACTS, 'autoscooter-start-targets.png') });
    // Round 2: car 0 moves at speed 1; the preview of a letter marks the hexes it passes.
    const plan = viewAfter(FILE.actions);
    assert.equal(plan.view.waiting.kind, 'plan');
    await draw(page, plan);
    await page.locator('#test-table .numbers button.num:not([disabled])').first().click();
    await page.locator('#test-table .letters button.letter:not([disabled])').last().click();
    expectCentred(await centres(page, 'polygon.path-hex', 'data-hex'), 'preview hex');
    await page.locator('#test-table .board-area').screenshot({ path: join(ARTIFACTS, 'autoscooter-preview.png') });

    // A crash of car 0 into the barrier, animated: the burst grows and fades around the crash,
    // not around the rink's corner (its centre stays on the car's hex while it scales).
    await draw(page, plan, 1);
    const car = plan.view.cars.find((c) => c.car === 0);
    const drift = await page.evaluate(async ([at]) => {
      const cell = document.querySelector(`#test-table polygon.cell[data-hex="${at.join(',')}"]`).getBoundingClientRect();
      const [cx, cy] = [cell.x + cell.width / 2, cell.y + cell.height / 2];
      const playing = window.testTable.play([{ type: 'crash', car: 0, with: null, at, speed: 2, kind: 'barrier' }], window.testTable.view, () => {});
      const seen = [];
      for (let i = 0; i < 8; i++) {
        await new Promise((r) => setTimeout(r, 60));
        const star = document.querySelector('#test-table .boom polygon');
        if (!star) continue;
        const r = star.getBoundingClientRect();
        seen.push({ d: Math.hypot(r.x + r.width / 2 - cx, r.y + r.height / 2 - cy), w: r.width });
      }
      await playing;
      return seen;
    }, [car.at]);
    assert.ok(drift.length >= 3, 'the burst was seen while it played');
    assert.ok(new Set(drift.map((x) => Math.round(x.w))).size > 1, 'the burst scales');
    for (const x of drift) assert.ok(x.d <= 4, `the burst's centre is ${x.d.toFixed(1)} px from the crash`);
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.close();
  }
});
