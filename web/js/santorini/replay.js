// Santorini's part of the replay viewer (screens/replay.js): the board after a step, with the
// step's squares marked, and the players' cards with their powers.
import { h, mount } from '../dom.js';
import { renderBoard, SIDE_COLORS } from './board.js';
import { stepText } from './steps.js';
import { powerName } from '../catalog.js';

/** The replay of one Santorini match (`data`: GET /api/matches/{id}/replay). */
export function santoriniReplay(data) {
  return {
    /** Called once, before the first position. */
    start() {},
    /** Shows the position `view` after step `n` (0: the setup) in `boardEl`. */
    async show(boardEl, view, n) {
      const last = new Set();
      const step = data.steps[n - 1]?.step;
      if (step) for (const k of ['from', 'to']) if (step[k]) last.add(step[k].toUpperCase());
      mount(boardEl, renderBoard(view, { last }));
    },
    /** The seats with their powers, the winners marked. */
    players() {
      const result = data.match.result;
      return h(
        'div',
        { class: 'players' },
        (data.match.seats || []).map((s) =>
          h(
            'div',
            { class: `player-card${result && result.winners?.includes(s.seat) ? ' winner' : ''}`, style: `--side:${SIDE_COLORS[(s.team ?? s.seat) % SIDE_COLORS.length]}` },
            h('a', { href: `#/player/${s.player.id}`, class: 'name' }, s.player.name),
            s.power ? h('div', { class: 'power' }, powerName(s.power)) : null,
          ),
        ),
      );
    },
    /** A line under the controls about the step shown (none: the board says it). */
    note: () => null,
    /** The log's text for stored step `record`. */
    logText: (record) => stepText(record.step),
  };
}
