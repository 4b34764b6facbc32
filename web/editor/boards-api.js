// The saved boards' HTTP API (docs/protocol.md "Boards"): validation, saving with versions,
// listings (mine, the gallery), "try it".

async function call(method, path, body) {
  const init = { method, headers: {}, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { message: text.slice(0, 200) }; }
  if (!res.ok) {
    const e = new Error(data?.message || res.statusText);
    e.code = data?.code;
    e.status = res.status;
    throw e;
  }
  return data;
}

const enc = encodeURIComponent;
export const validate = (game, text) => call('POST', '/api/boards/validate', { game, text });
export const create = (b) => call('POST', '/api/boards', b);
export const update = (id, b) => call('PUT', `/api/boards/${enc(id)}`, b);
export const get = (id, version) => call('GET', `/api/boards/${enc(id)}${version ? `?version=${version}` : ''}`);
/** My boards (the latest version of each, newest first); none when it cannot be read. */
export const mine = (game) => call('GET', `/api/boards?owner=me${game ? `&game=${enc(game)}` : ''}`).then((a) => a.boards, () => []);
/** The public gallery, as `mine`. */
export const gallery = (game) => call('GET', `/api/boards?owner=gallery${game ? `&game=${enc(game)}` : ''}`).then((a) => a.boards, () => []);
export const tryIt = (id, version) => call('POST', `/api/boards/${enc(id)}/try`, version ? { version } : {});
/** The bots' difficulty estimate (docs/editors.md "Difficulty"); `wait`: until it is computed. */
export const difficulty = (id, version, wait) => call('GET', `/api/boards/${enc(id)}/difficulty?${version ? `version=${version}&` : ''}wait=${wait ? 'true' : 'false'}`);
/** The estimate once the server has it: asked again while another board's runs (`busy`). */
export async function difficultyWhenReady(id, version) {
  for (let i = 0; ; i++) {
    const d = await difficulty(id, version, true);
    if ((d.state !== 'busy' && d.state !== 'computing') || i >= 9) return d;
    await new Promise((r) => setTimeout(r, 2000));
  }
}
export const picture = (id, version) => `/api/boards/${enc(id)}/picture${version ? `?version=${version}` : ''}`;
/** The caller's identity id (the owner of the boards it saves). */
export async function whoAmI() {
  try { return (await call('GET', '/api/account')).id; } catch { return null; }
}
