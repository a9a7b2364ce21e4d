// The powers' tokens on the board (Whirlpools, Coins, Talus, the Abyss, the Fate) and the Wind
// and the Song beside it, drawn from the cards' state in the view.
import { s } from '../dom.js';
import { CELL } from './pieces.js';
import { t } from '../i18n/index.js';

export const ARROW_MARGIN = 74;
const DIRECTION_ANGLES = { N: 0, NE: 45, E: 90, SE: 135, S: 180, SW: 225, W: 270, NW: 315 };

/** The powers' tokens and marks the view shows, by square, and the directions to draw beside
 *  the board. Only what the server sent: the Fate and the Abyss reach their owner's view alone. */
export function tokensOf(state) {
  const at = new Map();
  const arrows = [];
  const put = (square, kind) => {
    if (!square) return;
    const sq = square.toUpperCase();
    if (!at.has(sq)) at.set(sq, []);
    at.get(sq).push(kind);
  };
  const cards = [...(state.cards || [])];
  if (state.fleece && state.fleece.card) cards.push({ ...state.fleece.card, seat: null });
  for (const card of cards) {
    for (const sq of card.whirlpools || []) put(sq, 'whirlpool');
    for (const sq of card.coins || []) put(sq, 'coin');
    for (const sq of card.fate || []) put(sq, 'fate');
    put(card.talus, 'talus');
    put(card.abyss, 'abyss');
    if (card.wind) arrows.push({ kind: 'wind', label: t('board.wind'), direction: card.wind });
    if (card.song) arrows.push({ kind: 'song', label: t('board.song'), direction: card.song });
  }
  return { at, arrows };
}

/** One token drawn inside its cell (CELL x CELL). */
export function tokenPiece(kind) {
  const c = CELL / 2;
  switch (kind) {
    case 'whirlpool':
      return s('g', { class: 'token whirlpool', 'data-token': kind },
        s('circle', { cx: c, cy: c, r: 34 }), s('circle', { cx: c, cy: c, r: 24 }), s('circle', { cx: c, cy: c, r: 13 }));
    case 'coin':
      return s('g', { class: 'token coin', 'data-token': kind },
        s('circle', { cx: CELL - 22, cy: CELL - 22, r: 12 }), s('text', { x: CELL - 22, y: CELL - 17.5, 'text-anchor': 'middle' }, '¢'));
    case 'talus':
      // A dome-like piece: it blocks its space as a dome does.
      return s('g', { class: 'token talus', 'data-token': kind },
        s('path', { d: `M ${c - 26} ${c + 18} L ${c - 26} ${c} A 26 26 0 0 1 ${c + 26} ${c} L ${c + 26} ${c + 18} Z` }),
        s('text', { x: c, y: c + 12, 'text-anchor': 'middle' }, 'T'));
    case 'abyss':
      return s('g', { class: 'token abyss', 'data-token': kind },
        s('circle', { cx: c, cy: c, r: 36 }), s('text', { x: c, y: CELL - 8, 'text-anchor': 'middle' }, t('board.abyss')));
    case 'fate':
      return s('rect', { class: 'token fate', 'data-token': kind, x: 6, y: 6, width: CELL - 12, height: CELL - 12, rx: 8 });
    default:
      return s('g', {});
  }
}

/** The Wind or the Song: an arrow in a disc, with its name, at (x, y) (top left). */
export function arrowPiece(a, x, y) {
  const r = 26;
  return s('g', { class: `direction ${a.kind}`, 'data-direction-of': a.kind, 'data-direction': a.direction, transform: `translate(${x + r + 6},${y + r})` },
    s('circle', { class: 'disc', r }),
    s('g', { transform: `rotate(${DIRECTION_ANGLES[a.direction] || 0})` },
      s('path', { class: 'arrow', d: 'M 0 18 L 0 -14 M -8 -6 L 0 -18 L 8 -6' })),
    s('text', { class: 'direction-label', y: r + 16, 'text-anchor': 'middle' }, `${a.label} ${t(`direction.${a.direction}`)}`));
}
