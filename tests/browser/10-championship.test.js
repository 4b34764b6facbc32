// A Bumping Bots championship's table between races (BB-11.2), on positions the engine makes:
// the championship golden file (crates/bumping-bots/tests/golden/bb-11-championship-…) is
// played by `robodrome scenario --view SEAT` up to each grid choice; the table is drawn for the
// chooser from that view: the standings table (BB-11.1), the grid with its places, the place
// buttons (taken ones disabled). The test clicks the place the golden file chooses; the action
// the table sends is played on by the engine, which must reach the golden file's expectations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { golden, scenario, drawTable, sentActions, onClientPage } from './helpers.js';

const FILE = golden('bumping-bots', 'bb-11-championship-3-races-reverse-grid-teams.json');

function play(actions, seat) {
  const { exit, out } = scenario({ ...FILE, actions }, seat);
  assert.equal(exit, 0, 'the engine accepts the actions');
  return out;
}

test('Bumping Bots championship: the standings and the grid choice between races, on the table', () => onClientPage('C', async (page) => {
  const actions = [];
  for (const [i, a] of FILE.actions.entries()) {
    if (a.type !== 'grid_place') { actions.push(a); continue; }
    const out = play(FILE.actions.slice(0, i), a.seat);
    assert.equal(out.phase, 'grid_choice');
    const { view } = out;
    assert.equal(view.grid.chooser, a.seat, 'the golden file\'s chooser is the engine\'s');
    await drawTable(page, 'bumping-bots-championship', out.static, view, a.seat);
    // The standings: one row per bot, best first, with each finished race's column.
    const rows = page.locator('#test-table [data-testid="standings"] tbody tr');
    assert.equal(await rows.count(), 4);
    const shown = await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.seat)));
    const best = [...view.standings.keys()].sort((x, y) => view.standings[y] - view.standings[x] || x - y);
    assert.deepEqual(shown, best, 'standings best first');
    assert.equal(await page.locator('#test-table [data-testid="standings"] thead th').count(), view.results.length + 2);
    // The grid: every place drawn, taken ones marked; a button per place, taken ones disabled.
    assert.equal(await page.locator('#test-table .bb-place').count(), view.grid.places.length);
    const buttons = page.locator('#test-table [data-grid-place]');
    assert.equal(await buttons.count(), view.grid.places.length);
    for (const [p, who] of view.grid.places.entries()) {
      assert.equal(await page.locator(`#test-table [data-grid-place="${p}"]`).isDisabled(), who !== null, `place ${p}`);
    }
    await page.click(`#test-table [data-grid-place="${a.place}"]`);
    const got = await sentActions(page);
    assert.deepEqual(got, [{ type: 'grid_place', place: a.place }], 'the table sends the place clicked');
    actions.push({ seat: a.seat, ...got[0] });
  }
  const end = play(actions, 0);
  assert.equal(end.phase, 'over');
  assert.deepEqual(end.state.standings, FILE.expect['state.standings']);
  assert.deepEqual(end.state.ranking, FILE.expect['state.ranking']);
}));
