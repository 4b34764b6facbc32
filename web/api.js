// The HTTP lobby (docs/protocol.md): guest identity, games, replays.

const NAME_KEY = 'robodrome.name';
const ID_KEY = 'robodrome.identity';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

async function call(method, path, body) {
  const init = { method, headers: {}, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { message: text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 120) }; }
  if (!res.ok) throw new ApiError(res.status, data?.code || String(res.status), data?.message || res.statusText);
  return data;
}

export const me = () => {
  try { return JSON.parse(localStorage.getItem(ID_KEY) || 'null'); } catch { return null; }
};
export const savedName = () => localStorage.getItem(NAME_KEY) || '';

/** A guest identity (the server sets the cookie); created once per browser profile. */
export async function ensureGuest(name) {
  const cur = me();
  if (cur && (!name || cur.name === name)) return cur;
  const n = (name || savedName() || `Guest ${Math.floor(1000 + Math.random() * 9000)}`).trim().slice(0, 40);
  const g = await call('POST', '/api/guest', { name: n });
  localStorage.setItem(NAME_KEY, g.name);
  localStorage.setItem(ID_KEY, JSON.stringify({ id: g.id, name: g.name }));
  return g;
}

/** Call, and when the cookie is unknown to the server (a new database), sign in again once. */
async function authed(method, path, body) {
  try {
    return await call(method, path, body);
  } catch (e) {
    if (e.status !== 401) throw e;
    localStorage.removeItem(ID_KEY);
    await ensureGuest(savedName());
    return call(method, path, body);
  }
}

// What the lobby and the tables need of each game the server offers (docs/protocol.md).
export const kinds = () => call('GET', '/api/kinds');
// The lobby list is fetched conditionally: the server's ETag changes only when some game's
// lobby entry does, so an unchanged list costs a 304 with no body (docs/protocol.md).
const listCache = new Map();
export async function listGames(status) {
  const path = `/api/games${status ? `?status=${status}` : ''}`;
  const prev = listCache.get(path);
  const headers = prev ? { 'if-none-match': prev.etag } : {};
  const res = await fetch(path, { headers, credentials: 'same-origin' });
  if (res.status === 304 && prev) return { games: prev.games, changed: false };
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) throw new ApiError(res.status, data?.code || String(res.status), data?.message || res.statusText);
  const etag = res.headers.get('etag');
  if (etag) listCache.set(path, { etag, games: data });
  return { games: data, changed: true };
}
export const gameInfo = (id, { setup = false } = {}) => call('GET', `/api/games/${encodeURIComponent(id)}${setup ? '?setup=true' : ''}`);
export const createGame = (req) => authed('POST', '/api/games', req);
// "Learn to play" (docs/lessons.md): the lessons, and one started as a practice game.
export const lessons = () => call('GET', '/api/lessons');
export const startLesson = (game, n) => authed('POST', `/api/lessons/${encodeURIComponent(game)}/${n}`, {});
/** "Sign out everywhere": the server forgets every token of this guest (docs/security.md,
 * "Identity") and clears the cookie; this browser forgets the identity too. */
export async function signOutEverywhere() {
  const r = await call('POST', '/api/guest/revoke', {});
  localStorage.removeItem(ID_KEY);
  return r;
}
export const joinGame = (id, seat, name) => authed('POST', `/api/games/${encodeURIComponent(id)}/join`, { ...(seat === undefined ? {} : { seat }), ...(name ? { name } : {}) });
/** Leave: an open game's seat is freed; in a running game the player resigns (docs/protocol.md). */
export const leaveGame = (id) => authed('POST', `/api/games/${encodeURIComponent(id)}/leave`, {});
/** The chat lines kept for a game that the caller may see (the waiting room polls it). */
export const chatLines = (id) => call('GET', `/api/games/${encodeURIComponent(id)}/chat`);
export const say = (id, text) => authed('POST', `/api/games/${encodeURIComponent(id)}/chat`, { text });
export const startGame = (id) => authed('POST', `/api/games/${encodeURIComponent(id)}/start`, {});
export const replay = (id) => call('GET', `/api/games/${encodeURIComponent(id)}/replay`);
/** Every step of a game, page by page (each answer is bounded; `next` is where the following
 * page starts). `views: false` leaves the views out (the table's history needs events only). */
