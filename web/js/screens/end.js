// The end of a match, as a dialog over the final table: who won and how, in words; each
// player's rating before and after when the match was rated (from the match header, docs/api.md
// "Match header": only a server with a database keeps ratings); and what to do next: a new
// opponent (the same queue and clock again when the game came from quick play), the replay
// (where games are stored), home. It opens by itself only when the match ends in front of the
// screen (not on a reload or for a match opened once over). Closing it leaves the final table
// in view; the result block beside the table opens it again ("Details").
import { h, mount } from '../dom.js';
import { nameOf } from '../bots.js';
import { storesGames, matchHeader } from '../api.js';
import { codeOf, rememberCode, replayHash } from '../codes.js';
import { t, num, rating, list } from '../i18n/index.js';
import { errorText } from '../errors.js';

const GAME_NAMES = { santorini: 'Santorini', splendor: 'Splendor' };

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

/** The result in words: {title, reason} from this viewer's side (docs/protocol.md, `result`).
 *  A sentence whose subject is the viewer alone has a key of its own ('….you'): languages
 *  other than English conjugate for it. */
export function resultWords(v) {
  const r = v.result;
  const you = v.you;
  const seated = you !== null && you !== undefined;
  const plain = (seat) => nameOf(v.seats[seat]?.player) || t('end.seat', { n: seat + 1 });
  // The viewer among others ("you and Bob"): English says "you", another language may name them.
  const name = (seat) => (seat === you ? t('end.you', { name: plain(seat) }) : plain(seat));
  if (!r || !r.winners || r.winners.length === 0) {
    const why = r && r.reason === 'recovery_failed' ? t('end.reason.recovery') : t('end.reason.aborted');
    return { title: t('end.title.aborted'), reason: why };
  }
  const winners = r.winners;
  const losers = v.seats.map((_, i) => i).filter((i) => !winners.includes(i));
  const won = list(winners.map(name));
  const Won = won.charAt(0).toUpperCase() + won.slice(1);
  const youWon = seated && winners.length === 1 && winners[0] === you;
  const loser = losers.length === 1 ? losers[0] : null;
  const youLost = seated && loser === you;
  const params = { won, Won, lost: loser === null ? '' : plain(loser), count: winners.length };
  /** A sentence about the winners (`.you`: the viewer won alone). */
  const byWinners = (key, extra = {}) => t(youWon ? `${key}.you` : key, { ...params, ...extra });
  /** A sentence about the one who lost (`.you`: the viewer lost). */
  const byLoser = (key) => t(youLost ? `${key}.you` : key, params);
  let title = t('end.title.won', params);
  if (seated) title = winners.includes(you) ? (winners.length > 1 ? t('end.title.youShare') : t('end.title.youWon')) : t('end.title.youLost');
  let reason;
  switch (r.reason) {
    case 'win':
      if (v.game === 'splendor') {
        const pts = num(v.state?.hands?.[winners[0]]?.points ?? 0);
        reason = winners.length > 1 ? t('end.reason.splendorShare', { ...params, pts }) : byWinners('end.reason.splendorWon', { pts });
      } else reason = climbed(v, winners) ? byWinners('end.reason.climbed') : byWinners('end.reason.godWin');
      break;
    case 'no_turn':
      if (loser === null) reason = byWinners('end.reason.noTurnOthers');
      else reason = youLost ? t('end.reason.noTurn.you', params) : youWon ? t('end.reason.noTurn.youWon', params) : t('end.reason.noTurn', params);
      break;
    case 'resign':
      reason = loser !== null ? byLoser('end.reason.resign') : byWinners('end.reason.resignWon');
      break;
    case 'timeout':
      reason = loser !== null ? byLoser('end.reason.timeout') : byWinners('end.reason.timeoutWon');
      break;
    case 'abandoned':
      reason = loser !== null ? byLoser('end.reason.abandoned') : byWinners('end.reason.abandonedWon');
      break;
    default:
      reason = byWinners('end.reason.won');
  }
  return { title, reason };
}

/**
 * The rematch as this viewer reads it (docs/protocol.md, "Rematch"): a sentence and the answers
 * this viewer may give, from the view's `rematch` (absent while the match is on).
 * Returns null while there is nothing to say or do.
 */
