// Who played each line of a match's history. The view's `history` is text without its player
// (docs/protocol.md "The match view"), but a patch that adds lines was made by the seat that
// decided before it (the turn's player, or Gaea placing out of turn), so the client notes that
// seat per line as patches arrive. Lines that came in a snapshot (opening a match, a gap) are
// filled in from the stored records' seats (GET /api/matches/{id}/replay, docs/api.md "Replay").

/** Notes the deciding seat of `before` as the author of the lines `after` adds. */
export function noteAuthors(m, before, after) {
  const from = before?.history?.length ?? 0;
  const to = after?.history?.length ?? 0;
  const seat = before?.state?.decider;
  if (!m.authors) m.authors = [];
  for (let i = from; i < to; i++) if (m.authors[i] === undefined && seat !== null && seat !== undefined) m.authors[i] = seat;
}

// The server's own records (resign, abort, timeout, abandon) have no history line.
const EVENTS = new Set(['resign', 'abort', 'timeout', 'abandon']);

/** The seats of the history lines, from a replay's records (`steps`, with `seat`). */
export function authorsFromRecords(steps) {
  return steps.filter((r) => !EVENTS.has(r.step.kind)).map((r) => r.seat);
}

/** Whether some line of `history` has no known author yet. */
export const authorsMissing = (authors, history) => history.some((_, i) => authors?.[i] === undefined);
