// Santorini's history lines in words: "moved from D4 to E4", "placed a dome on C2", "chose
// Apollo". A line of `history` is the step's notation (docs/protocol.md "Steps", the column
// "Text in history"); a hidden worker's step (Hecate) reaches others as its kind alone, or a
// build with its square. The words need only the line and the powers of the seat that played it
// (they name its tokens and directions); the client still knows no rules.
import { powerName } from '../catalog.js';
import { tokenName, tokenKind, DIRECTIONS } from './steps.js';
import { t } from '../i18n/index.js';

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
  const first = st.first ? 'First' : '';
  switch (st.kind) {
    case 'place':
      if (!st.to) return t('log.placeHidden');
      return t(st.female ? 'log.placeFemale' : 'log.place', { to: st.to });
    case 'move':
      if (!st.from) return t('log.moveHidden');
      return t('log.move', { from: st.from, to: st.to });
    case 'build':
      if (!st.to) return t('log.buildHidden');
      // Zeus builds under his own worker: the worker's square is the one built on.
      return t(st.from && st.from === st.to ? `log.buildUnder${first}` : `log.build${first}`, { to: st.to });
    case 'dome':
      if (!st.to) return t('log.domeHidden');
      return t(`log.dome${first}`, { to: st.to });
    case 'force':
      if (!st.from) return t('log.forceHidden');
      return t('log.force', { from: st.from, to: st.to });
    case 'remove':
      if (!st.to) return t('log.removeHidden');
      return t('log.remove', { to: st.to });
    case 'capture':
      if (!st.to) return t('log.captureHidden');
      return t('log.capture', { to: st.to });
    case 'pass':
      return t('log.pass');
    case 'offer':
      return t('log.offer', { power: powerName(st.power) });
    case 'choose':
      return t('log.choose', { power: powerName(st.power) });
    case 'start_player': {
      const who = ctx.names?.[st.seat] || t('log.seat', { letter: String.fromCharCode(65 + (st.seat ?? 0)) });
      return t('log.startPlayer', { name: who });
    }
    case 'token': {
      if (!st.to) return t('log.tokenHidden');
      if (tokenKind(st, powers) === 'fate') return t('log.fate', { to: st.to });
      return t('log.token', { what: tokenName(st, powers), to: st.to });
    }
    case 'aim': {
      const d = DIRECTIONS.find((x) => x.name === st.direction);
      const what = powers.includes('Siren') ? t('log.aim.song') : powers.includes('Aeolus') ? t('log.aim.wind') : t('log.aim.direction');
      const direction = d ? t(`direction.${st.direction}`) : st.direction;
      return `${t('log.aim', { what, direction })}${d ? ` ${d.arrow}` : ''}`;
    }
    case 'select':
      return t(powers.includes('Adonis') ? 'log.charm' : 'log.select', { worker: st.worker });
    case 'undo':
      return t('log.undo');
    case 'end_turn':
      return t('log.endTurn');
    default:
      return t('log.played', { text });
  }
}
