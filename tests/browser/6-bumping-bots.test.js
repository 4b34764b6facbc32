// Bumping Bots through the UI only: create a short race in the lobby (the oval, one lap, tuning
// cards chosen: the `choose_cards` variant) against a heuristic bot and race it to the end: a
// card picked and played, speeds chosen (up to 3), moves steered along the track by a simple
// rule (the rotation that keeps the next cells on the track), orient, shock and magnet answers.
// The order, laps, bots and log update; no other seat's cards are shown; the result shown must
// be the server's record of the finished race.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, createFromLobby, expectServerResult, expectFitsPhone, ARTIFACTS, SCREENSHOTS } from './helpers.js';

// The README's pictures are refreshed only on request (ROBODROME_UPDATE_SCREENSHOTS=1).
const MAX_ROUNDS = 60;

/** The rotations of a move that keep the bot on the track and facing along it. */
function steer(page, cells) {
  return page.evaluate((n) => {
    const DIRS = [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]];
    const track = new Set([...document.querySelectorAll('svg.bb-track .bb-cell')].map((c) => c.dataset.hex));
    const me = document.querySelector('svg.bb-track .bb-bot.me');
    const step = (p, d) => [p[0] + DIRS[d][0], p[1] + DIRS[d][1]];
    const on = (p) => track.has(`${p[0]},${p[1]}`);
    const turn = (d, t) => (d + t + 6) % 6;
    // n = 0: no move, only the turn after (the orient question).
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
      // Then: how many cells straight ahead stay on the track (a straight move wins ties).
      for (let q = step(p, f); on(q) && score < 4; q = step(q, f)) score++;
      if (score > bestScore) { bestScore = score; best = [before, after]; }
    }
    return best;
  }, cells);
}

