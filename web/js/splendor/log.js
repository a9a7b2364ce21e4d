// A Splendor history line as the log shows it: the words of words.js, with each gem name drawn
// in its colour and card numbers in bold.
import { h } from '../dom.js';
import { splendorWords } from './words.js';
import { gemNameForms } from './gems.js';

/** Nodes for `text`, a line in words: gem names (in the current language) as coloured spans,
 *  card numbers bold. */
export function decorate(text) {
  const forms = gemNameForms();
  // Longest first, so that a plural is not cut to its singular.
  const names = [...forms.keys()].sort((a, b) => b.length - a.length);
  const word = new RegExp(`(?<![\\p{L}])(${names.join('|')})(?![\\p{L}])|#\\d+`, 'gu');
  const out = [];
  let at = 0;
  for (const m of text.matchAll(word)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    out.push(m[1] ? h('span', { class: `lg-gem gem-${forms.get(m[1])}` }, m[0]) : h('strong', {}, m[0]));
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** History line `text` in words, ready for the log. */
export const logWords = (text) => decorate(splendorWords(text));
