// The rare questions of the RoboRally and Bumping Bots tables, on positions the engine makes:
// a golden scenario file (crates/*/tests/golden) is played by `robodrome scenario` up to its
// question, the game's table is drawn in the browser from that view, the test clicks the
// button for the answer the golden file gives, and the action the table sends is played on by
// the engine, which must reach the golden file's expected position. Covers RoboRally's option
// card questions (damage, move options, Abort Switch, weapons) and locked registers, and the
// Bumping Bots shock (turn instead of push, per push cell and for a chain's first bot), and the
// Bumping Bots drawings of bumper arrow cells and of the motorised obstacles' turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, golden, scenario, drawTable as draw, sentActions as sent, onClientPage } from './helpers.js';

/** A golden file's position after `actions`, seen by `seat` (`robodrome scenario --view`). */
const play = (file, actions, seat = 0) => scenario({ ...file, actions }, seat);
/** The table of `game` drawn for `seat` (0 unless said) from a view. */
const drawTable = (page, game, setup, stat, view, seat = 0) => draw(page, game, stat, view, seat, { setup });

/** The golden file's `expect` on the output (the subset rules of the shared checker). */
function expectGolden(file, exit, out) {
  const like = (want, got, path) => {
    if (want !== null && typeof want === 'object' && !Array.isArray(want)) {
      for (const [k, v] of Object.entries(want)) {
        const sub = Array.isArray(got) ? got.find((x) => String(x.seat ?? x.car ?? x.id) === k) : got?.[k];
        like(v, sub, `${path}.${k}`);
      }
    } else assert.deepEqual(got, want, path);
  };
  for (const [path, want] of Object.entries(file.expect)) {
    if (path === 'exit') assert.equal(exit, want, 'exit');
    else like(want, path.split('.').reduce((o, k) => o?.[k], out), path);
  }
}

test('RoboRally option questions and locked registers, answered on the table', () => onClientPage('Q', async (page) => {
  const files = {
    'rr-7.4-decline-option.json': 'damage',
    'rr-7.4-discard-option-prevents-damage.json': 'damage',
    'rr-9-brakes-move-1-as-zero.json': 'move_option',
    'rr-9-abort-switch-replaces-the-rest.json': 'reveal',
    'rr-9-pressor-beam-pushes-away.json': 'weapon',
    'rr-9-mini-howitzer-pushes-and-damages.json': 'weapon',
  };
  for (const [name, kind] of Object.entries(files)) {
    const file = golden('roborally', name);
    const answers = [];
    for (const want of file.actions) {
      const { exit, out } = play(file, answers);
      assert.equal(exit, 0, `${name}: the answers so far are legal`);
      assert.equal(out.view.question?.kind, kind, `${name}: the view asks a ${kind} question`);
      await drawTable(page, 'roborally', null, out.static, out.view);
      assert.equal(await page.locator(`#test-table [data-question="${kind}"]`).count(), 1, `${name}: the ${kind} question is shown`);
      await page.click(want.option === null ? '#test-table #decline-option' : `#test-table [data-option="${want.option}"]`);
      const got = await sent(page);
      assert.deepEqual(got, [{ type: want.type, option: want.option }], `${name}: the table sends the answer clicked`);
      answers.push({ seat: 0, ...got[0] });
    }
    const { exit, out } = play(file, answers);
    expectGolden(file, exit, out);
    if (name === 'rr-7.4-decline-option.json') {
      // 5 damage: the next program has a hand of 4 and register 5 locked (RR-6.1, RR-6.2).
      assert.equal(out.view.phase, 'program');
      await drawTable(page, 'roborally', null, out.static, out.view);
      assert.equal(await page.locator('#test-table .hand .card').count(), 4, 'a hand of 9 - 5 cards');
      assert.deepEqual(await page.locator('#test-table .register.locked').evaluateAll((els) => els.map((e) => e.dataset.register)), ['5'], 'register 5 shown locked');
      for (let k = 1; k <= 4; k++) await page.keyboard.press(String(k));
      await page.locator('#test-table .controls').screenshot({ path: join(ARTIFACTS, 'roborally-locked.png') });
      await page.click('#test-table #submit-program');
      const all = await sent(page);
      // RR-4.3: each card typed went to the engine's draft first, register by register.
      assert.deepEqual(all.filter((a) => a.type === 'place').map((a) => a.register), [1, 2, 3, 4], 'one place per card typed');
      const program = all.find((a) => a.type === 'program');
      assert.equal(program.type, 'program');
      assert.equal(program.registers[4], null, 'nothing sent for the locked register');
      const next = play(file, [...answers, { seat: 0, ...program }]);
      assert.equal(next.exit, 0, `the program is legal: ${JSON.stringify(next.out.error || '')}`);
    }
  }
}));

