// What the board marks of the steps played: the last turn's moves (as arrows) and builds (its
// squares outlined), and the steps just played, which the board animates. Read off the history
// lines and who played them (authors.js); a line taken back by an undo marks nothing.
import { lastTurnLines as turnLines } from '../history.js';
import { parseLine } from './words.js';

/** The board marks of history lines `lines`: {moves:[{from,to,kind}], builds:Set, squares:Set}
 *  (`squares`: every square the lines touch). */
export function boardMarks(lines) {
  const moves = [];
  const builds = new Set();
  const squares = new Set();
  for (const text of lines) {
    const st = parseLine(text);
    if ((st.kind === 'move' || st.kind === 'force') && st.from && st.to) moves.push({ from: st.from, to: st.to, kind: st.kind });
    if ((st.kind === 'build' || st.kind === 'dome' || st.kind === 'remove') && st.to) builds.add(st.to);
    for (const sq of [st.from, st.to, st.worker]) if (sq) squares.add(sq);
  }
  return { moves, builds, squares };
}

/** The lines of the latest turn (history.js), not taken back. */
export const lastTurnLines = (history, authors = []) => turnLines(history, authors).lines;

/** The lines added since `seen` lines were drawn, when they are steps to animate (none after
 *  an undo, which puts pieces back rather than playing them). */
export function freshLines(history, seen) {
  if (seen < 0 || history.length <= seen) return [];
  const added = history.slice(seen);
  return added.includes('undo') ? [] : added.filter((t) => t !== 'end turn');
}
