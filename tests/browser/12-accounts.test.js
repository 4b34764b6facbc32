// Accounts and ratings in the browser (docs/platform.md): a guest signs up, plays a rated game
// against a robodrome bot through the UI, and the profile shows the new rating, the change and
// its history chart, exactly as the server has them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, api, createFromLobby, playToEnd, expectServerResult, ARTIFACTS } from './helpers.js';

test('sign up, a rated game against a bot, the rating change on the profile', async () => {
  const b = await launch();
  try {
    const page = await b.page({ anim: 'fast', name: 'Rita' });
    const username = `rita_${Math.floor(1000 + Math.random() * 9000)}`;
    await page.goto('/#/account');
    await page.fill('#signup-username', username);
    await page.fill('#signup-password', 'correct horse');
    await page.click('#sign-up');
    await page.waitForFunction(() => /#\/player\//.test(location.hash));
    const me = await page.evaluate(() => JSON.parse(localStorage.getItem('robodrome.identity')));
    assert.equal(me.username, username);
    await page.waitForSelector('.profile-page .player-name');
    assert.equal(await page.locator('.profile-page .rating').count(), 0, 'no rating before any rated game');
    await page.waitForSelector('#who-name');
    assert.equal(await page.locator('#sign-up-link').count(), 0, 'signed up: no sign-up link');

    const id = await createFromLobby(page, { seats: ['me', 'bot:random'] });
    await playToEnd(page);
    await expectServerResult(page, id);
    const game = await api(`/api/games/${id}`);
    assert.equal(game.practice, false);

    await page.goto(`/#/player/${me.id}`);
    const card = page.locator('.rating[data-game="autoscooter"]');
    await card.locator('.rating-value').waitFor();
    const server = (await api(`/api/players/${me.id}`)).ratings.find((r) => r.game === 'autoscooter');
    const hist = await api(`/api/players/${me.id}/history?game=autoscooter`);
    assert.equal(server.games, 1);
    assert.equal(hist.points.length, 1);
    assert.equal(hist.points[0].game_id, id);
    assert.equal(hist.points[0].before, 1500, 'a new player starts at 1500');
    assert.equal(Number(await card.locator('.rating-value').textContent()), Math.round(server.rating));
    const delta = Math.round(server.rating - 1500);
    assert.equal((await card.locator('.rating-change').textContent()).trim(), `(${delta > 0 ? '+' : ''}${delta})`);
    // Won alone: up; lost: down; shared first place against an equal: unchanged.
    const first = game.outcome.ranking[0];
    const expected = first.length > 1 ? 0 : (first[0] === 0 ? 1 : -1);
    assert.equal(Math.sign(server.rating - 1500), expected, JSON.stringify(game.outcome));
    assert.equal(await card.locator('svg.rating-chart circle').count(), 2, 'before and after');
    // The game is on the profile with a replay link; the bot is on the leaderboard too.
    await page.locator(`.profile-page li[data-game="${id}"] a[href="#/replay/${id}"]`).waitFor();
    const board = await api('/api/leaderboard/autoscooter');
    assert.ok(board.players.some((p) => p.player === 'bot:random'), JSON.stringify(board));
    await page.goto('/#/leaderboard/autoscooter');
    await page.locator(`.leaderboard a[href="#/player/${me.id}"]`).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'leaderboard.png') });
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.close();
  }
});