test('Autoscooter: the rink, the chart and the number columns are the ones the server sends; the letters and numbers offered and the preview are the engine\'s listing', () => onClientPage('Q', async (page) => {
  // A golden file's position: a rink of 35 hexes (not the standard 38), car 1 at speed 1.
  const file = golden('autoscooter', 'as-3.2-chart-n-and-a.json');
  const { exit, out } = play(file, []);
  assert.equal(exit, 0);
  const st = out.static;
  const letters = st.chart.map((e) => e.letter);
  const lettersAt = (sd, speed) => { const r = sd.ranges.find((x) => x.speed === speed); const l = sd.chart.map((e) => e.letter); return l.slice(l.indexOf(r.first), l.indexOf(r.last) + 1); };
  const shown = async () => ({
    cells: await page.locator('#test-table svg.rink polygon.cell').count(),
    sheet: await page.locator('#test-table .chart-sheet .chart-cell b').allTextContents(),
    enabled: await page.locator('#test-table .letters button.letter:not([disabled])').evaluateAll((els) => els.map((e) => e.dataset.letter)),
    numbers: await page.locator('#test-table .numbers button.num').evaluateAll((els) => els.map((e) => Number(e.dataset.number))),
  });
  await drawTable(page, 'autoscooter', null, st, out.view);
  // The letters offered are the engine's listing (`choices`), here the speed-1 range of the table.
  assert.deepEqual(out.view.choices.plots[0].letters, lettersAt(st, 1));
  assert.deepEqual(await shown(), { cells: file.board.cells.length, sheet: letters, enabled: lettersAt(st, 1), numbers: st.columns[0] });
  // The same position with other tables and another listing: the client follows them, it keeps
  // no copy of its own (issue 21: the choices and the preview are the engine's, never derived).
  const other = structuredClone(st);
  other.columns[0] = [5, 7];
  other.board.cells = other.board.cells.slice(0, 20);
  const view = structuredClone(out.view);
  const pc = view.choices.plots[0];
  pc.letters = ['C', 'D'];
  pc.numbers = [7];
  const at = out.view.cars.find((c) => c.car === pc.car).at;
  const step = (k) => [at[0] + k, at[1]];
  pc.previews = [{ letter: 'C', path: [step(1), step(2), step(3)], end: step(3), facing: 0, speed: 1, chits: 0 }];
  await drawTable(page, 'autoscooter', null, other, view);
  assert.deepEqual(await shown(), { cells: 20, sheet: letters, enabled: ['C', 'D'], numbers: [5, 7] });
  assert.deepEqual(await page.locator('#test-table .numbers button.num:not([disabled])').evaluateAll((els) => els.map((e) => Number(e.dataset.number))), [7], 'the numbers offered are the listed ones');
  await page.click('#test-table .letters button[data-letter="C"]');
  assert.equal(await page.locator('#test-table polygon.path-hex').count(), 3, 'the preview is the engine\'s (the view\'s), not a copy of the chart');
}));

test('RoboRally re-entry (RR-8.3): the table offers exactly the cells and facings the engine lists', () => onClientPage('Q', async (page) => {
  // Seats 0 and 1 share the archive [3,3]; seat 0 has re-entered on it, so seat 1 chooses a
  // free cell around it and a facing with no robot within 3 cells in its line of sight (seat 2
  // stands at [3,6]): [3,4] facing south is such a blocked choice (the golden file's error).
  const file = golden('roborally', 'rr-8.3-reenter-line-of-sight.json');
  const { exit, out } = play(file, file.actions.slice(0, 1), 1);
  assert.equal(exit, 0);
  const re = out.view.reentry;
  assert.equal(re.seat, 1, 'the view names the re-entering robot');
  await drawTable(page, 'roborally', null, out.static, out.view, 1);
  const shown = await page.locator('#test-table rect.reenter-target').evaluateAll((els) => els.map((e) => e.dataset.reenter));
  assert.deepEqual(shown, re.choices.map((c) => c.at.join(',')), 'the highlighted cells are the listed ones');
  assert.ok(!shown.includes('3,3'), 'not the taken archive');
  await page.click('#test-table button[data-reenter="3,4"]');
  const enabled = await page.locator('#test-table .facings button[data-facing]:not([disabled])').evaluateAll((els) => els.map((e) => Number(e.dataset.facing)));
  assert.deepEqual(enabled, re.choices.find((c) => c.at.join(',') === '3,4').facings, 'the facings offered are the listed ones');
  assert.ok(!enabled.includes(2), 'south from [3,4] sees seat 2 at [3,6]');
  await page.click(`#test-table .facings button[data-facing="${enabled[0]}"]`);
  const got = await sent(page);
  assert.deepEqual(got, [{ type: 'reenter', at: [3, 4], facing: enabled[0], powered_down: false }]);
  const next = play(file, [file.actions[0], { seat: 1, ...got[0] }], 1);
  assert.equal(next.exit, 0, `the engine accepts it: ${JSON.stringify(next.out.error || '')}`);
}));

