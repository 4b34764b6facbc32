// "Learn to play" (docs/lessons.md): the lessons the server ships (GET /api/lessons), each a
// practice game started from a lesson file (POST /api/lessons/{game}/{n}); the table shows the
// lesson's goal, its hints and what the server's check of the goal says. The browser decides
// nothing: "complete" and "failed" come from the engine's position, checked by the server.
// Progress (the lessons done) is kept in this browser's localStorage.

import { clear, h, toast } from '../dom.js';
import * as api from '../api.js';
import { ruleLink } from './rules.js';

const DONE_KEY = 'robodrome.lessons.done';

/** The lessons done in this browser: { game: [numbers] }. */
export function doneLessons() {
  try {
    const v = JSON.parse(localStorage.getItem(DONE_KEY) || '{}');
    return v && typeof v === 'object' ? v : {};
  } catch { return {}; }
}
export function isDone(game, n) { return (doneLessons()[game] || []).includes(n); }
function markDone(game, n) {
  const all = doneLessons();
  const list = new Set(all[game] || []);
  list.add(n);
  all[game] = [...list].sort((a, b) => a - b);
  localStorage.setItem(DONE_KEY, JSON.stringify(all));
}

let cache = null;
/** The server's list of lessons (fetched once per page load). */
export function lessonList() {
  if (!cache) cache = api.lessons().catch((e) => { cache = null; throw e; });
  return cache;
}

/** A text from the server with its rule numbers (RR-5.2, AS-3.2, BB-7.1…) as links into the
 * rules drawer. */
function withRuleLinks(game, text) {
  const parts = String(text).split(/\b((?:RR|AS|BB)-\d+(?:\.\d+)?)\b/);
  return parts.map((p, i) => (i % 2 ? ruleLink(game, p) : p));
}

/** Start lesson `n` of `game` and go to its table. */
export async function startLesson(game, n) {
  try {
    const info = await api.startLesson(game, n);
    location.hash = `#/g/${info.id}`;
  } catch (e) {
    toast(`Could not start the lesson: ${e.message}`, 'error');
  }
}

/** The "Learn to play" panel: every game's lessons in order, with done marks. */
export function learnPanel({ compact = false } = {}) {
  const body = h('div.learn-games', h('p.loading', 'Loading lessons…'));
  const box = h('section.panel.learn#learn', { 'aria-labelledby': 'learn-title' }, [
    h('h2#learn-title', 'Learn to play'),
    h('p.help', 'Short interactive lessons: each sets up a position with a goal, and the game itself checks whether you reached it. Start with lesson 1 of any game.'),
    body,
  ]);
  lessonList().then((data) => {
    clear(body).append(...(data.games || []).map((g) => {
      const done = (g.lessons || []).filter((l) => isDone(g.game, l.number)).length;
      return h('div.learn-game', { 'data-learn-game': g.game }, [
        h('h3', [g.title, h('span.learn-count', ` ${done}/${g.lessons.length} done`)]),
        h('ol.learn-list', g.lessons.map((l) => h('li', { 'data-lesson': l.number, class: isDone(g.game, l.number) ? 'done' : '' }, [
          h('span.learn-mark', { 'aria-label': isDone(g.game, l.number) ? 'done' : 'not done yet' }, isDone(g.game, l.number) ? '✓' : '○'),
          h('button.btn.small.learn-start', { type: 'button', 'data-testid': `lesson-${g.game}-${l.number}`, onclick: () => startLesson(g.game, l.number) }, l.title),
          compact ? null : h('span.learn-goal', l.goal),
        ]))),
      ]);
    }));
  }).catch((e) => { clear(body).append(h('p.help', `Lessons are not available: ${e.message}`)); });
  return box;
}

/** The page #/learn. */
export async function showLearn(root) {
  root.append(h('div.learn-page', learnPanel()));
  return { destroy() {} };
}

/**
 * The lesson panel of a table. `table` is the game's table (its `highlight(focus)` marks cells);
 * `page` holds the controls whose cards a hint may point at; `learner()` says whether this
 * browser plays the lesson (a spectator's progress is not marked). Returns { el, update, refresh }.
 */
