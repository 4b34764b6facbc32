// Shared pieces of the browser tests: Debian's Chromium through playwright-core, a fresh
// profile per browser, console-error collection, an API client for checks, and a player
// that plays a game through the UI only.

import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BASE = process.env.ROBODROME_URL || 'http://127.0.0.1:8080';
export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The binary that plays positions (`robodrome scenario --view`): set by scripts/browser-test. */
export const BIN = process.env.ROBODROME_BIN || join(ROOT, 'target', 'debug', 'robodrome');

// ---------- positions the engine makes (`robodrome scenario --view SEAT`) ----------

/** A golden scenario file of a game crate (crates/GAME/tests/golden/NAME). */
export const golden = (game, name) => JSON.parse(readFileSync(join(ROOT, 'crates', game, 'tests', 'golden', name), 'utf8'));

/** `robodrome scenario --view SEAT` on a scenario document (its `expect` left out): the exit
 * status (0, or 3 when an action was refused) and the output, whose `view` is the one the server
 * would send that seat and `static` the game's static part. */
export function scenario(doc, seat = 0) {
  const d = { ...doc };
  delete d.expect;
  const r = spawnSync(BIN, ['scenario', '--view', String(seat), '-'], { input: JSON.stringify(d), encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.ok(r.status === 0 || r.status === 3, `robodrome scenario: ${r.status} ${r.stderr}`);
  return { exit: r.status, out: JSON.parse(r.stdout) };
}

/** A small seeded generator (mulberry32), so that a failing random walk replays. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => { a = (a + 0x6d2b79f5) >>> 0; let t = a; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
}

/** Draw `game`'s real table module in the page for `seat` from a view and the static part, as
 * the server sends them (`window.testTable`); what it sends is collected in `window.sent` and
 * answered `ack` (true: accepted). `status`: also give it the waiting list (`[seat]`); the
 * table's answer to it is returned. */
export function drawTable(page, game, stat, view, seat = 0, { setup = null, ack = true, status = true } = {}) {
  return page.evaluate(async ([g, st, sd, v, me, ok, withStatus]) => {
    const mod = (await import('/games/index.js')).gameModule(g);
    if (window.testTable) window.testTable.destroy();
    const box = document.getElementById('test-table') || document.body.appendChild(Object.assign(document.createElement('div'), { id: 'test-table' }));
    box.replaceChildren();
    const el = (cls) => box.appendChild(Object.assign(document.createElement('div'), { className: cls }));
    const [board, controls, players] = [el('board-area'), el('panel controls'), el('panel players-panel')];
    window.sent = [];
    window.testTable = mod.createTable({
      board, controls, players, setup: st, static: sd, names: (s) => `Seat ${s + 1}`, mySeats: [me], replay: false,
      speed: () => 0, say: () => {}, presence: () => null,
      act: async (a) => { window.sent.push(a); return ok; },
    });
    window.testTable.show(v);
    return withStatus ? window.testTable.status(v, [me]) : null;
  }, [game, setup, stat, view, seat, ack, status]);
}

/** What the drawn table has sent so far. */
export const sentActions = (page) => page.evaluate(() => window.sent);

/** A browser on the client's page (for its modules) with the binary at hand, `body(page)`, and
 * no console errors. */
export async function onClientPage(name, body) {
  assert.ok(existsSync(BIN), `the robodrome binary (${BIN}) is needed: cargo build`);
  const b = await launch();
  try {
    const page = await b.page({ name });
    await page.goto('/');
    await page.waitForSelector('#create');
    await body(page);
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.close();
  }
}

/** Start Debian's Chromium ourselves (a fresh profile) and drive it over CDP. */
async function startChromium(dir) {
  const proc = spawn(process.env.CHROMIUM || '/usr/bin/chromium', [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    `--user-data-dir=${dir}`, '--remote-debugging-port=0', '--remote-debugging-address=127.0.0.1',
    'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  const endpoint = await new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`chromium did not start: ${err}`)), 60000);
    proc.stderr.on('data', (d) => {
      err += d;
      const m = err.match(/DevTools listening on (ws:\/\/\S+)/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`chromium exited (${code}): ${err}`)); });
  });
  proc.stderr.resume();
  return { proc, endpoint };
}

export async function launch() {
  const dir = mkdtempSync(join(tmpdir(), 'robodrome-chromium-'));
  const { proc, endpoint } = await startChromium(dir);
  const browser = await chromium.connectOverCDP(endpoint, { timeout: 30000 });
  const errors = [];
  const contexts = [];
  return {
    browser,
    errors,
    /** A fresh context (its own cookies: its own guest) and a page with error collection. */
    async page({ anim = 'off', viewport = { width: 1280, height: 860 }, name } = {}) {
      const ctx = await browser.newContext({ viewport, baseURL: BASE });
      contexts.push(ctx);
      ctx.setDefaultTimeout(20000);
      await ctx.addInitScript(([a, n]) => {
        if (!localStorage.getItem('robodrome.anim')) localStorage.setItem('robodrome.anim', a);
        if (n && !localStorage.getItem('robodrome.name')) localStorage.setItem('robodrome.name', n);
      }, [anim, name || '']);
      const page = await ctx.newPage();
      page.on('console', (m) => { if (m.type() === 'error') errors.push(`${name || 'page'}: console: ${m.text()}`); });
      page.on('pageerror', (e) => errors.push(`${name || 'page'}: ${e.message}`));
      return page;
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close().catch(() => {});
      proc.kill('SIGTERM');
      await new Promise((r) => { if (proc.exitCode !== null) r(); else { proc.on('exit', r); setTimeout(() => { proc.kill('SIGKILL'); r(); }, 5000); } });
      // Chromium's helper processes may still be writing the profile: retry, never fail a test.
      try { rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }); } catch { /* left in /tmp */ }
    },
  };
}

