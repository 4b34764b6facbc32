// Create a game from the lobby and play it to the end against bots through the UI only; the
// result shown must match the server's. Screenshots of the table at telling moments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, api, createFromLobby, playToEnd, expectServerResult, expectFitsPhone, ARTIFACTS } from './helpers.js';

test('a game created in the lobby is played to the end against bots through the UI', async () => {
  const b = await launch();
  try {
    const page = await b.page({ anim: 'fast', name: 'Ada' });
    const id = await createFromLobby(page, { players: 3, seats: ['me', 'bot:heuristic', 'bot:random'], variants: ['wild_car', 'colour_scoring'] });
    assert.match(id, /^[0-9a-f]+$/);
    await page.waitForSelector('.status.mine', { timeout: 30000 });
    // The lobby lists the game as running.
    const running = await api('/api/games?status=running');
    assert.ok(running.some((g) => g.id === id), 'the game runs on the server');

    let shot = false;
    const { moves, kinds } = await playToEnd(page, {
      onMove: async (n) => {
        // A telling moment: in round 3, a number and a letter chosen and the move previewed.
        if (shot) return;
        const round = await page.evaluate(() => Number((document.querySelector('.round b')?.textContent || '').replace(/\D/g, '')));
        if (round < 3 || !(await page.locator('#commit').count()) || !(await page.locator('.controls .num:not(:disabled)').count())) return;
        const speedOk = await page.locator('.controls .letter:not(:disabled)').count();
        if (!speedOk) return;
        await page.locator('.controls .num:not(:disabled)').first().click();
        const bend = page.locator('.controls .letter[data-letter="M"]:not(:disabled)');
        if (await bend.count()) await bend.click(); else await page.locator('.controls .letter:not(:disabled)').nth(4).click();
        // The engine's preview: the ghost car where the move ends (a move blocked at its first
        // hex has no path line to draw).
        await page.waitForSelector('.ghost-car');
        await page.screenshot({ path: join(ARTIFACTS, 'autoscooter-plan.png') });
        shot = true;
      },
    });
    assert.ok(moves >= 22, `played ${moves} moves`);
    assert.ok(kinds.plot >= 22 && kinds.start >= 1, JSON.stringify(kinds));
    console.log(`moves through the UI: ${JSON.stringify(kinds)}`);
    assert.ok(shot, 'a screenshot of a previewed move was taken');
    await expectServerResult(page, id);
    await page.screenshot({ path: join(ARTIFACTS, 'autoscooter-over.png') });
    // Phone-sized: the finished table still fits and shows the result.
    await expectFitsPhone(page, 'autoscooter-phone.png');
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.close();
  }
});
