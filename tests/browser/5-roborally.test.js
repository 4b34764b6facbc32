// RoboRally through the UI only: create a game on the shortest course (First Steps, two flags,
// full ranking) in the lobby against a heuristic bot and play it to the end: programs picked by
// a simple greedy rule (the card that brings the robot nearest the next flag) and clicked or
// typed into the registers, a power down announced with the keyboard, stay down answered both
// ways, re-entry answered on the course, locked registers checked against the damage (RR-6.2),
// option questions answered (declined when they may be). The result shown must be the server's
// record of the finished game; no other seat's hand is ever shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, createFromLobby, expectServerResult, expectFitsPhone, ARTIFACTS, SCREENSHOTS } from './helpers.js';

// The README's pictures are refreshed only on request (ROBODROME_UPDATE_SCREENSHOTS=1).
const MAX_TURNS = 40;

/**
 * The priorities of the cards to program, in register order: greedy towards the next flag by
 * the walking distance over the course drawn on the page (pits and walls avoided; belts and
 * gears not foreseen). When the robot has not moved since the last program, a random program.
 */
function greedyProgram(page, free, stuck) {
  return page.evaluate(([n, random]) => {
    const S = 40;
    const STEP = [[0, -1], [1, 0], [0, 1], [-1, 0]];
    const hand = [...document.querySelectorAll('.hand .card:not([disabled])')].map((b) => ({ card: b.dataset.card, priority: b.dataset.priority }));
    if (random) return hand.sort(() => Math.random() - 0.5).slice(0, n).map((c) => c.priority);
    const me = document.querySelector('svg.course .robot.me');
    const touched = Number(document.querySelector('.rr-player.me [data-flags]').dataset.flags);
    const flag = document.querySelector(`svg.course .flag[data-flag="${touched + 1}"] circle`);
    if (!me || !flag) return hand.slice(0, n).map((c) => c.priority);
    const cells = new Map([...document.querySelectorAll('svg.course rect.cell')].map((c) => [c.dataset.cell, c.classList.contains('pit') ? 'pit' : 'floor']));
    const walls = new Set();
    for (const w of document.querySelectorAll('svg.course line.wall')) {
      const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((a) => Number(w.getAttribute(a)) / S);
      if (y1 === y2) { const x = Math.min(x1, x2); walls.add(`${x},${y1 - 1},2`); walls.add(`${x},${y1},0`); }
      else { const y = Math.min(y1, y2); walls.add(`${x1 - 1},${y},1`); walls.add(`${x1},${y},3`); }
    }
    const k = (p) => `${p[0]},${p[1]}`;
    const goal = [(Number(flag.getAttribute('cx')) - S / 2) / S, (Number(flag.getAttribute('cy')) - S / 2) / S];
    // Walking distance to the flag (breadth first from the flag).
    const dist = new Map([[k(goal), 0]]);
    const queue = [goal];
    while (queue.length) {
      const p = queue.shift();
      for (let d = 0; d < 4; d++) {
        const q = [p[0] + STEP[d][0], p[1] + STEP[d][1]];
        if (cells.get(k(q)) !== 'floor' || dist.has(k(q)) || walls.has(`${p[0]},${p[1]},${d}`)) continue;
        dist.set(k(q), dist.get(k(p)) + 1);
        queue.push(q);
      }
    }
    const far = (p) => (cells.get(k(p)) === 'floor' ? dist.get(k(p)) ?? 999 : 9999);
    const apply = (c, p, f) => {
      const mv = { move1: 1, move2: 2, move3: 3, backup: -1 }[c];
      if (!mv) return [p, (f + { right: 1, left: 3, uturn: 2 }[c]) % 4];
      const d = mv > 0 ? f : (f + 2) % 4;
      let q = p;
      for (let i = 0; i < Math.abs(mv) && cells.get(k(q)) === 'floor'; i++) {
        if (walls.has(`${q[0]},${q[1]},${d}`)) break;
        q = [q[0] + STEP[d][0], q[1] + STEP[d][1]];
      }
      return [q, f];
    };
    let at = me.dataset.at.split(',').map(Number);
    let facing = Number(me.dataset.facing);
    const out = [];
    for (let r = 0; r < n && hand.length; r++) {
      let best = 0;
      let bestScore = Infinity;
      hand.forEach((c, i) => {
        const [p, f] = apply(c.card, at, facing);
        // Nearer is better; facing the way to the flag breaks ties.
        const ahead = [p[0] + STEP[f][0], p[1] + STEP[f][1]];
        const score = far(p) * 2 + (!walls.has(`${p[0]},${p[1]},${f}`) && far(ahead) < far(p) ? 0 : 1);
        if (score < bestScore) { bestScore = score; best = i; }
      });
      const [c] = hand.splice(best, 1);
      [at, facing] = apply(c.card, at, facing);
      out.push(c.priority);
    }
    return out;
  }, [free, stuck]);
}

