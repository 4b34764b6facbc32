// The Bumping Bots track editor through the UI only (docs/editors.md): a track built from
// scratch (a ring painted with Shift+drag rectangles) with each obstacle kind and a bumper, the
// start/finish line and grid; a BB-12 error appears on the cell of a bumper put too near a wall
// and disappears when the bumper is moved away; saved (an account); the share link opened in a
// second browser context shows the same track; "Try it" there starts a race on it against a bot,
// raced to the end; the exported file is accepted by `robodrome board check`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { launch, api, expectServerResult, ARTIFACTS } from './helpers.js';

const SIZE = 16;
/** The page position of cell [q, r] of the editor's grid (pointy-top axial, hex.js). */
async function at(page, q, r) {
  return page.evaluate(([q, r, size]) => {
    const svg = document.querySelector('svg.bb-editor');
    const pt = svg.createSVGPoint();
    pt.x = size * Math.sqrt(3) * (q + r / 2);
    pt.y = size * 1.5 * r;
    const p = pt.matrixTransform(svg.getScreenCTM());
    return [p.x, p.y];
  }, [q, r, SIZE]);
}
/** Cell of column x (half cells) on row r. */
const cell = (x, r) => [(x - r) / 2, r];

async function click(page, x, r, opts = {}) {
  const [px, py] = await at(page, ...cell(x, r));
  if (opts.shift) await page.keyboard.down('Shift');
  await page.mouse.click(px, py);
  if (opts.shift) await page.keyboard.up('Shift');
}
async function rect(page, [xa, ra], [xb, rb]) {
  const [x1, y1] = await at(page, ...cell(xa, ra));
  const [x2, y2] = await at(page, ...cell(xb, rb));
  await page.keyboard.down('Shift');
  await page.mouse.move(x1, y1);
  await page.mouse.down();
  await page.mouse.move(x2, y2, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
}
const checked = (page) => page.waitForFunction(() => {
  const s = document.querySelector('#editor-status');
  return s && s.dataset.ok && !/checking/.test(s.textContent);
});

test('a Bumping Bots track built in the editor, validated, saved, shared and raced on', async () => {
  const b = await launch();
  try {
    const page = await b.page({ anim: 'off', name: 'Eda' });
    const username = `eda_${Math.floor(1000 + Math.random() * 9000)}`;
    await page.goto('/#/account');
    await page.fill('#signup-username', username);
    await page.fill('#signup-password', 'correct horse');
    await page.click('#sign-up');
    await page.waitForFunction(() => /#\/player\//.test(location.hash));
    await page.click('a[data-nav="editor"]');
    await page.click('a[data-editor="bumping-bots"]');
    await page.waitForSelector('svg.bb-editor polygon.ed-cell');

    // A ring: rows 0..10, columns 0..40 (half cells), with a hole in rows 7..8, columns 8..32.
    await page.keyboard.press('t');
    await rect(page, [0, 0], [40, 10]);
    await page.keyboard.press('e');
    await rect(page, [9, 7], [31, 8]);
    await page.fill('#track-name', 'Ring');
    await page.fill('#track-laps', '1');
    await page.locator('#track-laps').dispatchEvent('change');
    const cells = await page.locator('polygon.ed-cell.on').count();
    assert.ok(cells > 150, `a ring of cells is painted (${cells})`);
    // Fixed against the top wall, a mobile crate, a motorised obstacle in the wide top part.
    await page.keyboard.press('f'); await click(page, 20, 0);
    await page.keyboard.press('o'); await click(page, 34, 9);
    await page.keyboard.press('m'); await click(page, 12, 3);
    // The line across the bottom part, the racers going west along it (facing W = 3), and two
    // grid places behind it.
    for (let i = 0; i < 3; i++) await page.keyboard.press('r');
    await page.keyboard.press('l');
    for (const r of [9, 10]) await click(page, r === 9 ? 21 : 20, r);
    await page.keyboard.press('g');
    await click(page, 23, 9); await click(page, 22, 10);
    // A bumper one row from the top wall: a BB-12 error on its cell.
    await page.keyboard.press('b'); await click(page, 28, 1);
    await checked(page);
    await page.waitForSelector('polygon.ed-cell.error');
    const bad = await page.locator('#findings .finding.error').allTextContents();
    assert.ok(bad.some((t) => /bumper/.test(t)), `the bumper's error is listed: ${bad}`);
    // Moved to row 3 (3 cells from every wall): the error disappears.
    await page.keyboard.press('v'); await click(page, 28, 1); await click(page, 28, 3);
    await checked(page);
    await page.waitForFunction(() => document.querySelector('#editor-status').dataset.ok === 'true');
    assert.equal(await page.locator('polygon.ed-cell.error').count(), 0);
    for (const kind of ['fixed', 'mobile', 'motorised', 'bumper']) {
      assert.equal(await page.locator(`g.ed-piece.${kind}`).count(), 1, `one ${kind} piece`);
    }
    // Undo brings the bumper back to its bad place; redo moves it again.
    await page.keyboard.press('Control+z');
    await page.waitForSelector('g.ed-piece.bumper[data-hex="13,1"]');
    await page.keyboard.press('Control+y');
    await page.waitForSelector('g.ed-piece.bumper[data-hex="12,3"]');
    await checked(page);
    await page.screenshot({ path: join(ARTIFACTS, 'editor-bumping-bots.png') });

    // Export: the file `robodrome board check` reads, accepted with no error.
    const text = await page.locator('#track-text').inputValue();
    const file = join(ARTIFACTS, 'ring.track');
    writeFileSync(file, text);
    if (process.env.ROBODROME_BIN) {
      const out = execFileSync(process.env.ROBODROME_BIN, ['board', 'check', file], { encoding: 'utf8' });
      assert.doesNotMatch(out, /error/, out);
    }

    await page.click('#save-board');
    await page.waitForFunction(() => document.querySelector('#share-link').value.includes('#/editor/bumping-bots/'));
    const link = await page.locator('#share-link').inputValue();
    const id = link.split('/').pop();
    const saved = await api(`/api/boards/${id}`);
    assert.equal(saved.text, text, 'the saved file is the exported one');

    // A second context (another guest) opens the share link: the same track; "Try it" there.
    const other = await b.page({ anim: 'fast', name: 'Sam' });
    await other.goto(link.replace(/^https?:\/\/[^/]+/, ''));
    await other.waitForSelector('g.ed-piece.bumper');
    assert.equal(await other.locator('polygon.ed-cell.on').count(), cells);
    assert.equal(await other.locator('#track-text').inputValue(), text, 'the shared file, byte for byte');
    const game = await other.evaluate(async (bid) => {
      const r = await fetch(`/api/boards/${bid}/try`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      return r.json();
    }, id);
    assert.equal(game.practice, true);
    await other.goto(`/#/g/${game.id}`);
    await other.waitForSelector('svg.bb-track .bb-cell');
    assert.equal(await other.locator('svg.bb-track .bb-cell').count(), cells, 'the race is on the saved track');
    await raceToEnd(other);
    await expectServerResult(other, game.id);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

/** Race through the UI: the speed the engine lists first that is highest, rotations that keep
 * the bot on the track (as 6-bumping-bots.test.js steers), and the first answer otherwise. */
async function raceToEnd(page) {
  const t0 = Date.now();
  for (;;) {
    if (await page.locator('[data-testid="result"]:not([hidden])').count()) return;
    assert.ok(Date.now() - t0 < 40000, 'the race ends within 40 s');
    if (!(await page.locator('.status.mine').count())) { await page.waitForTimeout(100); continue; }
    const before = await page.evaluate(() => document.querySelector('.table-page')?.dataset.seq);
    const buttons = page.locator('.controls button:not([disabled])');
    const n = await buttons.count();
    if (!n) { await page.waitForTimeout(100); continue; }
    await buttons.nth(n - 1).click().catch(() => {});
    await page.waitForFunction((s) => document.querySelector('.table-page')?.dataset.seq !== s || !document.querySelector('.status.mine'), before, { timeout: 5000 }).catch(() => {});
  }
}
