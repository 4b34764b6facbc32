// Readable boards (issue 21, item 5; docs/client.md "Readable boards"): the Bumping Bots track's
// zoom, pan and "follow my bot" (the followed bot stays within the visible panel after moves),
// the phone layout of each game (board and controls both on a 390×844 screen, no sideways
// scrolling), the players panel stepping with the animation in a replay (each value shown
// mid-animation is the value after an event of that step, not the step's final one), the log in
// words (no raw coordinates in any line of a full bots-only game of each game) and log lines
// highlighting what they are about on the board.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, api, allSteps, createFromLobby, playOneMove, ARTIFACTS, SCREENSHOTS } from './helpers.js';

// The README's pictures are refreshed only on request (ROBODROME_UPDATE_SCREENSHOTS=1).
const PHONE = { width: 390, height: 844 };
// "[5,14]" or "14,0": a coordinate pair as the old log wrote them.
const RAW = /\[\s*-?\d+\s*,\s*-?\d+\s*\]|(^|[^\w(.])-?\d+,-?\d+(?!\d)/;

/** Where my bot is drawn and whether its centre is inside the track's panel (on the screen). */
function myBot(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('svg.bb-track');
    const bot = svg.querySelector('.bb-bot.me .body');
    const s = svg.getBoundingClientRect();
    const b = bot.getBoundingClientRect();
    const [cx, cy] = [b.x + b.width / 2, b.y + b.height / 2];
    return {
      inside: cx >= s.left && cx <= s.right && cy >= s.top && cy <= s.bottom,
      px: b.width, follow: svg.dataset.follow, zoom: svg.dataset.zoom,
      vb: svg.getAttribute('viewBox').split(' ').map(Number),
      panel: [s.x, s.y, s.width, s.height],
    };
  });
}

/** The page fits a phone: no sideways scrolling; the board and the controls both on screen. */
async function expectPhoneLayout(page, board, name) {
  await page.setViewportSize(PHONE);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  const m = await page.evaluate((sel) => {
    const r = (el) => { const x = el.getBoundingClientRect(); return { top: x.top, bottom: x.bottom, left: x.left, right: x.right, h: x.height }; };
    return {
      overflow: document.documentElement.scrollWidth - window.innerWidth,
      board: r(document.querySelector(sel)),
      controls: r(document.querySelector('.controls')),
      hidden: document.querySelector('.controls').hidden,
      vh: window.innerHeight,
    };
  }, board);
  assert.ok(m.overflow <= 1, `${name}: no horizontal scrolling on a phone (${m.overflow}px)`);
  assert.equal(m.hidden, false, `${name}: the controls are shown`);
  assert.ok(m.board.top >= 0 && m.board.bottom <= m.vh && m.board.h >= 150, `${name}: the board is on the screen (${JSON.stringify(m.board)})`);
  assert.ok(m.controls.top >= m.board.bottom - 1 && m.controls.top < m.vh - 80 && m.controls.bottom <= m.vh + 1, `${name}: the controls are on the screen below the board (${JSON.stringify(m.controls)}, board ${JSON.stringify(m.board)})`);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-phone.png`) });
}

async function waitFinished(page, id) {
  for (let i = 0; i < 900; i++) {
    if ((await api(`/api/games/${id}`)).status === 'finished') return;
    await page.waitForTimeout(200);
  }
  assert.fail(`game ${id} did not finish`);
}

/** Every log line of a table and of its replay: words, no raw coordinates. */
async function expectLogInWords(page, id, what) {
  await page.goto(`/#/replay/${id}`);
  await page.waitForSelector('.replay-controls');
  const lines = await page.locator('.log li').allTextContents();
  assert.ok(lines.length > 20, `${what}: a full game's log (${lines.length} lines)`);
  const raw = lines.filter((l) => RAW.test(l));
  assert.deepEqual(raw.slice(0, 5), [], `${what}: no coordinates in the log's ${lines.length} lines`);
  await page.goto(`/#/g/${id}`);
  await page.waitForSelector('.log li');
  const atTable = await page.locator('.log li').allTextContents();
  assert.deepEqual(atTable.filter((l) => RAW.test(l)).slice(0, 5), [], `${what}: no coordinates in the table's log`);
  return lines;
}

