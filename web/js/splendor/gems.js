// Splendor's vocabulary as the protocol writes it (docs/protocol.md "Splendor"): the five gem
// colours in their fixed order, then gold, and how each is drawn.

/** The five colours a card costs or gives, in the protocol's order. */
export const COLOURS = ['white', 'blue', 'green', 'red', 'black'];
/** Every kind of token: the colours, then gold (the joker). */
export const TOKENS = [...COLOURS, 'gold'];

/** Display names: the gems of the game, by their colour words. */
export const GEM_NAMES = { white: 'diamond', blue: 'sapphire', green: 'emerald', red: 'ruby', black: 'onyx', gold: 'gold' };

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