test('Bumping Bots shocks: a pushed bot turned instead, per push cell and a chain\'s first bot', () => onClientPage('Q', async (page) => {
  for (const name of ['bb-7.4-lateral-turn-speed4.json', 'bb-7.4-lateral-turn-speed5.json', 'bb-7.6-chain-turn-first-and-last.json']) {
    const file = golden('bumping-bots', name);
    const at = file.actions.findIndex((a) => a.type === 'shock_choice');
    const want = file.actions[at];
    const { exit, out } = play(file, file.actions.slice(0, at));
    assert.equal(exit, 0);
    assert.equal(out.phase, 'shock_choice', `${name}: a shock question`);
    const { shock } = out.view;
    await drawTable(page, 'bumping-bots', { board: file.board }, out.static, out.view);
    assert.equal(await page.locator('#test-table [data-shock^="0:"]').count(), shock.turn_cells ? 3 : 0, `${name}: a row per push cell`);
    assert.equal(await page.locator('#test-table [data-shock-first]').count(), shock.turn_first === null ? 0 : 3, `${name}: the first bot's row when it may turn`);
    const cells = Array.from({ length: shock.turn_cells }, (_, i) => (want.turn_passive || [])[i] || 0);
    for (const [i, t] of cells.entries()) await page.click(`#test-table [data-shock="${i}:${t}"]`);
    if (shock.turn_first !== null) await page.click(`#test-table [data-shock-first="${want.turn_first || 0}"]`);
    await page.click('#test-table #shock-go');
    const got = await sent(page);
    assert.deepEqual(got, [{ type: 'shock_choice', turn_passive: cells, turn_first: want.turn_first || 0 }], `${name}: the table sends the choice clicked`);
    const actions = [...file.actions.slice(0, at), { seat: want.seat, ...got[0] }, ...file.actions.slice(at + 1)];
    const end = play(file, actions);
    expectGolden(file, end.exit, end.out);
  }
}));

test('Bumping Bots drawings: a bumper\'s six arrow cells and which way a motorised obstacle turns', () => onClientPage('Q', async (page) => {
  // BB-8.4: arrows in the six cells round each bumper, pointing away from its centre.
  const bumper = golden('bumping-bots', 'bb-8.4-bumper-throws-1.json');
  let { out } = play(bumper, []);
  const bumpers = out.view.obstacles.filter((o) => o.kind === 'bumper').length;
  assert.ok(bumpers > 0, 'the file has a bumper');
  await drawTable(page, 'bumping-bots', { board: bumper.board }, out.static, out.view);
  const dirs = await page.locator('#test-table .bb-obstacle.bumper polygon.bumper-arrow').evaluateAll((els) => els.map((e) => Number(e.dataset.dir)));
  assert.equal(dirs.length, 6 * bumpers);
  assert.deepEqual([...new Set(dirs)].sort(), [0, 1, 2, 3, 4, 5]);
  // BB-8.2: the view's `turn` (new in issue 22) drawn as a clockwise or anticlockwise arrow.
  const motor = golden('bumping-bots', 'bb-8.2-motorised-arm-pushes-bot.json');
  ({ out } = play(motor, []));
  const turns = out.view.obstacles.filter((o) => o.kind === 'motorised').map((o) => o.turn).sort();
  assert.ok(turns.length > 0 && turns.every((t) => t === 'cw' || t === 'ccw'), `the view says the turn: ${turns}`);
  await drawTable(page, 'bumping-bots', { board: motor.board }, out.static, out.view);
  const drawn = await page.locator('#test-table .bb-obstacle.motorised .turn').evaluateAll((els) => els.map((e) => e.dataset.turn));
  assert.deepEqual(drawn.sort(), turns);
}));
