// The Bumping Bots track editor (docs/editors.md): paint track cells and walls on the hex grid,
// the start/finish line and the start grid, each obstacle kind and bumpers, laps; the file it
// writes is the track format of docs/bumping-bots-tracks.md (what `robodrome board check` and
// `board render` read). Every rule comes from the server: each edit is sent (debounced) to
// POST /api/boards/validate, whose answer, computed by the game crate, marks the cells the
// BB-12 findings concern and gives every cell's progress and lane (BB-2.1), drawn as the racing
// line. This module only draws and writes the text format.

import { h, s, clear, toast } from '../dom.js';
import { DIRS, DIR_NAMES, key, neighbour, centre, corners, edge, polygon } from '../hex.js';
import * as boards from './boards-api.js';
import { undoHistory } from './history.js';
import { saveBoard, tryBoard, download as downloadFile } from './saving.js';

const SIZE = 16;
const PIECES = { '#': 'fixed', o: 'mobile', B: 'bumper', M: 'motorised' };
const TOOLS = [
  ['track', 't', 'Track', 'Paint track cells (drag; Shift+drag fills a rectangle)'],
  ['erase', 'e', 'Erase', 'Remove cells (drag; Shift+drag empties a rectangle)'],
  ['#', 'f', 'Fixed', 'A fixed obstacle: it must touch a wall'],
  ['M', 'm', 'Motorised', 'A motorised obstacle; click it again to turn its arms, Shift+click to change its sense'],
  ['o', 'o', 'Mobile', 'A mobile obstacle'],
  ['B', 'b', 'Bumper', 'A bumper: its centre at least 3 cells from every wall'],
  ['move', 'v', 'Move', 'Pick a piece up, then click the cell to put it on'],
  ['wall', 'w', 'Wall', 'Toggle a wall on the edge nearest the click'],
  ['line', 'l', 'Line', 'Toggle the start/finish line on a cell\'s two edges ahead (the direction, and the one before it) that join track cells'],
  ['grid', 'g', 'Grid', 'Add a start-grid place facing the direction (nearest the line first); click again to remove it'],
];

/** An empty track. */
function blank() {
  return { name: 'My track', laps: 2, cells: new Map(), motors: new Map(), walls: [], finish: [], grid: [] };
}

/** Parse the track format (docs/bumping-bots-tracks.md) into the editor's model, for drawing;
 * the server's checker is the judge of the text (this reader is lenient: what it cannot read,
 * the validation answer names with its line). */
export function parseTrack(text) {
  const t = blank();
  t.name = '';
  let row = null;
  for (const raw of text.split('\n')) {
    if (row !== null) {
      if (raw.trim() === 'end') { row = null; continue; }
      for (let x = 0; x < raw.length; x++) {
        const ch = raw[x];
        if (ch === ' ' || (x - row) % 2 !== 0) continue;
        t.cells.set(key([(x - row) / 2, row]), ch);
      }
      row++;
      continue;
    }
    const line = raw.split('#')[0].trim();
    if (!line) continue;
    const i = line.indexOf(':');
    const k = i < 0 ? line : line.slice(0, i).trim();
    const w = i < 0 ? [] : line.slice(i + 1).trim().split(/\s+/);
    const n = w.map(Number);
    if (k === 'name') t.name = line.slice(i + 1).trim();
    else if (k === 'laps') t.laps = n[0];
    else if (k === 'map') row = w[0] ? n[0] : 0;
    else if (k === 'finish') t.finish.push([n[0], n[1], n[2]]);
    else if (k === 'grid') t.grid.push([n[0], n[1], n[2]]);
    else if (k === 'wall') t.walls.push([n[0], n[1], n[2]]);
    else if (k === 'motorised') t.motors.set(key([n[0], n[1]]), { arm: n[2], spin: w[3] });
  }
  return t;
}

/** The track file of the model (docs/bumping-bots-tracks.md): cell [q, r] on map row r, column
 * 2q + r. Cells left of column 0 cannot be written: the editor keeps every cell at 2q + r >= 0. */
