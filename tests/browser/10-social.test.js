// The social table (issue 21, item 6), through the UI only: an invited player reads the
// settings and picks a name in the waiting room; chat between two players and a spectator
// (spectators' lines stay with spectators during the game), a mute, and the rate limit; the
// end banner names the winner, the result's columns are labelled, a rematch makes a new game
// with the same settings; the replay shows the result at its last step only; a bot that took
// over an away player's seat is announced and taken back (on a server of this test's own, with
// a grace period of 2 s).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, api, createFromLobby, playToEnd, gameIdOf, ARTIFACTS, openBotGame } from './helpers.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = process.env.ROBODROME_BIN || join(ROOT, 'target', 'debug', 'robodrome');

const lines = (page) => page.locator('.chat-lines li:not([hidden]) .chat-text').allTextContents();
async function say(page, text) {
  await page.fill('.chat-input', text);
  await page.press('.chat-input', 'Enter');
}
const sees = (page, text) => page.waitForFunction((t) => [...document.querySelectorAll('.chat-lines li .chat-text')].some((e) => e.textContent === t), text);

test('waiting room settings and name; chat between players and a spectator, mute and limits', async () => {
  const b = await launch();
  try {
    const ann = await b.page({ name: 'Ann' });
    const id = await createFromLobby(ann, { players: 2, seats: ['me', 'open'], variants: ['jolting'] });
    await ann.waitForSelector('.invite-url');
    // Before anyone joins, the waiting room has a chat too (over HTTP).
    await say(ann, 'anyone there?');
    await sees(ann, 'anyone there?');

    // Bob follows the invite: he reads the settings and sits under a name of his choosing.
    const bob = await b.page({ name: 'Bob' });
    await bob.goto(`/#/g/${id}`);
    await bob.waitForSelector('[data-testid="settings"] [data-setting="board"]');
    assert.equal(await bob.locator('[data-setting="game"]').textContent(), 'Autoscooter');
    const info = await api(`/api/games/${id}?setup=true`);
    const kinds = await api('/api/kinds');
    const kind = kinds.kinds.find((k) => k.name === 'autoscooter');
    const wild = kind.variants.find((c) => c.key === 'jolting');
    assert.ok((await bob.locator('[data-setting="choices"]').textContent()).includes(wild.title), 'the variant chosen is shown by its label');
    assert.ok(info.setup, 'the server gives the setup');
    await sees(bob, 'anyone there?');
    await bob.screenshot({ path: join(ARTIFACTS, 'waiting-room.png') });
    await bob.fill('#join-name', 'Bobby');
    await bob.click('#join');
    await ann.waitForSelector('.status.mine', { timeout: 20000 });
    await bob.waitForSelector('.status.mine', { timeout: 20000 });
    assert.equal((await api(`/api/games/${id}`)).seats[1].name, 'Bobby');
    await ann.waitForFunction(() => document.querySelector('.players-panel')?.textContent.includes('Bobby'));

    // Players' chat: both see each line, with the speaker's seat name.
    await say(ann, 'hello Bobby');
    await sees(bob, 'hello Bobby');
    await say(bob, 'hi Ann');
    await sees(ann, 'hi Ann');
    assert.equal(await ann.locator('.chat-lines li', { hasText: 'hi Ann' }).locator('.chat-name').textContent(), 'Bobby');

    // A spectator's line stays with the spectators while the game runs.
    const eve = await b.page({ name: 'Eve' });
    await eve.goto(`/#/g/${id}`);
    await sees(eve, 'hi Ann');
    await say(eve, 'psst, ram car 2');
    await sees(eve, 'psst, ram car 2');
    assert.equal(await eve.locator('.chat-lines li.spectator').count(), 1);
    await say(bob, 'after the spectator');
    await sees(ann, 'after the spectator');
    await sees(eve, 'after the spectator');
    assert.ok(!(await lines(ann)).includes('psst, ram car 2'), 'a player never sees a spectator\'s line during the game');

    // Bob mutes Ann: her next line is not shown to him; unmuted, it is.
    await bob.locator('.chat-lines li[data-who="seat:0"] .mute').first().click();
    await say(ann, 'can you hear me?');
    await sees(eve, 'can you hear me?');
    await bob.waitForFunction(() => [...document.querySelectorAll('.chat-lines li')].some((li) => li.textContent.includes('can you hear me?')));
    assert.ok(!(await lines(bob)).includes('can you hear me?'), 'muted');
    assert.ok(!(await lines(bob)).includes('hello Bobby'), 'every line of the muted player is hidden');
    await bob.click('[data-unmute="seat:0"]');
    assert.ok((await lines(bob)).includes('can you hear me?'), 'unmuted');

    // Limits: the input takes 300 characters at most; the server's rate (10 lines per 30 s
    // and identity, docs/security.md) refuses the rest with a sentence in the chat.
    await ann.fill('.chat-input', 'x'.repeat(350));
    assert.equal((await ann.inputValue('.chat-input')).length, 300);
    for (let i = 0; i < 12; i++) await say(ann, `line ${i}`);
    await ann.waitForSelector('[data-testid="chat-error"]:not([hidden])');
    assert.match(await ann.locator('[data-testid="chat-error"]').textContent(), /too many chat lines/);
    await bob.locator('.chat-panel').screenshot({ path: join(ARTIFACTS, 'chat.png') });
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.close();
  }
});

