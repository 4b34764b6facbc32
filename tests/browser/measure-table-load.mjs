// Not a test: times opening a finished RoboRally game's table in the browser (docs/benchmarks.md,
// "Replay steps"). Usage: ROBODROME_URL=http://127.0.0.1:PORT node measure-table-load.mjs
// (a server with the quotas off; it plays one game of eight heuristic bots first).
import { launch, api, BASE } from './helpers.js';

const post = (path, body, token) => api(path, {
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  body: JSON.stringify(body),
});
const g = await post('/api/guest', { name: 'Timer' });
const seats = Array(8).fill('bot:heuristic');
const game = await post('/api/games', { game: 'roborally', board: 'dizzy-dash', seats }, g.token);
for (let i = 0; i < 1200; i++) {
  if ((await api(`/api/games/${game.id}`)).status === 'finished') break;
  await new Promise((r) => setTimeout(r, 250));
}
const rec = await api(`/api/games/${game.id}/replay`);
const b = await launch();
try {
  for (const round of [1, 2]) {
    const page = await b.page({ name: `Timer${round}` });
    const t0 = Date.now();
    if (process.env.TRACE) page.on('requestfinished', (r) => console.log(Date.now() - t0, r.url()));
    if (process.env.TRACE) page.on('websocket', (w) => { console.log(Date.now() - t0, 'ws', w.url()); w.on('framereceived', (f) => console.log(Date.now() - t0, 'frame', String(f.payload).slice(0, 60))); });
    await page.goto(`${BASE}/#/g/${game.id}`);
    await page.waitForSelector('#result-replay', { timeout: 60000 });
    console.log(`${rec.log.length} log entries: table of the finished game shown in ${Date.now() - t0} ms (visit ${round})`);
  }
} finally {
  await b.close();
}
