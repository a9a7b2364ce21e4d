// Santorini's history lines in words: "moved from D4 to E4", "placed a dome on C2", "chose
// Apollo". A line of `history` is the step's notation (docs/protocol.md "Steps", the column
// "Text in history"); a hidden worker's step (Hecate) reaches others as its kind alone, or a
// build with its square. The words need only the line and the powers of the seat that played it
// (they name its tokens and directions); the client still knows no rules.
import { powerName } from '../catalog.js';
import { tokenName, DIRECTIONS } from './steps.js';

const SQUARE = /^[A-E][1-5]$/i;

/** The step a history line describes, as far as the text says: {kind, from, to, female,
 *  first, power, seat, token, direction, worker}; squares upper case. */
export function parseLine(text) {
  const words = String(text).trim().split(/\s+/);
  const kind = words[0] === 'end' && words[1] === 'turn' ? 'end_turn' : words[0];
  const squares = words.slice(1).filter((w) => SQUARE.test(w)).map((w) => w.toUpperCase());
  const step = { kind };
  switch (kind) {
    case 'place':
      step.to = squares[0];
      step.female = words.includes('female');
      break;
    case 'move':
    case 'force':
    case 'remove':
    case 'capture':
    case 'build':
    case 'dome':
      // Two squares: the acting worker's, then the target; one: a hidden worker built there.
      if (squares.length >= 2) [step.from, step.to] = squares;
      else step.to = squares[0];
      step.first = words.includes('first');
      break;
    case 'offer':
    case 'choose':
      step.power = words[1];
      break;
    case 'start':
      step.kind = 'start_player';
      step.seat = words[1] ? words[1].toUpperCase().charCodeAt(0) - 65 : undefined;
      break;
    case 'token':
      step.to = squares[0];
      step.token = Number(words[2] || 0);
      break;
    case 'aim':
      step.direction = words[1];
      break;
    case 'select':
      step.worker = squares[0];
      break;
    default:
      break;
  }
  return step;
}

/** What the line says, in words, without its player: "moved from D4 to E4". `ctx`: {names
 *  (by seat), powers: the power keys of the seat that played it}. */
export function santoriniWords(text, ctx = {}) {
  const st = parseLine(text);
  const powers = ctx.powers || [];
  switch (st.kind) {
    case 'place':
      if (!st.to) return 'placed a hidden worker';
      return st.female ? `placed the female worker on ${st.to}` : `placed a worker on ${st.to}`;
    case 'move':
      if (!st.from) return 'moved a hidden worker';
      return `moved from ${st.from} to ${st.to}`;
    case 'build': {
      if (!st.to) return 'built';
      // Zeus builds under his own worker: the worker's square is the one built on.
      const under = st.from && st.from === st.to ? ' under their own worker' : '';
      return `built on ${st.to}${under}${st.first ? ' before moving' : ''}`;
    }
    case 'dome':
      if (!st.to) return 'built a dome';
      return `placed a dome on ${st.to}${st.first ? ' before moving' : ''}`;
    case 'force':
      if (!st.from) return 'forced a hidden worker';
      return `forced the worker on ${st.from} to ${st.to}`;
    case 'remove':
      if (!st.to) return 'removed a block';
      return `removed a block from ${st.to}`;
    case 'capture':
      if (!st.to) return 'captured a worker';
      return `captured the worker on ${st.to}`;
    case 'pass':
      return 'passed';
    case 'offer':
      return `offered ${powerName(st.power)}`;
    case 'choose':
      return `chose ${powerName(st.power)}`;
    case 'start_player': {
      const who = ctx.names?.[st.seat] || `seat ${String.fromCharCode(65 + (st.seat ?? 0))}`;
      return `named ${who} the start player`;
    }
    case 'token': {
      if (!st.to) return 'placed a secret token';
      const what = tokenName(st, powers);
      return what === 'the Fate' ? `chose the Fate from ${st.to}` : `placed ${what} on ${st.to}`;
    }
    case 'aim': {
      const d = DIRECTIONS.find((x) => x.name === st.direction);
      const what = powers.includes('Siren') ? 'the Song' : powers.includes('Aeolus') ? 'the Wind' : 'a direction';
      return `aimed ${what} ${st.direction}${d ? ` ${d.arrow}` : ''}`;
    }
    case 'select':
      return powers.includes('Adonis') ? `charmed the worker on ${st.worker}` : `selected the worker on ${st.worker}`;
    case 'undo':
      return 'took back a step';
    case 'end_turn':
      return 'ended the turn';
    default:
      return `played ${text}`;
  }
}
