// Issue 21 items 3 and 4 for RoboRally in the browser: the table offers only what the engine
// accepts, and the program's preview drawn is the engine's.
//
// A hundred random positions, made by `robodrome scenario --view SEAT` along seeded random walks
// (the shipped courses; three robots holding option cards dealt at random, so that their
// programming uses and questions come up; and one robot alone). Each position's view, with the
// engine's listing (`choices`, crates/roborally/src/choices.rs, which `crates/roborally/tests/
// choices.rs` proves equal to what `apply` accepts), is drawn by the real table for the seat that
// owes the decision, and the test checks:
// - programming: the hand offered is the listed hand, the registers locked and open are the
//   listed ones, the power down is offered exactly when listed, the option-card buttons are the
//   listed uses (each carrying its action); the walk goes on with a program put together by
//   clicking random enabled cards (each click a `place`) and Submit, or with a random option use:
//   the engine must accept every action sent (`robodrome scenario` exits 0);
// - every other decision (stay down, re-entry, the option questions): the enabled controls carry
//   exactly the listed actions (re-entry: the cells highlighted and, for a cell, the facings
//   enabled are the listed ones), and the walk goes on with a random one;
// - the preview: the ghost robot drawn for each register stands where the engine's preview ends it
//   (the view after the cards were placed), a fall is marked on its cell; with one robot alone on
//   the board, the robot ends the turn where the last ghost stands (or falls where it is marked).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, scenario, rng, drawTable, sentActions, onClientPage } from './helpers.js';

/** A canonical JSON text (keys sorted at every depth), to compare actions. */
const canon = (v) => (Array.isArray(v) ? `[${v.map(canon).join(',')}]`
  : v && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(',')}}`
    : JSON.stringify(v));
const norm = (a) => canon(typeof a === 'string' ? JSON.parse(a) : a);

const OPTIONS = ['ablative_coat', 'abort_switch', 'brakes', 'circuit_breaker', 'conditional_program', 'crab_legs', 'double_barreled_laser', 'dual_processor', 'extra_memory', 'fire_control', 'flywheel', 'fourth_gear', 'gyroscopic_stabilizer', 'high_power_laser', 'mechanical_arm', 'mini_howitzer', 'power_down_shield', 'pressor_beam', 'radio_control', 'ramming_gear', 'rear_firing_laser', 'recompile', 'reverse_gear', 'scrambler', 'superior_archive', 'tractor_beam'];

/** The seat that owes a decision after `actions` and its view (none when the game is over). */
function position(base, actions, seats, guess) {
  const order = [guess, ...[...Array(seats).keys()].filter((s) => s !== guess)];
  let last;
  for (const seat of order) {
    const { exit, out } = scenario({ ...base, actions }, seat);
    assert.equal(exit, 0, `the engine accepted every action so far: ${JSON.stringify(out.error || '')} after ${JSON.stringify(actions.at(-1))}`);
    if (out.view.choices) return { seat, out };
    last = out;
  }
  assert.equal(last.view.phase, 'over', 'someone owes a decision until the game is over');
  return { seat: null, out: last };
}

const attr = (page, sel, name) => page.locator(`#test-table ${sel}`).evaluateAll((els, n) => els.map((e) => e.getAttribute(n)), name);

/** The preview drawn: each ghost robot (register → cell and facing) and each fall mark. */
async function drawnPreview(page) {
  return page.locator('#test-table [data-testid="program-preview"] [data-preview-register]').evaluateAll((els) => els.map((e) => ({
    register: Number(e.dataset.previewRegister), at: e.dataset.at || null, facing: e.dataset.facing !== undefined ? Number(e.dataset.facing) : null, falls: e.dataset.previewFall || null,
  })));
}

const enginePreview = (p) => p.registers.map((x) => ({
  register: x.register, at: x.end ? x.end.at.join(',') : null, facing: x.end ? x.end.facing : null, falls: x.falls ? x.falls.join(',') : null,
}));

