// The players around the Splendor table: each seat's points, cards, tokens and bonuses by
// colour, reserved cards (face down with their level when another seat took them blind) and
// nobles, whose turn it is and the clock.
import { h } from '../dom.js';
import { playerName } from '../bots.js';
import { TOKENS, COLOURS, gemName, total } from './gems.js';
import { t, num } from '../i18n/index.js';
import { cardFace, cardBack, nobleTile, tokenChip, clickable } from './pieces.js';

export const SEAT_COLORS = ['#2f6fd6', '#d64b3a', '#2e9e5b', '#b5831a'];

/** The seats in the order to show them: yours first, then the others in playing order. */
export function seatOrder(v) {
  const n = v.seats.length;
  const first = v.you === null || v.you === undefined ? 0 : v.you;
  return Array.from({ length: n }, (_, k) => (first + k) % n);
}

/** One seat's hand. `act`: {onToken(gem)|null, onReserved(card)|null, legalToken(gem), legalReserved(card)}. */
export function handPanel(v, seat, { clock, act = null, nobleById }) {
  const st = v.state;
  const hand = st.hands[seat];
  const info = v.seats[seat];
  const over = v.status === 'finished' || v.status === 'aborted';
  const turn = !over && st.decider === seat;
  const me = v.you === seat;
  const cls = ['player-card', 'sp-hand'];
  if (turn) cls.push('turn');
  if (me) cls.push('me');
  if (hand.out || info.out) cls.push('out');
  if (v.result?.winners?.includes(seat) || (over && st.winners?.includes(seat))) cls.push('winner');
  const tokens = total(hand.tokens);
  return h(
    'div',
    { class: cls.join(' '), 'data-seat': seat, 'data-points': hand.points, 'data-cards': hand.cards, 'data-tokens': tokens, style: `--side:${SEAT_COLORS[seat % SEAT_COLORS.length]}` },
    h(
      'div',
      { class: 'row head' },
      h('span', { class: 'dot' }),
      playerName(info.player),
      me ? h('span', { class: 'badge' }, t('game.you')) : null,
      st.start_player === seat ? h('span', { class: 'badge first', title: t('splendor.playedFirst') }, t('splendor.first')) : null,
      info.connected === false ? h('span', { class: 'muted small', title: t('game.notConnected') }, `⚠ ${t('game.away')}`) : null,
      hand.out || info.out ? h('span', { class: 'muted small' }, t('splendor.out')) : null,
      clock,
    ),
    h(
      'div',
      { class: 'sp-score' },
      h('span', { class: 'prestige', title: t('splendor.prestigePoints') }, h('strong', { class: 'pts' }, String(hand.points)), ` ${t('splendor.pts')}`),
      h('span', { class: 'muted small' }, t('splendor.cards', { count: hand.cards, n: num(hand.cards) })),
      h('span', { class: `muted small${tokens > 10 ? ' warn' : ''}` }, t('splendor.tokensHeld', { n: tokens })),
      turn ? h('span', { class: 'small turn-note' }, me ? t('game.yourTurn') : st.phase === 'return' ? t('splendor.returning') : st.phase === 'noble' ? t('splendor.choosingNoble') : t('game.thinking')) : null,
    ),
    h('div', { class: 'sp-progress', title: t('splendor.progress', { n: hand.points }) }, h('span', { style: `width:${Math.min(100, (hand.points / 15) * 100)}%` })),
    h(
      'div',
      { class: 'sp-gems' },
      // What each row is: the cards bought (bonuses, a discount for good) above the tokens held.
      h('div', { class: 'sp-rowlabels', 'aria-hidden': 'true' }, h('span', { class: 'sp-rowlabel bonuses' }, t('splendor.bonuses')), h('span', { class: 'sp-rowlabel tokens' }, t('splendor.tokens'))),
      TOKENS.map((g) => {
        const n = hand.tokens[g];
        const legal = act?.legalToken(g);
        const chip = tokenChip(g, n, { cls: legal ? 'legal' : '' });
        if (legal) clickable(chip, () => act.onToken(g), t('splendor.returnToken', { gem: gemName(g), colour: t(`colour.${g}`), count: n }));
        return h(
          'div',
          { class: 'sp-gemcol', 'data-gem': g },
          g === 'gold' ? h('span', { class: 'bonus-stack blank' }) : h('span', { class: `bonus-stack gem-${g}${hand.bonuses[g] ? ` layers-${Math.min(hand.bonuses[g], 4)}` : ' none'}`, 'data-bonus': hand.bonuses[g], title: t('splendor.bonusTitle', { count: hand.bonuses[g], gem: gemName(g) }) }, String(hand.bonuses[g])),
          chip,
        );
      }),
    ),
    hand.reserved.length || hand.nobles.length
      ? h(
          'div',
          { class: 'sp-holdings' },
          hand.reserved.length
            ? h(
                'div',
                { class: 'sp-reserved-list', title: t('splendor.reservedCards') },
                hand.reserved.map((r, i) => {
                  const wrap = h('div', {
                    class: `sp-reserved${r.blind ? ' blind' : ''}`,
                    'data-index': i,
                    'data-level': r.level,
                    'data-blind': r.blind ? 1 : 0,
                    'data-card': r.card ? r.card.id : '',
                    'data-hidden': r.card ? 0 : 1,
                  });
                  if (r.card) {
                    const face = cardFace(r.card, { cls: 'mini' });
                    if (act?.legalReserved(r.card.id)) {
                      face.classList.add('legal');
                      clickable(face, () => act.onReserved(r.card.id), null, t('splendor.sr.buyReserved'));
                    }
                    wrap.append(face);
                    if (r.blind && me) wrap.append(h('span', { class: 'secret', title: t('splendor.secretTitle') }, t('splendor.secret')));
                  } else {
                    wrap.append(cardBack(r.level, { cls: 'mini', attrs: { title: t('splendor.reservedBlind', { level: r.level }) } }));
                  }
                  return wrap;
                }),
              )
            : null,
          hand.nobles.length ? h('div', { class: 'sp-hand-nobles' }, hand.nobles.map((n) => nobleTile(typeof n === 'object' ? n : nobleById(n) || { id: n, points: 3, requires: Object.fromEntries(COLOURS.map((c) => [c, 0])) }, { cls: 'mini' }))) : null,
        )
      : null,
  );
}
