// Splendor's history lines in words: "took 2 ruby", "bought a level 2 ruby card (#35, 1 point)
// for 3 sapphire and 2 gold". A line of `history` is the server's text (docs/protocol.md
// "Splendor", Steps: the column "Text in history", with "; noble #3 visits" when a noble came
// by itself); the words are read off it alone, gems named as the game names them (gems.js).
import { GEM_NAMES } from './gems.js';

const gem = (colour) => GEM_NAMES[colour] || colour;

/** "a, b and c". */
export function listWords(parts) {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** `#12 (level 1 white, 0 points)` -> "a level 1 diamond card (#12, 0 points)". */
function cardWords(text) {
  const m = /#(\d+) \(level (\d) (\w+), (\d+) points?\)/.exec(text);
  if (!m) {
    const id = /#(\d+)/.exec(text);
    return id ? `card #${id[1]}` : 'a card';
  }
  const [, id, level, colour, points] = m;
  return `a level ${level} ${gem(colour)} card (#${id}, ${points} point${points === '1' ? '' : 's'})`;
}

/** "blue 2 gold 1" -> "2 sapphire and 1 gold". */
function paidWords(text) {
  const words = text.trim().split(/\s+/);
  const parts = [];
  for (let i = 0; i + 1 < words.length; i += 2) parts.push(`${words[i + 1]} ${gem(words[i])}`);
  return listWords(parts);
}

/** What one action says, without the noble that came after it. */
function actionWords(text) {
  const [kind] = text.split(' ');
  switch (kind) {
    case 'take': {
      const counts = new Map();
      for (const c of text.split(/\s+/).slice(1)) counts.set(c, (counts.get(c) || 0) + 1);
      return `took ${listWords([...counts].map(([c, n]) => `${n} ${gem(c)}`))}`;
    }
    case 'reserve': {
      const deck = /from the level (\d) deck/.exec(text);
      if (!text.includes('#')) return `reserved a hidden card from the level ${deck ? deck[1] : '?'} deck`;
      return `reserved ${cardWords(text)}${deck ? ` from the level ${deck[1]} deck` : ''}`;
    }
    case 'buy': {
      const paid = / for (.*)$/.exec(text.replace(/\([^)]*\)/, ''));
      const price = !paid || paid[1] === 'nothing' ? 'with bonuses alone' : `for ${paidWords(paid[1])}`;
      return `bought ${cardWords(text)} ${price}`;
    }
    case 'return':
      return `returned 1 ${gem(text.split(' ')[1])}`;
    case 'noble':
      return `chose the noble #${text.split('#')[1]}`;
    case 'pass':
      return 'passed (no action was possible)';
    case 'undo':
      return 'took back a step';
    case 'end':
      return 'ended the turn';
    default:
      return `played ${text}`;
  }
}

/** The whole line in words, without its player: the action, then any noble that visited. */
export function splendorWords(text) {
  const [action, ...rest] = String(text).split('; ');
  const nobles = rest.map((r) => /noble #(\d+) visits/.exec(r)).filter(Boolean).map((m) => `noble #${m[1]} visited`);
  return [actionWords(action), ...nobles].join('; ');
}

/** The gem names the words use, for drawing them in their colour: name -> colour. */
export const GEM_BY_NAME = new Map(Object.entries(GEM_NAMES).map(([colour, name]) => [name, colour]));
