// The Autoscooter rink editor through the UI only (docs/editors.md): the shipped standard rink
// imported and written back byte for byte, and drawn by "Standard rink"; a small rink drawn from scratch (a Shift+drag
// rectangle, a pillar erased) with the 8 start spaces of AS-1.2 placed one by one; the AS-1.2
// error "each of the 8 cars needs one" there with 7 and gone with the 8th; a start space facing
// the barrier marked on its cell and unmarked once turned; undo and redo; the exported file
// accepted by `robodrome board check`; saved (an account), and "Try it" plays a game on it
// against a bot to the end. Screenshot: docs/screenshots/editor-autoscooter.png with
// ROBODROME_UPDATE_SCREENSHOTS=1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { launch, api, playToEnd, expectServerResult, ARTIFACTS, ROOT, SCREENSHOTS, hexGrid } from './helpers.js';

const { cell, click, rect } = hexGrid('svg.as-editor', 18);
const hex = (x, r) => cell(x, r).join(',');
/** The validation answer to the current text is in: `ok` (true, false) once it is. */
async function checked(page, ok) {
  await page.waitForFunction((want) => {
    const s = document.querySelector('#editor-status');
    return s && s.dataset.ok === String(want) && !/checking/.test(s.textContent);
  }, ok, { timeout: 10000 }).catch(async () => {
    assert.fail(`validation is not ${ok}: ${await page.locator('#editor-status').textContent()} ${await page.locator('#findings').textContent()}`);
  });
}
const findings = (page) => page.locator('#findings .finding').allTextContents();