/** Check the program controls against the listing; returns the actions a random program sends. */
async function program(page, ch, view, seat, random) {
  // What the table shows, read in one go.
  const shown = await page.evaluate(() => {
    const all = (sel, f) => [...document.querySelectorAll(`#test-table ${sel}`)].map(f);
    return {
      hand: all('.hand .card', (e) => Number(e.dataset.priority)),
      enabled: all('.hand .card:not([disabled])', (e) => Number(e.dataset.priority)),
      locked: all('.register.locked', (e) => e.dataset.register),
      open: all('button.register', (e) => e.dataset.register),
      powerDown: !document.querySelector('#test-table #power-down').disabled,
      options: all('.program-options [data-action]', (e) => e.dataset.action),
    };
  });
  assert.deepEqual(shown.hand, ch.hand.map((c) => c.priority), 'the hand offered is the listed hand');
  assert.deepEqual(shown.locked, ch.registers.filter((x) => x.locked).map((x) => String(x.register)), 'the locked registers are the listed ones');
  assert.deepEqual(shown.open, ch.registers.filter((x) => !x.locked).map((x) => String(x.register)), 'the open registers');
  assert.equal(shown.powerDown, ch.power_down, 'a power down offered exactly when listed');
  assert.deepEqual(shown.options.map(norm).sort(), (ch.options || []).map(norm).sort(), 'the option-card uses offered are the listed ones');
  // The cards enabled: exactly those an empty open register lists, the draft's cards taken.
  const regs = view.robots.find((r) => r.seat === seat).draft || [null, null, null, null, null];
  const taken = regs.filter(Boolean).map((c) => c.priority);
  const placeable = ch.hand.map((c) => c.priority).filter((p) => !taken.includes(p) && ch.registers.some((x, k) => !x.locked && !regs[k] && x.cards.some((c) => c.priority === p)));
  assert.deepEqual(shown.enabled, placeable, 'every card that may be placed, and no other, is enabled');
  if (ch.options && ch.options.length && random() < 0.25) {
    const k = Math.floor(random() * ch.options.length);
    await page.locator('#test-table .program-options [data-action]').nth(k).click();
    const sent = await sentActions(page);
    assert.equal(sent.length, 1);
    return sent;
  }
  // Put a program together: random enabled cards until Submit is enabled (or none is left).
  for (let i = 0; i < 6 && await page.locator('#test-table #submit-program').isDisabled(); i++) {
    const cards = page.locator('#test-table .hand .card:not([disabled])');
    const n = await cards.count();
    if (!n) break;
    await cards.nth(Math.floor(random() * n)).click();
  }
  if (ch.power_down && random() < 0.3) await page.check('#test-table #power-down');
  assert.equal(await page.locator('#test-table #submit-program').isDisabled(), false, 'a program can be put together');
  await page.click('#test-table #submit-program');
  const sent = await sentActions(page);
  assert.equal(sent.at(-1).type, 'program');
  return sent;
}

/** Re-entry: the cells and facings offered are the listed ones; returns the action of a click. */
async function reenter(page, ch, random) {
  const cells = [...new Set(ch.actions.map((a) => a.at.join(',')))].sort();
  assert.deepEqual((await attr(page, 'rect.reenter-target', 'data-reenter')).sort(), cells, 'the cells highlighted are the listed ones');
  assert.equal(await page.locator('#test-table #reenter-down').count(), ch.actions.some((a) => a.powered_down) ? 1 : 0, 'powered down offered when listed');
  const cell = cells[Math.floor(random() * cells.length)];
  await page.click(`#test-table button[data-reenter="${cell}"]`);
  const facings = [...new Set(ch.actions.filter((a) => a.at.join(',') === cell).map((a) => a.facing))].sort();
  const shown = (await attr(page, '.facings button[data-facing]:not([disabled])', 'data-facing')).map(Number).sort();
  assert.deepEqual(shown, facings, 'the facings enabled are the listed ones');
  if (random() < 0.3 && await page.locator('#test-table #reenter-down').count()) await page.check('#test-table #reenter-down');
  await page.click(`#test-table .facings button[data-facing="${shown[Math.floor(random() * shown.length)]}"]`);
  const sent = await sentActions(page);
  assert.ok(ch.actions.map(norm).includes(norm(sent[0])), `the re-entry sent is listed: ${JSON.stringify(sent[0])}`);
  return sent;
}

