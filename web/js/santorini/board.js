// The board as SVG: heights as stacked squares, domes, workers by side, and the squares the
// player may click highlighted. Cells carry data-square/data-height/data-dome for tests, workers
// data-side/data-worker/data-female.
import { s } from '../dom.js';
import { squareName } from './steps.js';

export const SIDE_COLORS = ['#2f6fd6', '#d64b3a', '#2e9e5b', '#b5831a'];
const CELL = 100;

/** `view`: a match view; `marks`: {sources:Set, targets:Set, selected, last:Set};
 *  `onSquare(square)` is called on clicks when given. */
export function renderBoard(view, marks = {}, onSquare = null) {
  const state = view.state;
  const tokens = tokensOf(state);
  const svg = s('svg', {
    viewBox: `-14 -4 ${CELL * 5 + 18 + (tokens.arrows.length ? ARROW_MARGIN : 0)} ${CELL * 5 + 22}`,
    class: 'board',
    role: 'img',
    'aria-label': 'Santorini board',
  });
  const workersAt = new Map();
  for (const w of state.workers || []) if (w.square) workersAt.set(w.square.toUpperCase(), w);
  // Adonis' charmed worker: it must end its owner's next turn next to one of his.
  const charmed = new Set((state.cards || []).map((c) => c.charmed).filter((id) => id !== null && id !== undefined));

  for (let i = 0; i < 25; i++) {
    const square = squareName(i);
    const file = i % 5;
    const row = 4 - Math.floor(i / 5); // rank 5 at the top
    const x = file * CELL;
    const y = row * CELL;
    const cell = String(state.board[i] || '0');
    const height = Number(cell[0]);
    const dome = cell.includes('D');
    const classes = ['cell'];
    if (marks.sources && marks.sources.has(square)) classes.push('source');
    if (marks.targets && marks.targets.has(square)) classes.push('target');
    if (marks.selected === square) classes.push('selected');
    if (marks.last && marks.last.has(square)) classes.push('last');
    const g = s('g', {
      class: classes.join(' '),
      'data-square': square,
      'data-height': height,
      'data-dome': dome ? 1 : 0,
      transform: `translate(${x},${y})`,
    });
    if (onSquare && (classes.includes('source') || classes.includes('target') || classes.includes('selected'))) {
      // Playable squares are focusable and answer Enter/Space as well as clicks.
      g.setAttribute('tabindex', '0');
      g.setAttribute('role', 'button');
      g.setAttribute('aria-label', `${square}, height ${height}${dome ? ', dome' : ''}${classes.includes('target') ? ', playable' : ''}`);
      g.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onSquare(square);
        }
      });
    }
    if (onSquare) g.addEventListener('click', () => onSquare(square));
    g.append(s('rect', { class: 'ground', x: 2, y: 2, width: CELL - 4, height: CELL - 4, rx: 6 }));
    for (let level = 1; level <= height; level++) {
      const inset = 4 + level * 9;
      g.append(
        s('rect', {
          class: `level level${level}`,
          x: inset,
          y: inset,
          width: CELL - 2 * inset,
          height: CELL - 2 * inset,
          rx: 4,
        }),
      );
    }
    if (dome) g.append(s('circle', { class: 'dome', cx: CELL / 2, cy: CELL / 2, r: 26 }));
    const here = tokens.at.get(square) || [];
    if (here.length) g.setAttribute('data-tokens', here.join(' '));
    for (const kind of here) g.append(tokenPiece(kind));
    if (height > 0 && !dome) {
      g.append(s('text', { class: 'height-label', x: CELL - 10, y: 18, 'text-anchor': 'end' }, String(height)));
    }
    const worker = workersAt.get(square);
    if (worker) {
      const color = SIDE_COLORS[worker.side % SIDE_COLORS.length];
      g.append(
        s('circle', {
          class: 'worker',
          cx: CELL / 2,
          cy: CELL / 2,
          r: 19,
          fill: color,
          'data-side': worker.side,
          'data-worker': worker.id,
          'data-female': worker.female ? 1 : 0,
          'data-charmed': charmed.has(worker.id) ? 1 : 0,
        }),
      );
      if (charmed.has(worker.id)) {
        g.setAttribute('data-charmed', 1);
        g.append(
          s('circle', { class: 'charm-ring', cx: CELL / 2, cy: CELL / 2, r: 25 }),
          s('text', { class: 'charm-mark', x: 18, y: 26, 'text-anchor': 'middle' }, '♥'),
        );
      }
      g.append(
        s(
          'text',
          { class: 'worker-label', x: CELL / 2, y: CELL / 2 + 6, 'text-anchor': 'middle' },
          `${String.fromCharCode(65 + worker.side)}${worker.female ? '♀' : ''}`,
        ),
      );
    }
    if (state.fleece && state.fleece.ram && state.fleece.ram.toUpperCase() === square) {
      g.append(s('circle', { class: 'ram', cx: 20, cy: CELL - 20, r: 11 }), s('text', { class: 'ram-label', x: 20, y: CELL - 15, 'text-anchor': 'middle' }, 'R'));
    }
    if (classes.includes('target')) g.append(s('circle', { class: 'target-dot', cx: CELL / 2, cy: CELL / 2, r: 9 }));
    svg.append(g);
  }
  // The Wind and the Song: arrows beside the board.
  tokens.arrows.forEach((a, i) => svg.append(arrowPiece(a, CELL * 5 + 8, 14 + i * 96)));
  // Coordinates: files below, ranks on the left.
  for (let f = 0; f < 5; f++) {
    svg.append(s('text', { class: 'coord', x: f * CELL + CELL / 2, y: CELL * 5 + 15, 'text-anchor': 'middle' }, String.fromCharCode(65 + f)));
  }
  for (let r = 0; r < 5; r++) {
    svg.append(s('text', { class: 'coord', x: -8, y: (4 - r) * CELL + CELL / 2 + 5, 'text-anchor': 'middle' }, String(r + 1)));
  }
  return svg;
}

