// Two browser contexts play one game against each other via the invite link; a spectator sees
// no plot; a reload in the middle of the game resumes it; the connection loss is shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, api, createFromLobby, playOneMove, ARTIFACTS } from './helpers.js';

test('two players via the invite link, a spectator, a reload and a lost connection', async () => {
  const b = await launch();
  try {
    const alice = await b.page({ name: 'Alice' });
    const id = await createFromLobby(alice, { players: 2, seats: ['me', 'open'], variants: ['beginners'], timer: 120 });
    await alice.waitForSelector('.invite-url');
    const invite = await alice.inputValue('.invite-url');
    assert.ok(invite.includes(id), invite);

    const bob = await b.page({ name: 'Bob' });
    await bob.goto(invite.replace(/^https?:\/\/[^/]+/, ''));
    await bob.click('#join');
    await alice.waitForSelector('.status.mine', { timeout: 20000 });
    await bob.waitForSelector('.status.mine', { timeout: 20000 });
    // The planning timer counts down for both, and says whom it runs for (both seats plot).
    await alice.waitForSelector('.timer:not([hidden])');
    assert.match(await alice.locator('.timer').textContent(), /^⏳ you, .+: \d+ s$/);
    assert.equal(await alice.locator('.timer').getAttribute('data-for'), '0,1');
    await bob.waitForSelector('.players-panel [data-seat="0"] .pclock', { timeout: 5000 }); // a clock on each waiting player's row

    // Bob plots his first car with the keyboard only: → picks a number, Enter commits
    // (cars start stationary, so round 1 needs no letter).
    await bob.keyboard.press('ArrowRight');
    await bob.waitForSelector('.num.on');
    await bob.keyboard.press('Enter');
    await bob.waitForSelector('.plot-chip');

    // A spectator: a third context opening the same link without taking a seat.
    const eve = await b.page({ name: 'Eve' });
    const frames = [];
    eve.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(String(f.payload))));
    await eve.goto(`/#/g/${id}`);
    await eve.waitForSelector('.players .player');
    await eve.waitForSelector('text=You are watching');

    // Alice plots one car: Bob sees that she committed (not what), Eve too.
    assert.equal(await playOneMove(alice), 'plot');
    await alice.waitForSelector('.plot-chip');
    const plotted = await alice.locator('.plot-chip').first().textContent();
    await bob.waitForFunction(() => document.querySelector('.log')?.textContent.includes('Alice committed car'));
    await eve.waitForFunction(() => document.querySelector('.log')?.textContent.includes('Alice committed car'));
    const bobSees = await bob.locator('.plot-chip').allTextContents();
    assert.equal(bobSees.length, 1, 'Bob sees his own plot only');
    // Cars are dealt by lot (AS lots), so Bob's car is known only as "not the one Alice plotted".
    const car = (chip) => chip.split(':')[0];
    assert.ok(/^Car \d+:/.test(bobSees[0]) && car(bobSees[0]) !== car(plotted), `Bob sees no plot of Alice: ${bobSees} (hers: ${plotted})`);
    assert.equal(await eve.locator('.plot-chip').count(), 0, 'Eve sees no plot');
    assert.equal(await eve.locator('.controls .num').count(), 0, 'a spectator has no controls');

    // Reload in the middle of planning: Alice's table comes back with her plot and her turn.
    await alice.reload();
    await alice.waitForSelector('.plot-chip');
    assert.equal(await alice.locator('.plot-chip').first().textContent(), plotted);
    await alice.waitForSelector('.status.mine');

    // Play both sides to the end through the UI.
    const t0 = Date.now();
    let round3 = false;
    while (Date.now() - t0 < 240000) {
      const done = await alice.locator('[data-testid="result"]:not([hidden])').count() && await bob.locator('[data-testid="result"]:not([hidden])').count();
      if (done) break;
      let did = false;
      for (const p of [alice, bob]) {
        const before = await p.evaluate(() => document.querySelector('.table-page')?.dataset.seq);
        if (await playOneMove(p)) {
          did = true;
          await p.waitForFunction((x) => document.querySelector('.table-page')?.dataset.seq !== x, before, { timeout: 10000 }).catch(() => {});
        }
      }
      if (!round3 && (await alice.locator('.round b').textContent()).includes('4')) {
        round3 = true;
        // A connection loss in the middle of the game is shown, then healed by itself.
        await alice.context().setOffline(true);
        await alice.evaluate(() => window.dispatchEvent(new Event('offline')));
        await alice.waitForSelector('#netbar:not([hidden])', { timeout: 20000 });
        assert.match(await alice.locator('#netbar').textContent(), /Connection lost/);
        assert.ok(await alice.locator('.table-page.offline').count(), 'the table shows it is offline');
        await alice.context().setOffline(false);
        await alice.waitForSelector('#netbar', { state: 'hidden', timeout: 30000 });
        await eve.screenshot({ path: join(ARTIFACTS, 'autoscooter-spectator.png') });
      }
      if (!did) await alice.waitForTimeout(100);
    }
    const info = await api(`/api/games/${id}`);
    assert.equal(info.status, 'finished');
    for (const p of [alice, bob, eve]) {
      await p.waitForSelector('[data-testid="result"]:not([hidden])');
      const shown = JSON.parse(await p.locator('[data-testid="result"]').getAttribute('data-scores'));
      assert.deepEqual(shown, info.outcome.scores);
    }
    // No frame to the spectator carried a plot before the numbers were revealed.
    const leaked = frames.map((f) => JSON.parse(f)).filter((m) => m.view && m.view.plots && m.view.plots.length);
    assert.equal(leaked.length, 0, 'the spectator never received a plot');
    assert.ok(frames.some((f) => f.includes('"committed"')), 'the spectator saw commitments');
    // The table asks for views only when they changed (docs/protocol.md): a commitment that
    // changes nothing the spectator sees comes without a view, and the table kept its own.
    assert.ok(frames.map((f) => JSON.parse(f)).some((m) => m.type === 'update' && !('view' in m)), 'an update without a view reached the spectator');
    assert.deepEqual(b.errors.filter((e) => !/WebSocket|ERR_INTERNET_DISCONNECTED|net::/.test(e)), [], 'no console errors');
  } finally {
    await b.close();
  }
});
