// The editors (docs/editors.md): `#/editor` lists them with my boards and the public gallery;
// `#/editor/bumping-bots[/ID]` is the track editor on the hex grid (track.js),
// `#/editor/autoscooter[/ID]` the rink editor on the hex grid (rink.js);
// `#/editor/GAME[/ID]` for the other games is the file editor: the board's text with the same
// live validation (findings by line and column from the game crate), saving with versions,
// the picture the server renders, export and "try it".

import { h, clear, toast } from '../dom.js';
import * as boards from './boards-api.js';
import { kinds } from '../api.js';
import { go } from '../app.js';
import { showTrackEditor } from './track.js';
import { showRinkEditor } from './rink.js';
import { showRoboRallyEditor, difficultyText } from './roborally.js';

export async function showEditor(root, game, id) {
  if (game === 'bumping-bots') return showTrackEditor(root, id);
  if (game === 'autoscooter') return showRinkEditor(root, id);
  if (game === 'roborally') return showRoboRallyEditor(root, id);
  if (game) return showFileEditor(root, game, id);
  return showEditors(root);
}

/** Each game's editor, by game (the file editor serves a game without one). */
const EDITOR_WORDS = {
  'bumping-bots': 'track editor (hex grid)',
  autoscooter: 'rink editor (hex grid)',
  roborally: 'factory-board and course editor',
};

const EXAMPLE = {
  roborally: 'course My Course\nplace crossroads 0 0 0\nplace bay 0 12 0\nflag 2 8\nflag 10 1\n',
};

function boardList(list, empty) {
  if (!list.length) return h('p.help', empty);
  return h('ul.board-list', list.map((b) => h('li.board-card', { 'data-board': b.id }, [
    h('img', { src: boards.picture(b.id, b.version), alt: `${b.name}, drawn`, loading: 'lazy', width: 160 }),
    h('div', [
      h('a', { href: `#/editor/${b.game}/${b.id}` }, b.name),
      h('span.help', ` ${b.game} · v${b.version}${b.owner_name ? ` · by ${b.owner_name}` : ''}`),
      h('button.btn.small', { type: 'button', onclick: async () => {
        try { go(`#/g/${(await boards.tryIt(b.id, b.version)).id}`); } catch (e) { toast(e.message, 'error'); }
      } }, 'Try it'),
      b.game === 'roborally' ? difficultyOf(b) : null,
    ]),
  ])));
}

/** The bots' difficulty estimate of a RoboRally board, filled in when the server has it. */
function difficultyOf(b) {
  const out = h('span.difficulty', { 'data-difficulty': b.id }, 'Difficulty: …');
  boards.difficultyWhenReady(b.id, b.version).then((d) => { out.textContent = `Difficulty: ${difficultyText(d)}`; out.dataset.state = d.state; }, () => { out.textContent = ''; });
  return out;
}

async function showEditors(root) {
  const ks = ((await kinds().catch(() => ({ kinds: [] }))).kinds || []);
  const [mine, gallery] = await Promise.all([
    boards.mine(),
    boards.gallery(),
  ]);
  root.append(h('div.editor-index', [
    h('div.panel', [
      h('h2', 'Editors'),
      h('ul', ks.map((k) => h('li', [h('a', { href: `#/editor/${k.name}`, 'data-editor': k.name }, `${k.title}: ${EDITOR_WORDS[k.name] || `${k.board_noun} file editor`}`)]))),
      h('p.help', 'Saving needs an account; validation and export do not. A saved board has a share link, versions (an edit makes a new one; games keep the version they began on) and a "Try it" button.'),
    ]),
    h('div.panel', [h('h2', 'My boards'), boardList(mine, 'None yet.')]),
    h('div.panel', [h('h2', 'Gallery'), boardList(gallery, 'No public boards yet.')]),
  ]));
  return null;
}

