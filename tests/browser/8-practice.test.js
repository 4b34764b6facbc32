// A practice game (its seed chosen by its creator, never rated) is marked as such in the lobby
// and in the table's header for everyone, a spectator included; a normal game is not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, api, gameIdOf } from './helpers.js';

test('a practice game shows its badge in the lobby and at the table', async () => {
  const { token } = await api('/api/guest', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Coach' }) });
  const create = (body) => api('/api/games', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  const practice = await create({ game: 'autoscooter', seats: ['me', 'open'], practice: true, seed: 7 });
  const normal = await create({ game: 'autoscooter', seats: ['me', 'open'] });
  assert.equal(practice.practice, true);
  assert.equal(normal.practice, false);
  const b = await launch();
  try {
    const eve = await b.page({ name: 'Eve' });
    await eve.goto('/');
    await eve.waitForSelector(`[data-game="${practice.id}"] .tag.practice`);
    assert.equal(await eve.locator(`[data-game="${normal.id}"] .tag.practice`).count(), 0);
    // The practice game at the table, watched by a spectator once it runs (bots fill it).
    await api(`/api/games/${practice.id}/start`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{}' });
    await eve.goto(`/#/g/${practice.id}`);
    await eve.waitForSelector('[data-testid="practice"]');
    assert.match(await eve.locator('[data-testid="practice"]').textContent(), /practice/i);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('the create form makes a practice game with a seed only when practice is ticked', async () => {
  const b = await launch();
  try {
    const ann = await b.page({ name: 'Ann' });
    await ann.goto('/');
    await ann.waitForSelector('#create');
    // No seed field for a normal game; it comes with the box, with the explanation beside it.
    assert.equal(await ann.isVisible('#new-seed'), false);
    assert.match(await ann.textContent('#practice-help'), /never rated/);
    assert.match(await ann.textContent('#practice-help'), /seed/);
    await ann.check('#new-practice');
    await ann.waitForSelector('#new-seed', { state: 'visible' });
    await ann.fill('#new-seed', '7');
    await ann.selectOption('select[data-seat="1"]', 'bot:random');
    const sent = ann.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/games'));
    await ann.click('#create');
    const body = (await sent).postDataJSON();
    assert.equal(body.practice, true);
    assert.equal(body.seed, 7);
    await ann.waitForFunction(() => /#\/g\//.test(location.hash));
    const id = await gameIdOf(ann);
    assert.equal((await api(`/api/games/${id}`)).practice, true, 'the server made a practice game');
    // The table's badge comes from the welcome.
    await ann.waitForSelector('[data-testid="practice"]', { state: 'visible' });

    // Unticking hides the seed again and sends neither field.
    await ann.goto('/');
    await ann.waitForSelector('#create');
    await ann.check('#new-practice');
    await ann.fill('#new-seed', '9');
    await ann.uncheck('#new-practice');
    assert.equal(await ann.isVisible('#new-seed'), false);
    await ann.selectOption('select[data-seat="1"]', 'bot:random');
    const sent2 = ann.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/games'));
    await ann.click('#create');
    const body2 = (await sent2).postDataJSON();
    assert.equal(body2.practice, undefined);
    assert.equal(body2.seed, undefined);
    await ann.waitForFunction(() => /#\/g\//.test(location.hash));
    const normal = await gameIdOf(ann);
    assert.equal((await api(`/api/games/${normal}`)).practice, false);
    // Once the welcome is in (the status says whose move it is), no badge.
    await ann.waitForFunction(() => document.querySelector('[data-testid="status"]')?.textContent !== 'Connecting…');
    assert.equal(await ann.isVisible('[data-testid="practice"]'), false);

    // A seed that is not a whole number is refused by the form, and nothing is created.
    await ann.goto('/');
    await ann.waitForSelector('#create');
    await ann.check('#new-practice');
    await ann.fill('#new-seed', '12x');
    let posted = 0;
    ann.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/api/games')) posted++; });
    await ann.click('#create');
    await ann.locator('.toast', { hasText: 'seed must be a whole number' }).waitFor();
    assert.equal(posted, 0, 'nothing was sent');
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
