// Splendor's vocabulary as the protocol writes it (docs/protocol.md "Splendor"): the five gem
// colours in their fixed order, then gold, and how each is drawn and named.
import { t } from '../i18n/index.js';

/** The five colours a card costs or gives, in the protocol's order. */
export const COLOURS = ['white', 'blue', 'green', 'red', 'black'];
/** Every kind of token: the colours, then gold (the joker). */
export const TOKENS = [...COLOURS, 'gold'];

/** The name of a gem by its colour word, in the current language ('gem.<colour>'), for
 *  `count` of them (English keeps the singular: "2 ruby"). */
export const gemName = (colour, count = 1) => (TOKENS.includes(colour) ? t(`gem.${colour}`, { count }) : colour);

/** Every form of every gem name in the current language -> its colour (to draw them in colour). */
export function gemNameForms() {
  const forms = new Map();
  for (const colour of TOKENS) for (const n of [1, 2, 5]) forms.set(gemName(colour, n), colour);
  return forms;
}

export const LEVEL_NUMERALS = ['', 'I', 'II', 'III'];

/** The total of a token or colour count object. */
export const total = (counts) => Object.values(counts || {}).reduce((a, b) => a + b, 0);

/** "blue 2 gold 1": the non-zero counts in the protocol's order, as the log writes a payment. */
export function countsText(counts, kinds = TOKENS) {
  return kinds
    .filter((k) => counts && counts[k] > 0)
    .map((k) => `${k} ${counts[k]}`)
    .join(' ');
}
