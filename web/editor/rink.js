// The Autoscooter rink editor (docs/editors.md): paint the rink's cells on the hex grid (every
// edge leading off the rink is a barrier, AS-1.1: erasing a cell makes a barrier around it) and
// place the 8 cars' start spaces with their facings (AS-1.2); the file it writes is the rink
// JSON of docs/autoscooter.md (AS-8's inline board), what `robodrome board check` and
// `board render` read. Every rule comes from the server: each edit is sent (debounced) to
// POST /api/boards/validate, whose findings, computed by the game crate
// (`autoscooter::board::inspect`), are listed and marked on the cells they concern. This module
// only draws and writes the file.

import { h, s, clear, toast } from '../dom.js';
import { DIRS, DIR_NAMES, key, neighbour, centre, corners, edge, polygon } from '../hex.js';
import * as boards from './boards-api.js';
import { undoHistory } from './history.js';
import { saveBoard, tryBoard, download as downloadFile } from './saving.js';

const SIZE = 18;
const TOOLS = [
  ['cell', 'c', 'Rink', 'Paint rink cells (drag; Shift+drag fills a rectangle)'],
  ['erase', 'e', 'Erase', 'Remove cells, and start spaces on them (drag; Shift+drag empties a rectangle): the edges around become barriers'],
  ['start', 's', 'Start', 'Put the next car\'s start space on a rink cell, facing the direction (R turns it); click a start space to turn it, Shift+click to remove it (later cars move up)'],
];

/** An empty rink. */
export function blankRink() {
  return { name: 'My rink', about: null, cells: new Set(), starts: [] };
}

const hexOf = (k) => k.split(',').map(Number);

/** Read a rink file (JSON) into the editor's model, for drawing; the server's checker is the
 * judge of the text (this reader is lenient: what it cannot read, the validation answer names
 * with its line). */
export function parseRink(text) {
  const t = blankRink();
  t.name = '';
  let j = null;
  try { j = JSON.parse(text); } catch { return t; }
  if (!j || typeof j !== 'object') return t;
  if (typeof j.name === 'string') t.name = j.name;
  if (typeof j.about === 'string') t.about = j.about;
  for (const c of Array.isArray(j.cells) ? j.cells : []) {
    if (Array.isArray(c) && c.length === 2 && c.every(Number.isInteger)) t.cells.add(key(c));
  }
  for (const st of Array.isArray(j.starts) ? j.starts : []) {
    if (st && Array.isArray(st.at) && st.at.length === 2 && st.at.every(Number.isInteger) && Number.isInteger(st.facing)) {
      t.starts.push({ at: st.at, facing: st.facing });
    }
  }
  return t;
}

/** The rink file of the model, in the layout of the shipped `standard.json`: `name`, `about`
 * (kept from an opened file), the cells row by row (one line per row, west to east), then the
 * start spaces in car order, one per line. */
export function writeRink(t) {
  const cells = [...t.cells].map(hexOf).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  const rows = [];
  for (const c of cells) {
    if (!rows.length || rows[rows.length - 1][0][1] !== c[1]) rows.push([]);
    rows[rows.length - 1].push(c);
  }
  const out = ['{'];
  if (t.name) out.push(`  "name": ${JSON.stringify(t.name)},`);
  if (t.about) out.push(`  "about": ${JSON.stringify(t.about)},`);
  if (rows.length) {
    out.push('  "cells": [');
    out.push(rows.map((row) => `    ${row.map((c) => `[${c[0]},${c[1]}]`).join(',')}`).join(',\n'));
    out.push('  ],');
  } else out.push('  "cells": [],');
  if (t.starts.length) {
    out.push('  "starts": [');
    out.push(t.starts.map((st) => `    {"at": [${st.at[0]},${st.at[1]}], "facing": ${st.facing}}`).join(',\n'));
    out.push('  ]');
  } else out.push('  "starts": []');
  out.push('}');
  return `${out.join('\n')}\n`;
}

