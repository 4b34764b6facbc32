// Table talk (docs/client.md "Chat"): one panel at every table and in the waiting room. Lines
// come from the server (`chat` frames, or GET /api/games/{id}/chat in the waiting room), each
// once (by channel and number). A player can mute anyone at the table (this browser only, for
// this game); spectators' lines are marked and, during a game, only spectators see them (the
// server does not send them to players before the end).

import { h } from '../dom.js';

const MAX = 300;

/**
 * `send(text)` says a line (resolves when sent, rejects with a message to show);
 * `mine(line)` tells whether a line is the viewer's own (no mute button on it).
 */
export function createChat({ gameId, send, mine = () => false, spectator = false }) {
  const seen = new Set();
  const nameOf = new Map();
  const muteKey = `robodrome.mute.${gameId}`;
  let muted = new Set();
  try { muted = new Set(JSON.parse(sessionStorage.getItem(muteKey) || '[]')); } catch { /* none */ }
  const list = h('ol.chat-lines', { 'aria-label': 'Chat', 'aria-live': 'polite' });
  const notes = {
    spectator: 'As a spectator, your lines go to the spectators\' chat; players see it only after the game.',
    player: 'Players\' chat: everyone at the table reads it. Spectators talk among themselves until the game is over.',
  };
  const note = h('p.chat-note.hint', spectator ? notes.spectator : notes.player);
  const error = h('p.chat-error', { hidden: true, role: 'alert', 'data-testid': 'chat-error' });
  const input = h('input.chat-input', { type: 'text', maxlength: MAX, placeholder: 'Say something…', 'aria-label': 'Chat message', autocomplete: 'off' });
  const counter = h('small.chat-count', `0/${MAX}`);
  const mutedBox = h('p.chat-muted.hint', { hidden: true });
  const form = h('form.chat-form', {
    onsubmit: async (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      try {
        await send(text);
        input.value = '';
        counter.textContent = `0/${MAX}`;
        showError(null);
      } catch (err) {
        showError(err.message || String(err));
      }
    },
  }, [input, h('button.btn.small#chat-send', { type: 'submit' }, 'Send'), counter]);
  input.addEventListener('input', () => { counter.textContent = `${input.value.length}/${MAX}`; });
  // Keys typed into the chat are not the table's shortcuts.
  input.addEventListener('keydown', (e) => e.stopPropagation());
  const el = h('div.panel.chat-panel', { 'data-testid': 'chat' }, [h('h3', 'Chat'), note, list, mutedBox, error, form]);

  const who = (line) => (line.channel === 'players' && line.seat !== undefined && line.seat !== null ? `seat:${line.seat}` : `spectator:${line.name}`);

  function showError(text) {
    error.hidden = !text;
    error.textContent = text || '';
  }

  function redraw() {
    for (const li of list.children) li.hidden = muted.has(li.dataset.who);
    mutedBox.hidden = muted.size === 0;
    mutedBox.replaceChildren(...(muted.size ? ['Muted: ', ...[...muted].map((k) => h('button.btn.small.ghost.unmute', { type: 'button', 'data-unmute': k, onclick: () => { muted.delete(k); save(); redraw(); } }, `${nameOf.get(k) || k.replace(/^\w+:/, '')} · unmute`))] : []));
  }
  function save() { try { sessionStorage.setItem(muteKey, JSON.stringify([...muted])); } catch { /* private mode */ } }

  function add(line) {
    const id = `${line.channel}:${line.n}`;
    if (seen.has(id)) return;
    seen.add(id);
    const k = who(line);
    nameOf.set(k, line.name);
    const own = mine(line);
    const li = h('li', { class: line.channel === 'spectators' ? 'spectator' : '', 'data-who': k, 'data-name': line.name, 'data-channel': line.channel }, [
      line.channel === 'players' && line.seat !== null && line.seat !== undefined ? h('span.seat-dot', { style: { background: `var(--seat${line.seat})` } }) : null,
      h('b.chat-name', line.channel === 'spectators' ? `${line.name} (spectator)` : line.name), ': ',
      h('span.chat-text', line.text),
      own ? null : h('button.mute', { type: 'button', title: `Mute ${line.name}`, 'aria-label': `Mute ${line.name}`, 'data-mute': k, onclick: () => { muted.add(k); save(); redraw(); } }, 'mute'),
    ]);
    li.hidden = muted.has(k);
    list.append(li);
    while (list.children.length > 200) list.firstChild.remove();
    list.scrollTop = list.scrollHeight;
    if (li.hidden) redraw();
  }

  return { el, add, showError, setSpectator(s) { note.textContent = s ? notes.spectator : notes.player; } };
}