test('the end banner names the winner; labelled result; a rematch with the same settings; the replay result at its end', async () => {
  const b = await launch();
  try {
    const page = await b.page({ name: 'Rhea' });
    const id = await createFromLobby(page, { players: 2, seats: ['me', 'bot:random'], variants: ['beginners'] });
    await playToEnd(page);
    const rec = await api(`/api/games/${id}/replay`);
    const first = rec.outcome.ranking[0];
    const winner = first.map((s) => (rec.seats[s].kind === 'human' ? rec.seats[s].name : `Bot (${rec.seats[s].bot})`)).join(' & ');
    await page.waitForFunction(() => /Game over/.test(document.querySelector('[data-testid="status"]')?.textContent));
    const banner = await page.locator('[data-testid="status"]').textContent();
    assert.equal(banner.replace(/ ★$/, ''), `Game over — ${winner} win${first.length === 1 ? 's' : ''}`, 'the banner names the winner');
    assert.ok((await page.locator('[data-testid="winner"]').textContent()).startsWith(winner));
    assert.deepEqual(await page.locator('[data-testid="result"] th').allTextContents(), ['Place', 'Player', 'Chits', 'Score']);

    // One human: the rematch is made at once, and the page goes there.
    await page.click('#rematch');
    await page.waitForFunction((old) => /#\/g\//.test(location.hash) && !location.hash.includes(old), id);
    const next = await gameIdOf(page);
    const [a, n] = [await api(`/api/games/${id}?setup=true`), await api(`/api/games/${next}?setup=true`)];
    assert.ok(a.setup && a.setup.variants, 'the setup is given');
    assert.deepEqual(n.setup, a.setup, 'the same settings');
    assert.deepEqual(n.seats, a.seats, 'the same seats');
    assert.equal(n.status, 'running');
    await page.waitForSelector('.status.mine');

    // The replay of the first game: no result before its last step.
    await page.goto(`/#/replay/${id}?step=0`);
    await page.waitForSelector('.table-page.replay[data-step="0"]');
    assert.equal(await page.locator('[data-testid="result"]:not([hidden])').count(), 0, 'no result at step 0');
    await page.keyboard.press('End');
    await page.waitForSelector('[data-testid="result"]:not([hidden])');
    assert.ok((await page.locator('[data-testid="result"] [data-testid="winner"]').textContent()).startsWith(winner));
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.close();
  }
});

/** `robodrome serve` of this test's own (a grace period of 2 s, slow bots) on a free port. */
async function ownServer() {
  const dir = mkdtempSync(join(tmpdir(), 'robodrome-grace-'));
  const net = await import('node:net');
  const port = await new Promise((res) => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); }); });
  const proc = spawn(BIN, ['serve', '--addr', `127.0.0.1:${port}`, '--db', join(dir, 'g.db'), '--grace-secs', '2', '--bot-delay-ms', '1500',
    '--guests-per-window', '0', '--games-per-window', '0', '--open-games-per-identity', '0', '--conns-per-address', '0'], { stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, stop: () => { proc.kill('SIGTERM'); rmSync(dir, { recursive: true, force: true }); } };
}

