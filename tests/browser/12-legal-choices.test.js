// Issue 21 items 3 and 4 in the browser: the tables offer only what the engine accepts, and the
// previews are the engine's.
//
// A hundred random positions of Bumping Bots, made by `robodrome scenario --view SEAT` along
// seeded random walks (three tracks, four bots): each position's view (with the engine's listing,
// `choices`) is drawn by the real table for the seat that owes the decision, and the test checks
// - every enabled control carries an action of the engine's listing (the listing is the engine's
//   own: `crates/bumping-bots/tests/choices.rs` proves it equals what `apply` accepts), and each
//   listed action is reachable through some control (the move's rotation rows, the quick rotation
//   toggles and the shock rows put together, the rest one button each);
// - the walk goes on with the action a click on a random enabled control sends: the engine must
//   accept it (`robodrome scenario` exits 0);
// - after each move, the preview drawn before it (its end cell and facing) is where the bot is once
//   its turn is over with the defaults the preview assumes (`time_up` for its own later questions).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { launch, ARTIFACTS, BIN, scenario, rng, drawTable as draw } from './helpers.js';

/** The position after `actions`, seen by the seat that owes the decision (`guess`: the seat
 * that probably does, to spare a second run). */
function position(base, actions, guess = 0) {
  let { exit, out } = scenario({ ...base, actions }, guess);
  assert.equal(exit, 0, `the engine accepted every action so far: ${JSON.stringify(out.error || '')} after ${JSON.stringify(actions.at(-1))}`);
  const seat = out.state.to_act;
  if (seat != null && seat !== guess) ({ out } = scenario({ ...base, actions }, seat));
  return { out, seat };
}

const J = (a) => JSON.stringify(a, Object.keys(a).sort());
const norm = (a) => J(JSON.parse(typeof a === 'string' ? a : JSON.stringify(a)));

/** Every action the listing stands for (the factored quick rotations and shocks expanded). */
function expand(c) {
  switch (c.kind) {
    case 'speed': {
      const out = [...c.speeds.map((o) => o.action), ...c.cards];
      const q = c.quick_rotation;
      if (q) {
        const grow = (from, stack) => {
          if (stack.length === q.most) return;
          for (let i = from; i < q.points.length; i++) for (const turn of [-1, 1]) {
            const next = [...stack, { at_cell: q.points[i], turn }];
            out.push({ type: 'card', card: 'rotation', rotations: next });
            grow(i + 1, next);
          }
        };
        grow(0, []);
      }
      return out;
    }
    case 'move': return c.moves.map((m) => m.action);
    case 'shock': {
      const out = [];
      const firsts = c.turn_first != null ? c.turns : [0];
      for (const f of firsts) for (let code = 0; code < 3 ** c.turn_cells; code++) {
        out.push({ type: 'shock_choice', turn_passive: [...Array(c.turn_cells)].map((_, i) => c.turns[Math.floor(code / 3 ** i) % 3]), turn_first: f });
      }
      return out;
    }
    default: return c.actions;
  }
}

/** The Bumping Bots table for `seat` (what it sends is kept, answered "not accepted"). */
const drawTable = (page, stat, view, seat) => draw(page, 'bumping-bots', stat, view, seat, { ack: false });

const enabledActions = (page) => page.locator('#test-table .controls [data-action]:not([disabled])').evaluateAll((els) => els.map((e) => e.dataset.action));
const lastSent = (page) => page.evaluate(() => window.sent.at(-1));

/** Put a move together on the rotation rows; the action the Move button then sends. */
async function composeMove(page, a) {
  for (const [k, v] of [['before', a.rotate_before_last], ['after', a.rotate_after]]) {
    const b = page.locator(`#test-table [data-rot="${k}:${v}"]`);
    if (await b.count()) await b.click();
    else assert.equal(v, 0, `no ${k} row: the engine lists no ${k} rotation`);
  }
  return page.locator('#test-table #do-move').getAttribute('data-action');
}

async function composeQuick(page, a) {
  const c = await page.evaluate(() => window.testTable.view.choices.quick_rotation.points);
  for (const p of c) await page.click(`#test-table [data-quick="${p}:0"]`);
  for (const r of a.rotations) await page.click(`#test-table [data-quick="${r.at_cell}:${r.turn}"]`);
  return page.locator('#test-table #quick-go').getAttribute('data-action');
}

async function composeShock(page, a) {
  for (const [i, t] of a.turn_passive.entries()) await page.click(`#test-table [data-shock="${i}:${t}"]`);
  if (await page.locator('#test-table [data-shock-first]').count()) await page.click(`#test-table [data-shock-first="${a.turn_first}"]`);
  await page.click('#test-table #shock-go');
  return lastSent(page);
}