const myStats = (page) => page.evaluate(() => {
  const row = document.querySelector('.rr-player.me');
  return {
    damage: Number((row.querySelector('[title="Damage"]').textContent.match(/\d+/) || [0])[0]),
    down: [...row.querySelectorAll('.badge')].some((b) => b.textContent === 'powered down'),
  };
});

test('RoboRally: a game on First Steps played to the end through the UI against a bot', async () => {
  const b = await launch();
  try {
    const page = await b.page({ anim: 'fast', name: 'Rob' });
    const id = await createFromLobby(page, { game: 'roborally', board: 'first-steps', players: 2, seats: ['me', 'bot:heuristic'], variants: ['full_ranking'], timer: 120 });
    await page.waitForSelector('svg.course .cell');
    await page.waitForSelector('.status.mine', { timeout: 30000 });
    assert.equal(await page.locator('svg.course .robot').count(), 2, 'two robots on the course');
    assert.equal(await page.locator('svg.course .flag').count(), 2, 'two flags drawn');
    const start = await page.evaluate(() => [...document.querySelectorAll('svg.course .robot')].map((r) => `${r.dataset.at}/${r.dataset.facing}`).join(' '));
    const did = { programs: 0, typed: 0, announced: 0, downSeen: 0, stay: 0, up: 0, reentries: 0, locked: 0, options: 0 };
    let moved = false;
    let lastWhere = null;
    let shot = 0;
    const t0 = Date.now();
    for (;;) {
      if (await page.locator('[data-testid="result"]:not([hidden])').count()) break;
      const turn = Number(await page.locator('.board-area').getAttribute('data-turn'));
      if (turn > MAX_TURNS || Date.now() - t0 > 240000) {
        await page.screenshot({ path: join(ARTIFACTS, 'roborally-stuck.png') });
        assert.fail(`the game did not end within ${MAX_TURNS} turns / 240 s (turn ${turn}, ${JSON.stringify(did)}): ${await page.locator('.status').textContent()} / ${await page.locator('.controls').textContent()}`);
      }
      if (!moved) moved = start !== await page.evaluate(() => [...document.querySelectorAll('svg.course .robot')].map((r) => `${r.dataset.at}/${r.dataset.facing}`).join(' '));
      if (!(await page.locator('.status.mine').count())) { await page.waitForTimeout(100); continue; }
      let before = await page.evaluate(() => document.querySelector('.table-page')?.dataset.seq);
      let acted = false;
      let sent = false;
      if (await page.locator('#submit-program').count()) {
        // Only this seat's hand is shown: one hand of 9 cards less the damage (RR-6.1).
        const { damage } = await myStats(page);
        assert.equal(await page.locator('.hand').count(), 1);
        assert.equal(await page.locator('.hand .card').count(), Math.max(0, 9 - damage), `a hand of 9 - ${damage} cards`);
        // RR-6.2: with 5 or more damage the last registers are locked, shown as such (an
        // option card may jam one more: Fire Control, RR-9).
        const locked = await page.locator('.controls .register.locked').count();
        const options = await page.locator('.rr-player [title="Option cards"]').count();
        if (options) assert.ok(locked >= Math.max(0, damage - 4), `${locked} registers shown locked at ${damage} damage`);
        else assert.equal(locked, Math.max(0, damage - 4), `${locked} registers shown locked at ${damage} damage`);
        if (locked) {
          did.locked++;
          assert.equal(await page.locator('.rr-player.me .reg-mini.locked').count(), locked, 'locked registers marked in the players list');
        }
        const where = await page.evaluate(() => { const r = document.querySelector('svg.course .robot.me'); return r ? `${r.dataset.at}/${r.dataset.facing}` : null; });
        if (did.programs === 0) {
          // RR-4.3: once the bot has programmed, the hourglass runs for me alone (2 min per
          // robot, the lobby's timer), in the status bar and on my row of the players list.
          await page.waitForSelector('.timer[data-for="0"]:not([hidden])', { timeout: 20000 });
          assert.match(await page.locator('.timer').textContent(), /^⏳ you: \d+ s$/);
          await page.waitForSelector('.players-panel [data-seat="0"] .pclock', { timeout: 5000 });
          assert.equal(await page.locator('.players-panel [data-seat="1"] .pclock').count(), 0);
        }
        const picks = await greedyProgram(page, 5 - locked, where === lastWhere);
        lastWhere = where;
        for (const [k, p] of picks.entries()) {
          if (did.programs === 0 && k < 2) {
            // The first two cards of the first program are typed (keys 1–9 are the hand's order).
            const idx = await page.evaluate((pr) => [...document.querySelectorAll('.hand .card')].findIndex((c) => c.dataset.priority === pr), p);
            await page.keyboard.press(String(idx + 1));
            did.typed++;
          } else {
            await page.click(`.hand .card[data-priority="${p}"]`);
          }
        }
        assert.equal(await page.locator('.controls .register.filled').count(), 5 - locked, 'every free register filled');
        if (did.programs === 0) {
          // RR-4.3: every card placed went to the engine's secret draft (one `place` each, one
          // log entry each): a reload finds the registers as they were.
          await page.waitForFunction(() => document.querySelector('.table-page')?.dataset.acting === '0', null, { timeout: 15000 });
          await page.reload();
          await page.waitForSelector('#submit-program', { timeout: 30000 });
          assert.equal(await page.locator('.controls .register.filled').count(), 5 - locked, 'the draft survives a reload');
          const regs = await page.evaluate(() => [...document.querySelectorAll('.controls .register.filled .cp')].map((e) => e.textContent));
          assert.deepEqual(regs, picks.map(String), 'the same cards in the same registers');
        }
        // The README's picture: a program ready to send, with locked registers once there are any.
        if (shot < 2 && (locked || (!shot && did.programs === 1))) {
          // With the engine's preview of the program (issue 21 item 4): it comes with the view
          // the server sends after the cards placed.
          await page.waitForSelector('[data-testid="preview-text"] li', { timeout: 15000 });
          // No card's tooltip over the course (it follows the mouse and the keyboard focus).
          await page.mouse.move(2, 2);
          await page.evaluate(() => document.activeElement?.blur());
          await page.keyboard.press('Escape');
          await page.waitForSelector('[data-testid="help-tip"]', { state: 'detached', timeout: 5000 });
          await page.screenshot({ path: join(SCREENSHOTS, 'roborally.png') });
          shot = locked ? 2 : 1;
        }
        if (!damage) {
          // RR-4.4: an undamaged robot may not power down; the box says so.
          assert.ok(await page.locator('#power-down').isDisabled(), 'no power down without damage');
        } else if (!did.announced && !did.stay) {
          // Damaged: announce a power down for the next turn with the keyboard (P).
          await page.keyboard.press('p');
          assert.ok(await page.locator('#power-down').isChecked(), 'P ticks the power-down box');
          did.announced = turn;
        }
        // Each card placed went to the engine's secret draft (RR-4.3, one `place` each): the
        // program is taken once its box is gone (the updates of the places come first).
        before = await page.evaluate(() => document.querySelector('.table-page')?.dataset.seq);
        await page.click('#submit-program');
        did.programs++;
        sent = true;
        acted = true;
      } else if (await page.locator('#stay-down').count()) {
        // The robot is powered down (shown in the players list): stay down once, then power up.
        assert.ok((await myStats(page)).down, 'the robot is shown powered down');
        did.downSeen++;
        assert.ok((await page.locator('.log li').allTextContents()).some((l) => /announces a power down/.test(l)), 'the power down announced in the log');
        const stay = !did.stay;
        await page.click(stay ? '#stay-down' : '#power-up');
        if (stay) did.stay++; else did.up++;
        // The answer is logged once every powered-down robot has answered (RR-6.4: secret until then).
        const logged = await page.waitForFunction(([x, re]) => [...document.querySelectorAll('.log li')].some((li) => Number(li.dataset.seq) > Number(x) && new RegExp(re).test(li.textContent)),
          [before, stay ? ' stays powered down$' : ' powers up$'], { timeout: 30000 }).then(() => true, () => false);
        assert.ok(logged, `the answer in the log: ${(await page.locator('.log li').allTextContents()).slice(-12).join(' | ')}`);
      } else if (await page.locator('.reenter-target').count()) {
        // A highlighted cell, then a facing (the engine refuses a facing without line of sight).
        const cells = page.locator('.reenter-target');
        await cells.nth(Math.floor(Math.random() * (await cells.count()))).dispatchEvent('click');
        const facings = page.locator('.facing-pick');
        await facings.nth(Math.floor(Math.random() * (await facings.count()))).dispatchEvent('click');
        did.reentries++;
        // A destroyed robot does not power down as announced (RR-4.4): announce again later.
        if (!did.stay) did.announced = 0;
        acted = true;
      } else if (await page.locator('.controls [data-question]').count()) {
        // An option card question: decline when it may be declined, else give up the first.
        await page.click(await page.locator('#decline-option').count() ? '#decline-option' : '.controls [data-option]');
        did.options++;
        acted = true;
      }
      if (acted) {
        // A program is taken once its box is gone or the next turn has begun (the updates of the
        // draft's places come before it).
        const ok = await page.waitForFunction(([x, program, t]) => document.querySelector('.table-page')?.dataset.seq !== x
          && !(program && document.querySelector('#submit-program') && document.querySelector('.board-area')?.dataset.turn === t), [before, sent, String(turn)], { timeout: 15000 }).then(() => true, () => false);
        if (!ok && !(await page.locator('[data-testid="result"]:not([hidden])').count())) {
          assert.fail(`the server did not take the move (${JSON.stringify(did)}): ${await page.locator('#toasts').textContent()}`);
        }
      } else await page.waitForTimeout(100);
      // A stay-down answer was refused or the announcement was lost to a destruction: try again.
      if (did.announced && !did.stay && !did.downSeen && turn > did.announced + 1) did.announced = 0;
    }
    console.log(`RoboRally through the UI: ${JSON.stringify(did)}`);
    assert.ok(did.programs >= 1 && did.typed === 2, JSON.stringify(did));
    // A power down is announced as soon as the robot is damaged; unless the game ended the
    // turn after, the robot sat powered down and stayed down once.
    const lastTurn = Number(await page.locator('.board-area').getAttribute('data-turn'));
    if (did.announced && lastTurn > did.announced + 1) assert.ok(did.stay >= 1, `stayed powered down once (${JSON.stringify(did)}, turn ${lastTurn})`);
    assert.ok(moved, 'the robots moved');
    const log = await page.locator('.log li').allTextContents();
    assert.ok(log.some((l) => /^Register 1:/.test(l)), 'registers revealed in the log');
    // Hands are secret, and the log is the public record: no hand is a line, not even mine
    // (it is in my hand panel), so a reload shows the same log.
    const nameOf = (seat) => page.locator(`.rr-player[data-seat="${seat}"] .pname`).textContent().then((t) => t.replace(/ \(you\)$/, ''));
    assert.ok(!log.some((l) => / is dealt: /.test(l)), 'no hand in the log');

    // The result shown is the server's record of the finished game.
    const rec = await expectServerResult(page, id);
    const status = await page.locator('.status').textContent();
    // The banner names the winner from the server's outcome (never a bare "Game over").
    const first = rec.outcome.ranking[0];
    const named = (await Promise.all(first.map(nameOf))).join(' & ');
    assert.equal(status.replace(/ ★$/, ''), `Game over — ${named} win${first.length === 1 ? 's' : ''}`, 'the winner named is the server\'s');
    const flags = await page.locator('.rr-player [data-flags]').evaluateAll((els) => els.map((e) => Number(e.dataset.flags)));
    assert.deepEqual(flags, rec.final.robots.map((r) => r.flags_touched), 'flags touched as the server says');
    assert.ok(shot, 'a screenshot of a program was taken');
    await page.screenshot({ path: join(ARTIFACTS, 'roborally-over.png') });
    // Phone-sized: the table still fits.
    await expectFitsPhone(page, 'roborally-phone.png');
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.close();
  }
});