/** One random walk; `alone`: one robot, whose turn ends where the preview says. */
async function walk(page, base, seats, steps, random, tally) {
  const actions = [];
  let guess = 0;
  for (let step = 0; step < steps && tally.positions < 100; step++) {
    const { seat, out } = position(base, actions, seats, guess);
    if (seat === null) break;
    const ch = out.view.choices;
    tally.kinds[ch.kind] = (tally.kinds[ch.kind] || 0) + 1;
    tally.positions++;
    await drawTable(page, 'roborally', out.static, out.view, seat);
    let sent;
    if (ch.kind === 'program') {
      sent = await program(page, ch, out.view, seat, random);
      const places = sent.filter((a) => a.type === 'place').map((a) => ({ seat, ...a }));
      if (places.length) {
        // The engine's preview of the cards placed, drawn as the table draws it.
        const { out: after } = scenario({ ...base, actions: [...actions, ...places] }, seat);
        const pv = after.view.choices.preview;
        await drawTable(page, 'roborally', after.static, after.view, seat);
        assert.deepEqual(await drawnPreview(page), enginePreview(pv), 'the ghosts drawn are the engine\'s preview');
        assert.match(await page.locator('#test-table [data-testid="preview-text"]').innerText(), /if no robot is in the way/);
        tally.previews++;
        const prog = sent.at(-1);
        if (seats === 1 && prog.type === 'program') {
          // One robot alone: the turn ends where the preview ends (or it falls where marked).
          const { out: done } = scenario({ ...base, actions: [...actions, ...places, { seat, ...prog }] }, seat);
          const last = pv.registers.at(-1);
          const robot = done.state.robots[0];
          // The events of this turn: those after the program just sent (the output lists all).
          const turn = done.events.slice(done.events.map((e) => e.type).lastIndexOf('program'));
          const fell = turn.find((e) => e.type === 'destroyed' && e.seat === 0);
          if (last && last.falls) {
            assert.ok(fell && ['pit', 'off_board'].includes(fell.cause), 'the robot falls as the preview says');
            assert.deepEqual(fell.at, last.falls, 'where the preview marks the fall');
            tally.alone++;
          } else if (last && !fell && pv.registers.length === 5) {
            assert.deepEqual({ at: robot.at, facing: robot.facing }, last.end, 'the robot ends the turn where the last ghost stands');
            tally.alone++;
          }
        }
      }
    } else if (ch.kind === 'reenter') {
      sent = await reenter(page, ch, random);
    } else {
      const shown = (await attr(page, '.controls [data-action]:not([disabled])', 'data-action')).map(norm).sort();
      assert.deepEqual(shown, ch.actions.map(norm).sort(), `${ch.kind}: the controls are exactly the listed actions`);
      const ctrls = page.locator('#test-table .controls [data-action]:not([disabled])');
      await ctrls.nth(Math.floor(random() * shown.length)).click();
      sent = await sentActions(page);
    }
    assert.ok(sent.length, `${ch.kind}: a click sent an action`);
    actions.push(...sent.map((a) => ({ seat, ...a })));
    guess = ch.kind === 'program' && sent.at(-1).type === 'program' ? (seat + 1) % seats : seat;
  }
  // The engine accepts the last actions sent too.
  position(base, actions, seats, guess);
}

test('RoboRally: on 100 random positions the controls are exactly the engine\'s listing, and the preview drawn is the engine\'s', () => onClientPage('R', async (page) => {
  const tally = { positions: 0, previews: 0, alone: 0, kinds: {} };
  // One robot alone on courses with pits and belts: previews against the whole engine.
  for (const [w, board] of ['dizzy-dash', 'first-steps'].entries()) {
    await walk(page, { game: 'roborally', seed: 40 + w, board, setup: { players: 1 } }, 1, 12, rng(121 + w), tally);
  }
  // Three robots holding option cards.
  for (let w = 0; tally.positions < 100 && w < 6; w++) {
    const random = rng(2100 + w);
    const deal = [...OPTIONS].sort(() => random() - 0.5);
    const robots = [0, 1, 2].map((seat) => ({ seat, options: deal.slice(seat * 5, seat * 5 + 5), damage: Math.floor(random() * 6) }));
    const board = ['laser-gauntlet', 'grand-tour', 'dizzy-dash'][w % 3];
    await walk(page, { game: 'roborally', seed: 500 + w, board, setup: { robots } }, 3, 40, random, tally);
  }
  assert.ok(tally.positions >= 100, `100 positions: ${JSON.stringify(tally)}`);
  assert.ok(tally.previews >= 20 && tally.alone >= 8, `previews checked: ${JSON.stringify(tally)}`);
  assert.ok(tally.kinds.program > 0 && Object.keys(tally.kinds).length >= 3, `positions of several kinds: ${JSON.stringify(tally.kinds)}`);
  await page.screenshot({ path: join(ARTIFACTS, 'roborally-choices.png') });
}));
