// Splendor's history lines in words: "took 2 ruby", "bought a level 2 ruby card (#35, 1 point)
// for 3 sapphire and 2 gold". A line of `history` is the server's text (docs/protocol.md
// "Splendor", Steps: the column "Text in history", with "; noble #3 visits" when a noble came
// by itself); the words are read off it alone, gems named as the game names them (gems.js).
import { gemName } from './gems.js';
import { t, list } from '../i18n/index.js';

/** "2 ruby": a count of a gem, in the current language. */
const gems = (n, colour) => t('splendor.gems', { count: Number(n), n, gem: gemName(colour, Number(n)) });

/** "a, b and c". */
export const listWords = (parts) => list(parts);

/** `#12 (level 1 white, 0 points)` -> "a level 1 diamond card (#12, 0 points)". */
function cardWords(text) {
  const m = /#(\d+) \(level (\d) (\w+), (\d+) points?\)/.exec(text);
  if (!m) {
    const id = /#(\d+)/.exec(text);
    return id ? t('splendor.cardNumber', { id: id[1] }) : t('splendor.aCard');
  }
  const [, id, level, colour, points] = m;
  return t('splendor.cardWords', { level, gem: gemName(colour), id, points, count: Number(points) });
}

/** "blue 2 gold 1" -> "2 sapphire and 1 gold". */
function paidWords(text) {
  const words = text.trim().split(/\s+/);
  const parts = [];
  for (let i = 0; i + 1 < words.length; i += 2) parts.push(gems(words[i + 1], words[i]));
  return listWords(parts);
}

/** What one action says, without the noble that came after it. */
function actionWords(text) {
  const [kind] = text.split(' ');
  switch (kind) {
    case 'take': {
      const counts = new Map();
      for (const c of text.split(/\s+/).slice(1)) counts.set(c, (counts.get(c) || 0) + 1);
      return t('splendor.took', { gems: listWords([...counts].map(([c, n]) => gems(n, c))) });
    }
    case 'reserve': {
      const deck = /from the level (\d) deck/.exec(text);
      if (!text.includes('#')) return t('splendor.reservedHidden', { level: deck ? deck[1] : '?' });
      return t(deck ? 'splendor.reservedFromDeck' : 'splendor.reserved', { card: cardWords(text), level: deck?.[1] });
    }
    case 'buy': {
      const paid = / for (.*)$/.exec(text.replace(/\([^)]*\)/, ''));
      if (!paid || paid[1] === 'nothing') return t('splendor.boughtFree', { card: cardWords(text) });
      return t('splendor.bought', { card: cardWords(text), price: paidWords(paid[1]) });
    }
    case 'return':
      return t('splendor.returned', { gem: gemName(text.split(' ')[1]) });
    case 'noble':
      return t('splendor.noble', { id: text.split('#')[1] });
    case 'pass':
      return t('splendor.passed');
    case 'undo':
      return t('log.undo');
    case 'end':
      return t('log.endTurn');
    default:
      return t('log.played', { text });
  }
}

/** The whole line in words, without its player: the action, then any noble that visited. */
export function splendorWords(text) {
  const [action, ...rest] = String(text).split('; ');
  const nobles = rest.map((r) => /noble #(\d+) visits/.exec(r)).filter(Boolean).map((m) => t('splendor.nobleVisited', { id: m[1] }));
  return [actionWords(action), ...nobles].join('; ');
}
