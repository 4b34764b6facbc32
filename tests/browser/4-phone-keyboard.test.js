// A phone-sized screen: the lobby and the table fit without sideways scrolling, the controls
// are reachable, and a case D start can be made with the keyboard alone (Tab to a highlighted
// hex, Enter, Tab to a facing, Enter).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, createFromLobby, ARTIFACTS } from './helpers.js';

const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test('a phone-sized table, and a start made with the keyboard', async () => {
  const b = await launch();
  try {
    const page = await b.page({ name: 'Pia', viewport: { width: 390, height: 844 } });
    await page.goto('/');
    await page.waitForSelector('#create');
    assert.ok(await overflow(page) <= 1, 'the lobby fits a phone');
    await createFromLobby(page, { players: 2, seats: ['me', 'bot:random'] });
    await page.waitForSelector('.status.mine');
    assert.ok(await overflow(page) <= 1, 'the table fits a phone');
    // Round 1: plot both... every car with the keyboard: → picks a number, Enter commits.
    for (let i = 0; i < 10 && await page.locator('#commit').count(); i++) {
      const before = await page.evaluate(() => document.querySelector('.table-page').dataset.seq);
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      await page.waitForFunction((x) => document.querySelector('.table-page').dataset.seq !== x, before);
    }
    // The cars stand still, so each starts by a case D move when its number comes up.
    await page.waitForSelector('.start-target', { timeout: 20000 });
    await page.screenshot({ path: join(ARTIFACTS, 'autoscooter-phone-start.png') });
    const before = await page.evaluate(() => document.querySelector('.table-page').dataset.seq);
    await page.focus('.start-target');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.facing-pick');
    await page.focus('.facing-pick');
    await page.keyboard.press('Enter');
    await page.waitForFunction((x) => document.querySelector('.table-page').dataset.seq !== x, before);
    assert.match(await page.locator('.log').textContent(), /Car \d starts onto/);
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.close();
  }
});
