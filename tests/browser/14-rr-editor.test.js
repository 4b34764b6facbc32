// The RoboRally editor through the UI only (docs/editors.md): a new 12×12 factory board
// painted cell by cell with every element of RR-2 (conveyors with a turn, express conveyors, a
// pusher with its registers, gears both ways, a laser with two beams, a pit, repair sites, a
// wall), its file checked against the format of docs/roborally-boards.md and accepted by
// `robodrome board check`, the picture the server draws of the saved board the one the command
// line draws of the exported file; a shipped piece's file imported and exported byte for byte;
// the board made into a course with the shipped docking bay, two flags placed, a flag on a pit
// marked on its cell (RR-2) and undone; the course saved, given the bots' difficulty (shown in
// the editor and in my boards' list), and played to the end against a heuristic bot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { launch, api, expectServerResult, ARTIFACTS, BASE, ROOT, SCREENSHOTS } from './helpers.js';

// The README's picture is refreshed only on request (ROBODROME_UPDATE_SCREENSHOTS=1).

/** Click cell [x, y] of the editor's grid (near one of its sides: 'N', 'E', 'S', 'W'): the
 * page position from the grid's own coordinates (40 units a cell), as the editor reads a click. */
async function click(page, x, y, side) {
  await page.locator('svg.rr-editor').scrollIntoViewIfNeeded();
  const off = { N: [0.5, 0.1], E: [0.9, 0.5], S: [0.5, 0.9], W: [0.1, 0.5] }[side] || [0.5, 0.5];
  const [px, py] = await page.evaluate(([gx, gy]) => {
    const svg = document.querySelector('svg.rr-editor');
    const pt = svg.createSVGPoint();
    pt.x = gx * 40; pt.y = gy * 40;
    const p = pt.matrixTransform(svg.getScreenCTM());
    return [p.x, p.y];
  }, [x + off[0], y + off[1]]);
  await page.mouse.click(px, py);
}
const checked = (page, ok = 'true') => page.waitForFunction((want) => {
  const s = document.querySelector('#editor-status');
  return s && s.dataset.ok === want && !/checking/.test(s.textContent);
}, ok, { timeout: 10000 });
const fileText = (page) => page.locator('#rr-text').inputValue();

