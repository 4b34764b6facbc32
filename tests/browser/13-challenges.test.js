// Challenges in the browser (docs/platform.md "Challenges and bot accounts"): Alice and Bob sign
// up; Alice challenges Bob from his profile (the game and a real-time clock); the challenge is
// in both lobbies (Bob's with Accept and Decline, Alice's with Cancel); Bob declines and it goes
// from both; Alice challenges again with "1 day per move", Bob accepts and lands at the table of
// the new game, which is turn-based and in Alice's "My games". A guest is told that a challenge
// needs an account.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, api, signUp } from './helpers.js';

async function challenge(page, bob, clock) {
  await page.goto(`/#/player/${bob.id}`);
  await page.selectOption('#challenge-game', 'autoscooter');
  await page.selectOption('#challenge-clock', clock);
  await page.click('#challenge');
  await page.waitForFunction(() => /Challenge sent/.test(document.querySelector('#challenge-status')?.textContent || ''));
}

test('challenge a player from the profile; accept and decline in the lobby', async () => {
  const b = await launch();
  try {
    const alice = await b.page({ name: 'Alice' });
    const bob = await b.page({ name: 'Bob' });
    await signUp(alice, 'alice');
    const bobMe = await signUp(bob, 'bob');

    await challenge(alice, bobMe, '');
    await bob.goto('/');
    const incoming = bob.locator('.list-challenges li[data-direction="in"]');
    await incoming.waitFor();
    assert.match(await incoming.textContent(), /Alice challenges you: Autoscooter, real-time/);
    await alice.goto('/');
    await alice.locator('.list-challenges li[data-direction="out"] [data-action="cancel"]').waitFor();
    await incoming.locator('[data-action="decline"]').click();
    await bob.waitForSelector('.list-challenges', { state: 'hidden' });
    await alice.waitForSelector('.list-challenges', { state: 'hidden' }); // the lobby polls every 3 s

    await challenge(alice, bobMe, '86400');
    await bob.goto('/');
    await bob.locator('.list-challenges li[data-direction="in"]', { hasText: '1 day per move' }).locator('[data-action="accept"]').click();
    await bob.waitForFunction(() => /^#\/g\//.test(location.hash));
    const id = await bob.evaluate(() => location.hash.replace(/^#\/g\//, ''));
    await bob.waitForSelector('.status.mine', { timeout: 20000 });
    const game = await api(`/api/games/${id}`);
    assert.equal(game.status, 'running');
    assert.deepEqual(game.seats.map((s) => s.name), ['Alice', 'Bob'], 'the challenger sits first');
    await alice.goto('/');
    await alice.locator(`.list-turns [data-game="${id}"]`).waitFor();
    await alice.locator(`.list-mine [data-game="${id}"]`).waitFor();

    // A guest may look but not challenge: the server's sentence says why.
    const gus = await b.page({ name: 'Gus' });
    await gus.goto('/');
    await gus.goto(`/#/player/${bobMe.id}`);
    await gus.click('#challenge');
    await gus.waitForFunction(() => /needs an account/.test(document.querySelector('#challenge-status')?.textContent || ''));
    assert.deepEqual(b.errors.filter((e) => !/403/.test(e)), [], 'no console errors');
  } finally {
    await b.close();
  }
});
