// A player's profile (#/player/ID): ratings per game with a history chart drawn as SVG,
// recent games with results and replay links, follow and block buttons (docs/platform.md).

import { clear, h, s } from '../dom.js';
import * as api from '../api.js';
import { challengeForm } from './challenges.js';

/** The rating history, oldest to newest, as an SVG polyline with the rating's range. */
export function chart(points) {
  const w = 320; const ht = 120; const pad = 8;
  const ys = points.flatMap((p) => [p.before, p.rating]);
  const lo = Math.min(...ys) - 10; const hi = Math.max(...ys) + 10;
  const vals = points.length ? [points[0].before, ...points.map((p) => p.rating)] : [];
  const x = (i) => pad + (vals.length > 1 ? (i * (w - 2 * pad)) / (vals.length - 1) : 0);
  const y = (v) => ht - pad - ((v - lo) * (ht - 2 * pad)) / (hi - lo || 1);
  return s('svg.rating-chart', { viewBox: `0 0 ${w} ${ht}`, width: w, height: ht, role: 'img', 'aria-label': `rating from ${Math.round(vals[0] ?? 0)} to ${Math.round(vals[vals.length - 1] ?? 0)}` }, [
    s('polyline', { points: vals.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' '), fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }),
    ...vals.map((v, i) => s('circle', { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 2.5, fill: 'currentColor' })),
  ]);
}

export async function showProfile(root, id) {
  const page = h('div.profile-page');
  root.append(page);
  const [p, games, kinds] = await Promise.all([api.player(id), api.playerGames(id), api.kinds().catch(() => ({ kinds: [] }))]);
  const title = (g) => kinds.kinds.find((k) => k.name === g)?.title || g;
  const ratings = h('div.ratings');
  for (const r of p.ratings) {
    const hist = await api.ratingHistory(id, r.game).catch(() => ({ points: [] }));
    const last = hist.points[0];
    const delta = last ? Math.round(last.rating - last.before) : null;
    ratings.append(h('section.panel.rating', { 'data-game': r.game }, [
      h('h3', title(r.game)),
      h('p', [
        h('b.rating-value', String(Math.round(r.rating))),
        delta === null ? null : h('span.rating-change', { title: 'the last rated game' }, ` (${delta > 0 ? '+' : ''}${delta})`),
        ` ± ${Math.round(2 * r.deviation)} · ${r.games} rated game${r.games === 1 ? '' : 's'}`,
      ]),
      chart(hist.points.slice().reverse()),
    ]));
  }
  const buttons = h('div.row');
  const acc = api.me();
  if (acc && acc.id !== p.id && !p.bot && !p.deleted) {
    let following = !!p.following; let blocked = !!p.blocked;
    const fb = h('button.btn.small#follow', { type: 'button' });
    const bb = h('button.btn.small.ghost#block', { type: 'button' });
    const label = () => { fb.textContent = following ? 'Unfollow' : 'Follow'; bb.textContent = blocked ? 'Unblock' : 'Block'; };
    fb.onclick = async () => { try { await api.follow(p.id, !following); following = !following; label(); } catch (e) { fb.title = e.message; } };
    bb.onclick = async () => { try { await api.block(p.id, !blocked); blocked = !blocked; label(); } catch (e) { bb.title = e.message; } };
    label();
    buttons.append(fb, bb);
  }
  // A challenge to this player (a person's account or a bot account; robodrome's own bots are
  // played from the lobby's seats): web/ui/challenges.js.
  const challengeable = acc && acc.id !== p.id && !p.deleted && !p.id.startsWith('bot:') && (p.username || p.bot);
  clear(page).append(
    h('section.panel.profile', [
      h('h2', [h('span.player-name', p.name), p.username ? h('span.username', ` @${p.username}`) : null, p.bot ? h('span.tag', 'bot') : null, p.online ? h('span.tag.online', 'online') : null]),
      buttons,
    ]),
    challengeable ? challengeForm(p, kinds.kinds || []) : null,
    p.ratings.length ? ratings : h('p.empty', 'No rated games yet.'),
    h('section.panel.list', [
      h('h2', 'Recent games'),
      h('ul.games', games.games.map((g) => h('li.game-row', { 'data-game': g.id }, [
        h('span.game-title', title(g.game)),
        h('span', g.status === 'finished' ? (g.place === null ? ' finished' : ` place ${g.place + 1} of ${g.seats.length}`) : ` ${g.status}`),
        g.practice ? h('span.tag', 'practice') : null,
        g.status === 'finished' ? h('a.btn.small', { href: `#/replay/${g.id}` }, 'Replay') : h('a.btn.small', { href: `#/g/${g.id}` }, 'Open'),
      ]))),
    ]),
  );
  return {};
}
