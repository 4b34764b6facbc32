// The RoboRally editor (docs/editors.md): `#/editor/roborally[/ID]`. Two modes on one page:
// the factory-board editor paints a board piece cell by cell (every element of RR-2: walls,
// pits, conveyors and express conveyors with their turns, pushers with their registers, gears,
// lasers with 1–3 beams, repair and double repair sites, start docks), and the course editor
// places and turns pieces (the shipped ones and my saved ones) next to the docking bay, the
// flags in order and docks of the course's own. The files are the formats of
// docs/roborally-boards.md (what `robodrome board check` and `board render` read); a course
// carries the pieces of its own it places (`board NAME` … in the course file). Every rule comes
// from the server: each edit is sent (debounced) to POST /api/boards/validate, whose answer,
// computed by the game crate, gives the findings with the cells they concern and, for a
// course, the course as the game crate assembles it, drawn with the table's own drawing.

import { h, s, clear, toast } from '../dom.js';
import * as boards from './boards-api.js';
import { drawCourse } from '../games/roborally.js';
import { undoHistory } from './history.js';
import { saveBoard, tryBoard, download as downloadFile } from './saving.js';

const S = 40;
const SIDES = 'NESW';
const ARROW = ['^', '>', 'v', '<'];
const ARROW_NAME = ['north', 'east', 'south', 'west'];
const STEP = [[0, -1], [1, 0], [0, 1], [-1, 0]];
const COURSE_WORDS = ['course', 'difficulty', 'place', 'flag', 'dock'];

const BOARD_TOOLS = [
  ['floor', 'e', 'Erase', 'Plain floor: no element, walls or laser on the cell'],
  ['pit', 'x', 'Pit', 'A pit: a robot entering it is destroyed'],
  ['repair', 'h', 'Repair', 'A repair site (wrench)'],
  ['double', 'd', 'Double repair', 'A double repair site (wrench and hammer: repair and an option card)'],
  ['gear', 'g', 'Gear', 'A gear turning right; click a gear again to turn it the other way'],
  ['belt', 'c', 'Conveyor', 'A conveyor moving in the direction; click it again: turning in from the right, from the left, straight'],
  ['express', 'v', 'Express', 'An express conveyor, as the conveyor'],
  ['pusher', 'p', 'Pusher', 'A pusher pushing in the direction (on the wall behind it), registers 1-3-5; click it again: 2-4'],
  ['laser', 'l', 'Laser', 'A board laser shooting in the direction; click it again: 2 beams, 3 beams, none'],
  ['wall', 'w', 'Wall', 'Toggle the wall on the edge nearest the click'],
  ['dock', 'k', 'Dock', 'A start dock with the next free number 1–8 (a robot there faces north); click again to remove'],
];
const COURSE_TOOLS = [
  ['place', 'p', 'Place piece', 'Put the chosen piece with its top-left corner on the cell, turned as the direction says (north: not turned)'],
  ['turn', 't', 'Turn piece', 'Turn the piece under the click a quarter clockwise (its top-left corner stays)'],
  ['remove', 'e', 'Remove', 'Remove the flag, the dock or else the piece under the click'],
  ['flag', 'f', 'Flag', 'Add the next flag; click a flag to remove it (the others keep their order)'],
  ['dock', 'k', 'Dock', 'A start dock of the course with the next free number, facing the direction; click it to remove'],
];

const words = (line) => line.split('#')[0].trim().split(/\s+/).filter(Boolean);
export const slug = (name) => name.trim().toLowerCase().split(/\s+/).filter(Boolean).join('-');

// ---------- the board piece format ----------

/** An all-floor piece. */
export function blankBoard(w = 12, hgt = 12, name = 'My board') {
  return { name, w, h: hgt, cells: Array.from({ length: w * hgt }, () => ({ el: '.', walls: '' })), lasers: [] };
}

