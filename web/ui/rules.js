// The rules pages (docs/client.md "Rules and help"): one per game, in the project's words,
// from the game crate's rule book (GET /api/kinds/{game}/rules), with diagrams drawn by the
// game's own table code from the static part the same answer carries. Shown as a page
// (#/rules/GAME) or in a drawer beside a running table: the table, its socket and its state
// stay as they are; closing the drawer returns to the game.

import { h, clear } from '../dom.js';
import { diagram } from '../rules/diagrams.js';

const books = new Map();

/** The game whose rules a table shows (a championship's races are Bumping Bots races). */
export const rulesGame = (name) => String(name || '').replace(/-championship$/, '');

/** The rule book of a game: `{game, title, topics, static}`, fetched once per page load. */
export function rulebook(game) {
  const g = rulesGame(game);
  if (!books.has(g)) {
    const p = fetch(`/api/kinds/${encodeURIComponent(g)}/rules`, { headers: { accept: 'application/json' } })
      .then(async (r) => {
        const body = await r.json().catch(() => ({}));
        if (!r.ok) throw new Error(body.message || `no rules for ${g}`);
        return body;
      });
    p.catch(() => books.delete(g));
    books.set(g, p);
  }
  return books.get(g);
}

/** A topic of a game by its key (`variant:jolting`, `option:brakes`, `AS-7.2`), or null. */
export async function topic(game, key) {
  const book = await rulebook(game);
  return book.topics.find((t) => t.key === key) || null;
}

/** The element id of a rule number's anchor on a rules page. */
export const anchorId = (rule) => `rule-${String(rule).replace(/[^\w-]/g, '_')}`;

/** A rule number in small print: a link into the game's rules page, opening the drawer. */
export function ruleLink(game, rule) {
  return h('a.rule-code', {
    href: `#/rules/${rulesGame(game)}?at=${encodeURIComponent(rule)}`,
    title: 'Read this rule',
    'data-rule': rule,
    onclick: (e) => { e.preventDefault(); e.stopPropagation(); openRules(game, rule); },
  }, rule);
}

const GROUPS = [
  ['rule', 'How to play'],
  ['element', 'The board'],
  ['card', 'Cards'],
  ['badge', 'At the table'],
  ['variant', 'Variants and options'],
];

/** The rules page of a game as an element (the page route and the drawer both show it). */
export function rulesPage(book) {
  const game = book.game;
  const seen = new Set();
  const section = (t) => {
    // One anchor per rule number: the first topic that cites it (a link to RR-5.3 lands on
    // the first element it explains).
    const id = seen.has(t.rule) ? undefined : anchorId(t.rule);
    seen.add(t.rule);
    const pic = t.diagram ? diagram(game, t.diagram, book.static, t) : diagram(game, t.key, book.static, t, true);
    return h('section.rule-topic', { id, 'data-key': t.key, 'data-kind': t.kind }, [
      h('h3', [t.title, ' ', h('small.rule-num', t.rule)]),
      ...t.text.split(/\n\n/).map((p) => h('p', p)),
      pic ? h('div.rule-diagram', pic) : null,
    ]);
  };
  const groups = GROUPS.map(([kind, title]) => [kind, title, book.topics.filter((t) => t.kind === kind)]).filter(([, , ts]) => ts.length);
  return h('article.rules-page', { 'data-rules': game, 'data-testid': 'rules-page' }, [
    h('h2', `${book.title}: the rules`),
    h('nav.rules-toc', { 'aria-label': 'Contents' }, groups.map(([kind, title]) => h('a', { href: `#rules-${kind}`, onclick: (e) => { e.preventDefault(); e.target.closest('.rules-page').querySelector(`[data-group="${kind}"]`)?.scrollIntoView(); } }, title))),
    ...groups.map(([kind, title, ts]) => h('div.rules-group', { 'data-group': kind }, [h('h2.group-title', title), ...ts.map(section)])),
  ]);
}

