// Steps as the server sends them in `legal` (protocol/schema/step.json): their text, a label
// for buttons, and where they touch the board. The client knows no rules beyond this.
import { powerName } from './powers.js';

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
      return `token ${step.from ? `${step.from} ` : ''}${step.to}`;
    case 'aim':
      return `aim ${step.direction}`;
    case 'select':
      return `select ${step.worker}`;
    default:
      return JSON.stringify(step);
  }
}

/** A short label for a button that plays `step`; `names[seat]` names players. */
export function stepLabel(step, names = []) {
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
    case 'token':
      return step.token === 0 ? `Place the Ram on ${step.to}` : `Place token ${step.token} on ${step.to}`;
    case 'aim':
      return `Aim ${step.direction}`;
    case 'select':
      return `Select the worker on ${step.worker}`;
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
  if (kinds.has('aim')) parts.push('aim');
  if (kinds.has('select')) parts.push('select a worker');
  let text = parts.join(' or ');
  if (kinds.has('pass')) text += text ? ', or pass' : 'pass';
  return text ? text[0].toUpperCase() + text.slice(1) : '';
}