export function lessonPanel(table, page, learner = () => true) {
  const el = h('section.panel.lesson#lesson', { 'aria-labelledby': 'lesson-title', 'data-testid': 'lesson', hidden: true });
  let lesson = null;
  let status = null;
  let hintsShown = 0;
  let lit = null;

  function showHint(hint) {
    lit = hint;
    table.highlight && table.highlight(hint.cells && hint.cells.length ? { squares: hint.cells, hexes: hint.cells } : null);
    page.querySelectorAll('.hint-hl').forEach((e) => e.classList.remove('hint-hl'));
    // A hint's controls by name: RoboRally cards, Autoscooter letters, Bumping Bots speeds.
    for (const c of hint.controls || []) page.querySelectorAll(`.controls [data-card="${c}"], .controls [data-letter="${c}"], .controls [data-speed="${c}"]`).forEach((e) => e.classList.add('hint-hl'));
  }

  function render() {
    if (!lesson) return;
    el.hidden = false;
    el.dataset.status = status.status;
    const hints = lesson.hints.slice(0, hintsShown);
    const more = hintsShown < lesson.hints.length && status.status === 'playing';
    const next = lesson.number < lesson.count ? lesson.number + 1 : null;
    clear(el).append(...[
      h('div.lesson-head', [h('span.tag', `Lesson ${lesson.number} of ${lesson.count}`), h('h2#lesson-title', lesson.title)]),
      h('details.lesson-intro', { open: status.status === 'playing' && hintsShown === 0 }, [h('summary', 'How it works'), h('p', withRuleLinks(lesson.game, lesson.intro))]),
      h('p.lesson-goal', [h('b', 'Goal: '), h('span', { 'data-testid': 'lesson-goal' }, lesson.goal)]),
      hints.length ? h('ol.lesson-hints', hints.map((t) => h('li', [t.text, ' ', (t.cells && t.cells.length) || (t.controls && t.controls.length)
        ? h('button.btn.small.ghost.lesson-show', { type: 'button', onclick: () => showHint(t) }, 'Show me') : null]))) : null,
      more ? h('button.btn.small#lesson-hint', { type: 'button', onclick: () => { hintsShown++; render(); } }, hintsShown ? 'Another hint' : 'Hint') : null,
      status.status === 'complete' ? h('div.lesson-done', { role: 'status', 'data-testid': 'lesson-complete' }, [
        h('b', 'Lesson complete'), h('p', status.message),
        h('div.row', [
          next ? h('button.btn.primary#lesson-next', { type: 'button', onclick: () => startLesson(lesson.game, next) }, 'Next lesson') : h('span', 'That was the last lesson of this game.'),
          h('button.btn.ghost#lesson-again', { type: 'button', onclick: () => startLesson(lesson.game, lesson.number) }, 'Try again'),
          h('a.btn.ghost', { href: '#/learn' }, 'All lessons'),
        ]),
      ]) : null,
      status.status === 'failed' ? h('div.lesson-failed', { role: 'alert', 'data-testid': 'lesson-failed' }, [
        h('b', 'Not this time'), h('p', status.message),
        h('div.row', [
          h('button.btn.primary#lesson-retry', { type: 'button', onclick: () => startLesson(lesson.game, lesson.number) }, 'Try again'),
          h('a.btn.ghost', { href: '#/learn' }, 'All lessons'),
        ]),
      ]) : null,
    ].filter(Boolean));
    if (lit && status.status === 'playing') showHint(lit);
  }

  return {
    el,
    /** A `lesson` frame from the server. */
    update(msg) {
      lesson = msg.lesson;
      status = msg.status;
      // A lesson is replayed with "Try again", not with a rematch (docs/lessons.md).
      page.classList.add('lesson-game');
      if (status.status === 'complete' && learner()) markDone(lesson.game, lesson.number);
      if (status.status !== 'playing' && lit) { lit = null; table.highlight && table.highlight(null); page.querySelectorAll('.hint-hl').forEach((e) => e.classList.remove('hint-hl')); }
      render();
    },
    /** Redraw after the table drew new controls (a hint's cards stay marked). */
    refresh() { if (lit) showHint(lit); },
  };
}