export async function steps(id, { views = true, from } = {}) {
  const base = `/api/games/${encodeURIComponent(id)}/steps${views ? '' : '?views=false'}`;
  const first = await call('GET', from ? `${base}${views ? '?' : '&'}from=${from}` : base);
  let next = first.next;
  while (next !== null && next !== undefined) {
    const page = await call('GET', `${base}${views ? '?' : '&'}from=${next}`);
    first.steps.push(...page.steps);
    next = page.next;
  }
  return first;
}

// ---- accounts and players (docs/platform.md, docs/protocol.md "Accounts and players") ----

/** Remember who this browser is after signing up or in (the server set the cookie). */
function remember(g) {
  localStorage.setItem(NAME_KEY, g.name);
  localStorage.setItem(ID_KEY, JSON.stringify({ id: g.id, name: g.name, username: g.username || null }));
  window.dispatchEvent(new Event('robodrome:identity'));
}
/** The caller's identity and account (`username` null: a guest). */
export const account = () => call('GET', '/api/account');
/** A guest claims a username and a password: the same identity, its games kept. */
export async function signUp(username, password) {
  await ensureGuest();
  const r = await call('POST', '/api/account', { username, password });
  remember({ id: r.id, name: r.name, username: r.username });
  return r;
}
/** Sign in on this browser: a new session of the account. */
export async function signIn(username, password) {
  const g = await call('POST', '/api/session', { username, password });
  remember({ id: g.id, name: g.name, username });
  return g;
}
/** Sign out of this browser only (the session ends; this browser continues as a new guest). */
export async function signOut() {
  const r = await call('POST', '/api/session/end', {});
  localStorage.removeItem(ID_KEY);
  return r;
}
export async function rename(name) {
  const r = await call('POST', '/api/account/name', { name });
  remember({ ...me(), name: r.name });
  return r;
}
export async function deleteAccount(password) {
  const r = await call('POST', '/api/account/delete', { password });
  localStorage.removeItem(ID_KEY);
  return r;
}
const enc = encodeURIComponent;
export const player = (id) => call('GET', `/api/players/${enc(id)}`);
export const playerGames = (id, limit = 20) => call('GET', `/api/players/${enc(id)}/games?limit=${limit}`);
export const ratingHistory = (id, game, limit = 100) => call('GET', `/api/players/${enc(id)}/history?game=${enc(game)}&limit=${limit}`);
export const leaderboard = (game, offset = 0, limit = 50) => call('GET', `/api/leaderboard/${enc(game)}?offset=${offset}&limit=${limit}`);
export const searchPlayers = (prefix) => call('GET', `/api/players?prefix=${enc(prefix)}&limit=10`);
// "My games" (docs/platform.md "My games"): one list, filtered: ongoing (default), turn-based
// (with their clocks), finished; `yourMove` keeps the games where it is the caller's move.
export const myGames = (filter = 'ongoing', yourMove = false) =>
  call('GET', `/api/me/games?filter=${filter}${yourMove ? '&your_move=true' : ''}`);
export const follows = () => call('GET', '/api/follows');
export const follow = (player, on) => call('POST', '/api/follows', { player, on });
export const block = (player, on) => call('POST', '/api/blocks', { player, on });
export const invite = (player, game) => call('POST', '/api/invites', { player, game });
export const notices = () => call('GET', '/api/notices');
// Turn-based games (docs/platform.md "Turn-based clocks"): the caller's running ones and where
// it is their move. Challenges and bot accounts: docs/protocol.md "Challenges", "Bot API".
export const turns = () => authed('GET', '/api/me/games?filter=turn-based');
// Challenges (docs/protocol.md "Challenges"; sending and accepting need an account).
export const challenges = () => call('GET', '/api/challenges');
export const challenge = (body) => call('POST', '/api/challenges', body);
export const acceptChallenge = (id) => call('POST', `/api/challenges/${enc(id)}/accept`, {});
export const declineChallenge = (id) => call('POST', `/api/challenges/${enc(id)}/decline`, {});
