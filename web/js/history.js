// The history of a match as lines with what each one is, for the live log and the replay:
// both games write `undo` and `end turn` lines (docs/protocol.md "Taking back a step").

/** The history's lines with what each one is: `undo`, `end turn`, a step that a later `undo`
 *  took back (`undone`), or an ordinary step. An undo takes back the latest step not yet taken
 *  back; the server allows it only within the turn, so a stack of the steps played is enough. */
export function historyMarks(history) {
  const marks = history.map((t) => (t === 'undo' ? 'undo' : t === 'end turn' ? 'end-turn' : ''));
  const played = [];
  history.forEach((t, i) => {
    if (t === 'undo') {
      const back = played.pop();
      if (back !== undefined) marks[back] = 'undone';
    } else if (t !== 'end turn') played.push(i);
  });
  return marks;
}

/** The lines of the latest turn: the trailing steps of the seat that played the last one, not
 *  taken back (`authors[i]`: the seat of line i; only the last line when it is not known). */
export function lastTurnLines(history, authors = []) {
  const marks = historyMarks(history);
  const lines = [];
  let seat;
  for (let i = history.length - 1; i >= 0; i--) {
    if (marks[i]) continue; // undo, end turn, or a step taken back
    if (lines.length === 0) seat = authors[i];
    else if (seat === undefined || authors[i] !== seat) break;
    lines.unshift(history[i]);
  }
  return { lines, seat };
}