test('an Autoscooter rink drawn in the editor, validated, exported, saved and played on', async () => {
  const b = await launch();
  try {
    const page = await b.page({ anim: 'off', name: 'Rina' });
    const username = `rina_${Math.floor(1000 + Math.random() * 9000)}`;
    await page.goto('/#/account');
    await page.fill('#signup-username', username);
    await page.fill('#signup-password', 'correct horse');
    await page.click('#sign-up');
    // Password hashing (argon2id) in a debug build on a busy machine can take a while.
    await page.waitForFunction(() => /#\/player\//.test(location.hash), null, { timeout: 60000 });
    await page.click('a[data-nav="editor"]');
    await page.click('a[data-editor="autoscooter"]');
    await page.waitForSelector('svg.as-editor polygon.ed-cell');

    // The shipped standard rink (AS-1.1, AS-1.2) imported: drawn whole, clean, and its file kept
    // byte for byte; the editor's own writer gives the same bytes (so does an edit undone).
    const stdFile = join(ROOT, 'crates', 'autoscooter', 'boards', 'standard.json');
    const standard = readFileSync(stdFile, 'utf8');
    await page.setInputFiles('#rink-file', stdFile);
    await page.waitForFunction(() => document.querySelectorAll('polygon.ed-cell.on').length === 38);
    assert.equal(await page.locator('g.ed-start').count(), 8);
    await checked(page, true);
    assert.deepEqual(await findings(page), [], 'the standard rink has no finding');
    assert.equal(await page.locator('#rink-text').inputValue(), standard, 'imported byte for byte');
    const rewritten = await page.evaluate(async (t) => {
      const m = await import('/editor/rink.js');
      return m.writeRink(m.parseRink(t));
    }, standard);
    assert.equal(rewritten, standard, 'the writer lays a rink out as the shipped file');
    // Undo the import: the blank rink again, with its error (no cells).
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => !document.querySelector('polygon.ed-cell.on'));
    await checked(page, false);
    // "Standard rink" draws the booklet's rink from the rule book's board; undone too.
    await page.click('#from-standard');
    await page.waitForFunction(() => document.querySelectorAll('polygon.ed-cell.on').length === 38);
    assert.equal(await page.locator('g.ed-start').count(), 8);
    await checked(page, true);
    assert.deepEqual(await findings(page), []);
    assert.deepEqual(JSON.parse(await page.locator('#rink-text').inputValue()).cells, JSON.parse(standard).cells);
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => !document.querySelector('polygon.ed-cell.on'));

    // From scratch: rows 0..3, columns -1..14 (32 cells), a pillar erased at [3, 1].
    await page.keyboard.press('c');
    await rect(page, [0, 0], [13, 3]);
    await page.keyboard.press('e');
    await click(page, 7, 1);
    await page.fill('#rink-name', 'Pillar');
    await page.locator('#rink-name').dispatchEvent('change');
    await page.locator('#rink-name').blur();
    assert.equal(await page.locator('polygon.ed-cell.on').count(), 31);
    // The barrier around the pillar: its six edges (AS-1.1).
    assert.ok(await page.locator('line.ed-border').count() > 6);

    // Seven start spaces facing east: AS-1.2's error, each car needs one.
    await page.keyboard.press('s');
    for (const [x, r] of [[1, 1], [3, 1], [11, 1], [2, 2], [6, 2], [10, 2], [4, 0]]) await click(page, x, r);
    assert.equal(await page.locator('g.ed-start').count(), 7);
    await checked(page, false);
    assert.ok((await findings(page)).some((f) => /error: 7 start spaces.*\(AS-1\.2\)/.test(f)), `${await findings(page)}`);
    // The eighth at the east end of row 3, facing the barrier: the error is gone, a warning
    // marks its cell.
    await click(page, 13, 3);
    await checked(page, true);
    await page.waitForSelector(`polygon.ed-mark.warning[data-hex="${hex(13, 3)}"]`);
    assert.ok((await findings(page)).some((f) => /start space 7 .* faces the barrier/.test(f)), `${await findings(page)}`);
    await page.screenshot({ path: join(SCREENSHOTS, 'editor-autoscooter.png') });
    // Turned three times (E → SE → SW → W): facing into the rink, unmarked.
    for (let i = 0; i < 3; i++) await click(page, 13, 3);
    await page.waitForSelector(`g.ed-start[data-hex="${hex(13, 3)}"][data-facing="3"]`);
    await checked(page, true);
    assert.equal(await page.locator('polygon.ed-mark').count(), 0, `${await findings(page)}`);
    // Shift+click removes a start space: the error is back; undo puts it back, redo removes it
    // again, undo once more.
    await click(page, 4, 0, { shift: true });
    await checked(page, false);
    await page.keyboard.press('Control+z');
    await page.waitForSelector(`g.ed-start[data-hex="${hex(4, 0)}"]`);
    await checked(page, true);
    await page.keyboard.press('Control+y');
    await checked(page, false);
    await page.keyboard.press('Control+z');
    await checked(page, true);
    // The only finding left: the size (AS-1.1's rink has 38 cells).
    const left = await findings(page);
    assert.equal(left.length, 1, `${left}`);
    assert.match(left[0], /warning: the rink has 31 cells.*\(AS-1\.1\)/);

    // Export: the file `robodrome board check` reads, accepted with no error.
    const text = await page.locator('#rink-text').inputValue();
    const file = join(ARTIFACTS, 'pillar.json');
    writeFileSync(file, text);
    const bin = process.env.ROBODROME_BIN;
    if (bin) {
      const check = spawnSync(bin, ['board', 'check', file], { encoding: 'utf8' });
      assert.equal(check.status, 0, `board check accepts the file: ${check.stdout}${check.stderr}`);
      assert.match(check.stdout + check.stderr, /0 error/);
    }
    const rink = JSON.parse(text);
    assert.equal(rink.name, 'Pillar');
    assert.equal(rink.cells.length, 31);
    assert.deepEqual(rink.starts[7], { at: cell(13, 3), facing: 3 }, 'car 8 faces west');

    // Saved, then "Try it": a practice game on the rink against a bot, played to the end.
    await page.click('#save-board');
    await page.waitForFunction(() => document.querySelector('#share-link').value.includes('#/editor/autoscooter/'));
    const id = (await page.locator('#share-link').inputValue()).split('/').pop();
    assert.equal((await api(`/api/boards/${id}`)).text, text, 'the saved file is the exported one');
    await page.click('#try-board');
    await page.waitForFunction(() => /#\/g\//.test(location.hash));
    const game = await api(`/api/games/${await page.evaluate(() => location.hash.split('/').pop())}`);
    assert.equal(game.practice, true);
    await page.waitForSelector('svg.rink polygon.cell');
    assert.equal(await page.locator('svg.rink polygon.cell').count(), 31, 'the game is on the saved rink');
    await playToEnd(page, { timeoutMs: 120000 });
    await expectServerResult(page, game.id);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
