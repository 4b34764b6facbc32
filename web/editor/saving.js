// Saving, sharing, "Try it" and export, the same in every editor (docs/editors.md); the
// boards' HTTP API is boards-api.js.

import { h, toast } from '../dom.js';
import { go } from '../app.js';
import * as boards from './boards-api.js';

/**
 * Save `body` (`{name, text, public}`) as a new version of the board opened when it is mine,
 * else as a new board of `game`; the share link and the address then show it. The saved board
 * (`{id, version}`), or null when it could not be saved (the player is told why).
 */
export async function saveBoard(game, opened, body, shareOut) {
  try {
    const b = opened?.id && opened.mine ? await boards.update(opened.id, body) : await boards.create({ game, ...body });
    shareOut.value = `${location.origin}/#/editor/${game}/${b.id}`;
    history.replaceState(null, '', `#/editor/${game}/${b.id}`);
    toast(`Saved: version ${b.version}`);
    return b;
  } catch (e) {
    toast(e.code === 'account_required' ? 'Saving needs an account: sign up first (Account)' : `Not saved: ${e.message}`, 'error');
    return null;
  }
}

/** A practice game on the board at once: the version opened as it is (`text` unchanged), or
 * saved first (`save()`) when edited. */
export async function tryBoard(opened, text, save) {
  const b = opened?.id && opened.version && text === opened.text ? opened : await save();
  if (!b) return;
  try {
    go(`#/g/${(await boards.tryIt(b.id, b.version)).id}`);
  } catch (e) {
    toast(`Could not start: ${e.message}`, 'error');
  }
}

/** The file, downloaded as `filename`. */
export function download(text, filename, type) {
  const a = h('a', { href: URL.createObjectURL(new Blob([text], { type })), download: filename });
  document.body.append(a);
  a.click();
  a.remove();
}
