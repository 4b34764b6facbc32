// A turn-based game (docs/platform.md "Turn-based clocks") between two browser contexts: Alice
// signs up and creates it with "1 day per move", Bob joins by the invite link; in the lobby each sees the game
// in "Turn-based games" with the "Your move" marker while they owe a decision, and the tab title
// says "(1) Your move — Robodrome"; once Bob has plotted, his marker goes and Alice's stays until
// she plots too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, createFromLobby, playOneMove, signUp } from './helpers.js';

async function lobbyMarker(page, id) {
  await page.goto('/');
  const row = page.locator(`.list-turns [data-game="${id}"]`);
  await row.waitFor({ timeout: 20000 });
  return row;
}

test('a turn-based game between two contexts shows "your move" in the lobby and the title', async () => {
  const b = await launch();
  try {
    const alice = await b.page({ name: 'Alice' });
    await signUp(alice, 'alice'); // turn-based games need an account (docs/platform.md)
    const id = await createFromLobby(alice, { players: 2, seats: ['me', 'open'], variants: ['beginners'], timer: 'turn:86400' });
    await alice.waitForSelector('.invite-url');
    const invite = await alice.inputValue('.invite-url');
    const bob = await b.page({ name: 'Bob' });
    await bob.goto(invite.replace(/^https?:\/\/[^/]+/, ''));
    await bob.click('#join');
    await bob.waitForSelector('.status.mine', { timeout: 20000 });
    // The clock shows a day (not a real-time timer's seconds).
    await bob.waitForSelector('.timer:not([hidden])');

    // Both owe the first plot: both lobbies mark it and count it in the title.
    for (const p of [alice, bob]) {
      const row = await lobbyMarker(p, id);
      assert.equal(await row.getAttribute('data-your-move'), 'true');
      await row.locator('.tag.your-move').waitFor();
      await p.waitForFunction(() => document.title === '(1) Your move — Robodrome');
    }

    // Bob plots every car of his (the game is simultaneous: his part is done when the game
    // asks him nothing more).
    await bob.goto(`/#/g/${id}`);
    await bob.waitForSelector('.status.mine', { timeout: 20000 });
    for (let i = 0; i < 20 && await bob.locator('.status.mine').count(); i++) {
      const before = await bob.evaluate(() => document.querySelector('.table-page')?.dataset.seq);
      if (!await playOneMove(bob)) break;
      await bob.waitForFunction((x) => document.querySelector('.table-page')?.dataset.seq !== x || !document.querySelector('.status.mine'), before, { timeout: 10000 }).catch(() => {});
    }
    const bobRow = await lobbyMarker(bob, id);
    await bob.waitForFunction((gid) => document.querySelector(`.list-turns [data-game="${gid}"]`)?.dataset.yourMove === 'false', id, { timeout: 20000 });
    assert.equal(await bobRow.locator('.tag.your-move').count(), 0);
    await bob.waitForFunction(() => document.title === 'Robodrome');

    // Alice still owes hers.
    const aliceRow = await lobbyMarker(alice, id);
    assert.equal(await aliceRow.getAttribute('data-your-move'), 'true');
    assert.equal(await alice.title(), '(1) Your move — Robodrome');
    // The notification box asks for nothing until ticked.
    assert.equal(await alice.locator('#notify-moves').isChecked(), false);
  } finally {
    await b.close();
  }
});
