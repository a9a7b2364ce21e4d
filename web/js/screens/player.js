// A player's page: ratings per pool, a rating-history chart, recent matches.
import { h, mount, s, ago } from '../dom.js';
import { nameOf } from '../bots.js';
import { player as fetchPlayer, ratingHistory, playerMatches } from '../api.js';
import { powerName } from '../catalog.js';
import { codeOf, replayHash, watchHash } from '../codes.js';
import { t, term, num, rating, date, dateTime } from '../i18n/index.js';
import { errorText } from '../errors.js';

/** The rating pools, each named in the current language ('pool.<pool>'). */
export const POOLS = ['santorini', 'santorini_powers', 'splendor'].map((pool) => ({
  pool,
  get name() {
    return t(`pool.${pool}`);
  },
}));

/** An SVG line chart of rating over games, with the deviation as a band. */
export function ratingChart(history) {
  const W = 600;
  const H = 220;
  const pad = 36;
  if (history.length === 0) return h('p', { class: 'muted' }, t('player.noRated'));
  const lo = Math.min(...history.map((p) => p.rating - p.deviation));
  const hi = Math.max(...history.map((p) => p.rating + p.deviation));
  const n = history.length;
  const x = (i) => pad + (n === 1 ? (W - 2 * pad) / 2 : (i * (W - 2 * pad)) / (n - 1));
  const y = (r) => H - pad + ((r - lo) * -(H - 2 * pad)) / Math.max(1, hi - lo);
  const line = history.map((p, i) => `${x(i)},${y(p.rating)}`).join(' ');
  const band =
    history.map((p, i) => `${x(i)},${y(p.rating + p.deviation)}`).join(' ') +
    ' ' +
    history
      .map((p, i) => `${x(i)},${y(p.rating - p.deviation)}`)
      .reverse()
      .join(' ');
  const ticks = [lo, (lo + hi) / 2, hi].map((r) => Math.round(r));
  return s(
    'svg',
    { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': t('player.chart') },
    ticks.map((r) => [s('line', { x1: pad, x2: W - pad, y1: y(r), y2: y(r), class: 'grid' }), s('text', { x: pad - 4, y: y(r) + 4, 'text-anchor': 'end', class: 'axis' }, rating(r))]),
    s('polygon', { points: band, class: 'band' }),
    s('polyline', { points: line, class: 'line' }),
    history.map((p, i) => s('circle', { cx: x(i), cy: y(p.rating), r: 3, class: 'point' }, s('title', {}, `${rating(Math.round(p.rating))} ±${rating(Math.round(p.deviation))} · ${dateTime(p.at)}`))),
    s('text', { x: W - pad, y: H - 8, 'text-anchor': 'end', class: 'axis' }, t('player.games', { count: n, n: num(n) })),
  );
}

export function matchRow(m, playerId) {
  const names = m.seats.map((s) => nameOf(s.player)).join(t('match.versus'));
  const me = m.seats.find((s) => s.player.id === playerId);
  let outcome = m.status;
  if (m.status === 'finished' && m.result && me) outcome = m.result.winners?.includes(me.seat) ? 'won' : 'lost';
  const delta = me && me.rating_before && me.rating_after ? Math.round(me.rating_after.rating - me.rating_before.rating) : null;
  return h(
    'li',
    { class: 'row', 'data-match': m.id },
    h(
      'div',
      {},
      h('strong', {}, names),
      h('div', { class: 'muted small' }, m.game === 'splendor' ? 'Splendor' : m.seats.map((s) => powerName(s.power)).filter(Boolean).join(' · '), ' ', ago(m.finished_at || m.created_at)),
    ),
    h('span', { class: `outcome ${outcome}` }, term('outcome.', outcome), delta !== null ? ` (${delta >= 0 ? '+' : ''}${delta})` : ''),
    // A private match this browser knows the invite code of: the links that work for others too.
    h('a', { class: 'button', href: m.live ? (codeOf(m.id) ? watchHash(m.id, codeOf(m.id)) : `#/match/${m.id}`) : replayHash(m.id, codeOf(m.id)) }, m.live ? t('home.watch') : t('player.replay')),
  );
}

export function playerScreen(ctx, id) {
  const { screen } = ctx;
  mount(screen, h('p', { class: 'muted' }, t('common.loading')));
  let closed = false;
  fetchPlayer(id)
    .then(async (p) => {
      if (closed) return;
      const chartBox = h('div', { id: 'rating-chart' });
      // Every match, a page at a time (the list above holds the latest few).
      let cursor = null;
      const more = h('button', { id: 'more-matches' }, t('player.allMatches'));
      more.addEventListener('click', async () => {
        const list = screen.querySelector('#recent');
        try {
          const page = await playerMatches(id, cursor);
          if (cursor === null) list.replaceChildren();
          list.append(...page.matches.map((m) => matchRow(m, id)));
          cursor = page.next;
          more.textContent = t('player.more');
          more.hidden = !cursor;
        } catch (e) {
          more.replaceWith(h('p', { class: 'error' }, errorText(e)));
        }
      });
      const pools = POOLS.filter((x) => p.ratings.some((r) => r.pool === x.pool));
      const pool = pools[0]?.pool || 'santorini_powers';
      const showChart = async (which) => {
        try {
          const r = await ratingHistory(id, which);
          mount(chartBox, ratingChart(r.history));
        } catch (e) {
          mount(chartBox, h('p', { class: 'error' }, errorText(e)));
        }
      };
      mount(
        screen,
        h(
          'div',
          { class: 'card player-page' },
          h('h1', {}, p.name),
          h('p', { class: 'muted small' }, t('player.since', { date: date(p.created_at) })),
          h(
            'table',
            { class: 'ratings' },
            h('tr', {}, h('th', {}, t('player.pool')), h('th', {}, t('player.rating')), h('th', {}, t('player.gamesHead'))),
            p.ratings.length === 0
              ? h('tr', {}, h('td', { colspan: 3, class: 'muted' }, t('player.noRated')))
              : p.ratings.map((r) =>
                  h('tr', {}, h('td', {}, POOLS.find((x) => x.pool === r.pool)?.name || r.pool), h('td', {}, `${rating(Math.round(r.rating))} ±${rating(Math.round(r.deviation))}${r.provisional ? ` ${t('player.provisional')}` : ''}`), h('td', {}, num(r.games))),
                ),
          ),
          pools.length > 1 ? h('div', { class: 'tabs' }, pools.map((x) => h('button', { onclick: () => showChart(x.pool) }, x.name))) : null,
          chartBox,
          h('h2', {}, t('player.recent')),
          h('ul', { class: 'list', id: 'recent' }, p.recent_matches.length ? p.recent_matches.map((m) => matchRow(m, id)) : h('li', { class: 'muted' }, t('player.none'))),
          p.recent_matches.length ? more : null,
        ),
      );
      if (pools.length) showChart(pool);
      else mount(chartBox, ratingChart([]));
    })
    .catch((e) => {
      if (!closed) mount(screen, h('div', { class: 'card narrow' }, h('h1', {}, t('player.title')), h('p', { class: 'error' }, e.code === 'unavailable' ? t('player.needsDatabase') : errorText(e))));
    });
  return () => (closed = true);
}
