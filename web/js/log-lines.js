// One log line as people read it, for both games, live and in replays: the player's name in
// their colour, then what they did in words ("Ann moved from D4 to E4"). The step's notation,
// the server's history text, stays on the line as data-notation (tests read it to check the
// exact step) and is shown instead of the words when the reader turns on "Notation".
import { h } from './dom.js';
import { t } from './i18n/index.js';

const NOTATION_KEY = 'santorini.logNotation';

/** Whether the reader chose to see the notation rather than the words (kept per browser). */
export function notationShown() {
  try {
    return globalThis.localStorage?.getItem(NOTATION_KEY) === '1';
  } catch {
    return false;
  }
}

/** The "Notation" switch for a log's heading; `onChange()` redraws the log. */
export function notationToggle(onChange) {
  return h(
    'label',
    { class: 'log-notation small', title: t('log.notationTitle') },
    h('input', {
      type: 'checkbox',
      id: 'log-notation',
      checked: notationShown() || null,
      onchange: (e) => {
        try {
          localStorage.setItem(NOTATION_KEY, e.target.checked ? '1' : '0');
        } catch {
          // A browser without storage keeps the choice for this redraw only.
        }
        onChange();
      },
    }),
    ` ${t('log.notation')}`,
  );
}

/** The player's name as the start of a line, in their colour (`color`: CSS colour or null). */
export function whoSpan(name, color) {
  return h('span', { class: 'log-who', style: color ? `--side:${color}` : null }, name);
}

/** A line as plain text (what the content below reads as): "Ann moved from D4 to E4". */
export const lineText = ({ name, words }) => (name ? `${name} ${words}` : String(words));

/** The content of a line: `who` (name, colour) and `words` (a string or nodes), or the
 *  notation when the reader asked for it. An unknown player leaves the words alone. */
export function lineContent({ name, color, words, notation }) {
  if (notationShown()) return [name ? `${name}: ` : '', notation];
  return [name ? whoSpan(name, color) : null, name ? ' ' : '', words];
}

/** One `li` of the live log: data-n (1-based), data-notation, the history mark as its class. */
export function logItem({ n, mark, notation, ...content }) {
  return h('li', { 'data-n': n, 'data-notation': notation, class: mark || null, title: mark === 'undone' ? t('log.takenBack') : null }, lineContent({ notation, ...content }));
}

const EVENTS = new Set(['resign', 'timeout', 'abort', 'abandon']);

/** The server's own records in a replay (no history line of their own) in words, else null. */
export const eventWords = (step) => (EVENTS.has(step.kind) ? t(`log.event.${step.kind}`) : null);
