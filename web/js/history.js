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
