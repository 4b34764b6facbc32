// "Sign out everywhere" (docs/security.md, "Identity"): the header's button explains what it
// does, asks once more, revokes every token of the guest (POST /api/guest/revoke) and the
// browser goes on as a new guest; the old token, wherever it is held, is refused from then on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE } from './helpers.js';

const asGuest = (token, path, init = {}) => fetch(BASE + path, {
  ...init,
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...(init.headers || {}) },
});

test('sign out everywhere revokes every token of the guest and explains itself', async () => {
  const b = await launch();
  try {
    const ann = await b.page({ name: 'Ann' });
    await ann.goto('/');
    await ann.waitForSelector('#sign-out');
    const before = await ann.evaluate(() => JSON.parse(localStorage.getItem('robodrome.identity')));
    const cookie = (await ann.context().cookies()).find((c) => c.name === 'robodrome_token');
    assert.ok(cookie, 'the guest cookie');
    // Another device of the same guest: its token works now.
    const create = { method: 'POST', body: JSON.stringify({ game: 'autoscooter', seats: ['me', 'open'] }) };
    assert.equal((await asGuest(cookie.value, '/api/games', create)).status, 201);
    // The button says what it does before doing anything; cancelling does nothing.
    assert.match(await ann.getAttribute('#sign-out', 'title'), /every browser/);
    await ann.click('#sign-out');
    const dialog = ann.locator('#sign-out-dialog');
    await dialog.waitFor();
    assert.match(await dialog.textContent(), /every browser and on every device/);
    assert.match(await dialog.textContent(), /cannot be signed in again/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await asGuest(cookie.value, '/api/games', create)).status, 201, 'cancel revoked nothing');

    const revoke = ann.waitForResponse((r) => r.url().endsWith('/api/guest/revoke'));
    await ann.click('#sign-out');
    await ann.click('#confirm-sign-out');
    assert.equal((await revoke).status(), 200);
    await ann.locator('.toast', { hasText: 'Signed out everywhere' }).waitFor();
    // The old token is refused everywhere; this browser is a new guest with the same name.
    assert.equal((await asGuest(cookie.value, '/api/games', create)).status, 401);
    await ann.waitForFunction((old) => {
      const cur = JSON.parse(localStorage.getItem('robodrome.identity') || 'null');
      return cur && cur.id !== old;
    }, before.id);
    const after = await ann.evaluate(() => JSON.parse(localStorage.getItem('robodrome.identity')));
    assert.equal(after.name, before.name);
    const fresh = (await ann.context().cookies()).find((c) => c.name === 'robodrome_token');
    assert.ok(fresh && fresh.value !== cookie.value, 'a new cookie');
    assert.equal((await asGuest(fresh.value, '/api/games', create)).status, 201);
    await ann.waitForSelector('#who .name');
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