test('a RoboRally board painted, made into a course with two flags, saved and played against a bot', async () => {
  const b = await launch();
  try {
    const page = await b.page({ anim: 'fast', name: 'Rae' });
    await page.goto('/#/account');
    await page.fill('#signup-username', `rae_${Math.floor(1000 + Math.random() * 9000)}`);
    await page.fill('#signup-password', 'correct horse');
    await page.click('#sign-up');
    await page.waitForFunction(() => /#\/player\//.test(location.hash), null, { timeout: 60000 });
    await page.click('a[data-nav="editor"]');
    await page.click('a[data-editor="roborally"]');
    await page.waitForSelector('svg.rr-editor rect[data-cell="11,11"]');
    await page.fill('#rr-name', 'Test Yard');
    await page.locator('#rr-name').dispatchEvent('change');
    await page.locator('#rr-name').blur();

    // Every element of RR-2 (the direction starts east; R turns it a quarter clockwise).
    await page.keyboard.press('c');
    for (const x of [2, 3, 4]) await click(page, x, 3);
    await click(page, 4, 3); // clicked again: the belt turns in from the right side (S)
    await page.keyboard.press('v');
    for (const x of [2, 3]) await click(page, x, 5);
    await page.keyboard.press('p');
    await click(page, 6, 3);
    await click(page, 6, 3); // again: registers 2-4
    await page.keyboard.press('g');
    await click(page, 8, 3);
    await click(page, 9, 3);
    await click(page, 9, 3); // again: turning left
    await page.keyboard.press('r'); // south
    await page.keyboard.press('l');
    await click(page, 10, 6);
    await click(page, 10, 6); // again: two beams
    await page.keyboard.press('x');
    await click(page, 1, 1);
    await page.keyboard.press('h');
    await click(page, 5, 7);
    await page.keyboard.press('d');
    await click(page, 7, 7);
    await page.keyboard.press('w');
    await click(page, 5, 8, 'N');
    // A dock, then taken off again (the bay brings docks 1..8: a second dock 1 would be an error).
    await page.keyboard.press('k');
    const lastRow = (first) => page.waitForFunction((f) => (document.querySelector('#rr-text').value.split('\n')[14] || '').startsWith(f), first);
    await click(page, 0, 11);
    await lastRow('1 ');
    await click(page, 0, 11);
    await lastRow('. ');
    // Undo takes the last edit back, redo does it again.
    await page.keyboard.press('Control+z');
    await lastRow('1 ');
    await page.keyboard.press('Control+y');
    await lastRow('. ');
    await checked(page);

    // The file, as docs/roborally-boards.md writes each element.
    const text = await fileText(page);
    const rows = text.split('\n');
    assert.equal(rows[0], 'board Test Yard');
    assert.equal(rows[1], 'size 12 12');
    const grid = rows.slice(3, 15).map((r) => r.trim().split(/\s+/));
    const at = (x, y) => grid[y][x];
    assert.deepEqual([at(2, 3), at(3, 3), at(4, 3)], ['>', '>', '>S'], 'conveyors east, the last turning in from S');
    assert.deepEqual([at(2, 5), at(3, 5)], ['>>', '>>'], 'express conveyors');
    assert.equal(at(6, 3), 'P24W', 'a pusher on its W wall pushing east in registers 2 and 4');
    assert.deepEqual([at(8, 3), at(9, 3)], ['GR', 'GL'], 'gears both ways');
    assert.deepEqual([at(1, 1), at(5, 7), at(7, 7), at(5, 8), at(0, 11)], ['X', 'R', 'D', '.:N', '.']);
    assert.ok(rows.includes('laser 10 6 S 2'), `a laser with two beams: ${text}`);
    // The editor draws it with the table's own drawing: belts, a gear, a pusher, a laser.
    for (const sel of ['rect.cell.belt.express', 'rect.cell.pusher', 'circle.gear', 'line.laser-beam', 'line.wall', 'rect.cell.pit']) {
      assert.ok(await page.locator(`svg.rr-editor ${sel}`).count(), `drawn: ${sel}`);
    }
    await page.evaluate(() => { for (const t of document.querySelectorAll('.toast')) t.remove(); window.scrollTo(0, 0); });
    await page.screenshot({ path: join(SCREENSHOTS, 'editor-roborally.png'), fullPage: true });

    // Exported: `robodrome board check` accepts the file.
    const file = join(ARTIFACTS, 'test-yard.txt');
    writeFileSync(file, text);
    const bin = process.env.ROBODROME_BIN;
    if (bin) {
      const check = spawnSync(bin, ['board', 'check', file], { encoding: 'utf8' });
      assert.equal(check.status, 0, `board check accepts the file: ${check.stdout}${check.stderr}`);
    }
    await page.click('#save-board');
    await page.waitForFunction(() => document.querySelector('#share-link').value.includes('#/editor/roborally/'));
    const boardId = (await page.locator('#share-link').inputValue()).split('/').pop();
    assert.equal((await api(`/api/boards/${boardId}`)).text, text, 'the saved file is the exported one');
    if (bin) {
      // The server's picture of the saved board is the one the command line draws of the file.
      const svg = await (await fetch(`${BASE}/api/boards/${boardId}/picture`)).text();
      const cli = spawnSync(bin, ['board', 'render', 'roborally', file], { encoding: 'utf8' });
      assert.equal(cli.status, 0, cli.stderr);
      assert.equal(svg, cli.stdout, 'the same picture');
    }

    // A shipped piece's file (comments and columns as written) imported and shown byte for byte.
    const gearbox = readFileSync(join(ROOT, 'crates', 'roborally', 'boards', 'gearbox.txt'), 'utf8');
    const gearboxFile = join(ARTIFACTS, 'gearbox.txt');
    writeFileSync(gearboxFile, gearbox);
    await page.setInputFiles('#rr-file', gearboxFile);
    await page.waitForFunction(() => /^# Gearbox/.test(document.querySelector('#rr-text').value));
    assert.equal(await fileText(page), gearbox, 'the imported file, byte for byte');
    await page.keyboard.press('Control+z'); // back to Test Yard
    await page.waitForFunction(() => /^board Test Yard/.test(document.querySelector('#rr-text').value));

    // A course: the new board with the shipped docking bay below it, two flags near the docks.
    await page.click('#use-in-course');
    await page.waitForSelector('svg.rr-editor .ed-piece-outline[data-line="3"]');
    await page.fill('#rr-name', 'Yard Dash');
    await page.locator('#rr-name').dispatchEvent('change');
    await page.locator('#rr-name').blur();
    await page.keyboard.press('f');
    await click(page, 4, 10);
    await click(page, 8, 11);
    await checked(page);
    assert.equal(await page.locator('svg.rr-editor g.flag').count(), 2);
    // A third flag on the pit: an error on that cell (RR-2); undone, the course is valid again.
    await click(page, 1, 1);
    await checked(page, 'false');
    await page.waitForSelector('svg.rr-editor rect.ed-mark.error[data-mark="1,1"]');
    assert.match(await page.locator('#findings .finding.error').first().textContent(), /pit/);
    await page.keyboard.press('Control+z');
    await checked(page);
    const course = await fileText(page);
    assert.ok(course.startsWith('course Yard Dash\nplace test-yard 0 0 0\nplace bay 0 12 0\nflag 4 10\nflag 8 11\n'), course);
    assert.ok(course.includes(text), 'the course carries the board it places');
    if (bin) {
      const cfile = join(ARTIFACTS, 'yard-dash.txt');
      writeFileSync(cfile, course);
      const check = spawnSync(bin, ['board', 'check', cfile], { encoding: 'utf8' });
      assert.equal(check.status, 0, `board check accepts the course: ${check.stdout}${check.stderr}`);
    }
    await page.click('#save-board');
    await page.waitForFunction((old) => { const v = document.querySelector('#share-link').value; return v.includes('#/editor/roborally/') && !v.endsWith(old); }, boardId);
    // The bots' difficulty estimate, computed in the background by the server.
    // Bounded by the server: at most 10 s of games begun, then the last one's end (docs/editors.md).
    await page.waitForSelector('#rr-difficulty[data-state="ready"]', { timeout: 60000 });
    assert.match(await page.locator('#rr-difficulty').textContent(), /heuristic bot/);

    // Try it: a practice game on the course against a heuristic bot, played to the end.
    await page.click('#try-board');
    await page.waitForFunction(() => /#\/g\//.test(location.hash));
    const gameId = await page.evaluate(() => location.hash.split('/').pop());
    await page.waitForSelector('svg.course .cell');
    assert.equal(await page.locator('svg.course g.flag').count(), 2, 'the two flags of the course');
    await playToEnd(page);
    await expectServerResult(page, gameId);
    // My boards list the course with the bots' estimate (kept by the server per version).
    await page.goto('/#/editor');
    await page.waitForSelector('.board-card .difficulty[data-state="ready"]', { timeout: 15000 });
    assert.match(await page.locator('.board-card .difficulty[data-state="ready"]').first().textContent(), /heuristic bot/);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

/** Play through the UI until the result: the first cards of the hand, powered up, the first
 * re-entry cell and facing, options declined (or the first given up). */
async function playToEnd(page) {
  const t0 = Date.now();
  for (;;) {
    if (await page.locator('[data-testid="result"]:not([hidden])').count()) return;
    assert.ok(Date.now() - t0 < 60000, 'the game ends within 60 s');
    if (!(await page.locator('.status.mine').count())) { await page.waitForTimeout(100); continue; }
    const before = await page.evaluate(() => document.querySelector('.table-page')?.dataset.seq);
    let did = true;
    if (await page.locator('#submit-program').count()) {
      const free = 5 - await page.locator('.controls .register.locked').count() - await page.locator('.controls .register.filled').count();
      const picks = await page.evaluate((n) => [...document.querySelectorAll('.hand .card:not([disabled])')].slice(0, n).map((c) => c.dataset.priority), free);
      for (const p of picks) await page.click(`.hand .card[data-priority="${p}"]`);
      // A frame may redraw the controls between the clicks: fill what is still empty, as a player would.
      for (let i = 0; i < 6 && await page.locator('#submit-program').isDisabled({ timeout: 1000 }).catch(() => false); i++) {
        const next = page.locator('.hand .card:not([disabled])').first();
        if (!(await next.count())) break;
        await next.click({ timeout: 5000 }).catch(() => {});
      }
      await page.waitForFunction(() => !document.querySelector('#submit-program')?.disabled, null, { timeout: 10000 });
      // The program is taken once its box is gone or the next turn has begun: the updates of the
      // draft's places change the table's seq too, so a new seq alone does not say it (and the
      // next pass would find this turn's box still there and send the program twice).
      const sent = await page.evaluate(() => [document.querySelector('.table-page')?.dataset.seq, document.querySelector('.board-area')?.dataset.turn]);
      await page.click('#submit-program', { timeout: 5000 }).catch(async (e) => {
        // Gone, or a new turn's box: the program was decided meanwhile (a timer, or the frame that
        // ended the phase came first); the loop goes on with whatever the table shows now.
        const turn = await page.evaluate(() => document.querySelector('.board-area')?.dataset.turn);
        if (await page.locator('#submit-program').count() && turn === sent[1]) throw e;
      });
      await page.waitForFunction(([x, t]) => document.querySelector('.table-page')?.dataset.seq !== x
        && !(document.querySelector('#submit-program') && document.querySelector('.board-area')?.dataset.turn === t), sent, { timeout: 15000 }).catch(() => {});
      continue;
    } else if (await page.locator('#power-up').count()) {
      await page.click('#power-up');
    } else if (await page.locator('.reenter-target').count()) {
      await page.locator('.reenter-target').first().dispatchEvent('click');
      const facing = page.locator('.facing-pick, .facings [data-facing]:not([disabled])');
      await facing.first().dispatchEvent('click');
    } else if (await page.locator('.controls [data-question]').count()) {
      await page.click(await page.locator('#decline-option').count() ? '#decline-option' : '.controls [data-option]');
    } else did = false;
    if (did) await page.waitForFunction((x) => document.querySelector('.table-page')?.dataset.seq !== x, before, { timeout: 15000 }).catch(() => {});
    else await page.waitForTimeout(100);
  }
}
