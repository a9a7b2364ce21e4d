// A history line of Splendor drawn with a little colour: gem words get a gem, card numbers are
// bold. The text stays exactly the server's line.
import { h } from '../dom.js';
import { TOKENS } from './gems.js';

const WORD = new RegExp(`\\b(${TOKENS.join('|')})\\b|#\\d+`, 'g');

export function logLine(text) {
  const out = [];
  let at = 0;
  for (const m of text.matchAll(WORD)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    out.push(m[1] ? h('span', { class: `lg-gem gem-${m[1]}` }, m[0]) : h('strong', {}, m[0]));
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}
