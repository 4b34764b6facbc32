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
import { spawnSync } from 'node:child_process';
import { launch, api, expectServerResult, ARTIFACTS, BASE, SCREENSHOTS, hexGrid } from './helpers.js';


const { click, rect } = hexGrid('svg.bb-editor', 16);
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
    // Password hashing (argon2id) in a debug build on a busy machine can take a while.
    await page.waitForFunction(() => /#\/player\//.test(location.hash), null, { timeout: 60000 });
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
    await page.locator('#track-laps').blur();
    const cells = await page.locator('polygon.ed-cell.on').count();
    assert.ok(cells > 150, `a ring of cells is painted (${cells})`);
    // Fixed against the top wall, a mobile crate, a motorised obstacle in the wide top part.
    await page.keyboard.press('f'); await click(page, 20, 0);
    await page.keyboard.press('o'); await click(page, 33, 9);
    await page.keyboard.press('m'); await click(page, 13, 3);
    // The line across the bottom part between q <= 5 and q >= 6 (the W and SW edges of [6, 9]
    // and [6, 10]), the racers going west along it (facing W = 3), two grid places behind it.
    for (let i = 0; i < 3; i++) await page.keyboard.press('r');
    await page.keyboard.press('l');
    await click(page, 21, 9); await click(page, 22, 10);
    await page.keyboard.press('g');
    await click(page, 23, 9); await click(page, 24, 10);
    // A bumper one row from the top wall: a BB-12 error on its cell.
    await page.keyboard.press('b'); await click(page, 29, 1);
    await checked(page);
    await page.waitForSelector('polygon.ed-cell.error');
    const bad = await page.locator('#findings .finding.error').allTextContents();
    assert.ok(bad.some((t) => /bumper/.test(t)), `the bumper's error is listed: ${bad}`);
    // Moved to row 3 (3 cells from every wall): the error disappears.
    await page.keyboard.press('v'); await click(page, 29, 1); await click(page, 29, 3);
    await checked(page);
    await page.waitForFunction(() => document.querySelector('#editor-status').dataset.ok === 'true', null, { timeout: 5000 }).catch(async () => {
      await page.screenshot({ path: join(ARTIFACTS, 'editor-stuck.png') });
      assert.fail(`still invalid: ${await page.locator('#findings').textContent()}\n${await page.locator('#track-text').inputValue()}`);
    });
    assert.equal(await page.locator('polygon.ed-cell.error').count(), 0);
    // The racing line (BB-2.1, docs/bumping-bots-tracks.md): 0 just past the line, 1000 just
    // behind it; the race goes west along the bottom.
    const progress = (hex) => page.locator(`polygon.ed-cell[data-hex="${hex}"]`).getAttribute('data-progress');
    assert.deepEqual([await progress('5,9'), await progress('6,9')], ['0', '1000']);
    for (const kind of ['fixed', 'mobile', 'motorised', 'bumper']) {
      assert.equal(await page.locator(`g.ed-piece.${kind}`).count(), 1, `one ${kind} piece`);
    }
    // Undo brings the bumper back to its bad place; redo moves it again.
    await page.keyboard.press('Control+z');
    await page.waitForSelector('g.ed-piece.bumper[data-hex="14,1"]');
    await page.keyboard.press('Control+y');
    await page.waitForSelector('g.ed-piece.bumper[data-hex="13,3"]');
    await checked(page);
    await page.screenshot({ path: join(SCREENSHOTS, 'editor-bumping-bots.png') });

    // Export: the file `robodrome board check` reads, accepted with no error.
    const text = await page.locator('#track-text').inputValue();
    const file = join(ARTIFACTS, 'ring.track');
    writeFileSync(file, text);
    const bin = process.env.ROBODROME_BIN;
    if (bin) {
      const check = spawnSync(bin, ['board', 'check', file], { encoding: 'utf8' });
      assert.equal(check.status, 0, `board check accepts the file: ${check.stdout}${check.stderr}`);
      assert.match(check.stdout + check.stderr, /0 error/);
    }

    await page.click('#save-board');
    await page.waitForFunction(() => document.querySelector('#share-link').value.includes('#/editor/bumping-bots/'));
    const link = await page.locator('#share-link').inputValue();
    const id = link.split('/').pop();
    const saved = await api(`/api/boards/${id}`);
    assert.equal(saved.text, text, 'the saved file is the exported one');
    if (bin) {
      // The server's picture of the saved board is the one the command line draws of the file.
      const svg = await (await fetch(`${BASE}/api/boards/${id}/picture`)).text();
      const cli = spawnSync(bin, ['board', 'render', 'bumping-bots', file], { encoding: 'utf8' });
      assert.equal(cli.status, 0, cli.stderr);
      assert.equal(svg, cli.stdout, 'the same picture');
    }

    // The lobby's board list offers it (mine), at the version saved.
    await page.goto('/#/');
    await page.selectOption('#new-game', 'bumping-bots');
    await page.waitForSelector(`#new-board option[value="saved:${id}@1"]`, { state: 'attached' });

    // A second context (another guest) opens the share link: the same track; "Try it" there.
    const other = await b.page({ anim: 'fast', name: 'Sam' });
    await other.goto(link.replace(/^https?:\/\/[^/]+/, ''));
    await other.waitForSelector('g.ed-piece.bumper');
    assert.equal(await other.locator('polygon.ed-cell.on').count(), cells);
    assert.equal(await other.locator('#track-text').inputValue(), text, 'the shared file, byte for byte');
    await other.click('#try-board');
    await other.waitForFunction(() => /#\/g\//.test(location.hash));
    const game = await api(`/api/games/${await other.evaluate(() => location.hash.split('/').pop())}`);
    assert.equal(game.practice, true);
    await other.waitForSelector('svg.bb-track .bb-cell');
    assert.equal(await other.locator('svg.bb-track .bb-cell').count(), cells, 'the race is on the saved track');
    await raceToEnd(other);
    await expectServerResult(other, game.id);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

/** The rotations of a move that keep the bot on the track and facing along it (as
 * 6-bumping-bots.test.js steers). */
function steer(page, cells) {
  return page.evaluate((n) => {
    const DIRS = [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]];
    const track = new Set([...document.querySelectorAll('svg.bb-track .bb-cell')].map((c) => c.dataset.hex));
    const me = document.querySelector('svg.bb-track .bb-bot.me');
    const step = (p, d) => [p[0] + DIRS[d][0], p[1] + DIRS[d][1]];
    const on = (p) => track.has(`${p[0]},${p[1]}`);
    const turn = (d, t) => (d + t + 6) % 6;
    const choices = [[0, 0], [0, 1], [0, -1]];
    if (n > 1) choices.push([1, 0], [-1, 0]);
    let best = [0, 0];
    let bestScore = -1;
    for (const [before, after] of choices) {
      let p = me.dataset.at.split(',').map(Number);
      let f = Number(me.dataset.facing);
      let score = 0;
      for (let i = 1; i <= n; i++) {
        if (i === n) f = turn(f, before);
        p = step(p, f);
        if (!on(p)) { score = -1; break; }
      }
      if (score < 0) continue;
      f = turn(f, after);
      for (let q = step(p, f); on(q) && score < 4; q = step(q, f)) score++;
      if (score > bestScore) { bestScore = score; best = [before, after]; }
    }
    return best;
  }, cells);
}

/** Race through the UI to the end: speed up to 3, steer along the track, first answers to the
 * rest (as 6-bumping-bots.test.js, without its checks). */
async function raceToEnd(page) {
  const t0 = Date.now();
  for (;;) {
    if (await page.locator('[data-testid="result"]:not([hidden])').count()) return;
    assert.ok(Date.now() - t0 < 90000, 'the race ends within 90 s');
    if (!(await page.locator('.status.mine').count())) { await page.waitForTimeout(100); continue; }
    const before = await page.evaluate(() => document.querySelector('.table-page')?.dataset.seq);
    const stats = await page.locator('.rr-player.me .pstats').textContent();
    const speed = Number((stats.match(/speed (?:reverse )?(\d)/) || [])[1] || 0);
    let did = true;
    if (await page.locator('.controls [data-card]').count() && await page.locator('.status', { hasText: 'pick a card' }).count()) {
      await page.click('.controls [data-card]');
    } else if (await page.locator('.controls [data-speed]').count()) {
      await page.keyboard.press(speed < 3 ? 'a' : 'k');
    } else if (await page.locator('#do-move').count()) {
      const cells = Number((await page.locator('.controls .pick-title b').textContent()).match(/\d+/)[0]);
      const [bl, af] = await steer(page, cells);
      await page.click(`[data-rot="before:${bl}"]`);
      await page.click(`[data-rot="after:${af}"]`);
      await page.keyboard.press('Enter');
    } else if (await page.locator('[data-orient]').count()) {
      const [, t] = await steer(page, 0);
      await page.click(`[data-orient="${t}"]`);
    } else if (await page.locator('#shock-go').count()) {
      await page.click('#shock-go');
    } else if (await page.locator('#magnet-no').count()) {
      await page.click('#magnet-no');
    } else did = false;
    if (did) await page.waitForFunction((x) => document.querySelector('.table-page')?.dataset.seq !== x, before, { timeout: 15000 }).catch(() => {});
    else await page.waitForTimeout(100);
  }
}