test('Bumping Bots: a one-lap race with chosen cards played to the end through the UI', async () => {
  const b = await launch();
  try {
    const page = await b.page({ anim: 'fast', name: 'Bea' });
    const id = await createFromLobby(page, { game: 'bumping-bots', board: 'oval', players: 2, seats: ['me', 'bot:heuristic'], variants: ['choose_cards', 'laps'] });
    await page.waitForSelector('svg.bb-track .bb-cell');
    await page.waitForSelector('.status.mine', { timeout: 30000 });
    assert.ok(await page.locator('.bb-order .bb-chip').count() >= 1, 'the race order is shown');
    assert.match(await page.locator('.bb-order b').textContent(), /· 1 lap ·/, 'a one-lap race');
    const kinds = {};
    let shot = false;
    let boosted = false;
    const t0 = Date.now();
    for (;;) {
      if (await page.locator('[data-testid="result"]:not([hidden])').count()) break;
      const round = Number(((await page.locator('.bb-order b').textContent().catch(() => '')) || '').replace(/^\D*(\d+).*$/, '$1')) || 0;
      if (round > MAX_ROUNDS || Date.now() - t0 > 200000) {
        await page.screenshot({ path: join(ARTIFACTS, 'bumping-bots-stuck.png') });
        assert.fail(`the race did not end within ${MAX_ROUNDS} rounds / 200 s (round ${round}, ${JSON.stringify(kinds)}): ${await page.locator('.status').textContent()}`);
      }
      if (!(await page.locator('.status.mine').count())) { await page.waitForTimeout(100); continue; }
      const before = await page.evaluate(() => document.querySelector('.table-page')?.dataset.seq);
      const stats = await page.locator('.rr-player.me .pstats').textContent();
      const speed = Number((stats.match(/speed (?:reverse )?(\d)/) || [])[1] || 0);
      let did = null;
      if (await page.locator('.controls [data-card]').count() && await page.locator('.status', { hasText: 'pick a card' }).count()) {
        // choose_cards (BB-3): pick the boosted engine from the offer.
        await page.click('.controls [data-card="engine"]');
        did = 'pick';
      } else if (!kinds.card && round >= 2 && await page.locator('.cards-row [data-card="engine"]').count()) {
        // The picked card, played before the speed choice (BB-9).
        await page.click('.cards-row [data-card="engine"]');
        did = 'card';
        boosted = true;
      } else if (await page.locator('.controls [data-speed]').count()) {
        // Speed up to 3, then keep it (letters on the keyboard, never digits that read like
        // speeds: A accelerates, K keeps).
        await page.keyboard.press(speed < 3 ? 'a' : 'k');
        did = 'speed';
      } else if (await page.locator('#do-move').count()) {
        const cells = Number((await page.locator('.controls .pick-title b').textContent()).match(/\d+/)[0]);
        const [bl, af] = await steer(page, cells);
        await page.click(`[data-rot="before:${bl}"]`);
        await page.click(`[data-rot="after:${af}"]`);
        if (!shot && bl !== 0 && (kinds.move || 0) >= 2) { await page.screenshot({ path: join(ARTIFACTS, 'bumping-bots-move.png') }); shot = true; }
        // The move's length is the engine's: at speed 1–3 as many cells, one more in the turn the
        // boosted engine is played (BB-9.4).
        if (boosted) assert.equal(cells, speed + 1, `a boosted move at speed ${speed}`);
        else assert.ok(cells === speed || cells === speed + 1, `a move of ${cells} cells at speed ${speed}`);
        boosted = false;
        await page.keyboard.press('Enter');
        did = 'move';
      } else if (await page.locator('[data-orient]').count()) {
        // After a collision: the turn that leaves the most track ahead.
        const [, t] = await steer(page, 0);
        await page.click(`[data-orient="${t}"]`);
        did = 'orient';
      }
      else if (await page.locator('#shock-go').count()) {
        // BB-7.4: turn the pushed bot on the first push cell instead of pushing it, when allowed.
        const turn = page.locator('[data-shock="0:1"]');
        if (await turn.count()) { await turn.click(); assert.equal(await page.locator('#shock-go').textContent(), 'Confirm'); did = 'shock-turn'; } else did = 'shock';
        await page.click('#shock-go');
      }
      else if (await page.locator('#magnet-no').count()) { await page.click('#magnet-no'); did = 'magnet'; }
      if (did) {
        kinds[did] = (kinds[did] || 0) + 1;
        const ok = await page.waitForFunction((x) => document.querySelector('.table-page')?.dataset.seq !== x, before, { timeout: 15000 }).then(() => true, () => false);
        if (!ok && !(await page.locator('[data-testid="result"]:not([hidden])').count())) {
          assert.fail(`the server did not take the ${did} (${JSON.stringify(kinds)}): ${await page.locator('#toasts').textContent()}`);
        }
      } else await page.waitForTimeout(100);
    }
    console.log(`Bumping Bots decisions through the UI: ${JSON.stringify(kinds)}`);
    assert.equal(kinds.pick, 1, 'one card picked (one per lap)');
    assert.ok((kinds.speed || 0) >= 3 && (kinds.move || 0) >= 3, JSON.stringify(kinds));
    const log = await page.locator('.log li').allTextContents();
    // A pick is secret (BB-9: only its bot knows it): the log is the public record, so not even
    // my own pick is a line there (it is in my cards).
    assert.ok(!log.some((l) => / picks /.test(l)), 'no pick in the log');
    assert.ok(log.some((l) => /at speed/.test(l)), 'speed choices in the log');
    assert.ok(log.some((l) => /^Race over: /.test(l)), 'the end of the race in the log');
    // Other bots' cards are never listed: only a count.
    const others = await page.locator('.rr-player:not(.me) .pstats').allTextContents();
    assert.ok(others.every((t) => /cards \d+/.test(t)), others.join(' | '));

    // The result shown is the server's record of the finished race.
    const rec = await expectServerResult(page, id);
    const places = await page.locator('.rr-player').evaluateAll((els) => els.map((e) => Number((e.querySelector('.badge')?.textContent.match(/^(\d+)\. place/) || [])[1] || 0)));
    assert.deepEqual(places, rec.final.bots.map((x) => x.finished_place || 0), 'the places shown are the server\'s');
    const winner = await page.locator(`.rr-player[data-seat="${rec.final.ranking[0].seat}"] .pname`).textContent();
    assert.equal((await page.locator('.status').textContent()).replace(/ ★$/, ''), `Game over — ${winner.replace(/ \(you\)$/, '')} wins`);
    assert.ok(await page.locator('.controls').isHidden(), 'no controls once the race is over');
    await page.screenshot({ path: join(SCREENSHOTS, 'bumping-bots.png') });
    // Phone-sized: the table still fits.
    await expectFitsPhone(page, 'bumping-bots-phone.png');
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.close();
  }
});
