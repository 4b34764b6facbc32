// The log's lines point at the board (docs/client.md "Readable boards"): hovering, focusing or
// tapping a line highlights what it is about (squares, hexes, robots, bots, cars) through the
// game table's `focusOf(event)` and `highlight(focus)`; leaving the line clears it.

let current = null;

/** Make `li` (the line of `ev`) highlight its subject on `table`'s board. */
export function linkLine(li, table, ev) {
  if (!table.focusOf || !table.highlight) return li;
  let focus = null;
  try { focus = table.focusOf(ev); } catch { focus = null; }
  if (!focus) return li;
  li.classList.add('points');
  li.tabIndex = 0;
  li.title = 'Shown on the board';
  const on = () => {
    if (current && current !== li) current.classList.remove('hl', 'pinned');
    current = li;
    li.classList.add('hl');
    table.highlight(focus);
  };
  const off = () => {
    if (current !== li || li.classList.contains('pinned')) return;
    li.classList.remove('hl');
    current = null;
    table.highlight(null);
  };
  li.addEventListener('mouseenter', on);
  li.addEventListener('focus', on);
  li.addEventListener('mouseleave', off);
  li.addEventListener('blur', off);
  // A tap (phones have no hover) or a click pins the highlight until another line is pointed at
  // (or the same line is tapped again).
  li.addEventListener('click', () => {
    if (current === li && li.classList.contains('pinned')) { li.classList.remove('pinned'); off(); return; }
    on();
    li.classList.add('pinned');
  });
  return li;
}