test('a bot that took over an away player\'s seat is announced and taken back', async () => {
  assert.ok(existsSync(BIN), `the robodrome binary (${BIN}) is needed: cargo build`);
  const srv = await ownServer();
  const b = await launch();
  try {
    let ann = await b.page({ name: 'Ann' });
    const id = await openBotGame(ann, srv.base);
    const cleo = await b.page({ name: 'Cleo' });
    await cleo.goto(`${srv.base}/#/g/${id}`);
    await cleo.waitForSelector('.players .player');
    // Ann leaves the table; after the grace period a bot plays for her, and the table says so.
    const ctx = ann.context();
    await ann.close();
    await cleo.waitForFunction(() => /bot plays/.test(document.querySelector('.players')?.textContent)).catch(async (e) => {
      throw new Error(`${e.message}: ${await cleo.locator('.players').textContent()} / ${await cleo.locator('.status').textContent()}`);
    });
    // Ann comes back: she is told at once, and the bot keeps playing until she takes back.
    ann = await ctx.newPage();
    ann.on('pageerror', (e) => b.errors.push(`Ann: ${e.message}`));
    await ann.goto(`${srv.base}/#/g/${id}`);
    await ann.waitForSelector('[data-testid="standin"]:not([hidden])');
    assert.match(await ann.locator('[data-testid="standin"]').textContent(), /A bot is playing for you/);
    await ann.locator('[data-testid="standin"]').screenshot({ path: join(ARTIFACTS, 'standin.png') });
    await ann.click('#take-back');
    await ann.waitForSelector('[data-testid="standin"]', { state: 'hidden' });
    await cleo.waitForFunction(() => !/bot plays/.test(document.querySelector('.players')?.textContent));
    // The game waits for Ann again (her turn), and she can play.
    await ann.waitForFunction(() => document.querySelector('.table-page')?.dataset.turn === 'mine' || document.querySelector('.table-page')?.dataset.phase === 'over');
    assert.deepEqual(b.errors.filter((e) => !/WebSocket|net::/.test(e)), [], 'no console errors');
  } finally {
    await b.close();
    srv.stop();
  }
});

test('the log is complete after a reconnect: the same lines as after a reload', async () => {
  assert.ok(existsSync(BIN), `the robodrome binary (${BIN}) is needed: cargo build`);
  const srv = await ownServer();
  const b = await launch();
  try {
    const ann = await b.page({ name: 'Ann' });
    const id = await openBotGame(ann, srv.base);
    const total = async () => (await (await fetch(`${srv.base}/api/games/${id}/steps?views=false`)).json()).total;
    // Offline while the game goes on (a bot stands in for Ann after 2 s and plays her seat).
    const before = await total();
    await ann.context().setOffline(true);
    await ann.evaluate(() => window.dispatchEvent(new Event('offline')));
    await ann.waitForSelector('#netbar:not([hidden])');
    for (let i = 0; i < 300 && (await total()) < before + 6; i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok((await total()) >= before + 6, 'the game went on while Ann was offline');
    await ann.context().setOffline(false);
    await ann.waitForSelector('#netbar', { state: 'hidden', timeout: 30000 });
    await ann.waitForSelector('[data-testid="standin"]:not([hidden])');
    await ann.click('#take-back');
    // Her log up to the position she came back to, against a fresh page's.
    const upTo = Number(await ann.evaluate(() => document.querySelector('.table-page').dataset.seq));
    const logOf = (p) => p.evaluate((n) => [...document.querySelectorAll('.log li')].filter((li) => Number(li.dataset.seq) <= n).map((li) => `${li.dataset.seq} ${li.textContent}`), upTo);
    await ann.waitForFunction((n) => [...document.querySelectorAll('.log li')].some((li) => Number(li.dataset.seq) === n) || n === 0, upTo);
    const fresh = await ann.context().newPage();
    await fresh.goto(`${srv.base}/#/g/${id}`);
    await fresh.waitForFunction((n) => Number(document.querySelector('.table-page')?.dataset.seq) >= n, upTo);
    const [got, want] = [await logOf(ann), await logOf(fresh)];
    assert.ok(want.length > 0);
    assert.deepEqual(got, want, 'the same log lines, in order, none missing or doubled');
  } finally {
    await b.close();
    srv.stop();
  }
});

test('resigning says its consequence, hands the seat to a bot and the result marks it', async () => {
  const b = await launch();
  try {
    const page = await b.page({ name: 'Ida' });
    const id = await createFromLobby(page, { players: 2, seats: ['me', 'bot:random'] });
    await page.waitForSelector('.status.mine');
    await page.click('#resign');
    assert.match(await page.locator('[data-testid="standin"]').textContent(), /A bot plays your seat to the end of the game, the result marks you as resigned/);
    await page.click('#resign-yes');
    await page.waitForFunction(() => /You resigned/.test(document.querySelector('[data-testid="standin"]')?.textContent));
    // The bots play both seats to the end; the record and the result say who resigned.
    await page.waitForSelector('[data-testid="result"]:not([hidden])', { timeout: 120000 });
    const info = await api(`/api/games/${id}`);
    assert.equal(info.seats[0].kind, 'resigned');
    assert.equal(info.status, 'finished');
    assert.equal(await page.locator('[data-testid="result"] tr[data-seat="0"] .pname').textContent(), 'Ida (resigned)');
    assert.ok(await page.locator('#resign').isHidden(), 'no resign button once resigned');
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.close();
  }
});
