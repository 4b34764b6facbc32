// Turn-based games in the lobby (docs/platform.md "Turn-based clocks"): the player's running
// turn-based games with a "Your move" marker where they owe a decision, and an optional browser
// notification (the Notifications API, asked for only when the player ticks the box). The tab
// title "(N) Your move — Robodrome" is the lobby's "my games" panel's (web/ui/account.js): it
// counts every game where it is the player's move, turn-based or not.

import { h, clear } from '../dom.js';
import * as api from '../api.js';

const NOTIFY_KEY = 'robodrome.notify-moves';

function timeLeft(dueMs) {
  if (!dueMs) return '';
  const s = Math.max(0, Math.round((dueMs - Date.now()) / 1000));
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h left`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min left`;
  return `${Math.floor(s / 60)} min left`;
}

/** The panel; `refresh()` asks the server again (the lobby calls it on its own poll). */
export function turnsPanel(kindTitle) {
  const notifyBox = h('input#notify-moves', { type: 'checkbox' });
  const supported = typeof Notification !== 'undefined';
  notifyBox.checked = supported && localStorage.getItem(NOTIFY_KEY) === '1' && Notification.permission === 'granted';
  notifyBox.disabled = !supported;
  notifyBox.addEventListener('change', async () => {
    if (!notifyBox.checked) { localStorage.removeItem(NOTIFY_KEY); return; }
    // Asked only now, because the player asked for it.
    const p = await Notification.requestPermission().catch(() => 'denied');
    notifyBox.checked = p === 'granted';
    if (notifyBox.checked) localStorage.setItem(NOTIFY_KEY, '1');
    else localStorage.removeItem(NOTIFY_KEY);
  });
  const list = h('ul.games');
  const count = h('span.count', '0');
  const el = h('section.panel.list.list-turns', { 'data-list': 'turns' }, [
    h('h2', ['Turn-based games', count]),
    list,
    h('label.check.notify', [notifyBox, ' Notify me when it is my move', supported ? null : ' (not supported by this browser)']),
  ]);
  let lastYours = new Set();

  async function refresh() {
    let r;
    try { r = await api.turns(); } catch { return; }
    const games = r.games || [];
    count.textContent = String(games.length);
    const yours = new Set(games.filter((g) => g.your_move).map((g) => g.id));
    if (notifyBox.checked && document.hidden && Notification.permission === 'granted') {
      for (const id of yours) {
        if (!lastYours.has(id)) {
          const g = games.find((x) => x.id === id);
          new Notification('Your move — Robodrome', { body: `${kindTitle(g.game)} #${id.slice(0, 6)}`, tag: `move-${id}` });
        }
      }
    }
    lastYours = yours;
    clear(list).append(...(games.length === 0
      ? [h('p.empty', 'No turn-based games. Choose "1 day per move" as the timer to play one.')]
      : games.map((g) => h('li.game-row', { 'data-game': g.id, 'data-your-move': g.your_move ? 'true' : 'false' }, [
        h('div.game-main', [
          h('span.game-title', kindTitle(g.game)),
          h('span.game-id', `#${g.id.slice(0, 6)}`),
          g.your_move ? h('span.tag.your-move', 'Your move') : h('span.tag', 'Waiting'),
          h('span.tag', timeLeft(g.due_ms)),
        ]),
        h('div.game-actions', [h('a.btn.small', { href: `#/g/${g.id}`, 'data-action': 'play' }, 'Play')]),
      ]))));
  }
  return { el, refresh };
}
