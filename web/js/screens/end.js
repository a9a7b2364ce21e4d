// The end of a match, as a dialog over the final table: who won and how, in words; each
// player's rating before and after when the match was rated (from the match header, docs/api.md
// "Match header": only a server with a database keeps ratings); and what to do next: a new
// opponent (the same queue and clock again when the game came from quick play), the replay
// (where games are stored), home. It opens by itself only when the match ends in front of the
// screen (not on a reload or for a match opened once over). Closing it leaves the final table
// in view; the result block beside the table opens it again ("Details").
import { h, mount } from '../dom.js';
import { storesGames, matchHeader } from '../api.js';
import { replayHash } from '../codes.js';

const GAME_NAMES = { santorini: 'Santorini', splendor: 'Splendor' };

/** "Ann", "Ann and Bob", "Ann, Bob and Cy". */
const listNames = (names) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0] || '');

/** Whether a winning side stands on a third level (Santorini's usual win), from the final state. */
function climbed(v, winners) {
  const st = v.state || {};
  const sides = new Set(winners.map((w) => v.seats[w]?.side ?? w));
  const squares = 'ABCDE';
  return (st.workers || []).some((w) => {
    if (!w.square || !sides.has(w.side)) return false;
    const index = (Number(w.square[1]) - 1) * 5 + squares.indexOf(w.square[0].toUpperCase());
    return (st.board || [])[index] === '3';
  });
}

/** The result in words: {title, reason} from this viewer's side (docs/protocol.md, `result`). */
export function resultWords(v) {
  const r = v.result;
  const you = v.you;
  const seated = you !== null && you !== undefined;
  const name = (seat) => (seat === you ? 'you' : v.seats[seat]?.player.name || `seat ${seat + 1}`);
  const Name = (seat) => (seat === you ? 'You' : name(seat));
  if (!r || !r.winners || r.winners.length === 0) {
    const why = r && r.reason === 'recovery_failed' ? 'The server could not restore this game after a restart.' : 'The game was stopped before it was decided: nobody wins and no rating changes.';
    return { title: 'Game aborted', reason: why };
  }
  const winners = r.winners;
  const losers = v.seats.map((_, i) => i).filter((i) => !winners.includes(i));
  const won = listNames(winners.map(name));
  const Won = won.charAt(0).toUpperCase() + won.slice(1);
  const lost = losers.length === 1 ? Name(losers[0]) : null;
  let title = `${Won} won`;
  if (seated) title = winners.includes(you) ? (winners.length > 1 ? 'You share the victory' : 'You won!') : 'You lost';
  let reason;
  switch (r.reason) {
    case 'win':
      if (v.game === 'splendor') {
        const pts = v.state?.hands?.[winners[0]]?.points;
        reason = winners.length > 1 ? `${Won} share the victory with ${pts} prestige points each.` : `${Won} won with ${pts} prestige points.`;
      } else reason = climbed(v, winners) ? `${Won} climbed to the third level.` : `${Won} won by the power of a god (its own win condition).`;
      break;
    case 'no_turn':
      reason = lost ? `${lost} had no legal turn left, so ${won} won.` : `The other players had no legal turn left, so ${won} won.`;
      break;
    case 'resign':
      reason = lost ? `${lost} resigned.` : `${Won} won by resignation.`;
      break;
    case 'timeout':
      reason = lost ? `${lost} ran out of time.` : `${Won} won on time.`;
      break;
    case 'abandoned':
      reason = lost ? `${lost} left the game and did not come back in time.` : `${Won} won: the others left the game.`;
      break;
    default:
      reason = `${Won} won.`;
  }
  return { title, reason };
}

const round = (x) => Math.round(x);
const signed = (d) => (d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '±0');