export function rematchWords(v) {
  const r = v.rematch;
  if (!r) return null;
  const you = v.you;
  const seated = you !== null && you !== undefined;
  const name = (seat) => nameOf(v.seats[seat]?.player) || t('end.seat', { n: seat + 1 });
  if (r.match) return { text: seated ? t('rematch.starting') : t('rematch.started'), next: r.match, answers: [] };
  const yes = r.yes || [];
  if (yes.length === 0) {
    let text = '';
    if (r.no) text = r.no.left ? t('rematch.left', { name: name(r.no.seat) }) : r.no.seat === you ? t('rematch.youDeclined') : t('rematch.declined', { name: name(r.no.seat) });
    return seated ? { text, answers: [{ id: 'rematch-offer', label: t('rematch.offer'), accept: true }] } : text ? { text, answers: [] } : null;
  }
  const others = yes.filter((s) => s !== you).map(name);
  const waiting = v.seats.map((_, i) => i).filter((i) => !yes.includes(i)).map(name);
  if (!seated) return { text: t('rematch.offered', { names: list(yes.map(name)), count: yes.length }), answers: [] };
  if (yes.includes(you)) return { text: t('rematch.waiting', { names: list(waiting) }), answers: [{ id: 'rematch-cancel', label: t('rematch.cancel'), accept: false }] };
  return {
    text: t('rematch.offers', { names: list(others), count: others.length }),
    answers: [
      { id: 'rematch-accept', label: t('rematch.accept'), accept: true, primary: true },
      { id: 'rematch-decline', label: t('rematch.decline'), accept: false },
    ],
  };
}

/**
 * The rematch line with its buttons (an element; empty while there is nothing to show).
 * `answer(accept)` sends match.rematch. Several of these may be on one screen (the dialog and
 * the result block): ids are prefixed with `prefix`.
 */