export function writeTrack(t) {
  const cells = [...t.cells.entries()].map(([k, ch]) => [...k.split(',').map(Number), ch]);
  const out = [];
  if (t.name) out.push(`name: ${t.name}`);
  out.push(`laps: ${t.laps}`);
  if (cells.length) {
    const r0 = Math.min(...cells.map((c) => c[1]));
    const r1 = Math.max(...cells.map((c) => c[1]));
    out.push(`map: ${r0}`);
    for (let r = r0; r <= r1; r++) {
      const chars = [];
      for (const [q, rr, ch] of cells) if (rr === r) chars[2 * q + r] = ch;
      out.push(Array.from(chars, (c) => c || ' ').join('').replace(/\s+$/, ''));
    }
    out.push('end');
  }
  for (const [q, r, d] of t.finish) out.push(`finish: ${q} ${r} ${d}`);
  for (const [q, r, d] of t.grid) out.push(`grid: ${q} ${r} ${d}`);
  for (const [q, r, d] of t.walls) out.push(`wall: ${q} ${r} ${d}`);
  for (const [k, m] of t.motors) {
    if (t.cells.get(k) === 'M') out.push(`motorised: ${k.replace(',', ' ')} ${m.arm} ${m.spin}`);
  }
  return `${out.join('\n')}\n`;
}

const sameEdge = (a, b) => (a[0] === b[0] && a[1] === b[1] && a[2] === b[2])
  || (() => { const n = neighbour([a[0], a[1]], a[2]); return n[0] === b[0] && n[1] === b[1] && (a[2] + 3) % 6 === b[2]; })();