/** The dialog of one match screen; `ctx`: the screen's context plus {id, code}. */
export function endDialog(ctx) {
  const conn = ctx.state.conn;
  let shown = false;
  let alive = true;
  const title = h('h2', { id: 'end-title' });
  const reason = h('p', { id: 'end-reason' });
  const ratings = h('div', { id: 'end-ratings', class: 'end-ratings' });
  const replay = h('a', { class: 'button', id: 'replay-link', href: replayHash(ctx.id, ctx.code), hidden: true }, 'Watch the replay');
  const again = h('button', { class: 'primary', id: 'end-new', type: 'button' }, 'New opponent');
  // A rematch with the same players is offered by a later change: the button waits hidden.
  const rematch = h('button', { id: 'end-rematch', type: 'button', hidden: true }, 'Rematch');
  const close = h('button', { id: 'end-close', type: 'button', class: 'link', onclick: () => dialog.close() }, 'Close and see the board');
  const dialog = h(
    'dialog',
    { class: 'end-dialog', id: 'end-dialog', 'aria-labelledby': 'end-title', 'aria-describedby': 'end-reason' },
    title,
    reason,
    ratings,
    h('div', { class: 'end-buttons' }, again, rematch, replay, h('a', { class: 'button', id: 'end-home', href: '#/' }, 'Home')),
    close,
  );
  storesGames().then((yes) => (replay.hidden = !yes));

  const newOpponent = async () => {
    const q = ctx.state.queued;
    if (q && q.match === ctx.id) {
      try {
        ctx.state.joining = { queue: q.queue, clock: q.clock };
        await conn.request({ type: 'queue.join', queue: q.queue, clock: q.clock });
        dialog.close();
        ctx.navigate('#/');
      } catch (e) {
        ctx.toast(e.message);
      }
      return;
    }
    dialog.close();
    ctx.navigate('#/');
  };
  again.addEventListener('click', newOpponent);

  const seatLine = (v, seat, hs) => {
    const before = hs?.rating_before;
    const after = hs?.rating_after;
    const winner = (v.result?.winners || []).includes(seat.seat ?? 0);
    const cells = [h('span', { class: 'end-name' }, seat.player.name, winner ? h('span', { class: 'badge' }, 'won') : null)];
    if (before && after) {
      const d = round(after.rating) - round(before.rating);
      cells.push(h('span', { class: 'end-rating', 'data-before': round(before.rating), 'data-after': round(after.rating) }, `${round(before.rating)} → ${round(after.rating)}`, ' ', h('strong', { class: d >= 0 ? 'up' : 'down' }, signed(d))));
    }
    return h('li', { 'data-seat': seat.seat }, cells);
  };

  const fillRatings = async (v, attempt = 0) => {
    const stores = await storesGames();
    // Read after the end (not the header the screen read while playing): the stored result.
    const hd = stores ? await matchHeader(ctx.id, ctx.code).catch(() => null) : null;
    if (!alive) return;
    const seats = v.seats.map((seat, i) => ({ ...seat, seat: i }));
    let note;
    if (!stores) note = 'This server keeps no ratings (it runs without a database).';
    else if (!hd) note = 'The ratings could not be read.';
    else if (hd.rated && hd.seats?.some((x) => x.rating_after)) note = null;
    else if (hd.unrated === 'casual' || hd.settings?.rated === false) note = 'Casual game: no rating changes.';
    else if (hd.unrated === 'farming_cap') note = 'Not rated: you two already had 3 rated games in the last 24 hours.';
    else if (hd.unrated === 'aborted' || v.status === 'aborted') note = 'Aborted: no rating changes.';
    else if (attempt < 3) {
      // The header may be read a moment before the result is stored: ask again.
      ratings.dataset.state = 'waiting';
      setTimeout(() => alive && fillRatings(v, attempt + 1), 1200);
      return;
    } else note = 'No rating change was recorded.';
    ratings.dataset.state = note ? 'none' : 'rated';
    mount(
      ratings,
      h('ul', { class: 'list end-seats' }, seats.map((seat) => seatLine(v, seat, note ? null : hd.seats?.find((x) => x.seat === seat.seat)))),
      note ? h('p', { class: 'muted small', id: 'end-rating-note' }, note) : null,
    );
  };

  const open = (v) => {
    if (!v) return;
    const words = resultWords(v);
    title.textContent = words.title;
    reason.textContent = words.reason;
    dialog.dataset.reason = (v.result && v.result.reason) || 'aborted';
    dialog.dataset.game = v.game || 'santorini';
    const seated = v.you !== null && v.you !== undefined;
    again.hidden = !seated;
    const q = ctx.state.queued;
    again.textContent = q && q.match === ctx.id ? 'New opponent (same queue)' : 'New opponent';
    if (!ratings.dataset.state) {
      ratings.dataset.state = 'loading';
      mount(ratings, h('p', { class: 'muted small' }, `Reading the ratings of this ${GAME_NAMES[v.game] || 'game'}…`));
      fillRatings(v);
    }
    if (!dialog.open) dialog.showModal();
  };

  return {
    element: dialog,
    /** Opens the dialog the first time this screen sees the match over. */
    once(v) {
      if (shown) return;
      shown = true;
      open(v);
    },
    open,
    dispose() {
      alive = false;
      if (dialog.open) dialog.close();
    },
  };
}
