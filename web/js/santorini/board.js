// The board as SVG: towers, domes, workers by side, the squares the player may click, the
// last turn's move and builds, and a short animation of the steps just played. Cells carry
// data-square/data-height/data-dome(/data-tokens/data-charmed) for tests, workers
// data-side/data-worker/data-female/data-charmed. Pieces are drawn by pieces.js, the powers'
// tokens by tokens.js; styles are css/board.css.
import { s, on } from '../dom.js';
import { squareName } from './steps.js';
import { CELL, SIDE_COLORS, block, levelBadge, dome, workerPiece, targetMark } from './pieces.js';
import { ARROW_MARGIN, tokensOf, tokenPiece, arrowPiece } from './tokens.js';
import { t } from '../i18n/index.js';

export { SIDE_COLORS };

/** The centre of `square` in board units. */
function centre(square) {
  const file = square.toUpperCase().charCodeAt(0) - 65;
  const rank = Number(square[1]);
  return { x: file * CELL + CELL / 2, y: (5 - rank) * CELL + CELL / 2 };
}

/** `view`: a match view; `marks`: {sources:Set, targets:Set, targetKinds:Map(square->kind),
 *  selected, last:Set, lastTurn:{moves:[{from,to,kind}], builds:Set}, fresh:{moves:[{from,to}],
 *  builds:Set}} (`fresh`: the steps to animate, played since the board was last drawn);
 *  `onSquare(square)` is called on clicks when given. */
