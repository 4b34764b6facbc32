// The rules pages and the context help (docs/client.md "Rules and help"): each game's rules
// open from a running table in a drawer beside the board and close back to the same game —
// the same page, the same WebSocket, the game still running —; the diagrams are drawn from the
// engine's data; the texts are the game crate's rule book (GET /api/kinds/GAME/rules); a
// tooltip explains a card, an element and a badge; the lobby's labels are words with the rule
// number as a link. Screenshots of each rules page at desktop and phone size (into
// docs/screenshots/ with ROBODROME_UPDATE_SCREENSHOTS=1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, api, ARTIFACTS, createFromLobby, SCREENSHOTS } from './helpers.js';


// Counts the WebSockets a page opens: closing the rules must not have opened another.
const countSockets = () => {
  const Orig = window.WebSocket;
  window.__sockets = 0;
  window.WebSocket = class extends Orig { constructor(...a) { super(...a); window.__sockets += 1; } };
};

/** What the page shows of each game's rules, besides the topics: the engine-drawn diagrams. */
const DIAGRAMS = {
  autoscooter: ['svg.rink', '.chart-sheet .chart-cell', '.crash-edges'],
  roborally: ['.rr-legend li'],
  'bumping-bots': ['svg.rules-track', '.rule-topic[data-key="element:bumper"] .bb-obstacle.bumper', '.rule-topic[data-key="element:motorised"] .bb-obstacle.motorised'],
};

/** The element to hover at each table for a tooltip, and the rule book key it explains. */
const HOVER = {
  autoscooter: ['.label[data-help="badge:turn_number"]', 'badge:turn_number'],
  roborally: ['.hand button.card[data-help]', null],
  'bumping-bots': ['[data-help="badge:speed"]', 'badge:speed'],
};

for (const game of ['autoscooter', 'roborally', 'bumping-bots']) {
  test(`${game}: the rules open beside a running table and close back to the same game`, async () => {
    const book = await api(`/api/kinds/${game}/rules`);
    const b = await launch();
    try {
      const page = await b.page({ name: 'Rae' });
      await page.addInitScript(countSockets);
      const id = await createFromLobby(page, { game, players: 2, seats: ['me', 'bot:heuristic'] });
      await page.waitForSelector('#open-rules');
      await page.waitForFunction(() => window.__sockets === 1 && document.querySelector('.table-page .status')?.textContent !== 'Connecting…');
      await page.evaluate(() => { document.querySelector('.table-page').dataset.marker = 'same-page'; });
      const statusBefore = await page.getAttribute('.table-page', 'data-game');

      // A tooltip on a card, element or badge, with the rule book's text and rule number.
      const [sel, key0] = HOVER[game];
      await page.waitForSelector(sel);
      const el = page.locator(sel).first();
      const key = key0 || await el.getAttribute('data-help');
      const want = book.topics.find((t) => t.key === key);
      assert.ok(want, `the rule book explains ${key}`);
      await el.hover();
      const tip = page.locator('[data-testid="help-tip"]');
      await tip.waitFor();
      assert.equal(await tip.getAttribute('data-key'), key);
      assert.match(await tip.textContent(), new RegExp(want.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      assert.equal(await tip.locator('a.rule-code').textContent(), want.rule);
      await page.screenshot({ path: join(ARTIFACTS, `11-tooltip-${game}.png`) });
      await page.mouse.move(2, 2);

      // The drawer: every topic of the rule book, words as titles, the diagrams drawn.
      await page.click('#open-rules');
      const drawer = page.locator('[data-testid="rules-drawer"]');
      await drawer.locator('.rules-page').waitFor();
      const keys = await drawer.locator('.rule-topic').evaluateAll((els) => els.map((e) => e.dataset.key));
      assert.deepEqual([...keys].sort(), book.topics.map((t) => t.key).sort(), 'every topic of the rule book is on the page');
      for (const d of DIAGRAMS[game]) assert.ok(await drawer.locator(d).count() > 0, `the diagram ${d} is drawn`);
      const titles = await drawer.locator('.rule-topic h3').allTextContents();
      for (const t of titles) assert.doesNotMatch(t.replace(/\s*[A-Z]{2}-[\d.]+$/, ''), /\b(AS|RR|BB)-\d/, `a title in words: ${t}`);
      if (game === 'roborally') {
        // RR-9: the 26 option cards, each with its effect text from the game crate.
        const options = book.topics.filter((t) => t.key.startsWith('option:'));
        assert.equal(options.length, 26);
        for (const o of options) assert.match(await drawer.locator(`.rule-topic[data-key="${o.key}"] p`).first().textContent(), new RegExp(o.text.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      }
      if (game === 'bumping-bots') assert.equal(await drawer.locator('.rule-topic[data-kind="card"]').count(), 5, 'the five tuning cards of BB-9');
      // The table still runs underneath: the board is there and visible beside the drawer.
      assert.ok(await page.locator('.table-page .board-area').isVisible());
      await page.screenshot({ path: join(SCREENSHOTS, `rules-drawer-${game}.png`) });

      // Closed: the same page, the same socket, the same game, still running.
      await page.click('#close-rules');
      assert.equal(await drawer.count(), 0);
      assert.equal(await page.getAttribute('.table-page', 'data-marker'), 'same-page', 'the table page was not redrawn');
      assert.equal(await page.getAttribute('.table-page', 'data-game'), statusBefore);
      assert.equal(await page.evaluate(() => window.__sockets), 1, 'no new WebSocket: the same connection');
      assert.match(await page.evaluate(() => location.hash), new RegExp(`#/g/${id}`));
      assert.equal((await api(`/api/games/${id}`)).status, 'running');
      await page.waitForSelector('.table-page .status:not(:empty)');
      assert.deepEqual(b.errors, []);
    } finally {
      await b.close();
    }
  });
}

test('the lobby: labels in words with rule links, a rules page per game at desktop and phone size', async () => {
  const b = await launch();
  try {
    const page = await b.page({ name: 'Lou' });
    await page.goto('/');
    await page.waitForSelector('#create');
    await page.selectOption('#new-game', 'autoscooter');
    // "Jolting", not "Jolting (AS-7.2)": the rule number is a small link beside the words.
    const jolting = page.locator('label[data-help="variant:jolting"]');
    await jolting.locator('a.rule-code').waitFor();
    assert.equal((await jolting.textContent()).trim(), 'Jolting AS-7.2');
    const labels = await page.locator('.variants label').allTextContents();
    for (const l of labels) assert.doesNotMatch(l, /\((AS|RR|BB)-/, `a label in words: ${l}`);
    // The link opens the rules beside the lobby at that rule.
    await jolting.locator('a.rule-code').click();
    const landed = page.locator('[data-testid="rules-drawer"] #rule-AS-7_2');
    await landed.waitFor();
    assert.equal(await landed.getAttribute('data-key'), 'variant:jolting');
    await page.click('#close-rules');
    for (const game of ['autoscooter', 'roborally', 'bumping-bots']) {
      for (const [size, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
        await page.setViewportSize(viewport);
        await page.goto('/');
        await page.click(`[data-rules-link="${game}"]`);
        await page.waitForSelector(`[data-rules="${game}"] .rule-topic`);
        await page.waitForTimeout(100);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 1, `${game} rules fit the ${size} width (${overflow}px)`);
        await page.screenshot({ path: join(SCREENSHOTS, `rules-${game}-${size}.png`), fullPage: size === 'desktop' });
      }
    }
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