test('Bumping Bots: on 100 random positions the controls are exactly the engine\'s listing, and the previews are where the moves end', async () => {
  assert.ok(existsSync(BIN), `the robodrome binary (${BIN}) is needed: cargo build`);
  const b = await launch();
  const seen = {};
  let previews = 0;
  try {
    const page = await b.page({ name: 'L' });
    await page.goto('/');
    await page.waitForSelector('#create');
    let positions = 0;
    for (const [w, track] of ['oval', 'chicane', 'factory'].entries()) {
      const random = rng(21 + w);
      const base = { game: 'bumping-bots', seed: 100 + w, board: track, setup: { players: 4 } };
      const actions = [];
      for (let step = 0; step < 34 && positions < 100; step++) {
        // The seat that acted last usually acts again (its move after its speed).
        const { out, seat } = position(base, actions, actions.length ? actions.at(-1).seat ?? 0 : 0);
        if (seat == null) break;
        const c = out.view.choices;
        assert.ok(c, `the view of seat ${seat}, who owes the decision, lists its choices`);
        seen[c.kind] = (seen[c.kind] || 0) + 1;
        positions++;
        await drawTable(page, out.static, out.view, seat);
        const listed = expand(c).map(norm);
        const set = new Set(listed);
        // Every enabled control: an action of the listing.
        for (const a of await enabledActions(page)) assert.ok(set.has(norm(a)), `${c.kind}: the control ${a} is not in the engine's listing`);
        // Every listed action: reachable (the composites put together on their rows).
        let reached = new Set((await enabledActions(page)).map(norm));
        const quick = c.kind === 'speed' && c.quick_rotation ? expand({ ...c, speeds: [], cards: [] }) : [];
        const shockPicks = c.kind === 'shock' ? expand(c).sort(() => random() - 0.5).slice(0, 2) : [];
        if (c.kind === 'move') for (const m of c.moves) reached.add(norm(await composeMove(page, m.action)));
        for (const a of quick.sort(() => random() - 0.5).slice(0, 2)) reached.add(norm(await composeQuick(page, a)));
        for (const a of shockPicks) { reached.add(norm(await composeShock(page, a))); await drawTable(page, out.static, out.view, seat); }
        const must = c.kind === 'shock' ? shockPicks.map(norm) : listed.filter((a) => !quick.some((q) => norm(q) === a));
        for (const a of must) assert.ok(reached.has(a), `${c.kind}: the listed ${a} is reachable through no control`);
        if (quick.length) assert.equal(await page.locator('#test-table [data-quick]').count(), c.quick_rotation.points.length * 3, 'a toggle per quick rotation point');
        // Go on with what a click on a random enabled control sends.
        await drawTable(page, out.static, out.view, seat);
        let next;
        if (c.kind === 'shock') next = await composeShock(page, expand(c)[Math.floor(random() * expand(c).length)]);
        else {
          const ctrls = page.locator('#test-table .controls [data-action]:not([disabled])');
          const n = await ctrls.count();
          assert.ok(n > 0, `${c.kind}: some control is enabled`);
          // The move: put a random listed pair together, then press Move.
          if (c.kind === 'move') await composeMove(page, c.moves[Math.floor(random() * c.moves.length)].action);
          const pick = c.kind === 'move' ? page.locator('#test-table #do-move') : ctrls.nth(Math.floor(random() * n));
          const pv = c.kind === 'move' ? await page.locator('#test-table .bb-pv-end').evaluate((e) => ({ at: e.dataset.hex, facing: Number(e.dataset.facing) })).catch(() => null) : null;
          await pick.click();
          next = await lastSent(page);
          if (pv) {
            // The preview against the engine: play the move, then the defaults the preview assumes.
            const after = [...actions, { seat, ...next }];
            let r = scenario({ ...base, actions: after }, seat);
            const round = out.view.round;
            while (r.out.state.to_act === seat && r.out.state.round === round && !['speed', 'over'].includes(r.out.state.phase)) {
              after.push({ type: 'time_up' });
              r = scenario({ ...base, actions: after }, seat);
            }
            const bot = r.out.state.bots.find((x) => x.seat === seat);
            const at = bot.at ? (Array.isArray(bot.at) ? bot.at.join(',') : `${bot.at.q},${bot.at.r}`) : null;
            assert.deepEqual({ at, facing: bot.facing }, pv, 'the preview drawn is where the move ends');
            previews++;
          }
        }
        assert.ok(next, `${c.kind}: a click sent an action`);
        actions.push({ seat, ...next });
      }
    }
    assert.ok(positions >= 100, `100 positions (${positions})`);
    assert.ok(previews >= 10, `previews checked: ${previews}`);
    for (const k of ['speed', 'move']) assert.ok(seen[k] > 0, `positions of every common kind: ${JSON.stringify(seen)}`);
    await page.screenshot({ path: join(ARTIFACTS, 'bumping-bots-choices.png') });
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.close();
  }
});

/** The Autoscooter table for `seat` from a view and the static part (the actions it sends kept). */
const drawAutoscooter = (page, stat, view, seat) => draw(page, 'autoscooter', stat, view, seat, { ack: false, status: false });

