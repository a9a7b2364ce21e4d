// Steps as the server sends them in `legal` (protocol/schema/step.json): their text, a label
// for buttons, and where they touch the board. The client knows no rules beyond this.
import { powerName } from '../catalog.js';
import { t } from '../i18n/index.js';

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
const TOKEN_KINDS = { Charybdis: 'whirlpool', Clio: 'coin', EuropaTalus: 'talus', Moerae: 'fate', Tartarus: 'abyss' };

/** What a `token` step places ('whirlpool', 'coin', 'talus', 'fate', 'abyss', 'ram'), given
 *  the powers of the seat that plays it; null for a token no power here names. */
export function tokenKind(step, powers = []) {
  if (!step.token) return 'ram';
  const power = powers.find((p) => TOKEN_KINDS[p]);
  return power ? TOKEN_KINDS[power] : null;
}

/** The name of what a `token` step places ("a Whirlpool", "the Ram"). */
export function tokenName(step, powers = []) {
  const kind = tokenKind(step, powers);
  return kind ? t(`token.${kind}`) : t('token.other', { n: step.token });
}

/** A `token` step's action without its squares ("Place a Whirlpool", "Choose the Fate"). */
export function tokenAction(step, powers = []) {
  if (tokenKind(step, powers) === 'fate') return t('step.fateShort');
  return t(step.from ? 'step.tokenMoveShort' : 'step.tokenPlaceShort', { what: tokenName(step, powers) });
}

/** A short label for a button that plays `step`; `names[seat]` names players, `powers` are
 *  those of the seat that plays it (they name its tokens). */
export function stepLabel(step, names = [], powers = []) {
  switch (step.kind) {
    case 'place':
      return t(step.female ? 'step.placeFemale' : 'step.place', { to: step.to });
    case 'move':
      return t('step.move', { from: step.from, to: step.to });
    case 'build':
      return t(step.before_move ? 'step.buildFirst' : 'step.build', { to: step.to });
    case 'dome':
      return t('step.dome', { to: step.to });
    case 'force':
      return t('step.force', { from: step.from, to: step.to });
    case 'remove':
      return t('step.remove', { to: step.to });
    case 'capture':
      return t('step.capture', { to: step.to });
    case 'pass':
      return t('step.pass');
    case 'offer':
      return t('step.offer', { power: powerName(step.power) });
    case 'choose':
      return t('step.choose', { power: powerName(step.power) });
    case 'start_player':
      return t('step.starts', { name: names[step.seat] || t('step.seat', { letter: seatLetter(step.seat) }) });
    case 'token': {
      const what = tokenName(step, powers);
      if (tokenKind(step, powers) === 'fate') return t('step.fate', { to: step.to });
      return step.from ? t('step.tokenMove', { what, from: step.from, to: step.to }) : t('step.tokenPlace', { what, to: step.to });
    }
    case 'aim':
      return `${t('step.aim', { direction: t(`direction.${step.direction}`) })} ${DIRECTIONS.find((d) => d.name === step.direction)?.arrow || ''}`.trim();
    case 'select':
      // Adonis is the hero who selects: the worker he charms.
      return t(powers.includes('Adonis') ? 'step.charm' : 'step.select', { worker: step.worker });
    case 'undo':
      return t('game.undo');
    case 'end_turn':
      return t('game.endTurn');
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
  if (kinds.has('end_turn')) return t('prompt.confirm');
  const parts = [];
  for (const kind of ['offer', 'choose', 'start_player', 'place', 'token', 'move', 'build', 'force', 'remove', 'capture', 'aim', 'select']) {
    if (kinds.has(kind) || (kind === 'build' && kinds.has('dome'))) parts.push(t(`prompt.${kind}`));
  }
  let text = parts.join(t('prompt.or'));
  if (kinds.has('pass')) text += text ? t('prompt.orPass') : t('prompt.pass');
  return text ? text[0].toUpperCase() + text.slice(1) : '';
}
