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
import { readdirSync, readFileSync } from 'node:fs';
import { launch, api, ARTIFACTS, ROOT, SCREENSHOTS } from './helpers.js';


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

// Every lesson's own solution (written in its file from the rules it cites: the `why` beside
// it) played through the table's controls, as a player would: RoboRally cards clicked by
// priority into registers 1 to 5; Autoscooter's turn number and chart letter; Bumping Bots'
// speed key and the rotation buttons. The other seats' entries are the bots'.
const LESSONS = ['roborally', 'autoscooter', 'bumping-bots'].flatMap((game) =>
  readdirSync(join(ROOT, 'lessons', game)).filter((f) => f.endsWith('.json')).sort().map((f, i) => ({ game, n: i + 1, file: JSON.parse(readFileSync(join(ROOT, 'lessons', game, f), 'utf8')) })));
const BB_KEYS = { keep: 'k', accelerate: 'a', accelerate_to_3: 't', decelerate: 'd' };

async function playSolution(page, game, actions) {
  for (const a of actions) {
    if (game === 'roborally') {
      for (const r of a.registers) await page.click(`.hand .card[data-priority="${r.priority}"]`);
      await page.keyboard.press('Enter');
    } else if (game === 'autoscooter') {
      await page.click(`.controls .num[data-number="${a.number}"]:not(:disabled)`);
      await page.click(`.controls .letter[data-letter="${a.letter}"]:not(:disabled)`);
      await page.click('#commit');
    } else if (a.type === 'speed') {
      await page.keyboard.press(BB_KEYS[a.choice]);
      await page.waitForSelector('#do-move', { timeout: 20000 });
    } else {
      if (a.rotate_before_last) await page.click(`[data-rot="before:${a.rotate_before_last}"]`);
      if (a.rotate_after) await page.click(`[data-rot="after:${a.rotate_after}"]`);
      await page.click('#do-move');
    }
  }
}

test('every lesson of every game is finished through the table with the moves its rules call for', async () => {
  assert.ok(LESSONS.length >= 9, `${LESSONS.length} lessons`);
  const b = await launch();
  try {
    const page = await b.page({ name: 'Student' });
    for (const { game, n, file } of LESSONS) {
      await openLesson(page, game, n);
      await playSolution(page, game, file.solution.filter((a) => a.seat === 0));
      const done = page.locator('[data-testid="lesson-complete"]');
      await done.waitFor({ timeout: 20000 });
      assert.match(await done.textContent(), /Lesson complete/, `${game} ${n}`);
    }
    await page.goto('/#/learn');
    await page.waitForSelector('#learn li.done');
    assert.equal(await page.locator('#learn li.done').count(), LESSONS.length, 'every lesson is marked done');
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
