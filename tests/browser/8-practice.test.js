// A practice game (its seed chosen by its creator, never rated) is marked as such in the lobby
// and in the table's header for everyone, a spectator included; a normal game is not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, api } from './helpers.js';

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
