// Splendor's part of the replay viewer (screens/replay.js): the table after a step, and each
// step as its player read it. The log is the last view's history, one line per record (a
// finished game is revealed), since the steps' JSON says less (a blind reserve names no card).
import { h, mount } from '../dom.js';
import { nameOf } from '../bots.js';
import { stepText } from './steps.js';
import { splendorPosition } from './table.js';
import { logWords } from './log.js';
import { SEAT_COLORS } from './hands.js';
import { eventWords, lineContent } from '../log-lines.js';

// The server's own records: no history line of their own.
const EVENTS = new Set(['resign', 'timeout', 'abort']);

/** The replay of one Splendor match (`data`: GET /api/matches/{id}/replay). `viewOf(n)`: the
 *  view after step n; `current(n)`: whether n is still the position to show; `rerender()`:
 *  draws the side panel again. */
export function splendorReplay(data, { viewOf, current, rerender }) {
  let lines = null; // record number -> history line, once the last view is in
  let stepLine = null; // the step that led to the position shown, as its player read it: {seat, line}
  const names = () => (data.match.seats || []).map((s) => nameOf(s.player));
  return {
    start(screenEl, boardEl) {
      boardEl.classList.remove('board-wrap');
      screenEl.querySelector('.game').dataset.game = 'splendor';
      viewOf(data.steps.length)
        .then((v) => {
          const stepping = data.steps.filter((s) => !EVENTS.has(s.step.kind));
          if (v.history.length !== stepping.length) return;
          lines = new Map(stepping.map((s, i) => [s.number, v.history[i]]));
          rerender();
        })
        .catch(() => {});
    },
    async show(boardEl, view, n) {
      mount(boardEl, splendorPosition(view));
      // The step as its player read it (a blind reserve names its card once revealed).
      const record = data.steps[n - 1];
      let line = null;
      if (record) {
        const prev = await viewOf(n - 1);
        if (!current(n)) return;
        line = lines?.get(n) ?? (view.history.length > prev.history.length ? view.history[view.history.length - 1] : stepText(record.step));
      }
      stepLine = record ? { seat: record.seat, step: record.step, line } : null;
      document.getElementById('replay-step-text')?.replaceWith(this.note());
    },
    players: () => null,
    /** The step shown, in words with its player; its notation as data-notation. */
    note() {
      if (!stepLine) return h('p', { id: 'replay-step-text', class: 'small' });
      const { seat, step, line } = stepLine;
      return h(
        'p',
        { id: 'replay-step-text', class: 'small', 'data-notation': line },
        lineContent({ name: names()[seat], color: this.seatColor(seat), words: eventWords(step) ?? logWords(line), notation: line }),
      );
    },
    /** Record `record` as the history writes it (a blind reserve named once the last view,
     *  revealed, is in). */
    notation: (record) => lines?.get(record.number) ?? stepText(record.step),
    /** The record in words, without its player. */
    logWords(record) {
      return eventWords(record.step) ?? logWords(this.notation(record));
    },
    seatColor: (seat) => (seat === null || seat === undefined ? null : SEAT_COLORS[seat % SEAT_COLORS.length]),
  };
}