/** Read a board piece (lenient: the server's checker judges the text and names its lines). */
export function parseBoard(text) {
  let b = null;
  let name = '';
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const w = words(lines[i]);
    if (!w.length) continue;
    if (w[0] === 'board') name = w.slice(1).join(' ');
    else if (w[0] === 'size') b = blankBoard(Math.max(1, Math.min(24, Number(w[1]) || 12)), Math.max(1, Math.min(24, Number(w[2]) || 12)));
    else if (w[0] === 'grid' && b) {
      for (let y = 0; y < b.h; y++) {
        const row = words(lines[++i] || '');
        for (let x = 0; x < b.w; x++) {
          const [el, walls = ''] = (row[x] || '.').split(':');
          b.cells[y * b.w + x] = { el, walls };
        }
      }
    } else if (w[0] === 'laser' && b) b.lasers.push({ x: Number(w[1]), y: Number(w[2]), dir: Math.max(0, SIDES.indexOf(w[3])), beams: Number(w[4] || 1) });
  }
  b = b || blankBoard();
  b.name = name;
  return b;
}

/** The piece file (docs/roborally-boards.md): tokens in columns of five, as the shipped ones. */
export function writeBoard(b) {
  const out = [`board ${b.name || 'My board'}`, `size ${b.w} ${b.h}`, 'grid'];
  for (let y = 0; y < b.h; y++) {
    const row = [];
    for (let x = 0; x < b.w; x++) {
      const c = b.cells[y * b.w + x];
      row.push(c.walls ? `${c.el}:${c.walls}` : c.el);
    }
    out.push(row.map((t) => t.padEnd(4)).join(' ').trimEnd());
  }
  for (const l of b.lasers) out.push(`laser ${l.x} ${l.y} ${SIDES[l.dir]} ${l.beams}`);
  return `${out.join('\n')}\n`;
}

/** One token's element as the table draws it (the legend of docs/roborally-boards.md). */
function cellView(el) {
  if (el === 'X') return { kind: 'pit' };
  if (el === 'R') return { kind: 'repair' };
  if (el === 'D') return { kind: 'repair_option' };
  if (el === 'GL' || el === 'GR') return { kind: 'gear', turn: el === 'GL' ? 'left' : 'right' };
  if (/^P[1-5]+[NESW]$/.test(el)) {
    let registers = 0;
    for (const r of el.slice(1, -1)) registers |= 1 << (Number(r) - 1);
    return { kind: 'pusher', side: SIDES.indexOf(el.at(-1)), registers };
  }
  const dir = ARROW.indexOf(el[0]);
  if (dir >= 0) {
    const express = el[1] === el[0];
    const from = el.slice(express ? 2 : 1);
    return { kind: 'belt', dir, express, from: from ? SIDES.indexOf(from) : null };
  }
  return { kind: 'floor' };
}

/** The piece in the form the table's `drawCourse` draws (the static part's board). */
function boardView(b) {
  const walls = new Array(b.w * b.h).fill(0);
  const wall = (x, y, d) => {
    if (x >= 0 && y >= 0 && x < b.w && y < b.h) walls[y * b.w + x] |= 1 << d;
    const [nx, ny] = [x + STEP[d][0], y + STEP[d][1]];
    if (nx >= 0 && ny >= 0 && nx < b.w && ny < b.h) walls[ny * b.w + nx] |= 1 << ((d + 2) % 4);
  };
  const docks = [];
  const cells = b.cells.map((c, i) => {
    const x = i % b.w, y = Math.floor(i / b.w);
    for (const ch of c.walls) if (SIDES.includes(ch)) wall(x, y, SIDES.indexOf(ch));
    if (/^[1-8]$/.test(c.el)) docks.push({ number: Number(c.el), at: [x, y], facing: 0 });
    const v = cellView(c.el);
    if (v.kind === 'pusher') wall(x, y, v.side);
    return v;
  });
  return { width: b.w, height: b.h, cells, walls, lasers: b.lasers.map((l) => ({ at: [l.x, l.y], dir: l.dir, beams: l.beams })), flags: [], docks };
}

