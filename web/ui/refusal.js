// An action the server refused anyway (a race with another decision, a timer that ran out): the
// game crate's sentence, in words beside the controls, with the code in small print — never a
// raw engine error in a toast (issue 21). The sentence is the engine's (each game's error
// `Display`); this only gives it a capital and a full stop when a game's phrase lacks them.

import { h, clear } from '../dom.js';

export function refusalBox() {
  return h('div.refusal', { role: 'alert', hidden: true, 'data-testid': 'refusal' });
}

export function sentence(text) {
  const t = String(text || 'The game did not accept that.').trim();
  const s = t[0].toUpperCase() + t.slice(1);
  return /[.!?)]$/.test(s) ? s : `${s}.`;
}

export function showRefusal(box, e) {
  if (!box) return;
  const code = [e.code, e.rule].filter(Boolean).join(' · ');
  clear(box).append(h('b', 'Not accepted: '), sentence(e.message), code ? h('small', code) : null);
  box.hidden = false;
}

export function hideRefusal(box) {
  if (box) box.hidden = true;
}
