// The pieces drawn inside one board cell (CELL x CELL user units): the blocks of a tower, the
// dome, a worker and the marks on a playable square. Their looks follow what players read at a
// glance on a physical board (styles in css/board.css):
// - a tower is stacked blocks of three distinct sizes, level 1 the largest, with its number;
// - a dome is a half-disc in the board's neutral stone colour, never a disc in a side's colour,
//   so it cannot be taken for a worker (workers are full shapes in their side's colour);
// - each side's workers have their own shape as well as their colour and letter, for players
//   who do not tell the colours apart.
import { s } from '../dom.js';

export const CELL = 100;
const C = CELL / 2;

export const SIDE_COLORS = ['#2f6fd6', '#d64b3a', '#2e9e5b', '#b5831a'];
/** The worker shape of each side, in order: what a colour-blind player tells the sides by. */
export const SIDE_SHAPES = ['circle', 'square', 'diamond', 'hexagon'];

/** Inset of each level's block from the cell's edge: three sizes, level 1 the largest. */
const BLOCK_INSET = [0, 10, 20, 30];
/** How far each block's lower face shows below it: the stack reads as built up. */
const THICKNESS = 5;

/** The block of `level` (1-3); `fresh`: it was just built (it drops into place). */
export function block(level, fresh = false) {
  const i = BLOCK_INSET[level];
  const size = CELL - 2 * i;
  return s(
    'g',
    { class: `block level${level}${fresh ? ' fresh' : ''}` },
    s('rect', { class: 'block-side', x: i, y: i + THICKNESS, width: size, height: size - THICKNESS, rx: 5 }),
    s('rect', { class: `level level${level}`, x: i, y: i, width: size, height: size - THICKNESS, rx: 5 }),
  );
}

/** The height as a number in a badge at the top left, readable from afar. */
export function levelBadge(height) {
  return s('g', { class: 'level-badge', 'aria-hidden': 'true' },
    s('circle', { cx: 15, cy: 15, r: 11 }),
    s('text', { class: 'height-label', x: 15, y: 20, 'text-anchor': 'middle' }, String(height)));
}

/** A dome on top of a tower of `height` (Atlas' and Polyphemus' domes stand lower): a half-disc
 *  sized to the block below it, in the board's stone colour. */
export function dome(height, fresh = false) {
  const r = height >= 3 ? 18 : height === 2 ? 24 : 28;
  const base = C + r * 0.45;
  return s(
    'g',
    { class: `dome-piece${fresh ? ' fresh' : ''}` },
    s('path', { class: 'dome', d: `M ${C - r} ${base} A ${r} ${r} 0 0 1 ${C + r} ${base} Z` }),
    s('rect', { class: 'dome-band', x: C - r - 2, y: base - 1, width: 2 * r + 4, height: 5, rx: 2 }),
    s('path', { class: 'dome-shine', d: `M ${C - r * 0.6} ${base - r * 0.45} A ${r * 0.7} ${r * 0.7} 0 0 1 ${C - r * 0.05} ${base - r * 0.85}` }),
  );
}

/** The outline of a worker of `side`: its side's own shape, about 38 units across. */
function workerShape(side, attrs) {
  const r = 19;
  switch (SIDE_SHAPES[side % SIDE_SHAPES.length]) {
    case 'square':
      return s('rect', { ...attrs, x: C - 17, y: C - 17, width: 34, height: 34, rx: 4 });
    case 'diamond':
      return s('polygon', { ...attrs, points: `${C},${C - 22} ${C + 22},${C} ${C},${C + 22} ${C - 22},${C}` });
    case 'hexagon': {
      const pts = Array.from({ length: 6 }, (_, k) => {
        const a = (Math.PI / 3) * k;
        return `${(C + 21 * Math.cos(a)).toFixed(1)},${(C + 21 * Math.sin(a)).toFixed(1)}`;
      });
      return s('polygon', { ...attrs, points: pts.join(' ') });
    }
    default:
      return s('circle', { ...attrs, cx: C, cy: C, r });
  }
}

/** A worker: its shape in its side's colour, with the side's letter. `data` holds the
 *  data-* attributes tests and styles read; `slide` {dx, dy}: it just arrived from that far. */
export function workerPiece(worker, data, slide = null) {
  const color = SIDE_COLORS[worker.side % SIDE_COLORS.length];
  const piece = s('g', { class: `piece side${worker.side % SIDE_COLORS.length}${slide ? ' arrived' : ''}` });
  if (slide) piece.setAttribute('style', `--dx:${slide.dx}px;--dy:${slide.dy}px`);
  piece.append(
    workerShape(worker.side, { class: 'worker', fill: color, 'data-shape': SIDE_SHAPES[worker.side % SIDE_SHAPES.length], ...data }),
    s('text', { class: 'worker-label', x: C, y: C + 6, 'text-anchor': 'middle' }, `${String.fromCharCode(65 + worker.side)}${worker.female ? '♀' : ''}`),
  );
  return piece;
}

/** What playing on a target square does, for its mark: a plain move or build, or a power's
 *  special step (a swap or push onto a worker, a force, a removal, a capture, a token...). */
export function targetKind(steps, workerOn) {
  const kinds = new Set(steps.map((st) => (st.kind === 'move' && workerOn(st.to) ? 'displace' : st.kind)));
  for (const k of ['capture', 'remove', 'force', 'displace', 'select', 'token']) if (kinds.has(k)) return k;
  if (kinds.has('dome') && !kinds.has('build')) return 'dome';
  if (kinds.has('build')) return 'build';
  return kinds.has('place') ? 'place' : 'move';
}

const TARGET_SIGNS = { capture: '✕', remove: '−', force: '➜', displace: '⇄', select: '♥', token: '◆' };

/** The mark on a square the player may play: a dot for a move or placement, a small block
 *  for a build, a small dome outline for a dome, a ring with a sign for a power's own step. */
export function targetMark(kind) {
  if (TARGET_SIGNS[kind]) {
    // A ring around whatever stands there (the worker swapped, pushed or captured stays
    // visible) and the step's sign in a corner badge.
    return s('g', { class: 'target-special', 'data-target-kind': kind },
      s('circle', { class: 'target-ring', cx: C, cy: C, r: 29 }),
      s('circle', { class: 'target-sign', cx: CELL - 17, cy: CELL - 17, r: 12 }),
      s('text', { x: CELL - 17, y: CELL - 12, 'text-anchor': 'middle' }, TARGET_SIGNS[kind]));
  }
  if (kind === 'build') return s('rect', { class: 'target-dot target-build', 'data-target-kind': kind, x: C - 9, y: C - 9, width: 18, height: 18, rx: 3 });
  if (kind === 'dome') return s('path', { class: 'target-dot target-dome', 'data-target-kind': kind, d: `M ${C - 11} ${C + 5} A 11 11 0 0 1 ${C + 11} ${C + 5} Z` });
  return s('circle', { class: 'target-dot', 'data-target-kind': kind, cx: C, cy: C, r: 9 });
}