async function showFileEditor(root, game, id) {
  let loaded = null;
  const text = h('textarea#board-text', { rows: 24, cols: 70, spellcheck: false, 'aria-label': 'Board file' });
  const name = h('input#board-name', { value: 'My board', maxlength: 60, 'aria-label': 'Name' });
  const pub = h('input#board-public', { type: 'checkbox' });
  const findings = h('ul.findings#findings', { 'aria-live': 'polite' });
  const status = h('span.editor-status#editor-status');
  const share = h('input#share-link', { readonly: true, placeholder: 'save to get a link' });
  const picture = h('div.board-picture');
  let timer = null;
  let asked = 0;
  async function check() {
    const n = ++asked;
    let a;
    try { a = await boards.validate(game, text.value); } catch (e) { a = { ok: false, findings: [{ severity: 'error', message: e.message }] }; }
    if (n !== asked) return;
    const errors = a.findings.filter((f) => f.severity === 'error').length;
    status.textContent = errors ? `${errors} error${errors > 1 ? 's' : ''}` : 'valid';
    status.dataset.ok = String(!errors);
    clear(findings).append(...a.findings.map((f) => h(`li.finding.${f.severity}`, `${f.line ? `line ${f.line}, column ${f.column}: ` : ''}${f.severity}: ${f.message}${f.rule ? ` (${f.rule})` : ''}`)));
  }
  text.addEventListener('input', () => { clearTimeout(timer); status.textContent = 'checking…'; timer = setTimeout(check, 300); });
  async function save() {
    try {
      const body = { name: name.value, text: text.value, public: pub.checked };
      const b = loaded?.mine ? await boards.update(loaded.id, body) : await boards.create({ game, ...body });
      loaded = { id: b.id, mine: true };
      share.value = `${location.origin}/#/editor/${game}/${b.id}`;
      history.replaceState(null, '', `#/editor/${game}/${b.id}`);
      clear(picture).append(h('img', { src: boards.picture(b.id, b.version), alt: 'The board, drawn by the server' }));
      toast(`Saved: version ${b.version}`);
      return b;
    } catch (e) {
      toast(e.code === 'account_required' ? 'Saving needs an account: sign up first (Account)' : `Not saved: ${e.message}`, 'error');
      return null;
    }
  }
  root.append(h('div.editor-page.file', [
    h('div.panel', [
      h('h2', `${game} board file`),
      h('p.help', game === 'roborally'
        ? 'A course over the shipped board pieces (docs/roborally-boards.md): place pieces with their quarter turns next to the docking bay, then flags in order. Validation: flags on the board and not on pits, every flag reachable from every dock, docks on the board.'
        : 'The rink as JSON (docs/autoscooter.md): cells, barriers and start spaces.'),
      h('div.row', [h('label', ['Name ', name]), h('label.check', [pub, ' Public (gallery)'])]),
      text,
      h('div.row', [
        h('button.btn.small.primary#save-board', { type: 'button', onclick: save }, 'Save'),
        h('button.btn.small#try-board', { type: 'button', onclick: async () => { const b = await save(); if (b) go(`#/g/${(await boards.tryIt(b.id, b.version)).id}`); } }, 'Try it'),
        h('button.btn.small#export', { type: 'button', onclick: () => {
          const a = h('a', { href: URL.createObjectURL(new Blob([text.value], { type: 'text/plain' })), download: `${name.value.replace(/\W+/g, '-').toLowerCase()}.txt` });
          document.body.append(a); a.click(); a.remove();
        } }, 'Export file'),
      ]),
      h('div.row', ['Share: ', share]),
    ]),
    h('div.panel', [h('h3', ['Validation ', status]), findings, picture]),
  ]));
  if (id) {
    const b = await boards.get(id);
    text.value = b.text;
    name.value = b.name;
    pub.checked = b.public;
    loaded = { id: b.id, mine: b.owner === (await boards.whoAmI()) };
    share.value = `${location.origin}/#/editor/${game}/${b.id}`;
  } else {
    text.value = EXAMPLE[game] || '';
  }
  check();
  return { destroy() { clearTimeout(timer); } };
}