export function rematchBox(v, answer, prefix = '') {
  const words = rematchWords(v);
  const box = h('div', { class: 'rematch', id: `${prefix}rematch`, 'aria-live': 'polite' });
  if (!words) return box;
  box.dataset.state = words.next ? 'started' : (v.rematch.yes || []).length ? 'offered' : 'none';
  if (words.text) box.append(h('span', { class: 'rematch-text' }, words.text));
  for (const a of words.answers)
    box.append(h('button', { type: 'button', id: `${prefix}${a.id}`, class: a.primary ? 'primary' : null, onclick: (e) => { e.currentTarget.disabled = true; answer(a.accept); } }, a.label));
  if (words.next && !(v.you !== null && v.you !== undefined)) box.append(h('a', { class: 'button', href: `#/match/${words.next}` }, t('rematch.watch')));
  return box;
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
  const replay = h('a', { class: 'button', id: 'replay-link', href: replayHash(ctx.id, ctx.code), hidden: true }, t('end.watchReplay'));
  const again = h('button', { class: 'primary', id: 'end-new', type: 'button' }, t('end.newOpponent'));
  // The rematch: offered, answered and followed here (rematchBox), redrawn on every patch.
  const rematch = h('div', { class: 'end-rematch', id: 'end-rematch' });
  const answerRematch = (accept) => conn.request({ type: 'match.rematch', match: ctx.id, accept }).catch((e) => ctx.toast(errorText(e)));
  let followed = null;
  /** Shows the rematch as `v` has it; a seated player is taken to the rematch once it is made. */
  const showRematch = (v) => {
    mount(rematch, rematchBox(v, answerRematch, 'end-'));
    const next = v.rematch && v.rematch.match;
    const seated = v.you !== null && v.you !== undefined;
    if (next && seated && followed !== next) {
      followed = next;
      // A private match's rematch keeps its invite code: its share link works at once.
      const code = ctx.code || codeOf(ctx.id);
      if (code) rememberCode(next, code);
      if (dialog.open) dialog.close();
      ctx.navigate(`#/match/${next}`);
    }
  };
  const close = h('button', { id: 'end-close', type: 'button', class: 'link', onclick: () => dialog.close() }, t('end.close'));
  const home = h('a', { class: 'button', id: 'end-home', href: '#/' }, t('common.home'));
  const dialog = h(
    'dialog',
    { class: 'end-dialog', id: 'end-dialog', 'aria-labelledby': 'end-title', 'aria-describedby': 'end-reason' },
    title,
    reason,
    // The buttons come right under the words, which are drawn with the dialog: what arrives
    // later (the ratings read from the server, an opponent's rematch offer) is drawn below
    // them and never moves a button from under a player's click.
    h('div', { class: 'end-buttons' }, again, replay, home),
    rematch,
    ratings,
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
        ctx.toast(errorText(e));
      }
      return;
    }
    dialog.close();
    ctx.navigate('#/');
  };
  again.addEventListener('click', newOpponent);

  /** A seat's line: its name, a badge if it won, and its rating before and after (`hs`, the
   *  header's seat) once read; `pending` while they are being read. */
  const seatLine = (v, seat, hs, pending = false) => {
    const before = hs?.rating_before;
    const after = hs?.rating_after;
    const winner = (v.result?.winners || []).includes(seat.seat ?? 0);
    const cells = [h('span', { class: 'end-name' }, nameOf(seat.player), winner ? h('span', { class: 'badge' }, t('game.bar.won')) : null)];
    if (before && after) {
      const d = round(after.rating) - round(before.rating);
      cells.push(h('span', { class: 'end-rating', 'data-before': round(before.rating), 'data-after': round(after.rating) }, `${rating(round(before.rating))} → ${rating(round(after.rating))}`, ' ', h('strong', { class: d >= 0 ? 'up' : 'down' }, signed(d))));
    } else if (pending) cells.push(h('span', { class: 'end-rating muted', 'aria-hidden': 'true' }, '…'));
    return h('li', { 'data-seat': seat.seat }, cells);
  };
  /** Every seat's line, `lineOf(seat)` drawing one (a seat with its index as `seat`). */
  const seatLines = (v, lineOf) => h('ul', { class: 'list end-seats' }, v.seats.map((seat, i) => lineOf({ ...seat, seat: i })));

  const fillRatings = async (v, attempt = 0) => {
    const stores = await storesGames();
    // Read after the end (not the header the screen read while playing): the stored result.
    const hd = stores ? await matchHeader(ctx.id, ctx.code).catch(() => null) : null;
    if (!alive) return;
    let note;
    if (!stores) note = t('end.noDatabase');
    else if (!hd) note = t('end.ratingsUnread');
    else if (hd.rated && hd.seats?.some((x) => x.rating_after)) note = null;
    else if (hd.unrated === 'casual' || hd.settings?.rated === false) note = t('end.casual');
    else if (hd.unrated === 'farming_cap') note = t('end.farmingCap');
    else if (hd.unrated === 'aborted' || v.status === 'aborted') note = t('end.abortedNote');
    else if (attempt < 3) {
      // The header may be read a moment before the result is stored: ask again.
      ratings.dataset.state = 'waiting';
      setTimeout(() => alive && fillRatings(v, attempt + 1), 1200);
      return;
    } else note = t('end.noChange');
    ratings.dataset.state = note ? 'none' : 'rated';
    mount(
      ratings,
      seatLines(v, (seat) => seatLine(v, seat, note ? null : hd.seats?.find((x) => x.seat === seat.seat))),
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
    again.textContent = q && q.match === ctx.id ? t('end.newOpponentSame') : t('end.newOpponent');
    if (!ratings.dataset.state) {
      ratings.dataset.state = 'loading';
      // The players' lines at once, their ratings to come: the block grows by a line at most.
      mount(
        ratings,
        seatLines(v, (seat) => seatLine(v, seat, null, true)),
        h('p', { class: 'muted small' }, t('end.readingRatings', { game: GAME_NAMES[v.game] || t('end.game') })),
      );
      fillRatings(v);
    }
    showRematch(v);
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
    /** After a change of language: the buttons' words, and the dialog's if it is open (its
     *  ratings are read again, in the new language's words). */
    relabel(v) {
      replay.textContent = t('end.watchReplay');
      close.textContent = t('end.close');
      home.textContent = t('common.home');
      again.textContent = t('end.newOpponent');
      if (!dialog.open || !v) return;
      delete ratings.dataset.state;
      open(v);
    },
    /** Every render of a match that is over: the rematch as it stands now. */
    update: showRematch,
    /** The rematch line for the result block beside the table. */
    rematchLine: (v) => rematchBox(v, answerRematch, 'result-'),
    dispose() {
      alive = false;
      if (dialog.open) dialog.close();
    },
  };
}
