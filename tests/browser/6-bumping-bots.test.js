// Bumping Bots through the UI only: create a race in the lobby against bots and play speed
// choices, moves (with rotations), orient, shock and magnet answers for a bounded time or to
// the end; the order, laps, bots and log update; no other seat's cards are shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, createFromLobby, ARTIFACTS } from './helpers.js';

// The README's pictures are refreshed only on request (ROBODROME_UPDATE_SCREENSHOTS=1).
const SCREENSHOTS = process.env.ROBODROME_UPDATE_SCREENSHOTS === '1' ? join(ARTIFACTS, '..', '..', '..', 'docs', 'screenshots') : ARTIFACTS;

test('Bumping Bots: a race played through the UI against bots', async () => {
  const b = await launch();
  try {
    const page = await b.page({ anim: 'fast', name: 'Bea' });
    await createFromLobby(page, { game: 'bumping-bots', board: 'oval', players: 3, seats: ['me', 'bot:heuristic', 'bot:random'] });
    await page.waitForSelector('svg.bb-track .bb-cell');
    await page.waitForSelector('.status.mine', { timeout: 30000 });
    assert.ok(await page.locator('.bb-order .bb-chip').count() >= 1, 'the race order is shown');
    const kinds = {};
    let shot = false;
    const t0 = Date.now();
    while (Date.now() - t0 < 30000) {
      if (await page.evaluate(() => document.querySelector('.table-page')?.dataset.phase === 'over')) break;
      if (!(await page.locator('.status.mine').count())) { await page.waitForTimeout(100); continue; }
      const before = await page.evaluate(() => document.querySelector('.table-page')?.dataset.seq);
      let did = null;
      const round = Number(((await page.locator('.bb-order b').textContent().catch(() => '')) || '').replace(/^\D*(\d+).*$/, '$1')) || 0;
      const cardSel = `.cards-row [data-card="engine"], .cards-row [data-card="jumper"]${round >= 3 ? ', .cards-row [data-card="nitro"]' : ''}`;
      if (!kinds.card && await page.locator(cardSel).count()) {
        // A tuning card before the speed choice (boosted engine, jumper, or nitro after round 1).
        await page.locator(cardSel).first().click();
        did = 'card';
      } else if (await page.locator('.controls [data-speed]').count()) {
        const speed = await page.evaluate(() => Number((document.querySelector('.rr-player.me .pstats')?.textContent.match(/speed (?:reverse )?(\d)/) || [])[1] || 0));
        await page.click(speed < 3 ? '[data-speed="accelerate"]' : '[data-speed="keep"]');
        did = 'speed';
      } else if (await page.locator('#do-move').count()) {
        const t = [-1, 0, 0, 1][Math.floor(Math.random() * 4)];
        await page.click(`[data-rot="before:${t}"]`);
        if (!shot && (kinds.move || 0) >= 2) { await page.screenshot({ path: join(SCREENSHOTS, 'bumping-bots.png') }); shot = true; }
        await page.click('#do-move');
        did = 'move';
      } else if (await page.locator('[data-orient]').count()) { await page.click('[data-orient="0"]'); did = 'orient'; }
      else if (await page.locator('[data-shock]').count()) { await page.click('[data-shock="0"]'); did = 'shock'; }
      else if (await page.locator('#magnet-no').count()) { await page.click('#magnet-no'); did = 'magnet'; }
      else if (await page.locator('.controls [data-card]').count()) { await page.locator('.controls [data-card]').first().click(); did = 'card'; }
      if (did) {
        kinds[did] = (kinds[did] || 0) + 1;
        await page.waitForFunction((x) => document.querySelector('.table-page')?.dataset.seq !== x, before, { timeout: 10000 }).catch(() => {});
      }
      await page.waitForTimeout(50);
    }
    console.log(`Bumping Bots decisions through the UI: ${JSON.stringify(kinds)}`);
    assert.ok((kinds.speed || 0) >= 3 && (kinds.move || 0) >= 3, JSON.stringify(kinds));
    assert.ok(shot, 'a screenshot was taken');
    const log = await page.locator('.log li').allTextContents();
    assert.ok(log.some((l) => /at speed/.test(l)), 'speed choices in the log');
    // Other bots' cards are never listed: only a count.
    const others = await page.locator('.rr-player:not(.me) .pstats').allTextContents();
    assert.ok(others.every((t) => /cards \d+/.test(t)), others.join(' | '));
    // Phone-sized: the table still fits without sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(200);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `no horizontal scrolling on a phone (${overflow}px)`);
    await page.screenshot({ path: join(ARTIFACTS, 'bumping-bots-phone.png') });
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.close();
  }
});