export function renderBoard(view, marks = {}, onSquare = null) {
  const state = view.state;
  const tokens = tokensOf(state);
  const svg = s('svg', {
    viewBox: `-14 -4 ${CELL * 5 + 18 + (tokens.arrows.length ? ARROW_MARGIN : 0)} ${CELL * 5 + 22}`,
    class: 'board',
    // A group, not an image: its playable squares are buttons a screen reader must reach.
    role: 'group',
    'aria-label': t('board.label'),
  });
  // The squares' clicks and keys are the board's own handlers, not each square's: a square
  // without handlers of its own is kept as it is by a redraw that draws it alike (dom.js
  // morph compares it in the browser's code), so a step patches the few squares it changed.
  if (onSquare) {
    const squareOf = (e, playable) => {
      const g = e.target.closest?.(playable ? '.cell[tabindex]' : '.cell');
      return g && e.currentTarget.contains(g) ? g.dataset.square : null;
    };
    on(svg, 'click', (e) => {
      const square = squareOf(e, false);
      if (square) onSquare(square);
    });
    on(svg, 'keydown', (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      const square = squareOf(e, true);
      if (!square) return;
      e.preventDefault();
      onSquare(square);
    });
  }
  const workersAt = new Map();
  for (const w of state.workers || []) if (w.square) workersAt.set(w.square.toUpperCase(), w);
  // Adonis' charmed worker: it must end its owner's next turn next to one of his.
  const charmed = new Set((state.cards || []).map((c) => c.charmed).filter((id) => id !== null && id !== undefined));
  const built = marks.lastTurn?.builds || new Set();
  const freshBuilds = marks.fresh?.builds || new Set();
  const arrivals = new Map((marks.fresh?.moves || []).map((m) => [m.to.toUpperCase(), m.from.toUpperCase()]));

  for (let i = 0; i < 25; i++) {
    const square = squareName(i);
    const { x: cx, y: cy } = centre(square);
    const cell = String(state.board[i] || '0');
    const height = Number(cell[0]);
    const domed = cell.includes('D');
    const classes = ['cell'];
    if (marks.sources && marks.sources.has(square)) classes.push('source');
    if (marks.targets && marks.targets.has(square)) classes.push('target');
    if (marks.selected === square) classes.push('selected');
    if (marks.last && marks.last.has(square)) classes.push('last');
    const g = s('g', {
      class: classes.join(' '),
      'data-square': square,
      'data-height': height,
      'data-dome': domed ? 1 : 0,
      transform: `translate(${cx - CELL / 2},${cy - CELL / 2})`,
    });
    if (onSquare && (classes.includes('source') || classes.includes('target') || classes.includes('selected'))) {
      // Playable squares are focusable and answer Enter/Space as well as clicks (the board's
      // handlers above).
      g.setAttribute('tabindex', '0');
      g.setAttribute('role', 'button');
      g.setAttribute('aria-label', `${t('board.square', { square, height })}${domed ? t('board.dome') : ''}${classes.includes('target') ? t('board.playable') : ''}`);
    }
    g.append(s('rect', { class: 'ground', x: 2, y: 2, width: CELL - 4, height: CELL - 4, rx: 6 }));
    // The block or dome built last drops into place; a dome alone is the newest piece.
    const fresh = freshBuilds.has(square);
    for (let level = 1; level <= height; level++) g.append(block(level, fresh && !domed && level === height));
    if (built.has(square)) g.append(s('rect', { class: 'built-mark', x: 4, y: 4, width: CELL - 8, height: CELL - 8, rx: 6 }));
    if (domed) g.append(dome(height, fresh));
    const here = tokens.at.get(square) || [];
    if (here.length) g.setAttribute('data-tokens', here.join(' '));
    for (const kind of here) g.append(tokenPiece(kind));
    if (height > 0) g.append(levelBadge(height));
    const worker = workersAt.get(square);
    if (worker) {
      const isCharmed = charmed.has(worker.id);
      const from = arrivals.get(square);
      const slide = from ? { dx: centre(from).x - cx, dy: centre(from).y - cy } : null;
      g.append(workerPiece(worker, { 'data-side': worker.side, 'data-worker': worker.id, 'data-female': worker.female ? 1 : 0, 'data-charmed': isCharmed ? 1 : 0 }, slide));
      if (isCharmed) {
        g.setAttribute('data-charmed', 1);
        g.append(
          s('circle', { class: 'charm-ring', cx: CELL / 2, cy: CELL / 2, r: 27 }),
          s('text', { class: 'charm-mark', x: CELL - 16, y: 24, 'text-anchor': 'middle' }, '♥'),
        );
      }
    }
    if (state.fleece && state.fleece.ram && state.fleece.ram.toUpperCase() === square) {
      g.append(s('circle', { class: 'ram', cx: 20, cy: CELL - 20, r: 11 }), s('text', { class: 'ram-label', x: 20, y: CELL - 15, 'text-anchor': 'middle' }, 'R'));
    }
    if (classes.includes('target')) g.append(targetMark(marks.targetKinds?.get(square) || 'move'));
    svg.append(g);
  }
  // A sliding worker is drawn over the cells it crosses: its cell goes last.
  for (const sq of arrivals.keys()) {
    const cell = svg.querySelector(`.cell[data-square="${sq}"]`);
    if (cell) svg.append(cell);
  }
  if (marks.lastTurn?.moves?.length) svg.append(lastMoves(marks.lastTurn.moves));
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

/** The last turn's moves as arrows from square to square, over the cells (clicks pass
 *  through): a worker's own move solid, a power's force dashed. */
function lastMoves(moves) {
  const g = s('g', { class: 'last-turn', 'aria-hidden': 'true' });
  for (const m of moves) {
    const a = centre(m.from);
    const b = centre(m.to);
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    if (len < 1) continue;
    const ux = (b.x - a.x) / len;
    const uy = (b.y - a.y) / len;
    // From the edge of the old square's worker to just short of the new one's.
    const x1 = a.x + ux * 22;
    const y1 = a.y + uy * 22;
    const x2 = b.x - ux * 26;
    const y2 = b.y - uy * 26;
    const head = `${x2 + ux * 12},${y2 + uy * 12} ${x2 - uy * 8},${y2 + ux * 8} ${x2 + uy * 8},${y2 - ux * 8}`;
    g.append(
      s('g', { class: `last-move ${m.kind}`, 'data-from': m.from, 'data-to': m.to },
        s('circle', { class: 'last-from', cx: a.x, cy: a.y, r: 7 }),
        s('line', { x1, y1, x2, y2 }),
        s('polygon', { points: head })),
    );
  }
  return g;
}
