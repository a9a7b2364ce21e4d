// A Splendor history line as the log shows it: the words of words.js, with each gem name drawn
// in its colour and card numbers in bold.
import { h } from '../dom.js';
import { splendorWords, GEM_BY_NAME } from './words.js';

const WORD = new RegExp(`\\b(${[...GEM_BY_NAME.keys()].join('|')})\\b|#\\d+`, 'g');

/** Nodes for `text`, a line in words: gem names as coloured spans, card numbers bold. */
export function decorate(text) {
  const out = [];
  let at = 0;
  for (const m of text.matchAll(WORD)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    out.push(m[1] ? h('span', { class: `lg-gem gem-${GEM_BY_NAME.get(m[1])}` }, m[0]) : h('strong', {}, m[0]));
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** History line `text` in words, ready for the log. */
export const logWords = (text) => decorate(splendorWords(text));
