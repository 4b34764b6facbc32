// "Learn to play" (docs/lessons.md): from the lessons list, the first lesson of each game is
// played through the table as a player would (cards, letters and speeds clicked, keys
// pressed) until the server's check of the goal says "Lesson complete"; an Autoscooter lesson
// is failed first (the wrong letter), says what went wrong and is tried again. The moves are
// the ones each lesson's rules call for (RR-5.2: Move 3 + Move 1 to a flag four cells ahead;
// AS-3.2: J is two hexes straight; BB-1.2/BB-5.2: accelerating to 3 drives 3 cells), never read
// from the engine. The list then marks the three lessons done (this browser's localStorage).
// Screenshots of a lesson at desktop and phone size (into docs/screenshots/ with
// ROBODROME_UPDATE_SCREENSHOTS=1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, api, ARTIFACTS } from './helpers.js';

const SCREENSHOTS = process.env.ROBODROME_UPDATE_SCREENSHOTS === '1' ? join(ARTIFACTS, '..', '..', '..', 'docs', 'screenshots') : ARTIFACTS;

async function openLesson(page, game, n) {
  await page.goto('/#/learn');
  await page.click(`[data-testid="lesson-${game}-${n}"]`);
  await page.waitForSelector('#lesson:not([hidden])');
  await page.waitForSelector('.status.mine', { timeout: 20000 });
  assert.match(await page.locator('#lesson h2').textContent(), /\S/);
  assert.match(await page.locator('[data-testid="lesson-goal"]').textContent(), /\S/);
  assert.equal(await page.locator('#lesson').getAttribute('data-status'), 'playing');
}

async function complete(page, game, phoneShot) {
  const done = page.locator('[data-testid="lesson-complete"]');
  await done.waitFor({ timeout: 20000 });
  assert.match(await done.textContent(), /Lesson complete/);
  assert.ok(await page.locator('#lesson-next').count(), 'a next lesson is offered');
  await page.mouse.move(0, 0); // no tooltip left open over the picture
  await page.screenshot({ path: join(SCREENSHOTS, `lesson-${game}${phoneShot ? '-phone' : ''}.png`) });
}

test('the first lesson of each game is finished through the table; a failed lesson says why and is tried again', async () => {
  const b = await launch();
  try {
    const page = await b.page({ name: 'Learner' });
    await page.goto('/');
    // The lobby's "Learn to play" lists each game's lessons, none done yet.
    await page.waitForSelector('#learn [data-learn-game="roborally"] li');
    assert.deepEqual(await page.locator('#learn [data-learn-game]').evaluateAll((els) => els.map((e) => e.dataset.learnGame)), ['roborally', 'autoscooter', 'bumping-bots']);
    assert.equal(await page.locator('#learn li.done').count(), 0);

    // RoboRally 1: a hint highlights the flag on the course and the cards in the hand.
    await openLesson(page, 'roborally', 1);
    await page.click('#lesson-hint');
    await page.click('#lesson-hint');
    await page.locator('.lesson-show').last().click();
    assert.ok(await page.locator('.controls .hint-hl[data-card="move3"]').count(), 'the hint marks the Move 3 card');
    await page.locator('.lesson-show').first().click();
    assert.equal(await page.locator('svg .log-hl[data-hl="2,2"]').count(), 1, 'the hint marks the flag');
    for (const p of [790, 490, 80, 70, 10]) await page.click(`.hand .card[data-priority="${p}"]`);
    await page.keyboard.press('Enter');
    await complete(page, 'roborally');
    assert.equal(await page.locator('#lesson').evaluate((e) => e.textContent.includes('null')), false, 'no stray text');
    assert.ok(await page.locator('[data-testid="rematch"]').isHidden(), 'a lesson is tried again, not rematched');

    // Autoscooter 1, wrong first: C drives one hex, the goal is two.
    await openLesson(page, 'autoscooter', 1);
    await page.locator('.controls .num:not(:disabled)').first().click();
    await page.click('.controls .letter[data-letter="C"]');
    await page.click('#commit');
    const failed = page.locator('[data-testid="lesson-failed"]');
    await failed.waitFor({ timeout: 20000 });
    assert.match(await failed.textContent(), /J on the chart/);
    const before = page.url();
    await page.click('#lesson-retry');
    await page.waitForFunction((u) => location.href !== u, before);
    await page.waitForSelector('#lesson[data-status="playing"]');
    await page.waitForSelector('.status.mine', { timeout: 20000 });
    await page.locator('.controls .num:not(:disabled)').first().click();
    await page.keyboard.press('j');
    await page.click('#commit');
    await complete(page, 'autoscooter');

    // Bumping Bots 1: accelerate (A), then move (Enter).
    await openLesson(page, 'bumping-bots', 1);
    await page.keyboard.press('a');
    await page.waitForSelector('#do-move');
    await page.keyboard.press('Enter');
    await complete(page, 'bumping-bots');

    // The list marks the three lessons done.
    await page.goto('/#/learn');
    await page.waitForSelector('#learn li.done');
    for (const g of ['roborally', 'autoscooter', 'bumping-bots']) {
      assert.equal(await page.locator(`#learn [data-learn-game="${g}"] li[data-lesson="1"].done`).count(), 1, `${g} 1 done`);
    }
    assert.equal(await page.locator('#learn li.done').count(), 3);
    await page.screenshot({ path: join(SCREENSHOTS, 'lessons-list.png'), fullPage: true });

    // Phone size: a lesson's table with its goal, for each game (screenshots).
    const phone = await b.page({ name: 'Phone', viewport: { width: 390, height: 844 } });
    for (const g of ['roborally', 'autoscooter', 'bumping-bots']) {
      await openLesson(phone, g, 2);
      await phone.locator('#lesson-hint').dispatchEvent('click');
      await phone.locator('.lesson-show').first().dispatchEvent('click');
      await phone.mouse.move(0, 0);
      await phone.evaluate(() => window.scrollBy(0, document.querySelector('#lesson').getBoundingClientRect().top - 130));
      assert.match(await phone.locator('#lesson h2').textContent(), new RegExp((await api('/api/lessons')).games.find((x) => x.game === g).lessons[1].title));
      await phone.screenshot({ path: join(SCREENSHOTS, `lesson-${g}-phone.png`) });
    }
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