test('Autoscooter: on 100 random positions the numbers, letters, starts and payments offered are the engine\'s listing, and the preview drawn is the engine\'s', async () => {
  assert.ok(existsSync(BIN), `the robodrome binary (${BIN}) is needed: cargo build`);
  const b = await launch();
  try {
    const page = await b.page({ name: 'A' });
    await page.goto('/');
    await page.waitForSelector('#create');
    const kinds = {};
    let positions = 0;
    for (let w = 0; positions < 100 && w < 8; w++) {
      const random = rng(210 + w);
      const base = { game: 'autoscooter', seed: 300 + w, board: 'standard', setup: { players: [0, 1, 2].map((s) => ({ seat: s, cars: [s], chits: 10 })), cars: [], round: 1 } };
      const actions = [];
      for (let step = 0; step < 40 && positions < 100; step++) {
        let { exit, out } = scenario({ ...base, actions }, 0);
        assert.equal(exit, 0, `the engine accepted every action so far: ${JSON.stringify(out.error || '')}`);
        const wt = out.state.waiting;
        if (!wt) break;
        const seat = wt.kind === 'plan' ? wt.seats[Math.floor(random() * wt.seats.length)] : wt.seat;
        if (seat !== 0) ({ out } = scenario({ ...base, actions }, seat));
        const c = out.view.choices;
        assert.ok(c, `seat ${seat} owes a ${wt.kind} decision: its view lists its choices`);
        kinds[wt.kind] = (kinds[wt.kind] || 0) + 1;
        positions++;
        await drawAutoscooter(page, out.static, out.view, seat);
        let next;
        if (wt.kind === 'plan' && c.plots && c.plots.length) {
          const pc = c.plots[0];
          const nums = await page.locator('#test-table .numbers button.num:not([disabled])').evaluateAll((els) => els.map((e) => Number(e.dataset.number)));
          assert.deepEqual(nums, pc.numbers, 'the numbers offered are the listed ones');
          const lets = await page.locator('#test-table .letters button.letter:not([disabled])').evaluateAll((els) => els.map((e) => e.dataset.letter));
          assert.deepEqual(lets, pc.letters, 'the letters offered are the listed ones');
          const n = pc.numbers[Math.floor(random() * pc.numbers.length)];
          await page.click(`#test-table .numbers button[data-number="${n}"]`);
          const l = pc.letters.length ? pc.letters[Math.floor(random() * pc.letters.length)] : null;
          if (l) {
            await page.click(`#test-table .letters button[data-letter="${l}"]`);
            const pv = pc.previews.find((p) => p.letter === l) || pc.previews.find((p) => true);
            const ghost = await page.locator('#test-table .ghost-car[data-preview-end]').evaluate((e) => ({ at: e.dataset.previewEnd, facing: Number(e.dataset.facing) }));
            assert.deepEqual(ghost, { at: pv.end.join(','), facing: pv.facing }, 'the ghost car stands where the engine\'s preview ends');
          }
          await page.click('#test-table #commit');
          next = (await lastSent(page));
          assert.deepEqual(next, { type: 'plot', car: pc.car, number: n, letter: l }, 'the plot sent is the one put together');
        } else if (wt.kind === 'plan') {
          const lets = await page.locator('#test-table .letters button.letter:not([disabled])').evaluateAll((els) => els.map((e) => e.dataset.letter));
          assert.deepEqual(lets, c.wild, 'the wild car\'s letters offered are the listed ones');
          await page.click(`#test-table .letters button[data-letter="${c.wild[0]}"]`);
          await page.click('#test-table #commit');
          next = await lastSent(page);
        } else if (wt.kind === 'start') {
          const shown = await page.locator('#test-table [data-start-hex]').evaluateAll((els) => els.map((e) => e.dataset.startHex));
          assert.deepEqual(shown.sort(), c.start.cells.map((x) => x.to.join(',')).sort(), 'the start cells offered are the listed ones');
          const cell = c.start.cells[Math.floor(random() * c.start.cells.length)];
          await page.locator(`#test-table [data-start-hex="${cell.to.join(',')}"]`).dispatchEvent('click');
          const facings = await page.locator('#test-table .start-facings button[data-facing]').evaluateAll((els) => els.map((e) => Number(e.dataset.facing)));
          assert.deepEqual(facings.sort(), [...cell.facings].sort(), 'the facings offered are the listed ones');
          await page.click(`#test-table .start-facings button[data-facing="${cell.facings[0]}"]`);
          next = await lastSent(page);
        } else {
          assert.equal(await page.locator('#test-table [data-payment]').count(), c.payments.length, 'one button per listed payment');
          await page.click('#test-table [data-payment="0"]');
          next = await lastSent(page);
          assert.deepEqual(next, c.payments[0]);
        }
        assert.ok(next, `${wt.kind}: a click sent an action`);
        actions.push({ seat, ...next });
      }
    }
    assert.ok(positions >= 100, `100 positions (${positions})`);
    assert.ok(kinds.plan > 0, JSON.stringify(kinds));
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.close();
  }
});
