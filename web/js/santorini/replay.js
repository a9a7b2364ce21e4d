// Santorini's part of the replay viewer (screens/replay.js): the board after a step, with the
// last turn's move and builds marked and the step just played animated when stepping forward,
// the players' cards with their powers, and each record in words.
import { h, mount } from '../dom.js';
import { nameOf } from '../bots.js';
import { renderBoard, SIDE_COLORS } from './board.js';
import { stepText } from './steps.js';
import { powerName } from '../catalog.js';
import { boardMarks, lastTurnLines } from './last-turn.js';
import { santoriniWords } from './words.js';
import { eventWords } from '../log-lines.js';

/** The replay of one Santorini match (`data`: GET /api/matches/{id}/replay). */
export function santoriniReplay(data) {
  let shown = -1; // the step last shown: the next one forward is animated
  const seats = data.match.seats || [];
  const seatOf = (n) => seats.find((x) => x.seat === n);
  return {
    /** Called once, before the first position. */
    start() {},
    /** Shows the position `view` after step `n` (0: the setup) in `boardEl`. */
    async show(boardEl, view, n) {
      const records = data.steps.slice(0, n).filter((r) => !eventWords(r.step));
      const lines = records.map((r) => stepText(r.step));
      const lastTurn = boardMarks(lastTurnLines(lines, records.map((r) => r.seat)));
      const step = data.steps[n - 1]?.step;
      const fresh = n === shown + 1 && step && !eventWords(step) ? boardMarks([stepText(step)]) : boardMarks([]);
      shown = n;
      mount(boardEl, renderBoard(view, { last: lastTurn.squares, lastTurn, fresh }));
    },
    /** The seats with their powers, the winners marked. */
    players() {
      const result = data.match.result;
      return h(
        'div',
        { class: 'players' },
        seats.map((s) =>
          h(
            'div',
            { class: `player-card${result && result.winners?.includes(s.seat) ? ' winner' : ''}`, style: `--side:${SIDE_COLORS[(s.team ?? s.seat) % SIDE_COLORS.length]}` },
            h('a', { href: `#/player/${s.player.id}`, class: 'name' }, nameOf(s.player)),
            s.power ? h('div', { class: 'power' }, powerName(s.power)) : null,
          ),
        ),
      );
    },
    /** A line under the controls about the step shown (none: the board says it). */
    note: () => null,
    /** Stored record `record` as the history writes it. */
    notation: (record) => stepText(record.step),
    /** The record in words, without its player. */
    logWords: (record) =>
      eventWords(record.step) ??
      santoriniWords(stepText(record.step), { names: seats.map((x) => nameOf(x.player)), powers: [seatOf(record.seat)?.power].filter(Boolean) }),
    seatColor: (seat) => {
      const s = seatOf(seat);
      return s ? SIDE_COLORS[(s.team ?? s.seat) % SIDE_COLORS.length] : null;
    },
  };
}
