// Undo and redo for the editors (docs/editors.md): whole snapshots of the file being edited,
// at most LIMIT kept; Ctrl+Z undoes, Ctrl+Y or Ctrl+Shift+Z redoes.

const LIMIT = 200;

/**
 * `snapshot()` gives the present state; `restore(state)` puts a remembered one back (and
 * redraws). `mark()` before every change remembers the present and forgets what was undone.
 */
export function undoHistory(snapshot, restore) {
  const undos = [];
  const redos = [];
  const step = (from, to) => {
    if (!from.length) return;
    to.push(snapshot());
    restore(from.pop());
  };
  return {
    mark() {
      undos.push(snapshot());
      if (undos.length > LIMIT) undos.shift();
      redos.length = 0;
    },
    undo: () => step(undos, redos),
    redo: () => step(redos, undos),
    /** The undo and redo keys: true when `ev` was one of them (and was handled). */
    key(ev) {
      if (!(ev.ctrlKey || ev.metaKey)) return false;
      const k = ev.key.toLowerCase();
      if (k === 'z') { ev.preventDefault(); if (ev.shiftKey) step(redos, undos); else step(undos, redos); return true; }
      if (k === 'y') { ev.preventDefault(); step(redos, undos); return true; }
      return false;
    },
  };
}