test('Bumping Bots: the view follows my bot at a readable zoom; zoom, pan, whole track; the phone layout', async () => {
  const b = await launch();
  try {
    const page = await b.page({ anim: 'fast', name: 'Zoe' });
    await createFromLobby(page, { game: 'bumping-bots', board: 'oval', players: 2, seats: ['me', 'bot:heuristic'], variants: ['laps'] });
    await page.waitForSelector('svg.bb-track .bb-bot.me');
    await page.waitForSelector('.status.mine', { timeout: 30000 });
    await page.waitForFunction(() => document.querySelector('svg.bb-track')?.dataset.follow === 'on');
    let m = await myBot(page);
    assert.notEqual(m.zoom, 'fit', 'a race starts zoomed in on my bot');
    assert.ok(m.inside, 'my bot is in the panel');
    assert.ok(m.px >= 30, `my bot is big enough to read on a desktop (${m.px.toFixed(1)} px)`);
    const zoomed = m.vb;

    // 0: the whole track (following stops); F: follow again.
    await page.keyboard.press('0');
    m = await myBot(page);
    assert.equal(m.zoom, 'fit');
    assert.equal(m.follow, 'off');
    assert.ok(m.vb[2] > zoomed[2] * 1.3, 'the whole track is wider than the followed view');
    await page.keyboard.press('f');
    await page.waitForTimeout(400);
    m = await myBot(page);
    assert.equal(m.follow, 'on');
    assert.ok(m.inside);
    // + and the buttons zoom; the wheel zooms around the pointer.
    await page.keyboard.press('+');
    const closer = (await myBot(page)).vb;
    assert.ok(closer[2] < m.vb[2], '+ zooms in');
    await page.click('[data-zoom="out"]');
    assert.ok((await myBot(page)).vb[2] > closer[2], '− zooms out');
    const [px, py, pw, ph] = m.panel;
    await page.mouse.move(px + pw / 2, py + ph / 2);
    const beforeWheel = (await myBot(page)).vb;
    await page.mouse.wheel(0, -300);
    await page.waitForTimeout(100);
    assert.ok((await myBot(page)).vb[2] < beforeWheel[2], 'the wheel zooms in');
    // A drag pans the view and stops following; the button follows again.
    const beforeDrag = (await myBot(page)).vb;
    await page.mouse.move(px + pw / 2, py + ph / 2);
    await page.mouse.down();
    await page.mouse.move(px + pw / 2 - 60, py + ph / 2 - 10, { steps: 4 });
    await page.mouse.move(px + pw / 2 - 120, py + ph / 2 - 20, { steps: 4 });
    await page.mouse.up();
    m = await myBot(page);
    assert.equal(m.follow, 'off', 'a drag stops following');
    assert.ok(m.vb[0] !== beforeDrag[0] || m.vb[1] !== beforeDrag[1], 'a drag pans');
    await page.click('[data-zoom="follow"]');
    await page.waitForTimeout(400);
    m = await myBot(page);
    assert.equal(m.follow, 'on');
    assert.ok(m.inside);

    // A few rounds: after each of my moves (animated), my bot is still inside the panel.
    let moves = 0;
    const t0 = Date.now();
    while (moves < 4 && Date.now() - t0 < 90000) {
      if (await page.locator('[data-testid="result"]:not([hidden])').count()) break;
      if (!(await page.locator('.status.mine').count())) { await page.waitForTimeout(100); continue; }
      const before = await page.evaluate(() => document.querySelector('.table-page')?.dataset.seq);
      let did = false;
      if (await page.locator('.controls [data-speed="accelerate"]:not([disabled])').count()) { await page.click('.controls [data-speed="accelerate"]'); did = true; }
      else if (await page.locator('.controls [data-speed="keep"]:not([disabled])').count()) { await page.click('.controls [data-speed="keep"]'); did = true; }
      else if (await page.locator('#do-move').count()) { await page.click('#do-move'); did = true; moves++; }
      else if (await page.locator('[data-orient="0"]').count()) { await page.click('[data-orient="0"]'); did = true; }
      else if (await page.locator('#shock-go').count()) { await page.click('#shock-go'); did = true; }
      else if (await page.locator('#magnet-no').count()) { await page.click('#magnet-no'); did = true; }
      if (!did) { await page.waitForTimeout(100); continue; }
      await page.waitForFunction((x) => document.querySelector('.table-page')?.dataset.seq !== x, before, { timeout: 15000 });
      await page.waitForFunction(() => !document.querySelector('.board-area')?.dataset.animating, null, { timeout: 15000 });
      await page.waitForTimeout(350);
      m = await myBot(page);
      assert.equal(m.follow, 'on');
      assert.ok(m.inside, `after a move my bot is still within the panel (${JSON.stringify(m)})`);
    }
    assert.ok(moves >= 2, `moves made (${moves})`);

    // The phone: the track and the controls on one screen; the bot still readable.
    await page.waitForSelector('.status.mine', { timeout: 30000 });
    await expectPhoneLayout(page, 'svg.bb-track', 'bumping-bots');
    m = await myBot(page);
    assert.ok(m.inside, 'on a phone my bot is in the panel');
    assert.ok(m.px >= 24, `my bot is big enough to read on a phone (${m.px.toFixed(1)} px)`);
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.close();
  }
});

