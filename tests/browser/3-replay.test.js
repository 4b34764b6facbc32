// The replay steps match the log: step by step, the table shows each step's view and the log
// shows each step's events; a link opens a replay position.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, api, allSteps, createFromLobby, ARTIFACTS } from './helpers.js';

const SIZE = 40;
const centre = ([q, r]) => [SIZE * Math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r];

test('replay steps match the server\'s log, forwards, backwards and by link', async () => {
  const b = await launch();
  try {
    const page = await b.page({ name: 'Rita' });
    const id = await createFromLobby(page, { players: 2, seats: ['bot:random', 'bot:heuristic'], variants: ['jolting'] });
    // A bots-only game plays by itself; watch it end.
    for (let i = 0; i < 600; i++) {
      const info = await api(`/api/games/${id}`);
      if (info.status === 'finished') break;
      await page.waitForTimeout(200);
    }
    const rec = await api(`/api/games/${id}/replay`);
    const steps = (await allSteps(id)).steps;
    assert.equal(steps.length, rec.log.length + 1, 'one step per log entry, and the start');

    await page.goto('/');
    await page.click(`[data-list="finished"] [data-game="${id}"] [data-action="replay"]`);
    await page.waitForSelector('.replay-controls');
    await page.waitForFunction((n) => document.querySelector('.table-page')?.dataset.step === String(n), steps.length - 1);

    const check = async (n) => {
      await page.waitForFunction((k) => document.querySelector('.table-page')?.dataset.step === String(k), n);
      const shown = await page.evaluate(() => ({
        lines: [...document.querySelectorAll('.log li')].filter((li) => !li.hidden).map((li) => Number(li.dataset.seq)),
        cars: [...document.querySelectorAll('.cars .car')].map((el) => [Number(el.dataset.car), el.style.transform]),
        hash: location.hash,
      }));
      const want = steps.slice(0, n + 1).reduce((k, s) => k + s.events.length, 0);
      assert.equal(shown.lines.length, want, `step ${n}: the log shows the events up to it`);
      assert.ok(shown.lines.every((s) => s <= n));
      for (const c of steps[n].view.cars) {
        const [x, y] = centre(c.at);
        const t = shown.cars.find(([k]) => k === c.car)[1];
        const m = t.match(/translate\(([-\d.]+)px, ([-\d.]+)px\)/);
        assert.ok(m, t);
        assert.ok(Math.abs(Number(m[1]) - x) < 0.5 && Math.abs(Number(m[2]) - y) < 0.5, `step ${n}: car ${c.car} at ${c.at}`);
      }
      assert.ok(shown.hash.endsWith(`?step=${n}`), shown.hash);
    };
    await check(steps.length - 1);
    await page.keyboard.press('Home');
    await check(0);
    for (let n = 1; n <= 6; n++) {
      await page.keyboard.press('ArrowRight');
      await check(n);
    }
    await page.keyboard.press('ArrowLeft');
    await check(5);
    // The step where the first round's cars move: every move event of it is in the log.
    const reveal = steps.findIndex((s) => s.events.some((e) => e.type === 'moved'));
    const link = `/#/replay/${id}?step=${reveal}`;
    await page.goto('/');
    await page.goto(link);
    await page.waitForSelector('.replay-controls');
    await check(reveal);
    const moves = await page.locator(`.log li[data-seq="${reveal}"][data-type="moved"]`).count();
    assert.equal(moves, steps[reveal].events.filter((e) => e.type === 'moved').length);
    await page.screenshot({ path: join(ARTIFACTS, 'autoscooter-replay.png') });
    // The rules drawer opens over the replay too (issue 21 item 1): the replay stays at its step.
    await page.click('#open-rules');
    await page.locator('[data-testid="rules-drawer"] .rules-page').waitFor();
    await page.click('#close-rules');
    assert.equal(await page.locator('[data-testid="rules-drawer"]').count(), 0, 'the drawer closes');
    await check(reveal);
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.close();
  }
});
