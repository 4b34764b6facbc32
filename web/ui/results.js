// The result of a finished game, as the table and the replay show it: the winner named in a
// sentence, then a ranking whose columns are labelled. The ranking and the scores are the
// server's (the engine's outcome); a game's module may name its score and add columns read
// from the final view (`resultColumns(view)`: [{ label, of(seat) }]; `scoreLabel`).

import { h } from '../dom.js';

/** "Ada wins", "Ada & Bob win", or "" without a ranking. */
export function winnerText(outcome, names) {
  const first = (outcome && outcome.ranking && outcome.ranking[0]) || [];
  if (!first.length) return '';
  const who = first.map(names).join(' & ');
  return `${who} win${first.length === 1 ? 's' : ''}`;
}

/** The end banner's sentence: the winner(s) named, a star when one of `mySeats` is among them. */
export function bannerText(outcome, names, mySeats = []) {
  const first = (outcome && outcome.ranking && outcome.ranking[0]) || [];
  const w = winnerText(outcome, names);
  if (!w) return 'Game over — no winner';
  return `Game over — ${w}${first.some((s) => mySeats.includes(s)) ? ' ★' : ''}`;
}

/** The ranking table: place, player (a resigned player's name says so: `seatLabel`), the
 * game's own columns, the score. */
export function resultTable(outcome, names, mod, view) {
  const ranking = (outcome && outcome.ranking) || [];
  const extra = view && mod.resultColumns ? mod.resultColumns(view) : [];
  const scoreLabel = mod.scoreLabel || 'Score';
  const hasScores = Array.isArray(outcome && outcome.scores);
  const head = h('tr', [h('th', { scope: 'col' }, 'Place'), h('th', { scope: 'col' }, 'Player'), ...extra.map((c) => h('th', { scope: 'col' }, c.label)), hasScores ? h('th', { scope: 'col', 'data-col': 'score' }, scoreLabel) : null]);
  const rows = [];
  let place = 1;
  for (const group of ranking) {
    for (const seat of group) {
      rows.push(h('tr', { 'data-seat': seat, class: place === 1 ? 'winner' : '' }, [
        h('td.place', `${place}.`),
        h('td', [h('span.seat-dot', { style: { background: `var(--seat${seat})` } }), ' ', h('span.pname', names(seat))]),
        ...extra.map((c) => h('td', String(c.of(seat)))),
        hasScores ? h('td.pscore', h('b', String(outcome.scores[seat]))) : null,
      ]));
    }
    place += group.length;
  }
  return h('table.ranking', [h('thead', head), h('tbody', rows)]);
}