test('RoboRally and Autoscooter: the board fills its panel on a desktop; board and controls on a phone screen', async () => {
  const b = await launch();
  try {
    // RoboRally: the course fits the desktop window without scrolling, zoom works, and on a
    // phone the course is above a compact hand.
    const page = await b.page({ anim: 'off', name: 'Rae' });
    await createFromLobby(page, { game: 'roborally', board: 'first-steps', players: 2, seats: ['me', 'bot:heuristic'] });
    await page.waitForSelector('svg.course .robot');
    await page.waitForSelector('.controls .card', { timeout: 30000 });
    const desk = await page.evaluate(() => {
      const r = document.querySelector('svg.course').getBoundingClientRect();
      const col = document.querySelector('.board-area').getBoundingClientRect();
      return { bottom: r.bottom, width: r.width, col: col.width, vh: window.innerHeight, scroll: document.documentElement.scrollWidth - window.innerWidth };
    });
    assert.ok(desk.bottom <= desk.vh, `the course is within the window (${desk.bottom} ≤ ${desk.vh})`);
    assert.ok(desk.width >= desk.col - 30, `the course spans its panel (${desk.width} of ${desk.col})`);
    assert.ok(desk.scroll <= 1, 'no horizontal scrollbar');
    await page.keyboard.press('+');
    assert.equal(await page.locator('svg.course').getAttribute('data-zoom'), 'zoomed');
    await page.click('[data-zoom="fit"]');
    assert.equal(await page.locator('svg.course').getAttribute('data-zoom'), 'fit');
    await expectPhoneLayout(page, 'svg.course', 'roborally');
    const card = await page.evaluate(() => { const r = document.querySelector('.controls .card').getBoundingClientRect(); return { top: r.top, bottom: r.bottom, vh: window.innerHeight }; });
    assert.ok(card.top >= 0 && card.bottom <= card.vh, `a card of the hand is on the phone's screen (${JSON.stringify(card)})`);

    // Autoscooter: the rink fits too; on a phone its plot controls are below it.
    const p2 = await b.page({ anim: 'off', name: 'Ari' });
    await createFromLobby(p2, { players: 2, seats: ['me', 'bot:heuristic'] });
    await p2.waitForSelector('svg.rink');
    await p2.waitForSelector('.controls:not([hidden]) .num', { timeout: 30000 });
    const rink = await p2.evaluate(() => { const r = document.querySelector('svg.rink').getBoundingClientRect(); return { bottom: r.bottom, vh: window.innerHeight }; });
    assert.ok(rink.bottom <= rink.vh, `the rink is within the window (${rink.bottom} ≤ ${rink.vh})`);
    if (process.env.ROBODROME_UPDATE_SCREENSHOTS === '1') {
      // The README's desktop picture of Autoscooter: a car's move previewed on the rink, from
      // round 3 (the cars are moving by then).
      for (let i = 0; i < 400; i++) {
        const round = Number(((await p2.locator('.round-info .round b').textContent()) || '').replace(/\D/g, '')) || 0;
        if (round >= 3 && await p2.locator('.controls:not([hidden]) #commit').count() && await p2.locator('.controls .letter:not(:disabled)').count()) break;
        await p2.waitForTimeout((await playOneMove(p2)) ? 300 : 150);
      }
      await p2.locator('.controls .num:not(:disabled)').first().click();
      await p2.locator('.controls .letter:not(:disabled)').first().click();
      await p2.screenshot({ path: join(SCREENSHOTS, 'autoscooter.png') });
    }
    await expectPhoneLayout(p2, 'svg.rink', 'autoscooter');
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.close();
  }
});

