// The leaderboard of one rating pool (established players only: the server leaves out
// provisional ratings).
import { h, mount } from '../dom.js';
import { nameOf } from '../bots.js';
import { leaderboard } from '../api.js';
import { POOLS } from './player.js';
import { t, num, rating } from '../i18n/index.js';
import { errorText } from '../errors.js';

export function leaderboardScreen(ctx, pool = 'santorini_powers') {
  const { screen } = ctx;
  const table = h('div', { id: 'leaderboard' }, h('p', { class: 'muted' }, t('common.loading')));
  mount(
    screen,
    h(
      'div',
      { class: 'card' },
      h('h1', {}, t('nav.leaderboard')),
      h('div', { class: 'tabs' }, POOLS.map((p) => h('a', { class: `button${p.pool === pool ? ' primary' : ''}`, href: `#/leaderboard/${p.pool}` }, p.name))),
      table,
      h('p', { class: 'muted small' }, t('leaderboard.note')),
    ),
  );
  let closed = false;
  leaderboard(pool)
    .then((r) => {
      if (closed) return;
      mount(
        table,
        r.entries.length === 0
          ? h('p', { class: 'muted' }, t('leaderboard.nobody'))
          : h(
              'table',
              { class: 'ratings' },
              h('tr', {}, h('th', {}, '#'), h('th', {}, t('leaderboard.player')), h('th', {}, t('player.rating')), h('th', {}, t('player.gamesHead'))),
              r.entries.map((e) =>
                h('tr', {}, h('td', {}, num(e.rank)), h('td', {}, h('a', { href: `#/player/${e.player.id}` }, nameOf(e.player))), h('td', {}, `${rating(Math.round(e.rating))} ±${rating(Math.round(e.deviation))}`), h('td', {}, num(e.games))),
              ),
            ),
      );
    })
    .catch((e) => !closed && mount(table, h('p', { class: 'error' }, e.code === 'unavailable' ? t('leaderboard.needsDatabase') : errorText(e))));
  return () => (closed = true);
}
