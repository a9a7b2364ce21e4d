// The leaderboard of one rating pool (established players only: the server leaves out
// provisional ratings).
import { h, mount } from '../dom.js';
import { leaderboard } from '../api.js';
import { POOLS } from './player.js';

export function leaderboardScreen(ctx, pool = 'santorini_powers') {
  const { screen } = ctx;
  const table = h('div', { id: 'leaderboard' }, h('p', { class: 'muted' }, 'Loading…'));
  mount(
    screen,
    h(
      'div',
      { class: 'card' },
      h('h1', {}, 'Leaderboard'),
      h('div', { class: 'tabs' }, POOLS.map((p) => h('a', { class: `button${p.pool === pool ? ' primary' : ''}`, href: `#/leaderboard/${p.pool}` }, p.name))),
      table,
      h('p', { class: 'muted small' }, 'Only players whose rating is established (not provisional) are ranked.'),
    ),
  );
  let closed = false;
  leaderboard(pool)
    .then((r) => {
      if (closed) return;
      mount(
        table,
        r.entries.length === 0
          ? h('p', { class: 'muted' }, 'Nobody ranked yet.')
          : h(
              'table',
              { class: 'ratings' },
              h('tr', {}, h('th', {}, '#'), h('th', {}, 'Player'), h('th', {}, 'Rating'), h('th', {}, 'Games')),
              r.entries.map((e) =>
                h('tr', {}, h('td', {}, String(e.rank)), h('td', {}, h('a', { href: `#/player/${e.player.id}` }, e.player.name)), h('td', {}, `${Math.round(e.rating)} ±${Math.round(e.deviation)}`), h('td', {}, String(e.games))),
              ),
            ),
      );
    })
    .catch((e) => !closed && mount(table, h('p', { class: 'error' }, e.code === 'unavailable' ? 'The leaderboard needs the server’s database.' : e.message)));
  return () => (closed = true);
}