/** The editor page: `#/editor/autoscooter[/ID]`. */
export async function showRinkEditor(root, id) {
  let t = blankRink();
  let loaded = null; // { text, written, id, version, mine } of the file opened
  let tool = 'cell';
  let facing = 0;
  let answer = null;
  // The drawing window: columns x = 2q + r from x0 (half cells), rows from r0.
  let [x0, W, r0, H] = [-2, 36, -1, 12];

  const svg = s('svg.editor-grid.as-editor', { role: 'application', 'aria-label': 'Rink editor grid' });
  const findings = h('ul.findings#findings', { 'aria-live': 'polite' });
  const status = h('span.editor-status#editor-status');
  const nameIn = h('input#rink-name', { value: t.name, maxlength: 60, 'aria-label': 'Rink name' });
  const publicBox = h('input#rink-public', { type: 'checkbox' });
  const shareOut = h('input#share-link', { readonly: true, 'aria-label': 'Share link', placeholder: 'save to get a link' });
  const facingOut = h('span#facing');
  const counts = h('span#rink-counts');
  const textArea = h('textarea#rink-text', { rows: 10, spellcheck: false, 'aria-label': 'Rink file' });
  const toolBtns = TOOLS.map(([tid, k, label, help]) => h('button.btn.small.tool', { type: 'button', 'data-tool': tid, title: `${help} (${k.toUpperCase()})`, onclick: () => setTool(tid) }, `${label} (${k.toUpperCase()})`));

  function setTool(tid) {
    tool = tid;
    for (const b of toolBtns) b.classList.toggle('active', b.dataset.tool === tid);
    draw();
  }

  const snapshot = () => currentText();
  function edit(f) {
    hist.mark();
    f();
    changed();
  }
  const hist = undoHistory(snapshot, (text) => {
    t = parseRink(text);
    nameIn.value = t.name;
    changed();
  });

  let timer = null;
  let asked = 0;
  function changed() {
    t.name = nameIn.value.trim();
    const text = currentText();
    textArea.value = text;
    draw();
    clearTimeout(timer);
    status.textContent = 'checking…';
    delete status.dataset.ok;
    timer = setTimeout(() => check(text), 250);
  }
  /** The file: the one opened, byte for byte, while nothing was edited; else written anew. */
  function currentText() {
    const written = writeRink(t);
    return loaded && loaded.written === written ? loaded.text : written;
  }
  async function check(text) {
    const n = ++asked;
    let a;
    try {
      a = await boards.validate('autoscooter', text);
    } catch (e) {
      a = { findings: [{ severity: 'error', message: e.message }], ok: false };
    }
    if (n !== asked) return;
    answer = a;
    const errors = answer.findings.filter((f) => f.severity === 'error').length;
    const warnings = answer.findings.length - errors;
    status.textContent = errors ? `${errors} error${errors > 1 ? 's' : ''}, ${warnings} warning${warnings === 1 ? '' : 's'}` : `valid${warnings ? `, ${warnings} warning${warnings > 1 ? 's' : ''}` : ''}`;
    status.dataset.ok = String(!errors);
    clear(findings).append(...answer.findings.map((f) => h(`li.finding.${f.severity}`, { 'data-cell': f.cell ? key(f.cell) : undefined },
      `${f.line ? `line ${f.line}: ` : ''}${f.severity}: ${f.message}${f.rule ? ` (${f.rule})` : ''}`)));
    draw();
  }

  // ---- drawing ----
  const cellAt = (x, row) => [(x - row) / 2, row];
  const inWindow = (c) => { const x = 2 * c[0] + c[1]; return x >= x0 && x < x0 + W && c[1] >= r0 && c[1] < r0 + H; };
  function fit() {
    // The window covers every cell with a margin of two rows and four columns.
    const cs = [...t.cells].map(hexOf).concat(t.starts.map((st) => st.at));
    if (!cs.length) return;
    const xs = cs.map((c) => 2 * c[0] + c[1]);
    const rs = cs.map((c) => c[1]);
    x0 = Math.min(x0, Math.min(...xs) - 4);
    r0 = Math.min(r0, Math.min(...rs) - 2);
    W = Math.max(W, Math.max(...xs) - x0 + 5);
    H = Math.max(H, Math.max(...rs) - r0 + 3);
  }
  function draw() {
    clear(svg);
    facingOut.textContent = `${DIR_NAMES[facing]} (R turns)`;
    counts.textContent = `${t.cells.size} cell${t.cells.size === 1 ? '' : 's'}, ${t.starts.length} start space${t.starts.length === 1 ? '' : 's'} of 8`;
    const marks = new Map();
    for (const f of answer?.findings || []) if (f.cell) marks.set(key(f.cell), f.severity === 'error' ? 'error' : (marks.get(key(f.cell)) || 'warning'));
    const g = s('g');
    const gMarks = s('g');
    for (let row = r0; row < r0 + H; row++) {
      for (let x = x0; x < x0 + W; x++) {
        if ((((x - row) % 2) + 2) % 2 !== 0) continue;
        const c = cellAt(x, row);
        const k = key(c);
        const on = t.cells.has(k);
        g.append(s(`polygon.ed-cell.${on ? 'on' : 'off'}`, { points: polygon(corners(c, SIZE)), 'data-hex': k }));
        // A finding's mark is drawn above the cells (an off-rink start space's too).
        if (marks.has(k)) gMarks.append(s(`polygon.ed-mark.${marks.get(k)}`, { points: polygon(corners(c, SIZE, SIZE * 0.86)), 'data-hex': k }));
      }
    }
    // Every edge leading off the rink is a barrier (AS-1.1).
    for (const k of t.cells) {
      const c = hexOf(k);
      for (let d = 0; d < 6; d++) {
        if (t.cells.has(key(neighbour(c, d)))) continue;
        const [[x1, y1], [x2, y2]] = edge(c, d, SIZE);
        g.append(s('line.ed-border', { x1, y1, x2, y2 }));
      }
    }
    g.append(gMarks);
    t.starts.forEach((st, i) => {
      const [x, y] = centre(st.at, SIZE);
      const [dx, dy] = centre(DIRS[((st.facing % 6) + 6) % 6], SIZE);
      g.append(s('g.ed-start', { 'data-hex': key(st.at), 'data-car': i, 'data-facing': st.facing }, [
        s('title', `Car ${i + 1}'s start space (start space ${i} of the file), facing ${DIR_NAMES[((st.facing % 6) + 6) % 6]}`),
        s('line', { x1: x, y1: y, x2: x + dx * 0.5, y2: y + dy * 0.5 }),
        s('circle', { cx: x, cy: y, r: SIZE * 0.45 }),
        s('text', { x, y: y + 4, 'text-anchor': 'middle' }, String(i + 1)),
      ]));
    });
    svg.append(g);
    const [ax] = centre(cellAt(x0, 0), SIZE);
    const ay = centre([0, r0], SIZE)[1];
    svg.setAttribute('viewBox', `${ax - SIZE} ${ay - SIZE * 1.2} ${(SIZE * Math.sqrt(3) * W) / 2 + SIZE * 2} ${SIZE * 1.5 * H + SIZE * 1.2}`);
  }

  // ---- pointer ----
  function hexAt(ev) {
    const pt = svg.createSVGPoint();
    pt.x = ev.clientX; pt.y = ev.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    // The nearest cell centre (pointy-top axial rounding).
    const x = ((Math.sqrt(3) / 3) * p.x - p.y / 3) / SIZE;
    const z = ((2 / 3) * p.y) / SIZE;
    const y = -x - z;
    let [rx, ry, rz] = [Math.round(x), Math.round(y), Math.round(z)];
    const [dx, dy, dz] = [Math.abs(rx - x), Math.abs(ry - y), Math.abs(rz - z)];
    if (dx > dy && dx > dz) rx = -ry - rz; else if (dy <= dz) rz = -rx - ry;
    return [rx + 0, rz + 0];
  }

  let drag = null;
  svg.addEventListener('pointerdown', (ev) => {
    const c = hexAt(ev);
    if (!inWindow(c)) return;
    if (tool === 'cell' || tool === 'erase') {
      hist.mark();
      drag = { from: c, rect: ev.shiftKey };
      paint(c);
      svg.setPointerCapture?.(ev.pointerId);
      return;
    }
    click(c, ev.shiftKey);
  });
  svg.addEventListener('pointermove', (ev) => {
    if (!drag || drag.rect) return;
    const c = hexAt(ev);
    if (inWindow(c)) paint(c);
  });
  svg.addEventListener('pointerup', (ev) => {
    if (!drag) return;
    if (drag.rect) {
      const c = hexAt(ev);
      const [xa, xb] = [2 * drag.from[0] + drag.from[1], 2 * c[0] + c[1]].sort((a, b) => a - b);
      const [ra, rb] = [drag.from[1], c[1]].sort((a, b) => a - b);
      for (let row = ra; row <= rb; row++) {
        for (let x = xa - 1; x <= xb + 1; x++) {
          if ((((x - row) % 2) + 2) % 2 !== 0 || x < x0 || x >= x0 + W) continue;
          paint(cellAt(x, row), true);
        }
      }
    }
    drag = null;
    changed();
  });
  function paint(c, quiet) {
    const k = key(c);
    if (tool === 'cell') t.cells.add(k);
    if (tool === 'erase' && t.cells.has(k)) {
      t.cells.delete(k);
      t.starts = t.starts.filter((st) => key(st.at) !== k);
    }
    if (!quiet) draw();
  }
  function click(c, shift) {
    const k = key(c);
    if (tool !== 'start') return;
    const i = t.starts.findIndex((st) => key(st.at) === k);
    if (i >= 0) {
      edit(() => {
        if (shift) t.starts.splice(i, 1);
        else t.starts[i] = { at: t.starts[i].at, facing: (((t.starts[i].facing + 1) % 6) + 6) % 6 };
      });
    } else if (!t.cells.has(k)) {
      toast('Start spaces go on rink cells: paint the rink first', 'error');
    } else {
      edit(() => t.starts.push({ at: c, facing }));
    }
  }

  // ---- keys ----
  function onKey(ev) {
    if (ev.target.closest && ev.target.closest('input, textarea, select')) return;
    const k = ev.key.toLowerCase();
    if (hist.key(ev)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (k === 'r') { facing = (facing + (ev.shiftKey ? 5 : 1)) % 6; draw(); return; }
    const t2 = TOOLS.find((x) => x[1] === k);
    if (t2) setTool(t2[0]);
  }
  document.addEventListener('keydown', onKey);

  // ---- files and saving ----
  function load(text, meta) {
    t = parseRink(text);
    loaded = { ...meta, text, written: writeRink(t) };
    nameIn.value = t.name;
    fit();
    changed();
  }
  async function save() {
    const text = currentText();
    const b = await saveBoard('autoscooter', loaded, { name: t.name || 'Rink', text, public: publicBox.checked }, shareOut);
    if (b) loaded = { ...loaded, id: b.id, version: b.version, mine: true, text, written: writeRink(t) };
    return b;
  }
  /** A practice game on the rink: the opened board as it is, or saved first when edited. */
  const tryIt = () => tryBoard(loaded, currentText(), save);
  const download = () => downloadFile(currentText(), `${(t.name || 'rink').replace(/\W+/g, '-').toLowerCase()}.json`, 'application/json');
  const fileIn = h('input#rink-file', { type: 'file', accept: '.json,.txt', hidden: true, onchange: async () => {
    const f = fileIn.files[0];
    if (f) { hist.mark(); load(await f.text(), {}); }
  } });

  /** Start from the booklet's rink (AS-1.1, AS-1.2): the rules page's board, as the server
   * serves it with the rule book. */
  async function fromStandard() {
    try {
      const res = await fetch('/api/kinds/autoscooter/rules', { credentials: 'same-origin' });
      const board = (await res.json()).static.board;
      edit(() => {
        t.cells = new Set(board.cells.map(key));
        t.starts = board.starts.map((st) => ({ at: st.at, facing: st.facing }));
        fit();
      });
    } catch (e) {
      toast(`Could not read the standard rink: ${e.message}`, 'error');
    }
  }

  nameIn.addEventListener('change', () => edit(() => {}));

  const page = h('div.editor-page.as', [
    h('div.panel.editor-tools', [
      h('h2', 'Autoscooter rink editor'),
      h('div.row', [h('label', ['Name ', nameIn]), h('span', ['Direction: ', facingOut]), counts]),
      h('div.row.tools', toolBtns),
      h('div.row', [
        h('button.btn.small#undo', { type: 'button', title: 'Undo (Ctrl+Z)', onclick: hist.undo }, 'Undo'),
        h('button.btn.small#redo', { type: 'button', title: 'Redo (Ctrl+Y)', onclick: hist.redo }, 'Redo'),
        h('button.btn.small#from-standard', { type: 'button', title: 'Replace the drawing with the booklet\'s rink of 38 hexes and its start spaces', onclick: fromStandard }, 'Standard rink'),
        h('button.btn.small#import', { type: 'button', onclick: () => fileIn.click() }, 'Import file'),
        h('button.btn.small#export', { type: 'button', onclick: download }, 'Export file'),
        h('label.check', [publicBox, ' Public (gallery)']),
        h('button.btn.small.primary#save-board', { type: 'button', onclick: save }, 'Save'),
        h('button.btn.small#try-board', { type: 'button', title: 'Save, then play on it against a bot', onclick: tryIt }, 'Try it'),
        fileIn,
      ]),
      h('div.row', [h('span', 'Share: '), shareOut]),
    ]),
    h('div.editor-main', [svg, h('div.panel.editor-side', [
      h('h3', ['Validation ', status]), findings,
      h('p.help', 'Every edge leading off the rink is a barrier. Each of the 8 cars needs a start space: cars nobody drives stand on theirs all game.'),
      h('details', [h('summary', 'Rink file'), textArea]),
    ])]),
  ]);
  textArea.addEventListener('change', () => { hist.mark(); load(textArea.value, {}); });
  root.append(page);
  setTool('cell');
  if (id) {
    const b = await boards.get(id);
    publicBox.checked = !!b.public;
    load(b.text, { id: b.id, version: b.version, mine: b.owner === (await boards.whoAmI()) });
    shareOut.value = `${location.origin}/#/editor/autoscooter/${b.id}`;
  } else {
    changed();
  }
  return { destroy() { document.removeEventListener('keydown', onKey); clearTimeout(timer); } };
}