/** Sign the page's guest up through the account page (turn-based games, challenges and bot
 * accounts need an account); returns the identity the client keeps. */
export async function signUp(page, prefix = 'player') {
  const username = `${prefix}_${Math.floor(1000 + Math.random() * 9000)}`;
  await page.goto('/#/account');
  await page.fill('#signup-username', username);
  await page.fill('#signup-password', 'correct horse');
  await page.click('#sign-up');
  await page.waitForFunction(() => /#\/player\//.test(location.hash));
  return page.evaluate(() => JSON.parse(localStorage.getItem('robodrome.identity')));
}

export async function api(path, init) {
  const res = await fetch(BASE + path, init);
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Every step of a game: `/steps` answers in bounded pages chained by `next` (docs/protocol.md). */
export async function allSteps(id) {
  const first = await api(`/api/games/${id}/steps`);
  for (let next = first.next; next !== null && next !== undefined;) {
    const page = await api(`/api/games/${id}/steps?from=${next}`);
    first.steps.push(...page.steps);
    next = page.next;
  }
  return first;
}

/**
 * The result panel must show the server's record of the finished game (`/api/games/{id}/replay`):
 * the winners, the scores and the ranking in order. Returns the record for further checks.
 */
export async function expectServerResult(page, id) {
  const rec = await api(`/api/games/${id}/replay`);
  assert.equal((await api(`/api/games/${id}`)).status, 'finished');
  const result = page.locator('[data-testid="result"]');
  assert.deepEqual(JSON.parse(await result.getAttribute('data-winners')), rec.outcome.ranking[0], 'the winners shown are the server\'s');
  assert.deepEqual(JSON.parse(await result.getAttribute('data-scores')), rec.outcome.scores || [], 'the scores shown are the server\'s');
  const order = await result.locator('[data-seat]').evaluateAll((els) => els.map((e) => Number(e.dataset.seat)));
  assert.deepEqual(order, rec.outcome.ranking.flat(), 'the ranking shown is the server\'s');
  return rec;
}

/** Phone-sized: the page fits without sideways scrolling; a screenshot as `name`. */
export async function expectFitsPhone(page, name) {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `no horizontal scrolling on a phone (${overflow}px)`);
  await page.screenshot({ path: join(ARTIFACTS, name) });
}

/**
 * From `page`, on the server at `base`: create a game through the API (by default Autoscooter
 * against a random bot), open its table and wait for the page's own turn. Returns its id.
 */
export async function openBotGame(page, base, body = { game: 'autoscooter', seats: ['me', 'bot:random'] }) {
  await page.goto(`${base}/`);
  await page.waitForSelector('#create');
  const id = await page.evaluate(async (b) => {
    const r = await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, credentials: 'same-origin', body: JSON.stringify(b) });
    return (await r.json()).id;
  }, body);
  await page.goto(`${base}/#/g/${id}`);
  await page.waitForSelector('.status.mine');
  return id;
}

