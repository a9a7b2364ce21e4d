// Splendor's steps as they appear in `legal` (docs/protocol.md "Splendor", Steps): their text,
// the labels of the buttons that play them, and the questions the table asks of the legal
// list (which gems may still be added to a pick, what a card or deck offers). The client knows
// no rules: every answer here is read off the steps the server listed.
import { COLOURS, countsText } from './gems.js';
import { t } from '../i18n/index.js';

/** A step in words, as near to the server's history line as the step alone allows. */
export function stepText(step) {
  switch (step.kind) {
    case 'take':
      return `take ${step.gems.join(' ')}`;
    case 'reserve':
      return step.card !== undefined ? `reserve #${step.card}` : `reserve from the level ${step.level} deck`;
    case 'buy':
      return `buy #${step.card}${countsText(step.pay) ? ` for ${countsText(step.pay)}` : ' for nothing'}`;
    case 'return':
      return `return ${step.gem}`;
    case 'noble':
      return `noble #${step.noble}`;
    case 'pass':
      return 'pass';
    case 'resign':
    case 'timeout':
    case 'abort':
    case 'undo':
      return step.kind;
    case 'end_turn':
      return 'end turn';
    default:
      return JSON.stringify(step);
  }
}

/** Counts of each colour in a list of gem words. */
const countOf = (gems) => {
  const n = {};
  for (const g of gems) n[g] = (n[g] || 0) + 1;
  return n;
};

/** True when the multiset `pick` is contained in the multiset `gems`. */
const within = (pick, gems) => {
  const have = countOf(gems);
  const want = countOf(pick);
  return Object.entries(want).every(([g, k]) => (have[g] || 0) >= k);
};

/** The legal takes. */
export const takes = (legal) => legal.filter((s) => s.kind === 'take');

/** The colours that may be added to `pick` so that it still leads to a legal take. */
export function addable(legal, pick) {
  const out = new Set();
  for (const t of takes(legal)) {
    for (const g of COLOURS) if (within([...pick, g], t.gems)) out.add(g);
  }
  return out;
}

/** The legal take that is exactly `pick` (in any order), or null. */
export function takeFor(legal, pick) {
  const sorted = [...pick].sort((a, b) => COLOURS.indexOf(a) - COLOURS.indexOf(b)).join(' ');
  return takes(legal).find((t) => t.gems.join(' ') === sorted) || null;
}

/** What a face-up or reserved card offers: {reserve: step|null, buys: [steps]}. */
export function cardSteps(legal, cardId) {
  return {
    reserve: legal.find((s) => s.kind === 'reserve' && s.card === cardId) || null,
    buys: legal.filter((s) => s.kind === 'buy' && s.card === cardId),
  };
}

/** The blind reserve from the deck of `level`, or null. */
export const deckStep = (legal, level) => legal.find((s) => s.kind === 'reserve' && s.level === level) || null;

/** The return step of a token kind, or null. */
export const returnStep = (legal, gem) => legal.find((s) => s.kind === 'return' && s.gem === gem) || null;

/** The noble step of a noble, or null. */
export const nobleStep = (legal, id) => legal.find((s) => s.kind === 'noble' && s.noble === id) || null;

/** What the deciding seat is asked to do, in a sentence. */
export function prompt(all, phase) {
  if (phase === 'confirm' || all.some((s) => s.kind === 'end_turn')) return t('prompt.confirm');
  // Undo has its own button (screens/game.js): the sentence is about the rest.
  const legal = all.filter((s) => s.kind !== 'undo');
  if (legal.length === 1 && legal[0].kind === 'pass') return t('splendor.prompt.mustPass');
  if (phase === 'return') return t('splendor.prompt.return');
  if (phase === 'noble') return t('splendor.prompt.noble');
  const kinds = new Set(legal.map((s) => s.kind));
  const parts = [];
  if (kinds.has('take')) parts.push(t('splendor.prompt.take'));
  if (kinds.has('buy')) parts.push(t('splendor.prompt.buy'));
  if (kinds.has('reserve')) parts.push(t('splendor.prompt.reserve'));
  const text = parts.length > 1 ? `${parts.slice(0, -1).join(', ')}${t('prompt.or')}${parts[parts.length - 1]}` : parts.join('');
  return text ? t('splendor.prompt.yourTurn', { text }) : t('game.yourTurn');
}