/** The section a rule number lands on: itself, or the nearest rule above it (AS-5.4 → AS-5). */
export function findAnchor(root, rule) {
  let r = String(rule || '');
  while (r) {
    const el = root.querySelector(`#${anchorId(r)}`);
    if (el) return el;
    const cut = r.search(/[.-][^.-]*$/);
    if (cut <= 0) break;
    r = r.slice(0, cut);
  }
  return null;
}

function land(root, rule) {
  const el = rule && findAnchor(root, rule);
  if (!el) return;
  el.scrollIntoView({ block: 'start' });
  el.classList.add('landed');
  setTimeout(() => el.classList.remove('landed'), 1600);
}

let drawer = null;

/** Open (or move) the rules drawer beside whatever page is shown, at a rule if given. */
export async function openRules(game, rule) {
  const g = rulesGame(game);
  if (!drawer || drawer.dataset.game !== g) {
    closeRules();
    const body = h('div.rules-body', h('p.loading', 'Loading the rules…'));
    drawer = h('aside.rules-drawer', { role: 'complementary', 'aria-label': 'Rules', 'data-game': g, 'data-testid': 'rules-drawer' }, [
      h('div.rules-head', [
        h('b', 'Rules'),
        h('a.btn.small.ghost', { href: `#/rules/${g}`, title: 'Open the rules as a page of their own' }, 'Full page'),
        h('button.btn.small#close-rules', { type: 'button', onclick: closeRules, 'aria-label': 'Close the rules' }, 'Close ✕'),
      ]),
      body,
    ]);
    document.body.append(drawer);
    document.body.classList.add('rules-open');
    try {
      const book = await rulebook(g);
      clear(body).append(rulesPage(book));
    } catch (e) {
      clear(body).append(h('p.error', `The rules could not be loaded: ${e.message}`));
    }
  }
  land(drawer, rule);
  drawer.querySelector('#close-rules')?.focus({ preventScroll: true });
}

export function closeRules() {
  if (drawer) drawer.remove();
  drawer = null;
  document.body.classList.remove('rules-open');
}

document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && drawer) closeRules(); });
// Another page: the drawer belongs to the page it was opened over.
window.addEventListener('hashchange', () => closeRules());

/** The page route #/rules/GAME?at=RULE. */
export async function showRules(root, game, at) {
  const book = await rulebook(game);
  const page = h('div.rules-route', [h('p', h('a.btn.small.ghost', { href: '#/' }, '← Lobby')), rulesPage(book)]);
  root.append(page);
  requestAnimationFrame(() => land(page, at));
  return { destroy() {} };
}

/** The lobby's variant and option check boxes (`data-help="variant:KEY"`): each gets its rule
 * number as a small link, and explains itself from the rule book instead of a bare title. */
export async function decorateVariants(box, game) {
  let book;
  try { book = await rulebook(game); } catch { return; }
  for (const el of box.querySelectorAll('[data-help^="variant:"]')) {
    const t = book.topics.find((x) => x.key === el.dataset.help);
    if (!t) { el.removeAttribute('data-help'); continue; }
    el.removeAttribute('title');
    if (!el.querySelector('.rule-code')) el.append(' ', ruleLink(game, t.rule));
  }
}

/** The lobby's "How to play" panel: a rules page per game the server offers. */
export function howToPlay(kinds) {
  const games = kinds.filter((k) => !k.name.endsWith('-championship'));
  return h('section.panel.how-to-play', { 'data-testid': 'how-to-play' }, [
    h('h2', 'How to play'),
    h('p.help', 'Each game\'s rules in a few pages, with pictures. At a table, the "Rules" button opens them beside the board.'),
    h('ul.rules-links', games.map((k) => h('li', h('a.btn.small', { href: `#/rules/${k.name}`, 'data-rules-link': k.name }, `${k.title}: rules`)))),
  ]);
}