// ---------- the course format ----------

/** An empty course. */
function blankCourse() {
  return { name: 'My course', difficulty: '', places: [], flags: [], docks: [], own: new Map() };
}

/** Read a course file: its lines, and the board pieces it carries (`board NAME` to the next
 * course line), each kept as its text. */
export function parseCourse(text) {
  const c = blankCourse();
  c.name = '';
  let piece = null;
  const flush = () => {
    if (!piece) return;
    const t = `${piece.join('\n').replace(/\n+$/, '')}\n`;
    c.own.set(slug(parseBoard(t).name), t);
    piece = null;
  };
  for (const line of text.split('\n')) {
    const w = words(line);
    if (w[0] === 'board') { flush(); piece = [line]; continue; }
    if (piece && !COURSE_WORDS.includes(w[0])) { piece.push(line); continue; }
    flush();
    if (w[0] === 'course') c.name = w.slice(1).join(' ');
    else if (w[0] === 'difficulty') c.difficulty = w.slice(1).join(' ');
    else if (w[0] === 'place') c.places.push({ piece: w[1], x: Number(w[2]), y: Number(w[3]), turns: Number(w[4]) });
    else if (w[0] === 'flag') c.flags.push([Number(w[1]), Number(w[2])]);
    else if (w[0] === 'dock') c.docks.push({ number: Number(w[1]), x: Number(w[2]), y: Number(w[3]), facing: w[4] || 'N' });
  }
  flush();
  return c;
}

/** The course file: its lines, then the pieces of its own that it places. */
export function writeCourse(c) {
  const out = [`course ${c.name || 'My course'}`];
  if (c.difficulty) out.push(`difficulty ${c.difficulty}`);
  for (const p of c.places) out.push(`place ${p.piece} ${p.x} ${p.y} ${p.turns}`);
  for (const [x, y] of c.flags) out.push(`flag ${x} ${y}`);
  for (const d of c.docks) out.push(`dock ${d.number} ${d.x} ${d.y} ${d.facing}`);
  let text = `${out.join('\n')}\n`;
  const used = new Set(c.places.map((p) => slug(p.piece)));
  for (const [k, t] of c.own) if (used.has(k)) text += `\n${t}`;
  return text;
}

// ---------- the page ----------