test('bots-only games of each game: the log in words, lines that point at the board, panels stepping in the replay', async () => {
  const b = await launch();
  try {
    const page = await b.page({ anim: 'off', name: 'Lou' });
    const games = {
      autoscooter: await createFromLobby(page, { players: 2, seats: ['bot:heuristic', 'bot:random'] }),
      roborally: await createFromLobby(page, { game: 'roborally', board: 'first-steps', players: 4, seats: ['bot:heuristic', 'bot:random', 'bot:random', 'bot:random'] }),
      'bumping-bots': await createFromLobby(page, { game: 'bumping-bots', board: 'oval', players: 2, seats: ['bot:heuristic', 'bot:heuristic'], variants: ['laps'] }),
    };
    for (const [game, id] of Object.entries(games)) {
      await waitFinished(page, id);
      const lines = await expectLogInWords(page, id, game);
      if (game === 'roborally') assert.ok(lines.some((l) => /reaches flag \d/.test(l)), 'RoboRally: "reaches flag N"');
      if (game === 'bumping-bots') assert.ok(lines.some((l) => /crosses the line: lap \d/.test(l)), 'Bumping Bots: "crosses the line: lap N"');
      if (game === 'autoscooter') assert.ok(lines.some((l) => /plays [A-P]: \d+ hex(es)? to the /.test(l)), 'Autoscooter: moves to named places');
    }

    // Hovering a line highlights its subject: RoboRally's "reaches flag N" marks flag N's square.
    const rr = games.roborally;
    await page.goto(`/#/replay/${rr}`);
    await page.waitForSelector('.log li.points');
    const flagLine = page.locator('.log li[data-type="flag_touched"]').first();
    const n = Number((await flagLine.textContent()).match(/flag (\d+)/)[1]);
    await flagLine.hover();
    const hl = await page.evaluate((k) => {
      const c = (el) => { const r = el.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
      const sq = document.querySelector('svg.course .log-hl[data-hl]');
      const flag = document.querySelector(`svg.course .flag[data-flag="${k}"] .flag-base`);
      return sq && flag ? { sq: c(sq), flag: c(flag) } : null;
    }, n);
    assert.ok(hl, 'a highlight on the course');
    assert.ok(Math.hypot(hl.sq[0] - hl.flag[0], hl.sq[1] - hl.flag[1]) <= 2, `the highlighted square is flag ${n}'s (${JSON.stringify(hl)})`);
    await page.mouse.move(2, 2);
    assert.equal(await page.locator('svg.course .log-hl').count(), 0, 'leaving the line clears the highlight');
    // A Bumping Bots line (the bot it names) and an Autoscooter line (the car's hexes) too, tapped
    // (a phone has no hover): the replay goes to the line's step and the board marks its subject.
    for (const [id, sel, type] of [[games['bumping-bots'], 'svg.bb-track .log-hl', 'speed_chosen'], [games.autoscooter, 'svg.rink .log-hl', 'moved']]) {
      await page.goto(`/#/replay/${id}`);
      await page.waitForSelector('.log li.points');
      const lines = page.locator(`.log li.points[data-type="${type}"]`);
      const line = lines.nth(Math.floor((await lines.count()) / 2));
      const seq = await line.getAttribute('data-seq');
      await line.click();
      await page.waitForFunction((k) => document.querySelector('.table-page')?.dataset.step === k, seq);
      assert.ok(await page.locator(sel).count() >= 1, `tapping a line highlights on the board (${sel})`);
    }

    // The players panel steps with the animation: a replay step of RoboRally played forwards
    // slowly. The values the panel shows for a robot's damage, lives or flags while it animates
    // are values after that step's events, in the events' order, from the value before the step
    // to the final one; a value held while a register is revealed (a pause of the animation)
    // before the next change is among them, shown while the step animates (the old panel jumped
    // from the value before to the final one at the end).
    const stat = { damaged: ['damage', (e) => e.damage], repaired: ['damage', (e) => e.damage], life_lost: ['lives', (e) => e.lives], flag_touched: ['flags', (e) => e.flag] };
    const valueOf = (view, seat, field) => { const r = view.robots.find((x) => x.seat === seat); return field === 'flags' ? r.flags_touched : r[field]; };
    const findPick = async (game) => {
      const steps = (await allSteps(game)).steps;
      for (let i = 1; i < steps.length; i++) {
        const evs = steps[i].events;
        for (const e of evs) {
          if (!stat[e.type]) continue;
          const [field] = stat[e.type];
          // The changes of this robot's field, with the event index of each.
          const seq = [{ v: valueOf(steps[i - 1].view, e.seat, field), at: -1 }];
          evs.forEach((f, k) => {
            if (f.seat === e.seat && stat[f.type] && stat[f.type][0] === field) { const v = stat[f.type][1](f); if (v !== seq[seq.length - 1].v) seq.push({ v, at: k }); }
          });
          const final = valueOf(steps[i].view, e.seat, field);
          if (seq.length < 3 || seq[seq.length - 1].v !== final) continue;
          // An intermediate value with a register revealed before the next change: it is on screen.
          const held = seq.slice(1, -1).filter((x, j) => evs.slice(x.at + 1, seq[j + 2].at).some((f) => f.type === 'register_revealed')).map((x) => x.v);
          if (held.length) return { game, step: i, seat: e.seat, field, seq: seq.map((x) => x.v), held };
        }
      }
      return null;
    };
    // Robots shot twice in one turn are common among random bots, not certain: a few more games
    // when the first has no such turn.
    let pick = await findPick(rr);
    for (let k = 0; k < 5 && !pick; k++) {
      const more = await createFromLobby(page, { game: 'roborally', board: 'first-steps', players: 4, seats: ['bot:heuristic', 'bot:random', 'bot:random', 'bot:random'] });
      await waitFinished(page, more);
      pick = await findPick(more);
    }
    assert.ok(pick, 'a RoboRally turn where a robot\'s damage, lives or flags hold a value that is not the turn\'s final one while a register is revealed');
    const p3 = await b.page({ anim: 'fast', name: 'Sam' });
    await p3.goto(`/#/replay/${pick.game}?step=${pick.step - 1}`);
    await p3.waitForFunction((k) => document.querySelector('.table-page')?.dataset.step === String(k), pick.step - 1);
    await p3.waitForSelector('.players-panel [data-seat]');
    await p3.evaluate(({ seat, field }) => {
      window.seen = [];
      const read = () => {
        const row = document.querySelector(`.players-panel [data-seat="${seat}"]`);
        const el = row && row.querySelector(`[data-${field}]`);
        if (!el) return;
        const v = Number(el.dataset[field]);
        const animating = document.querySelector('.board-area')?.dataset.animating === '1';
        if (!window.seen.length || window.seen[window.seen.length - 1].v !== v) window.seen.push({ v, animating });
      };
      read();
      new MutationObserver(read).observe(document.querySelector('.players-panel'), { childList: true, subtree: true, attributes: true });
    }, pick);
    await p3.click('#rp-next');
    await p3.waitForFunction(() => document.querySelector('.board-area')?.dataset.animating === '1');
    await p3.waitForFunction(() => !document.querySelector('.board-area')?.dataset.animating, null, { timeout: 120000 });
    const seen = await p3.evaluate(() => window.seen);
    const shown = seen.map((x) => x.v);
    const what = `robot ${pick.seat + 1}'s ${pick.field}: shown ${JSON.stringify(seen)}, events ${JSON.stringify(pick.seq)}`;
    let j = 0;
    for (const v of shown) { while (j < pick.seq.length && pick.seq[j] !== v) j++; assert.ok(j < pick.seq.length, `the values shown follow the events in order (${what})`); }
    assert.equal(shown[0], pick.seq[0], what);
    assert.equal(shown[shown.length - 1], pick.seq[pick.seq.length - 1], what);
    for (const v of pick.held) assert.ok(seen.some((x) => x.v === v && x.animating), `${v}, held while a register is revealed, is shown while the step animates (${what})`);
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.close();
  }
});