/** The editor page: `#/editor/bumping-bots[/ID]`. */
export async function showTrackEditor(root, id) {
  let t = blank();
  let loaded = null; // { text, id, version, owner, public } of the board opened
  let tool = 'track';
  let facing = 0;
  let held = null; // a piece picked up by the Move tool: [key, ch, motor]
  let answer = null;
  let showLine = true;
  const W = 64; // columns of the drawing window (half cells)
  let H = 18; // rows
  let r0 = 0;

  const svg = s('svg.editor-grid.bb-editor', { role: 'application', 'aria-label': 'Track editor grid' });
  const findings = h('ul.findings#findings', { 'aria-live': 'polite' });
  const status = h('span.editor-status#editor-status');
  const nameIn = h('input#track-name', { value: t.name, maxlength: 60, 'aria-label': 'Track name' });
  const lapsIn = h('input#track-laps', { type: 'number', min: 1, max: 9, value: t.laps, 'aria-label': 'Laps' });
  const publicBox = h('input#track-public', { type: 'checkbox' });
  const lineBox = h('input#show-line', { type: 'checkbox', checked: true });
  const shareOut = h('input#share-link', { readonly: true, 'aria-label': 'Share link', placeholder: 'save to get a link' });
  const facingOut = h('span#facing');
  const textArea = h('textarea#track-text', { rows: 8, spellcheck: false, 'aria-label': 'Track file' });
  const toolBtns = TOOLS.map(([tid, k, label, help]) => h('button.btn.small.tool', { type: 'button', 'data-tool': tid, title: `${help} (${k.toUpperCase()})`, onclick: () => setTool(tid) }, `${label} (${k.toUpperCase()})`));

  function setTool(tid) {
    tool = tid;
    held = null;
    for (const b of toolBtns) b.classList.toggle('active', b.dataset.tool === tid);
    draw();
  }

  const snapshot = () => writeTrack(t);
  function edit(f) {
    hist.mark();
    f();
    changed();
  }
  const hist = undoHistory(snapshot, (text) => {
    t = parseTrack(text);
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
    timer = setTimeout(() => check(text), 250);
  }
  /** The file: the one opened, byte for byte, while nothing was edited; else written anew. */
  function currentText() {
    const written = writeTrack(t);
    return loaded && loaded.written === written ? loaded.text : written;
  }
  async function check(text) {
    const n = ++asked;
    try {
      const a = await boards.validate('bumping-bots', text);
      if (n !== asked) return;
      answer = a;
    } catch (e) {
      if (n !== asked) return;
      answer = { findings: [{ severity: 'error', message: e.message }], ok: false };
    }
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
  function draw() {
    clear(svg);
    facingOut.textContent = `${DIR_NAMES[facing]} (R turns)`;
    const marks = new Map();
    for (const f of answer?.findings || []) if (f.cell) marks.set(key(f.cell), f.severity === 'error' ? 'error' : (marks.get(key(f.cell)) || 'warning'));
    const progress = new Map((answer?.cells || []).map((c) => [key([c[0], c[1]]), c]));
    const all = [];
    for (let row = r0; row < r0 + H; row++) {
      for (let x = 0; x < W; x++) if ((x - row) % 2 === 0) all.push(cellAt(x, row));
    }
    const g = s('g');
    for (const c of all) {
      const k = key(c);
      const ch = t.cells.get(k);
      const p = progress.get(k);
      const attrs = { points: polygon(corners(c, SIZE)), 'data-hex': k };
      let cls = ch ? 'ed-cell on' : 'ed-cell off';
      if (marks.has(k)) cls += ` ${marks.get(k)}`;
      const poly = s(`polygon.${cls.split(' ').join('.')}`, attrs);
      if (ch && showLine && p && p[2] !== null) poly.style.fill = `hsl(${Math.round((p[2] / 1000) * 270)}, 55%, 78%)`;
      if (ch && p) {
        poly.dataset.progress = p[2];
        poly.dataset.lane = p[3];
        poly.append(s('title', `[${k}]: ${(p[2] / 10).toFixed(1)} % of the lap, lane ${p[3]}`));
      }
      g.append(poly);
    }
    for (const [k, ch] of t.cells) {
      if (!PIECES[ch]) continue;
      const c = k.split(',').map(Number);
      const [x, y] = centre(c, SIZE);
      const kind = PIECES[ch];
      const piece = s(`g.ed-piece.${kind}`, { 'data-piece': kind, 'data-hex': k });
      if (kind === 'fixed') piece.append(s('rect', { x: x - SIZE * 0.55, y: y - SIZE * 0.55, width: SIZE * 1.1, height: SIZE * 1.1 }));
      if (kind === 'mobile') piece.append(s('circle', { cx: x, cy: y, r: SIZE * 0.5 }));
      if (kind === 'bumper') {
        piece.append(s('circle', { cx: x, cy: y, r: SIZE * 0.45 }));
        for (let d = 0; d < 6; d++) {
          const [nx, ny] = centre(neighbour(c, d), SIZE);
          piece.append(s('line.arrow', { x1: x + (nx - x) * 0.45, y1: y + (ny - y) * 0.45, x2: x + (nx - x) * 0.8, y2: y + (ny - y) * 0.8 }));
        }
      }
      if (kind === 'motorised') {
        const m = t.motors.get(k) || { arm: 0, spin: 'cw' };
        piece.append(s('circle', { cx: x, cy: y, r: SIZE * 0.4 }));
        for (const d of [m.arm, (m.arm + 3) % 6]) {
          const [nx, ny] = centre(neighbour(c, d), SIZE);
          piece.append(s('line.arm', { x1: x, y1: y, x2: nx, y2: ny }));
        }
        piece.append(s('text', { x, y: y + 4, 'text-anchor': 'middle' }, m.spin === 'cw' ? '↻' : '↺'));
        piece.dataset.arm = m.arm;
        piece.dataset.spin = m.spin;
      }
      g.append(piece);
    }
    // The border of the drawn cells is walled (docs/bumping-bots-tracks.md).
    for (const k of t.cells.keys()) {
      const c = k.split(',').map(Number);
      for (let d = 0; d < 6; d++) {
        if (t.cells.has(key(neighbour(c, d)))) continue;
        const [[x1, y1], [x2, y2]] = edge(c, d, SIZE);
        g.append(s('line.ed-border', { x1, y1, x2, y2 }));
      }
    }
    for (const w of t.walls) {
      const [[x1, y1], [x2, y2]] = edge([w[0], w[1]], w[2], SIZE);
      g.append(s('line.ed-wall', { x1, y1, x2, y2 }));
    }
    for (const f of t.finish) {
      const [[x1, y1], [x2, y2]] = edge([f[0], f[1]], f[2], SIZE);
      g.append(s('line.ed-line', { x1, y1, x2, y2 }));
    }
    t.grid.forEach((gp, i) => {
      const [x, y] = centre([gp[0], gp[1]], SIZE);
      const [dx, dy] = centre(DIRS[gp[2]], SIZE);
      g.append(s('g.ed-grid', { 'data-hex': key(gp) }, [
        s('circle', { cx: x, cy: y, r: SIZE * 0.45 }),
        s('line', { x1: x, y1: y, x2: x + dx * 0.45, y2: y + dy * 0.45 }),
        s('text', { x, y: y + 4, 'text-anchor': 'middle' }, String(i + 1)),
      ]));
    });
    if (held) {
      const c = held[0].split(',').map(Number);
      g.append(s('polygon.ed-held', { points: polygon(corners(c, SIZE)) }));
    }
    svg.append(g);
    const x0 = -SIZE, y0 = centre([0, r0], SIZE)[1] - SIZE * 1.2;
    const w = centre([W / 2, 0], SIZE)[0] + SIZE * 2, hgt = SIZE * 1.5 * H + SIZE * 1.2;
    svg.setAttribute('viewBox', `${x0} ${y0} ${w} ${hgt}`);
  }

  // ---- pointer ----
  function hexAt(ev) {
    const pt = svg.createSVGPoint();
    pt.x = ev.clientX; pt.y = ev.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    // The nearest cell centre (pointy-top axial rounding).
    const qf = ((Math.sqrt(3) / 3) * p.x - p.y / 3) / SIZE;
    const rf = ((2 / 3) * p.y) / SIZE;
    let [x, z] = [qf, rf];
    const y = -x - z;
    let [rx, ry, rz] = [Math.round(x), Math.round(y), Math.round(z)];
    const [dx, dy, dz] = [Math.abs(rx - x), Math.abs(ry - y), Math.abs(rz - z)];
    if (dx > dy && dx > dz) rx = -ry - rz; else if (dy <= dz) rz = -rx - ry;
    const c = [rx, rz];
    const [cx, cy] = centre(c, SIZE);
    // The edge: the direction whose angle is nearest the click's angle from the centre.
    const a = (Math.atan2(p.y - cy, p.x - cx) * 180) / Math.PI;
    const side = ((Math.round(a / 60) % 6) + 6) % 6;
    return { c, side };
  }
  const inWindow = (c) => 2 * c[0] + c[1] >= 0 && 2 * c[0] + c[1] < W && c[1] >= r0 && c[1] < r0 + H;

  let drag = null;
  svg.addEventListener('pointerdown', (ev) => {
    const { c, side } = hexAt(ev);
    if (!inWindow(c)) return;
    if (tool === 'track' || tool === 'erase') {
      hist.mark();
      drag = { from: c, rect: ev.shiftKey };
      paint(c);
      svg.setPointerCapture?.(ev.pointerId);
      return;
    }
    click(c, side, ev.shiftKey);
  });
  svg.addEventListener('pointermove', (ev) => {
    if (!drag || drag.rect) return;
    const { c } = hexAt(ev);
    if (inWindow(c)) paint(c);
  });
  svg.addEventListener('pointerup', (ev) => {
    if (!drag) return;
    if (drag.rect) {
      const { c } = hexAt(ev);
      const [xa, xb] = [2 * drag.from[0] + drag.from[1], 2 * c[0] + c[1]].sort((a, b) => a - b);
      const [ra, rb] = [drag.from[1], c[1]].sort((a, b) => a - b);
      for (let row = ra; row <= rb; row++) {
        for (let x = xa - 1; x <= xb + 1; x++) {
          if ((x - row) % 2 !== 0 || x < 0 || x >= W) continue;
          paint(cellAt(x, row), true);
        }
      }
    }
    drag = null;
    changed();
  });
  function paint(c, quiet) {
    const k = key(c);
    if (tool === 'track' && !t.cells.has(k)) t.cells.set(k, '.');
    if (tool === 'erase' && t.cells.has(k)) {
      t.cells.delete(k);
      t.motors.delete(k);
      t.grid = t.grid.filter((g) => key(g) !== k);
      t.finish = t.finish.filter((f) => key(f) !== k);
    }
    if (!quiet) draw();
  }
  function click(c, side, shift) {
    const k = key(c);
    const ch = t.cells.get(k);
    if (PIECES[tool]) {
      if (!ch) { toast('Pieces go on track cells: paint the track first', 'error'); return; }
      edit(() => {
        if (tool === 'M' && ch === 'M') {
          const m = t.motors.get(k) || { arm: 0, spin: 'cw' };
          if (shift) m.spin = m.spin === 'cw' ? 'ccw' : 'cw'; else m.arm = (m.arm + 1) % 3;
          t.motors.set(k, m);
        } else if (ch === tool) {
          t.cells.set(k, '.');
          t.motors.delete(k);
        } else {
          t.cells.set(k, tool);
          if (tool === 'M') t.motors.set(k, { arm: 0, spin: shift ? 'ccw' : 'cw' });
          else t.motors.delete(k);
        }
      });
    } else if (tool === 'move') {
      if (!held) {
        if (!PIECES[ch]) return;
        held = [k, ch, t.motors.get(k)];
        draw();
      } else if (ch === '.') {
        const [from, piece, motor] = held;
        held = null;
        edit(() => {
          t.cells.set(from, '.');
          t.motors.delete(from);
          t.cells.set(k, piece);
          if (motor) t.motors.set(k, motor);
        });
      } else {
        held = null;
        draw();
      }
    } else if (tool === 'wall') {
      const e = [c[0], c[1], side];
      edit(() => {
        const i = t.walls.findIndex((w) => sameEdge(w, e));
        if (i >= 0) t.walls.splice(i, 1); else t.walls.push(e);
      });
    } else if (tool === 'line') {
      if (!ch) return;
      // Only edges between two track cells: the border is walled already.
      const es = [[c[0], c[1], facing], [c[0], c[1], (facing + 5) % 6]].filter((e) => t.cells.has(key(neighbour(c, e[2]))));
      edit(() => {
        const there = t.finish.some((f) => f[0] === c[0] && f[1] === c[1]);
        if (there) t.finish = t.finish.filter((f) => !(f[0] === c[0] && f[1] === c[1]));
        else t.finish.push(...es);
      });
    } else if (tool === 'grid') {
      if (!ch) return;
      edit(() => {
        const i = t.grid.findIndex((g) => key(g) === k);
        if (i >= 0) t.grid.splice(i, 1); else t.grid.push([c[0], c[1], facing]);
      });
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
    t = parseTrack(text);
    loaded = { ...meta, text, written: writeTrack(t) };
    nameIn.value = t.name;
    lapsIn.value = t.laps;
    const rows = [...t.cells.keys()].map((k) => Number(k.split(',')[1]));
    r0 = rows.length ? Math.min(0, Math.min(...rows)) : 0;
    H = Math.max(18, (rows.length ? Math.max(...rows) : 0) - r0 + 3);
    changed();
  }
  async function save() {
    const text = currentText();
    const b = await saveBoard('bumping-bots', loaded, { name: t.name || 'Track', text, public: publicBox.checked }, shareOut);
    if (b) loaded = { ...loaded, id: b.id, version: b.version, mine: true, text, written: writeTrack(t) };
    return b;
  }
  /** A practice race on the board: the opened board as it is, or saved first when edited. */
  const tryIt = () => tryBoard(loaded, currentText(), save);
  const download = () => downloadFile(currentText(), `${(t.name || 'track').replace(/\W+/g, '-').toLowerCase()}.track`, 'text/plain');
  const fileIn = h('input#track-file', { type: 'file', accept: '.track,.txt', hidden: true, onchange: async () => {
    const f = fileIn.files[0];
    if (f) { hist.mark(); load(await f.text(), {}); }
  } });

  nameIn.addEventListener('change', () => edit(() => {}));
  lapsIn.addEventListener('change', () => edit(() => { t.laps = Math.max(1, Math.min(9, Number(lapsIn.value) || 2)); }));
  lineBox.addEventListener('change', () => { showLine = lineBox.checked; draw(); });

  const page = h('div.editor-page.bb', [
    h('div.panel.editor-tools', [
      h('h2', 'Bumping Bots track editor'),
      h('div.row', [h('label', ['Name ', nameIn]), h('label', ['Laps ', lapsIn]), h('label.check', [lineBox, ' Racing line']), h('span', ['Direction: ', facingOut])]),
      h('div.row.tools', toolBtns),
      h('div.row', [
        h('button.btn.small#undo', { type: 'button', title: 'Undo (Ctrl+Z)', onclick: hist.undo }, 'Undo'),
        h('button.btn.small#redo', { type: 'button', title: 'Redo (Ctrl+Y)', onclick: hist.redo }, 'Redo'),
        h('button.btn.small#import', { type: 'button', onclick: () => fileIn.click() }, 'Import file'),
        h('button.btn.small#export', { type: 'button', onclick: download }, 'Export file'),
        h('label.check', [publicBox, ' Public (gallery)']),
        h('button.btn.small.primary#save-board', { type: 'button', onclick: save }, 'Save'),
        h('button.btn.small#try-board', { type: 'button', title: 'Save, then race on it against a bot', onclick: tryIt }, 'Try it'),
        fileIn,
      ]),
      h('div.row', [h('span', 'Share: '), shareOut]),
    ]),
    h('div.editor-main', [svg, h('div.panel.editor-side', [h('h3', ['Validation ', status]), findings, h('details', [h('summary', 'Track file'), textArea])])]),
  ]);
  textArea.addEventListener('change', () => { hist.mark(); load(textArea.value, {}); });
  root.append(page);
  setTool('track');
  if (id) {
    const b = await boards.get(id);
    publicBox.checked = !!b.public;
    load(b.text, { id: b.id, version: b.version, mine: b.owner === (await boards.whoAmI()) });
    shareOut.value = `${location.origin}/#/editor/bumping-bots/${b.id}`;
  } else {
    changed();
  }
  return { destroy() { document.removeEventListener('keydown', onKey); clearTimeout(timer); } };
}