const ARROW_MARGIN = 74;
const DIRECTION_ANGLES = { N: 0, NE: 45, E: 90, SE: 135, S: 180, SW: 225, W: 270, NW: 315 };

/** The powers' tokens and marks the view shows, by square, and the directions to draw beside
 *  the board. Only what the server sent: the Fate and the Abyss reach their owner's view alone. */
function tokensOf(state) {
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
    if (card.wind) arrows.push({ kind: 'wind', label: 'Wind', direction: card.wind });
    if (card.song) arrows.push({ kind: 'song', label: 'Song', direction: card.song });
  }
  return { at, arrows };
}

/** One token drawn inside its cell (CELL x CELL). */
function tokenPiece(kind) {
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
        s('circle', { cx: c, cy: c, r: 36 }), s('text', { x: c, y: CELL - 8, 'text-anchor': 'middle' }, 'Abyss'));
    case 'fate':
      return s('rect', { class: 'token fate', 'data-token': kind, x: 6, y: 6, width: CELL - 12, height: CELL - 12, rx: 8 });
    default:
      return s('g', {});
  }
}

/** The Wind or the Song: an arrow in a disc, with its name, at (x, y) (top left). */
function arrowPiece(a, x, y) {
  const r = 26;
  return s('g', { class: `direction ${a.kind}`, 'data-direction-of': a.kind, 'data-direction': a.direction, transform: `translate(${x + r + 6},${y + r})` },
    s('circle', { class: 'disc', r }),
    s('g', { transform: `rotate(${DIRECTION_ANGLES[a.direction] || 0})` },
      s('path', { class: 'arrow', d: 'M 0 18 L 0 -14 M -8 -6 L 0 -18 L 8 -6' })),
    s('text', { class: 'direction-label', y: r + 16, 'text-anchor': 'middle' }, `${a.label} ${a.direction}`));
}
