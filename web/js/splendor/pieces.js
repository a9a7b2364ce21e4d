// The pieces of the Splendor table as elements: a faceted gem, a token chip, a development
// card (points, bonus, cost by colour), a face-down deck or reserved card, a noble tile. Every
// piece carries data-* attributes naming what it shows, for the tests and for styling.
import { h, s, on } from '../dom.js';
import { COLOURS, gemName, LEVEL_NUMERALS } from './gems.js';
import { t } from '../i18n/index.js';

/** A small faceted gem of a colour (or gold). */
export function gemIcon(gem, cls = '') {
  return s(
    'svg',
    { class: `sp-gem gem-${gem} ${cls}`.trim(), viewBox: '0 0 20 20', 'aria-hidden': 'true' },
    s('polygon', { class: 'body', points: '5,2 15,2 19,8 10,19 1,8' }),
    s('polygon', { class: 'table', points: '6.5,2.8 13.5,2.8 12.5,7.6 7.5,7.6' }),
    s('polyline', { class: 'facet', points: '1,8 7.5,7.6 10,19 12.5,7.6 19,8' }),
  );
}

/** Words for screen readers only, beside the digits and signs a piece shows: a card, a deck
 *  and a noble are named from their content (no aria-label), so the name holds every number
 *  they show, in order, with its meaning around it ("ruby card #71: 3 points, costs 3
 *  sapphires, level II"): what one sees is what speech input and screen readers say (WCAG
 *  2.5.3, label in name). */
export const sr = (text) => h('span', { class: 'sr-only' }, text);

/** Makes `el` act as a button: focusable, Enter/Space and clicks call `fn`. `label` (an
 *  aria-label) only where the piece shows no more than a single digit (a token chip); a card,
 *  a deck or a noble is named by its own words (`sr`), with `lead` (what the click does) put
 *  before them. */
export function clickable(el, fn, label, lead = null) {
  el.setAttribute('role', 'button');
  el.setAttribute('tabindex', '0');
  if (label) el.setAttribute('aria-label', label);
  if (lead) el.prepend(sr(`${lead} `));
  on(el, 'click', (e) => {
    e.stopPropagation();
    fn(e);
  });
  on(el, 'keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      fn(e);
    }
  });
  return el;
}

/** A token chip of `gem` showing `count` (null: no number). */
export function tokenChip(gem, count = null, extra = {}) {
  const { cls = '', ...attrs } = extra;
  return h(
    'span',
    { class: `sp-token gem-${gem}${count === 0 ? ' none' : ''} ${cls}`.trim(), 'data-gem': gem, 'data-count': count ?? '', title: t('splendor.tokenTitle', { gem: gemName(gem), colour: t(`colour.${gem}`) }), ...attrs },
    h('span', { class: 'chip-ring' }, count === null ? gemIcon(gem) : String(count)),
  );
}

/** Cost pips: one per colour that costs something, in the protocol's order. */
function costPips(cost, cls = 'sp-cost') {
  return h(
    'span',
    { class: cls },
    sr(`${t('splendor.sr.costs')} `),
    COLOURS.filter((c) => cost[c] > 0).map((c) => [h('span', { class: `pip gem-${c}`, 'data-gem': c, title: t('splendor.gems', { count: cost[c], n: cost[c], gem: gemName(c, cost[c]) }) }, String(cost[c])), sr(` ${gemName(c, cost[c])}, `)]),
  );
}

export const cardLabel = (card) => {
  const cost = COLOURS.filter((c) => card.cost[c] > 0).map((c) => t('splendor.gems', { count: card.cost[c], n: card.cost[c], gem: gemName(c, card.cost[c]) })).join(', ');
  return t('splendor.cardLabel', { level: card.level, gem: gemName(card.bonus), id: card.id, points: card.points, count: card.points, cost: cost || t('splendor.nothing') });
};

/** A development card, face up. */
export function cardFace(card, { cls = '' } = {}) {
  return h(
    'div',
    {
      class: `sp-card bonus-${card.bonus} level-${card.level} ${cls}`.trim(),
      'data-card': card.id,
      'data-level': card.level,
      'data-bonus': card.bonus,
      'data-points': card.points,
      title: cardLabel(card),
    },
    sr(`${t('splendor.sr.card', { gem: gemName(card.bonus), id: card.id })} `),
    h('span', { class: 'card-top' }, h('span', { class: 'points' }, card.points > 0 ? String(card.points) : ''), card.points > 0 ? sr(` ${t('splendor.sr.points', { count: card.points })} `) : null, gemIcon(card.bonus, 'bonus')),
    h('span', { class: 'card-art' }, gemIcon(card.bonus, 'art')),
    costPips(card.cost),
    sr(`${t('splendor.sr.level')} `),
    h('span', { class: 'card-level' }, LEVEL_NUMERALS[card.level]),
  );
}

/** The back of a card of `level`: a deck (with its count) or a hidden reserved card. */
export function cardBack(level, { count = null, cls = '', attrs = {} } = {}) {
  return h(
    'div',
    { class: `sp-back level-${level}${count === 0 ? ' empty' : ''} ${cls}`.trim(), 'data-level': level, ...attrs },
    sr(`${t(count !== null ? 'splendor.sr.deckBefore' : 'splendor.sr.backBefore')} `),
    h('span', { class: 'back-level' }, LEVEL_NUMERALS[level]),
    h('span', { class: 'back-dots', 'aria-hidden': 'true' }, '•'.repeat(level)),
    sr(` ${t(count !== null ? 'splendor.sr.deck' : 'splendor.sr.back')} `),
    count !== null ? h('span', { class: 'back-count', title: t('splendor.cardsLeft', { count }) }, String(count)) : null,
    count !== null ? sr(` ${t('splendor.sr.left', { count })}`) : null,
  );
}

/** A noble tile: its points and the bonuses it requires. */
export function nobleTile(noble, { cls = '' } = {}) {
  const req = COLOURS.filter((c) => noble.requires[c] > 0);
  return h(
    'div',
    {
      class: `sp-noble ${cls}`.trim(),
      'data-noble': noble.id,
      title: t('splendor.nobleTitle', { id: noble.id, points: noble.points, bonuses: req.map((c) => t('splendor.gems', { count: noble.requires[c], n: noble.requires[c], gem: gemName(c, noble.requires[c]) })).join(', ') }),
    },
    sr(`${t('splendor.sr.noble', { id: noble.id })} `),
    h('span', { class: 'points' }, String(noble.points)),
    sr(` ${t('splendor.sr.points', { count: noble.points })} `),
    h('span', { class: 'crest', 'aria-hidden': 'true' }, '♛'),
    h('span', { class: 'sp-require' }, sr(`${t('splendor.sr.needs')} `), req.map((c) => [h('span', { class: `req gem-${c}`, 'data-gem': c }, String(noble.requires[c])), sr(` ${gemName(c, noble.requires[c])}, `)]), sr(t('splendor.sr.bonuses'))),
  );
}
