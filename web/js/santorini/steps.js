// Steps as the server sends them in `legal` (protocol/schema/step.json): their text, a label
// for buttons, and where they touch the board. The client knows no rules beyond this.
import { powerName } from '../catalog.js';

export const seatLetter = (seat) => String.fromCharCode(65 + seat);

/** The same text the server writes into `history`. */
export function stepText(step) {
  switch (step.kind) {
    case 'place':
      return `place ${step.to}${step.female ? ' female' : ''}`;
    case 'move':
    case 'force':
    case 'remove':
    case 'capture':
      return `${step.kind} ${step.from} ${step.to}`;
    case 'build':
    case 'dome':
      // Prometheus builds (a dome, on a level-3 square) before moving: "first", as the log says.
      return `${step.kind} ${step.from} ${step.to}${step.before_move ? ' first' : ''}`;
    case 'pass':
      return 'pass';
    case 'offer':
    case 'choose':
      return `${step.kind} ${step.power}`;
    case 'start_player':
      return `start ${seatLetter(step.seat)}`;
    case 'token':
      // As the server writes it: the square, then the token's kind unless it is the Ram (0).
      return `token ${step.to}${step.token > 0 ? ` ${step.token}` : ''}`;
    case 'aim':
      return `aim ${step.direction}`;
    case 'select':
      return `select ${step.worker}`;
    case 'undo':
      return 'undo';
    case 'end_turn':
      return 'end turn';
    case 'resign':
    case 'timeout':
    case 'abort':
      // The server's own records in a replay.
      return step.kind;
    default:
      return JSON.stringify(step);
  }
}

/** The steps that take back or close a turn (docs/protocol.md "Taking back a step"): the
 *  match screen offers them as its own buttons, in both games. */
export const TURN_KINDS = new Set(['undo', 'end_turn']);

/** The directions of `aim` steps, from north (towards rank 5) clockwise, with their arrows
 *  and their unit steps on the board (file, rank). */
export const DIRECTIONS = [
  { name: 'N', arrow: '↑', df: 0, dr: 1 },
  { name: 'NE', arrow: '↗', df: 1, dr: 1 },
  { name: 'E', arrow: '→', df: 1, dr: 0 },
  { name: 'SE', arrow: '↘', df: 1, dr: -1 },
  { name: 'S', arrow: '↓', df: 0, dr: -1 },
  { name: 'SW', arrow: '↙', df: -1, dr: -1 },
  { name: 'W', arrow: '←', df: -1, dr: 0 },
  { name: 'NW', arrow: '↖', df: -1, dr: 1 },
];

/** What a power's `token` steps place, by the power (the Ram, token 0, is the Fleece's). */
const TOKEN_NAMES = { Charybdis: 'a Whirlpool', Clio: 'a Coin', EuropaTalus: 'Talus', Moerae: 'the Fate', Tartarus: 'the Abyss' };

/** The name of what a `token` step places, given the powers of the seat that plays it. */
export function tokenName(step, powers = []) {
  if (!step.token) return 'the Ram';
  const power = powers.find((p) => TOKEN_NAMES[p]);
  return power ? TOKEN_NAMES[power] : `token ${step.token}`;
}

/** A short label for a button that plays `step`; `names[seat]` names players, `powers` are
 *  those of the seat that plays it (they name its tokens). */
export function stepLabel(step, names = [], powers = []) {
  switch (step.kind) {
    case 'place':
      return step.female ? `Place the female worker on ${step.to}` : `Place a worker on ${step.to}`;
    case 'move':
      return `Move ${step.from} → ${step.to}`;
    case 'build':
      return step.before_move ? `Build on ${step.to} before moving` : `Build a block on ${step.to}`;
    case 'dome':
      return `Build a dome on ${step.to}`;
    case 'force':
      return `Force the worker on ${step.from} to ${step.to}`;
    case 'remove':
      return `Remove a block from ${step.to}`;
    case 'capture':
      return `Capture the worker on ${step.to}`;
    case 'pass':
      return 'Pass (skip the optional step)';
    case 'offer':
      return `Offer ${powerName(step.power)}`;
    case 'choose':
      return `Choose ${powerName(step.power)}`;
    case 'start_player':
      return `${names[step.seat] || `Seat ${seatLetter(step.seat)}`} starts`;
    case 'token': {
      const what = tokenName(step, powers);
      if (what === 'the Fate') return `Choose the Fate from ${step.to}`;
      return step.from ? `Move ${what} from ${step.from} to ${step.to}` : `Place ${what} on ${step.to}`;
    }
    case 'aim':
      return `Aim ${step.direction} ${DIRECTIONS.find((d) => d.name === step.direction)?.arrow || ''}`.trim();
    case 'select':
      // Adonis is the hero who selects: the worker he charms.
      return powers.includes('Adonis') ? `Charm the worker on ${step.worker}` : `Select the worker on ${step.worker}`;
    case 'undo':
      return 'Undo';
    case 'end_turn':
      return 'End turn';
    default:
      return stepText(step);
  }
}

/** The board square a step is played on (clicked last), or null for steps without one. */
export function targetOf(step) {
  if (step.kind === 'select') return step.worker;
  return step.to || null;
}

/** The square clicked first (the acting worker), or null when the target alone decides. */
export function sourceOf(step) {
  if (step.kind === 'token') return null;
  return step.from || null;
}

export const sameStep = (a, b) => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));

function sortKeys(o) {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Board index of a square name (A1 = 0, B1 = 1, …, E5 = 24). */
export function squareIndex(square) {
  const file = square.toUpperCase().charCodeAt(0) - 65;
  const rank = Number(square[1]) - 1;
  return rank * 5 + file;
}

export function squareName(index) {
  return `${String.fromCharCode(65 + (index % 5))}${Math.floor(index / 5) + 1}`;
}

/** Phrase for what the deciding seat is asked to do, from the kinds on offer. */
export function prompt(legal) {
  const kinds = new Set(legal.map((st) => st.kind));
  if (kinds.has('end_turn')) return 'Confirm your turn or undo';
  const parts = [];
  if (kinds.has('offer')) parts.push('offer a power');
  if (kinds.has('choose')) parts.push('choose your power');
  if (kinds.has('start_player')) parts.push('name the start player');
  if (kinds.has('place')) parts.push('place a worker');
  if (kinds.has('token')) parts.push('place the token');
  if (kinds.has('move')) parts.push('move a worker');
  if (kinds.has('build') || kinds.has('dome')) parts.push('build');
  if (kinds.has('force')) parts.push('force a worker');
  if (kinds.has('remove')) parts.push('remove a block');
  if (kinds.has('capture')) parts.push('capture');
  if (kinds.has('aim')) parts.push('choose a direction');
  if (kinds.has('select')) parts.push('select a worker');
  let text = parts.join(' or ');
  if (kinds.has('pass')) text += text ? ', or pass' : 'pass';
  return text ? text[0].toUpperCase() + text.slice(1) : '';
}
