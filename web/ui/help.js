// Context help (docs/client.md "Rules and help"): every element with `data-help="KEY"` (a
// card, a board element, a badge, a variant) explains itself with the game's rule-book topic
// KEY — a tooltip on hover or keyboard focus, and on touch a tap (a long press on a button,
// whose tap acts) — with its rule number as a link into the rules drawer. The game is the
// nearest `data-rules-game` above the element. The texts come from the game crate.

import { h } from '../dom.js';
import { topic, ruleLink } from './rules.js';

let tip = null;
let owner = null;
let hideTimer = 0;

function gameOf(el) {
  return el.closest('[data-rules-game]')?.dataset.rulesGame || document.body.dataset.rulesGame || '';
}

export function hideHelp() {
  clearTimeout(hideTimer);
  if (tip) tip.remove();
  tip = null;
  owner = null;
}

/** Show the help of `el` (an element with `data-help`). */
export async function showHelp(el) {
  const key = el.dataset.help;
  const game = gameOf(el);
  if (!key || !game) return;
  if (owner === el && tip) return;
  owner = el;
  const t = await topic(game, key).catch(() => null);
  if (owner !== el || !t) return;
  if (tip) tip.remove();
  tip = h('div.help-tip', { role: 'tooltip', 'data-testid': 'help-tip', 'data-key': key }, [
    h('b', t.title), ' ', ruleLink(game, t.rule),
    h('p', t.text.split(/\n\n/)[0]),
  ]);
  tip.addEventListener('mouseenter', () => clearTimeout(hideTimer));
  tip.addEventListener('mouseleave', () => { hideTimer = setTimeout(hideHelp, 200); });
  document.body.append(tip);
  const r = el.getBoundingClientRect();
  const w = tip.offsetWidth, hh = tip.offsetHeight;
  let x = Math.min(Math.max(8, r.left + r.width / 2 - w / 2), window.innerWidth - w - 8);
  let y = r.bottom + 8;
  if (y + hh > window.innerHeight - 8) y = Math.max(8, r.top - hh - 8);
  tip.style.left = `${x + window.scrollX}px`;
  tip.style.top = `${y + window.scrollY}px`;
}

const helpOf = (target) => (target instanceof Element ? target.closest('[data-help]') : null);
let touching = false;

document.addEventListener('pointerdown', (e) => { touching = e.pointerType === 'touch'; }, true);
document.addEventListener('mouseover', (e) => {
  if (touching) return;
  const el = helpOf(e.target);
  clearTimeout(hideTimer);
  if (el) showHelp(el);
  else if (tip && !tip.contains(e.target)) hideTimer = setTimeout(hideHelp, 200);
});
document.addEventListener('focusin', (e) => { const el = helpOf(e.target); if (el) showHelp(el); });
document.addEventListener('focusout', (e) => { if (owner && owner.contains(e.target) && !touching) hideTimer = setTimeout(hideHelp, 200); });
// Touch: a tap on something that does nothing else explains it; a long press (the browser's
// context menu gesture) explains a button or a card without acting.
document.addEventListener('click', (e) => {
  if (tip && tip.contains(e.target)) return;
  const el = helpOf(e.target);
  if (touching && el && !e.target.closest('button, a, input, select, label')) { showHelp(el); return; }
  if (touching && tip) hideHelp();
});
document.addEventListener('contextmenu', (e) => {
  const el = helpOf(e.target);
  if (!el) return;
  e.preventDefault();
  showHelp(el);
});
document.addEventListener('keydown', (e) => { if (e.key === 'Escape') hideHelp(); });
window.addEventListener('hashchange', hideHelp);