export const gameIdOf = (page) => page.evaluate(() => (location.hash.match(/#\/(?:g|replay)\/([\w-]+)/) || [])[1]);

/** Create a game from the lobby form. `seats` are the select values per seat. */
export async function createFromLobby(page, { game, board, players = 2, seats, variants = [], name, timer } = {}) {
  await page.goto('/');
  await page.waitForSelector('#create');
  if (name) await page.fill('#my-name', name);
  if (game) await page.selectOption('#new-game', game);
  if (board) await page.selectOption('#new-board', board);
  await page.fill('#new-players', String(players));
  await page.dispatchEvent('#new-players', 'input');
  for (let i = 0; i < seats.length; i++) await page.selectOption(`select[data-seat="${i}"]`, seats[i]);
  for (const v of variants) await page.check(`[data-variant="${v}"],[data-option="${v}"]`);
  if (timer) await page.selectOption('#new-timer', String(timer));
  await page.click('#create');
  await page.waitForFunction(() => /#\/g\//.test(location.hash));
  return gameIdOf(page);
}

/**
 * One move through the UI if the page shows one: a plot (a number and a letter), a wild-car
 * letter, a start (a hex, then a facing) or a colour choice. Returns what it did, or null.
 */
export async function playOneMove(page, rnd = Math.random) {
  return page.evaluate(async (seed) => {
    let x = seed;
    const r = () => { x = (x * 9301 + 49297) % 233280; return x / 233280; };
    const pick = (els) => els[Math.floor(r() * els.length)];
    const controls = document.querySelector('.controls');
    if (!controls || controls.hidden) return null;
    const commit = controls.querySelector('#commit');
    if (commit) {
      const nums = [...controls.querySelectorAll('.num:not(:disabled)')];
      if (nums.length) pick(nums).click();
      const letters = [...document.querySelectorAll('.controls .letter:not(:disabled)')];
      if (letters.length) pick(letters).click();
      const c = document.querySelector('.controls #commit');
      if (!c || c.disabled) return null;
      const wild = !nums.length;
      c.click();
      return wild ? 'wild' : 'plot';
    }
    const hexes = [...controls.querySelectorAll('[data-start-dir]')];
    if (hexes.length) {
      // Click a highlighted hex on the rink, then a facing arrow on the rink.
      const d = pick(hexes).dataset.startDir;
      const target = document.querySelector(`.start-target[data-dir="${d}"]`);
      target.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      await new Promise((res) => setTimeout(res, 30));
      const arrows = [...document.querySelectorAll('.facing-pick')];
      if (!arrows.length) return null;
      pick(arrows).dispatchEvent(new MouseEvent('click', { bubbles: true }));
      return 'start';
    }
    const pays = [...controls.querySelectorAll('[data-payment]')];
    if (pays.length) { pick(pays).click(); return 'payment'; }
    return null;
  }, Math.floor(rnd() * 233280));
}

/** Play through the UI until the page shows the result. */
export async function playToEnd(page, { timeoutMs = 240000, onMove } = {}) {
  const t0 = Date.now();
  let moves = 0;
  const kinds = {};
  while (Date.now() - t0 < timeoutMs) {
    if (await page.locator('[data-testid="result"]:not([hidden])').count()) return { moves, kinds };
    const before = await page.evaluate(() => document.querySelector('.table-page')?.dataset.seq);
    const did = await playOneMove(page);
    if (did) {
      moves++;
      kinds[did] = (kinds[did] || 0) + 1;
      // Wait until the server's answer has come back before the next move.
      await page.waitForFunction((b) => document.querySelector('.table-page')?.dataset.seq !== b, before, { timeout: 10000 }).catch(() => {});
      if (onMove) await onMove(moves, did);
    } else {
      await page.waitForTimeout(100);
    }
  }
  throw new Error(`the game did not end within ${timeoutMs} ms (${moves} moves)`);
}

/** Where the editor tests write their screenshots: README's pictures (docs/screenshots/) with
 * ROBODROME_UPDATE_SCREENSHOTS=1, else the artifacts. */
export const SCREENSHOTS = process.env.ROBODROME_UPDATE_SCREENSHOTS === '1' ? join(ROOT, 'docs', 'screenshots') : ARTIFACTS;

/**
 * Pointer helpers for a hex-grid editor drawn in `svg` with hexes of `size` (pointy-top
 * axial, web/hex.js): `at(page, q, r)` the page position of a cell, `cell(x, r)` the cell of
 * column x (half cells) on row r, `click(page, x, r, {shift})`, `rect(page, a, b)` a
 * Shift+drag from column/row a to b.
 */
export function hexGrid(svg, size) {
  const at = (page, q, r) => page.evaluate(([q, r, size, sel]) => {
    const el = document.querySelector(sel);
    const pt = el.createSVGPoint();
    pt.x = size * Math.sqrt(3) * (q + r / 2);
    pt.y = size * 1.5 * r;
    const p = pt.matrixTransform(el.getScreenCTM());
    return [p.x, p.y];
  }, [q, r, size, svg]);
  const cell = (x, r) => [(x - r) / 2, r];
  async function click(page, x, r, opts = {}) {
    const [px, py] = await at(page, ...cell(x, r));
    if (opts.shift) await page.keyboard.down('Shift');
    await page.mouse.click(px, py);
    if (opts.shift) await page.keyboard.up('Shift');
  }
  async function rect(page, [xa, ra], [xb, rb]) {
    const [x1, y1] = await at(page, ...cell(xa, ra));
    const [x2, y2] = await at(page, ...cell(xb, rb));
    await page.keyboard.down('Shift');
    await page.mouse.move(x1, y1);
    await page.mouse.down();
    await page.mouse.move(x2, y2, { steps: 4 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
  }
  return { at, cell, click, rect };
}