/** The editor page: `#/editor/roborally[/ID]`. */
export async function showRoboRallyEditor(root, id) {
  let mode = 'board';
  let b = blankBoard();
  let c = blankCourse();
  let loaded = { board: null, course: null }; // per mode: { text, written, id, version, mine }
  let tool = 'belt';
  let facing = 1;
  let answer = null;
  let piecesSeen = []; // shipped pieces, from the server's answer
  let mineList = [];

  const svg = s('svg.editor-grid.rr-editor.course', { role: 'application', 'aria-label': 'RoboRally editor grid' });
  const findings = h('ul.findings#findings', { 'aria-live': 'polite' });
  const status = h('span.editor-status#editor-status');
  const nameIn = h('input#rr-name', { maxlength: 60, 'aria-label': 'Name' });
  const widthIn = h('input#rr-width', { type: 'number', min: 1, max: 24, value: 12, 'aria-label': 'Width' });
  const heightIn = h('input#rr-height', { type: 'number', min: 1, max: 24, value: 12, 'aria-label': 'Height' });
  const pieceSel = h('select#rr-piece', { 'aria-label': 'Piece to place' });
  const publicBox = h('input#rr-public', { type: 'checkbox' });
  const shareOut = h('input#share-link', { readonly: true, 'aria-label': 'Share link', placeholder: 'save to get a link' });
  const facingOut = h('span#facing');
  const difficultyOut = h('span#rr-difficulty', { 'aria-live': 'polite' });
  const textArea = h('textarea#rr-text', { rows: 10, spellcheck: false, 'aria-label': 'File' });
  const toolRow = h('div.row.tools');
  const sizeRow = h('div.row', [h('label', ['Width ', widthIn]), h('label', ['Height ', heightIn])]);
  const pieceRow = h('div.row', [h('label', ['Piece ', pieceSel])]);
  const modeBtns = [['board', 'Factory board'], ['course', 'Course']].map(([m, label]) => h('button.btn.small.mode', { type: 'button', 'data-mode': m, onclick: () => setMode(m) }, label));

  const tools = () => (mode === 'board' ? BOARD_TOOLS : COURSE_TOOLS);
  function setTool(t) {
    tool = t;
    for (const x of toolRow.querySelectorAll('.tool')) x.classList.toggle('active', x.dataset.tool === t);
  }
  function setMode(m, quiet) {
    mode = m;
    for (const x of modeBtns) x.classList.toggle('active', x.dataset.mode === m);
    clear(toolRow).append(...tools().map(([tid, k, label, help]) => h('button.btn.small.tool', { type: 'button', 'data-tool': tid, title: `${help} (${k.toUpperCase()})`, onclick: () => setTool(tid) }, `${label} (${k.toUpperCase()})`)));
    setTool(tools()[m === 'board' ? 5 : 0][0]);
    sizeRow.hidden = m !== 'board';
    pieceRow.hidden = m !== 'course';
    nameIn.value = m === 'board' ? b.name : c.name;
    answer = null;
    if (!quiet) changed();
  }

  const snapshot = () => ({ mode, text: mode === 'board' ? writeBoard(b) : writeCourse(c), own: new Map(c.own) });
  function edit(f) {
    hist.mark();
    f();
    changed();
  }
  const hist = undoHistory(snapshot, (st) => {
    if (st.mode !== mode) setMode(st.mode, true);
    if (st.mode === 'board') b = parseBoard(st.text);
    else { c = parseCourse(st.text); for (const [k, t] of st.own) if (!c.own.has(k)) c.own.set(k, t); }
    nameIn.value = mode === 'board' ? b.name : c.name;
    changed();
  });

  /** The file: the one opened, byte for byte, while nothing was edited; else written anew. */
  function currentText() {
    const written = mode === 'board' ? writeBoard(b) : writeCourse(c);
    const l = loaded[mode];
    return l && l.written === written ? l.text : written;
  }

  let timer = null;
  let asked = 0;
  function changed() {
    const text = currentText();
    textArea.value = text;
    draw();
    clearTimeout(timer);
    status.textContent = 'checking…';
    timer = setTimeout(() => check(text), 250);
  }
  async function check(text) {
    const n = ++asked;
    let a;
    try { a = await boards.validate('roborally', text); } catch (e) { a = { ok: false, findings: [{ severity: 'error', message: e.message }] }; }
    if (n !== asked) return;
    answer = a;
    if (a.shipped_pieces && !piecesSeen.length) { piecesSeen = a.shipped_pieces; fillPieces(); }
    const errors = a.findings.filter((f) => f.severity === 'error').length;
    const warnings = a.findings.length - errors;
    status.textContent = errors ? `${errors} error${errors > 1 ? 's' : ''}` : `valid${warnings ? `, ${warnings} warning${warnings > 1 ? 's' : ''}` : ''}`;
    status.dataset.ok = String(!errors);
    clear(findings).append(...a.findings.map((f) => h(`li.finding.${f.severity}`, { 'data-cell': f.cell ? f.cell.join(',') : undefined },
      `${f.line ? `line ${f.line}: ` : ''}${f.severity}: ${f.message}${f.rule ? ` (${f.rule})` : ''}`)));
    draw();
  }

  function fillPieces() {
    const cur = pieceSel.value;
    clear(pieceSel).append(
      h('optgroup', { label: 'Shipped pieces' }, piecesSeen.map((p) => h('option', { value: p.id }, `${p.name} (${p.width}×${p.height})`))),
      h('optgroup', { label: 'My boards' }, mineList.map((m) => h('option', { value: `saved:${m.id}` }, m.name))),
    );
    if (cur) pieceSel.value = cur;
  }

  // ---------- drawing ----------
  function draw() {
    clear(svg);
    facingOut.textContent = `${ARROW_NAME[facing]} (R turns)`;
    const g = s('g');
    let view;
    let W, H;
    if (mode === 'board') {
      view = boardView(b);
      W = b.w; H = b.h;
    } else {
      view = answer?.board || { width: 0, height: 0, cells: [], walls: [], lasers: [], flags: [], docks: [] };
      W = Math.max(24, view.width + 12);
      H = Math.max(28, view.height + 4);
      for (let y = 0; y < H; y++) {
        for (let x = 0; x < W; x++) {
          const cell = x < view.width && y < view.height ? view.cells[y * view.width + x] : null;
          if (!cell || cell.kind === 'void') g.append(s('rect.ed-void', { x: x * S, y: y * S, width: S, height: S, 'data-cell': `${x},${y}` }));
        }
      }
    }
    drawCourse(view, g);
    if (mode === 'course') {
      for (const p of answer?.pieces || []) {
        g.append(s('rect.ed-piece-outline', { x: p.at[0] * S, y: p.at[1] * S, width: p.width * S, height: p.height * S, 'data-line': p.line }));
      }
    }
    for (const f of answer?.findings || []) {
      if (!f.cell) continue;
      g.append(s(`rect.ed-mark.${f.severity}`, { x: f.cell[0] * S + 2, y: f.cell[1] * S + 2, width: S - 4, height: S - 4, 'data-mark': f.cell.join(',') }, [s('title', f.message)]));
    }
    svg.append(g);
    svg.setAttribute('viewBox', `-4 -4 ${W * S + 8} ${H * S + 8}`);
    svg.dataset.width = W;
    svg.dataset.height = H;
  }

  // ---------- pointer ----------
  function cellAt(ev) {
    const pt = svg.createSVGPoint();
    pt.x = ev.clientX; pt.y = ev.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    const x = Math.floor(p.x / S), y = Math.floor(p.y / S);
    const fx = p.x / S - x, fy = p.y / S - y;
    const side = [fy, 1 - fx, 1 - fy, fx].reduce((best, d, i, all) => (d < all[best] ? i : best), 0);
    return { x, y, side };
  }
  svg.addEventListener('click', (ev) => {
    const { x, y, side } = cellAt(ev);
    if (mode === 'board') boardClick(x, y, side, ev.shiftKey); else courseClick(x, y);
  });

  function boardClick(x, y, side) {
    if (x < 0 || y < 0 || x >= b.w || y >= b.h) return;
    const cell = b.cells[y * b.w + x];
    const el = cell.el;
    if (tool === 'floor') return edit(() => { cell.el = '.'; cell.walls = ''; b.lasers = b.lasers.filter((l) => l.x !== x || l.y !== y); });
    if (tool === 'pit') return edit(() => { cell.el = 'X'; });
    if (tool === 'repair') return edit(() => { cell.el = 'R'; });
    if (tool === 'double') return edit(() => { cell.el = 'D'; });
    if (tool === 'gear') return edit(() => { cell.el = el === 'GR' ? 'GL' : 'GR'; });
    if (tool === 'belt' || tool === 'express') {
      const head = ARROW[facing].repeat(tool === 'express' ? 2 : 1);
      return edit(() => {
        if (el.startsWith(head) && (el.length === head.length || /^[NESW]$/.test(el.slice(head.length))) && (tool === 'express') === (el[1] === el[0])) {
          // Straight → turning in from the right side → from the left side → straight.
          const from = el.slice(head.length);
          const right = SIDES[(facing + 1) % 4], left = SIDES[(facing + 3) % 4];
          cell.el = head + (from === '' ? right : from === right ? left : '');
        } else cell.el = head;
      });
    }
    if (tool === 'pusher') {
      const sideL = SIDES[(facing + 2) % 4];
      return edit(() => { cell.el = el === `P135${sideL}` ? `P24${sideL}` : `P135${sideL}`; });
    }
    if (tool === 'laser') {
      return edit(() => {
        const i = b.lasers.findIndex((l) => l.x === x && l.y === y);
        if (i >= 0 && b.lasers[i].dir === facing) {
          if (b.lasers[i].beams >= 3) b.lasers.splice(i, 1); else b.lasers[i].beams++;
        } else if (i >= 0) b.lasers[i] = { x, y, dir: facing, beams: 1 };
        else b.lasers.push({ x, y, dir: facing, beams: 1 });
      });
    }
    if (tool === 'wall') {
      const L = SIDES[side];
      const [nx, ny] = [x + STEP[side][0], y + STEP[side][1]];
      const other = nx >= 0 && ny >= 0 && nx < b.w && ny < b.h ? b.cells[ny * b.w + nx] : null;
      const O = SIDES[(side + 2) % 4];
      return edit(() => {
        if (cell.walls.includes(L) || other?.walls.includes(O)) {
          cell.walls = cell.walls.replace(L, '');
          if (other) other.walls = other.walls.replace(O, '');
        } else cell.walls = [...SIDES].filter((d) => d === L || cell.walls.includes(d)).join('');
      });
    }
    if (tool === 'dock') {
      if (/^[1-8]$/.test(el)) return edit(() => { cell.el = '.'; });
      const used = new Set(b.cells.map((k) => k.el));
      const n = [1, 2, 3, 4, 5, 6, 7, 8].find((k) => !used.has(String(k)));
      if (!n) { toast('Docks are numbered 1 to 8: all eight are placed', 'error'); return; }
      return edit(() => { cell.el = String(n); });
    }
  }

  const pieceAt = (x, y) => (answer?.pieces || []).find((p) => x >= p.at[0] && y >= p.at[1] && x < p.at[0] + p.width && y < p.at[1] + p.height);
  const placeOf = (p) => c.places.find((q) => q.x === p.at[0] && q.y === p.at[1]);
  async function courseClick(x, y) {
    if (x < 0 || y < 0) return;
    if (tool === 'place') {
      let key = pieceSel.value;
      if (!key) return;
      if (key.startsWith('saved:')) {
        let text;
        try { text = (await boards.get(key.slice(6))).text; } catch (e) { toast(e.message, 'error'); return; }
        if (words(text.split('\n').find((l) => words(l).length) || '')[0] === 'course') { toast('That is a course: a course places board pieces', 'error'); return; }
        const name = parseBoard(text).name;
        key = slug(name);
        if (!key || piecesSeen.some((p) => p.id === key)) { toast('Give the board a name of its own (not a shipped piece\'s) before placing it', 'error'); return; }
        edit(() => { c.own.set(key, text.endsWith('\n') ? text : `${text}\n`); c.places.push({ piece: key, x, y, turns: facing }); });
        return;
      }
      edit(() => c.places.push({ piece: key, x, y, turns: facing }));
      return;
    }
    if (tool === 'turn') {
      const p = pieceAt(x, y);
      const q = p && placeOf(p);
      if (q) edit(() => { q.turns = (q.turns + 1) % 4; });
      return;
    }
    if (tool === 'flag') {
      const i = c.flags.findIndex((f) => f[0] === x && f[1] === y);
      edit(() => { if (i >= 0) c.flags.splice(i, 1); else c.flags.push([x, y]); });
      return;
    }
    if (tool === 'dock') {
      const i = c.docks.findIndex((d) => d.x === x && d.y === y);
      if (i >= 0) { edit(() => c.docks.splice(i, 1)); return; }
      const used = new Set([...(answer?.board?.docks || []).map((d) => d.number), ...c.docks.map((d) => d.number)]);
      const n = [1, 2, 3, 4, 5, 6, 7, 8].find((k) => !used.has(k));
      if (!n) { toast('Docks are numbered 1 to 8: all eight are placed (remove the bay or a dock first)', 'error'); return; }
      edit(() => c.docks.push({ number: n, x, y, facing: SIDES[facing] }));
      return;
    }
    if (tool === 'remove') {
      const fi = c.flags.findIndex((f) => f[0] === x && f[1] === y);
      const di = c.docks.findIndex((d) => d.x === x && d.y === y);
      const p = pieceAt(x, y);
      const q = p && placeOf(p);
      edit(() => {
        if (fi >= 0) c.flags.splice(fi, 1);
        else if (di >= 0) c.docks.splice(di, 1);
        else if (q) c.places.splice(c.places.indexOf(q), 1);
      });
    }
  }

  // ---------- keys ----------
  function onKey(ev) {
    if (ev.target.closest && ev.target.closest('input, textarea, select')) return;
    const k = ev.key.toLowerCase();
    if (hist.key(ev)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (k === 'r') { facing = (facing + (ev.shiftKey ? 3 : 1)) % 4; draw(); return; }
    const t = tools().find((x) => x[1] === k);
    if (t) setTool(t[0]);
  }
  document.addEventListener('keydown', onKey);

  // ---------- files, saving, difficulty ----------
  function load(text, meta) {
    const isCourse = words(text.split('\n').find((l) => words(l).length) || '')[0] === 'course';
    setMode(isCourse ? 'course' : 'board', true);
    if (isCourse) c = parseCourse(text); else { b = parseBoard(text); widthIn.value = b.w; heightIn.value = b.h; }
    loaded[mode] = { ...meta, text, written: isCourse ? writeCourse(c) : writeBoard(b) };
    nameIn.value = isCourse ? c.name : b.name;
    changed();
    if (meta.id) showDifficulty(meta.id, meta.version);
  }
  async function showDifficulty(bid, version) {
    if (mode !== 'course') { difficultyOut.textContent = ''; return; }
    difficultyOut.textContent = 'the bots are trying it…';
    try {
      const d = await boards.difficultyWhenReady(bid, version);
      difficultyOut.textContent = difficultyText(d);
      difficultyOut.dataset.state = d.state;
    } catch (e) { difficultyOut.textContent = ''; }
  }
  async function save() {
    const text = currentText();
    const name = (mode === 'board' ? b.name : c.name) || 'My board';
    const l = loaded[mode];
    const saved = await saveBoard('roborally', l, { name, text, public: publicBox.checked }, shareOut);
    if (!saved) return null;
    loaded[mode] = { ...l, id: saved.id, version: saved.version, mine: true, text, written: mode === 'board' ? writeBoard(b) : writeCourse(c) };
    mineList = await boards.mine('roborally');
    fillPieces();
    showDifficulty(saved.id, saved.version);
    return saved;
  }
  async function tryIt() {
    if (mode !== 'course') { toast('A board piece has no flags: make a course with it first', 'error'); return; }
    await tryBoard(loaded.course, currentText(), save);
  }
  /** The painted board, into a new course: at the top left, the docking bay below it. */
  function useInCourse() {
    const key = slug(b.name);
    if (!key || piecesSeen.some((p) => p.id === key)) { toast('Give the board a name of its own first', 'error'); return; }
    const text = currentText();
    hist.mark();
    setMode('course', true);
    c = blankCourse();
    c.own.set(key, text);
    c.places.push({ piece: key, x: 0, y: 0, turns: 0 });
    // The docking bay (RR-1.3), when the server's palette has it.
    const bay = piecesSeen.find((p) => p.id === 'bay');
    if (bay) c.places.push({ piece: bay.id, x: 0, y: b.h, turns: 0 });
    nameIn.value = c.name;
    changed();
  }
  const download = () => downloadFile(currentText(), `${slug((mode === 'board' ? b.name : c.name) || 'board') || 'board'}.txt`, 'text/plain');
  const fileIn = h('input#rr-file', { type: 'file', accept: '.txt', hidden: true, onchange: async () => {
    const f = fileIn.files[0];
    if (f) { hist.mark(); load(await f.text(), {}); }
  } });
  nameIn.addEventListener('change', () => edit(() => { if (mode === 'board') b.name = nameIn.value.trim(); else c.name = nameIn.value.trim(); }));
  const resize = () => edit(() => {
    const w = Math.max(1, Math.min(24, Number(widthIn.value) || 12));
    const hh = Math.max(1, Math.min(24, Number(heightIn.value) || 12));
    const nb = blankBoard(w, hh, b.name);
    for (let y = 0; y < Math.min(hh, b.h); y++) for (let x = 0; x < Math.min(w, b.w); x++) nb.cells[y * w + x] = b.cells[y * b.w + x];
    nb.lasers = b.lasers.filter((l) => l.x < w && l.y < hh);
    b = nb;
  });
  widthIn.addEventListener('change', resize);
  heightIn.addEventListener('change', resize);
  textArea.addEventListener('change', () => { hist.mark(); load(textArea.value, {}); });

  root.append(h('div.editor-page.rr', [
    h('div.panel.editor-tools', [
      h('h2', 'RoboRally editor'),
      h('div.row', [...modeBtns, h('label', ['Name ', nameIn]), h('span', ['Direction: ', facingOut])]),
      sizeRow,
      pieceRow,
      toolRow,
      h('div.row', [
        h('button.btn.small#undo', { type: 'button', title: 'Undo (Ctrl+Z)', onclick: hist.undo }, 'Undo'),
        h('button.btn.small#redo', { type: 'button', title: 'Redo (Ctrl+Y)', onclick: hist.redo }, 'Redo'),
        h('button.btn.small#import', { type: 'button', onclick: () => fileIn.click() }, 'Import file'),
        h('button.btn.small#export', { type: 'button', onclick: download }, 'Export file'),
        h('label.check', [publicBox, ' Public (gallery)']),
        h('button.btn.small.primary#save-board', { type: 'button', onclick: save }, 'Save'),
        h('button.btn.small#use-in-course', { type: 'button', title: 'A new course with this board and the docking bay below it', onclick: useInCourse }, 'Use in a course'),
        h('button.btn.small#try-board', { type: 'button', title: 'Save, then play the course against a bot', onclick: tryIt }, 'Try it'),
        fileIn,
      ]),
      h('div.row', [h('span', 'Share: '), shareOut]),
      h('div.row', [h('span', 'Difficulty: '), difficultyOut]),
    ]),
    h('div.editor-main', [svg, h('div.panel.editor-side', [h('h3', ['Validation ', status]), findings, h('details', [h('summary', 'File'), textArea])])]),
  ]));
  mineList = await boards.mine('roborally');
  setMode('board', true);
  if (id) {
    const saved = await boards.get(id);
    publicBox.checked = !!saved.public;
    load(saved.text, { id: saved.id, version: saved.version, mine: saved.owner === (await boards.whoAmI()) });
    shareOut.value = `${location.origin}/#/editor/roborally/${saved.id}`;
  } else {
    nameIn.value = b.name;
    changed();
  }
  return { destroy() { document.removeEventListener('keydown', onKey); clearTimeout(timer); } };
}

/** The bots' estimate in words (docs/editors.md "Difficulty"). */
export function difficultyText(d) {
  if (!d || d.state === 'none') return 'none (a board piece alone has no flags)';
  if (d.state !== 'ready') return 'being computed…';
  if (d.average_turns == null) return `the heuristic bot did not finish in ${d.max_turns} turns (${d.games} games)`;
  return `${d.average_turns.toFixed(1)} turns for the heuristic bot (${d.finished} of ${d.games} games finished within ${d.max_turns})`;
}
