// A live match, for its players and its spectators. This screen owns what every game shares:
// the connection to the match, sending a step (one per version), the clocks, the log, the
// result, resign and abort, and taking back a step (Undo) or confirming a turn (End turn), which
// both games offer alike (docs/protocol.md "Taking back a step"). The table itself is the
// game's (santorini/table.js, splendor/table.js), chosen by the view's `game`. A private match
// is watched with its invite code (`#/watch/{match}/{code}`); whoever knows the code is shown the
// spectator link to share (docs/protocol.md "Private matches").
//
// Above the table a bar shows every seat with its clock and whose turn it is, so that on a phone
// the board, the clocks and the prompt are on the first screen; the end of the game opens a
// dialog (screens/end.js); while it is this player's turn the tab's title says so (and, if chosen, a
// tone sounds or, for per-move clocks, a notification shows: notice.js).
import { h, mount, morph, clockText } from '../dom.js';
import { nameOf } from '../bots.js';
import { santoriniTable } from '../santorini/table.js';
import { splendorTable } from '../splendor/table.js';
import { SIDE_COLORS } from '../santorini/board.js';
import { historyMarks } from '../history.js';
import { matchHeader, replay } from '../api.js';
import { logItem, notationShown, notationToggle } from '../log-lines.js';
import { authorsFromRecords, authorsMissing } from '../authors.js';
import { codeOf, replayHash, spectatorLink } from '../codes.js';
import { onPreferences, pref, prefToggle } from '../prefs.js';
import { endDialog } from './end.js';
import { turnNotice } from '../notice.js';
import { awayNotice } from '../away.js';
import { t, num, lang } from '../i18n/index.js';
import { errorText } from '../errors.js';
import { chatPanel } from '../chat.js';

const TABLES = { santorini: santoriniTable, splendor: splendorTable };
const GAME_NAMES = { santorini: 'Santorini', splendor: 'Splendor' };


/** `code`: the invite code from a spectator link; a player's own comes from codes.js. */
export function gameScreen(ctx, id, code = null) {
  const { screen } = ctx;
  const conn = ctx.state.conn;
  code = code || codeOf(id);
  let sentAt = null; // the match version a step was sent from, until the view moves on or the answer comes
  let lastHistoryLength = -1;
  let table = null; // chosen by the first view
  const els = {
    bar: h('div', { class: 'seat-bar', id: 'seat-bar', role: 'group', 'aria-label': t('game.seatBar') }),
    main: h('div', { class: 'table-main' }),
    side: h('div', { class: 'side' }),
  };
  const gameEl = h('div', { class: 'game', 'data-match': id }, h('div', { class: 'table-area' }, els.bar, els.main), els.side);
  gameEl.classList.toggle('dev-steps', pref('devSteps'));
  mount(screen, gameEl);
  gameEl.prepend(h('p', { class: 'muted' }, t('game.opening')));

  // The match's header (settings, whether it was rated), asked once, when first needed.
  let headerAsked = null;
  const header = () => (headerAsked ??= matchHeader(id, code).catch(() => null));

  // Whether the finished match was rated, from the stored header (the store decides: a casual
  // lobby, or the farming cap, docs/ratings.md). Asked once; kept across redraws.
  let ratedEl = null;
  const ratedNote = () => {
    if (ratedEl) return ratedEl;
    ratedEl = h('span', { id: 'rated-note', class: 'muted' });
    const why = { casual: 'end.casual', farming_cap: 'end.farmingCap' };
    header()
      .then((header) => {
        if (header && why[header.unrated]) {
          ratedEl.textContent = `${t(why[header.unrated])} `;
          ratedEl.dataset.unrated = header.unrated;
        }
      })
      .catch(() => {});
    return ratedEl;
  };

  const match = () => conn.match(id);
  const view = () => match()?.view;

  // One step per version: a second click before the first step's patch arrives is ignored.
  // Once the patch is there the next step may go, even if the first one's ack is still on its
  // way (a fast player's next click must not be swallowed). Resolves to what became of the
  // step: {ok: true}, {busy: true} (ignored, one was in flight) or {error} (refused, toasted).
  const play = async (step) => {
    const version = match()?.version;
    if (sentAt !== null && sentAt === version) return { busy: true };
    sentAt = version;
    table?.forget();
    try {
      await conn.request({ type: 'match.step', match: id, step });
      return { ok: true };
    } catch (e) {
      ctx.toast(errorText(e));
      return { error: errorText(e) };
    } finally {
      if (sentAt === version) sentAt = null;
      render();
    }
  };

  /** The undo and end_turn steps the deciding seat may play now (only in its own view). */
  const turnSteps = (v) => {
    const legal = v?.state?.legal || [];
    return { undo: legal.find((st) => st.kind === 'undo') || null, endTurn: legal.find((st) => st.kind === 'end_turn') || null };
  };

  const tableContext = {
    id,
    play,
    /** The version of the match this screen has now (steps go one per version). */
    version: () => match()?.version,
    /** The Undo button (enabled exactly when `legal` holds undo) and, in phase `confirm`, the
     *  End turn button: for the tables to put into their prompt. Null for spectators and
     *  outside play. */
    turnButtons: (v) => {
      // Nothing is taken back during the draft and the placement, nor once the game is over.
      if (v.you === null || v.you === undefined || v.status !== 'playing') return null;
      const { undo, endTurn } = turnSteps(v);
      return h(
        'div',
        { class: 'turn-buttons', id: 'turn-buttons' },
        h('button', { id: 'undo', class: 'undo', 'data-step': 'undo', disabled: !undo, title: t('game.undoTitle'), onclick: () => undo && play(undo) }, `↶ ${t('game.undo')}`),
        endTurn ? h('button', { id: 'end-turn', class: 'primary', 'data-step': 'end turn', title: t('game.endTurnTitle'), onclick: () => play(endTurn) }, `${t('game.endTurn')} ✓`) : null,
      );
    },
    rerender: () => render(),
    names: (v) => v.seats.map((st) => nameOf(st.player)),
    /** Who played each history line (seats; undefined where not known yet). */
    authors: () => match()?.authors || [],
    /** The clock of `seat` as an element (real time: every seat; per turn: the one deciding). */
    clockFor: (v, seat, turn) => {
      const clock = v.clock || { kind: 'none' };
      if (clock.kind === 'realtime') return h('span', { class: 'clock', 'data-seat': seat }, clockText(clock.remaining_ms[seat]));
      if (clock.kind === 'turn' && turn && clock.deadline_ms) return h('span', { class: 'clock', 'data-deadline': clock.deadline_ms }, '');
      return null;
    },
    /** The end of the match: who won, how, and the way to its replay. */
    resultBlock: (v, text) => {
      const r = v.result;
      return h(
        'div',
        { class: 'actions over', id: 'result', 'data-reason': (r && r.reason) || 'aborted', 'data-winners': ((r && r.winners) || []).join(',') },
        h('strong', {}, text),
        ' ',
        ratedNote(),
        h('a', { href: replayHash(id, code), id: 'result-replay', class: 'needs-store' }, t('end.watchReplay')),
        h('span', { class: 'needs-store' }, ' · '),
        h('a', { href: '#/' }, t('common.home')),
        ' · ',
        h('button', { class: 'link', id: 'result-open', onclick: () => ending.open(view()) }, t('game.details')),
        ending.rematchLine(v),
      );
    },
  };

  // The end of the game, and the notice of this player's turn (title, sound, notification).
  const ending = endDialog({ ...ctx, id, code });
  gameEl.append(ending.element);
  const notice = turnNotice();

  // The chat (chat.js): made once, so what is being typed survives the redraws; hidden when
  // the player switched it off (the table's settings; kept by the server too, prefs.js).
  const chat = chatPanel({ conn, id, toast: ctx.toast, colorOf: (v, seat) => table?.seatColor(v, seat) });
  chat.element.hidden = pref('chatOff');
  // The server's preferences may arrive after the screen is drawn (prefs.js, at connection).
  const offPreferences = onPreferences(() => {
    chat.element.hidden = pref('chatOff');
    const box = settingsEl.querySelector('#pref-chatOff');
    if (box) box.checked = pref('chatOff');
    chat.relabel();
  });

  /** Every seat in a line: its colour, name, clock and whether it is to play. */
  const renderBar = (v) => {
    const over = v.status === 'finished' || v.status === 'aborted';
    const winners = (v.result && v.result.winners) || [];
    return v.seats.map((seat, i) => {
      const turn = !over && v.state.decider === i;
      const colour = SIDE_COLORS[(v.game === 'splendor' ? i : (seat.side ?? i)) % SIDE_COLORS.length];
      const cls = ['seat-chip'];
      if (turn) cls.push('turn');
      if (v.you === i) cls.push('me');
      if (seat.out) cls.push('out');
      if (winners.includes(i)) cls.push('winner');
      return h(
        'div',
        { class: cls.join(' '), 'data-seat': i, style: `--side:${colour}` },
        h('span', { class: 'dot', 'aria-hidden': 'true' }),
        h('span', { class: 'seat-name', title: v.you === i ? t('game.nameYou', { name: nameOf(seat.player) }) : nameOf(seat.player) }, nameOf(seat.player)),
        tableContext.clockFor(v, i, turn),
        turn ? h('span', { class: 'seat-turn' }, v.you === i ? t('game.bar.yourTurn') : t('game.bar.toPlay')) : winners.includes(i) ? h('span', { class: 'seat-turn' }, t('game.bar.won')) : null,
      );
    });
  };

  // This browser's settings for the table, drawn once and kept across redraws (drawn again
  // after a change of language, open or closed as it was).
  const makeSettings = (open = false) =>
    h(
      'details',
      { class: 'settings', id: 'table-settings', open },
      h('summary', {}, t('game.settings')),
      prefToggle(h, 'sound', t('game.settings.sound'), (on) => on && notice.chime()),
      notice.notifyButton(),
      prefToggle(h, 'chatOff', t('game.settings.chatOff'), (on) => {
        chat.element.hidden = on;
      }),
      prefToggle(h, 'devSteps', t('game.settings.devSteps'), (on) => gameEl.classList.toggle('dev-steps', on)),
    );
  let settingsEl = makeSettings();

  // The spectator link, for whoever knows the code (drawn once, kept across redraws). A player
  // of a private match whose browser never saw the lobby (another device, cleared storage) is
  // told why there is none: the server keeps only the code's hash.
  let shareEl = null;
  const spectatorShare = (v) => {
    if (shareEl) return shareEl;
    if (code) {
      const link = spectatorLink(id, code);
      shareEl = h(
        'div',
        { class: 'invite spectator-share' },
        h('label', { for: 'spectator-link' }, t('game.spectatorLink')),
        h('div', { class: 'row' }, h('input', { id: 'spectator-link', readonly: true, value: link, onclick: (e) => e.target.select() }), h('button', { id: 'spectator-copy', onclick: () => navigator.clipboard?.writeText(link).then(() => ctx.toast(t('common.linkCopied'))) }, t('common.copy'))),
      );
      return shareEl;
    }
    if (v.you === null || v.you === undefined) return null;
    shareEl = h('p', { class: 'muted small', id: 'spectator-link-unknown' });
    header().then((hd) => {
      if (hd?.settings?.public === false) shareEl.textContent = t('game.spectatorLinkUnknown');
    });
    return shareEl;
  };

  /** Instead of the table: why the match cannot be shown. */
  const refused = (reason, title, ...text) =>
    mount(screen, h('div', { class: 'card narrow', id: 'match-refused', 'data-reason': reason }, h('h1', {}, title), ...text, h('p', {}, h('a', { href: '#/' }, t('common.home')))));

  // Lines that came in a snapshot have no known player: the stored records say who played
  // them (docs/api.md "Replay"). Asked a few times at most (a server without a database has no
  // records; its lines then stay without names).
  let authorAsks = 0;
  let authorsPending = false;
  const fillAuthors = (v) => {
    const m = match();
    if (!m || authorsPending || authorAsks >= 3 || !authorsMissing(m.authors, v.history)) return;
    authorAsks += 1;
    authorsPending = true;
    replay(id, code)
      .then((r) => {
        const seats = authorsFromRecords(r.steps || []);
        m.authors = m.authors || [];
        seats.forEach((seat, i) => {
          if (m.authors[i] === undefined) m.authors[i] = seat;
        });
        redraw();
      })
      .catch(() => {})
      .finally(() => {
        authorsPending = false;
      });
  };

  // The log, drawn in place line by line: a line is made again only when what it shows
  // changed (its step, mark, player, the seats' names, the player's powers, the language, the
  // notation switch); a step adds one `li` rather than building and comparing every line of a
  // long game again. The section is a live element that the side panel's redraw moves into
  // place and never patches (dom.js morph).
  const logOl = h('ol', { id: 'log' });
  const logHead = h('div', { class: 'log-head' });
  const logEl = h('section', { class: 'log' }, logHead, logOl);
  let logLines = []; // per line: { key, el }, el the `li` on screen
  const renderLog = (v) => {
    fillAuthors(v);
    const authors = match()?.authors || [];
    const names = v.seats.map((x) => nameOf(x.player));
    const common = [lang(), notationShown(), names.join('\u0001')].join('\u0002');
    const marks = historyMarks(v.history);
    const keys = [];
    const lines = marks.map((mark, i) => {
      const seat = authors[i];
      const color = table.seatColor(v, seat);
      keys[i] = [common, mark, v.history[i], seat, color, table.logKey(v, seat)].join('\u0002');
      if (logLines[i]?.key === keys[i]) return logLines[i].el;
      return logItem({ n: i + 1, mark, notation: v.history[i], name: names[seat], color, words: table.logWords(v, i, seat) });
    });
    morph(logHead, h('h3', {}, t('game.steps', { count: v.history.length, n: num(v.history.length) })), notationToggle(() => redraw()));
    morph(logOl, lines);
    // What is on screen now: a new line drawn alike to the one it replaces was patched into
    // that one (morph keeps the element), so read the elements back.
    logLines = [...logOl.children].map((el, i) => ({ key: keys[i], el }));
    return logEl;
  };

  // What the screen last drew: nothing is redrawn while it stays the same. A redraw replaces
  // the table and the buttons, so a needless one (the ack of a step that arrives after its
  // patch) could swallow a click that lands between its mousedown and mouseup.
  let drawn = { view: null, version: null, key: null };
  let sawLive = false; // this screen drew the match before it ended
  /** Draws again even if the view did not change (the log's words or notation did). */
  const redraw = () => {
    drawn = { view: null, version: null, key: null };
    render();
  };

  const render = () => {
    const m = match();
    const v = m?.view;
    if (!v) return;
    if (!table) {
      table = (TABLES[v.game] || santoriniTable)(tableContext);
      gameEl.dataset.game = v.game || 'santorini';
      ctx.setBrand?.(GAME_NAMES[v.game] || GAME_NAMES.santorini);
    }
    const legal = v.state.legal || [];
    const key = table.prepare(v, m.version);
    if (drawn.view === v && drawn.version === m.version && drawn.key === key) return;
    drawn = { view: v, version: m.version, key };
    gameEl.classList.toggle('my-turn', legal.length > 0);
    gameEl.dataset.status = v.status;
    gameEl.dataset.version = m.version;
    gameEl.dataset.you = v.you === null || v.you === undefined ? '' : v.you;
    gameEl.dataset.turn = v.state.turn || 0;
    gameEl.dataset.phase = v.state.phase || '';
    gameEl.dataset.decider = v.state.decider === null || v.state.decider === undefined ? '' : v.state.decider;
    // Where the log was scrolled, read before anything changes (the last frame's layout still
    // holds, so reading it costs nothing).
    const oldLog = els.side.querySelector('#log');
    const wasAtBottom = !oldLog || oldLog.scrollTop + oldLog.clientHeight >= oldLog.scrollHeight - 4;
    gameEl.querySelector(':scope > p.muted')?.remove();
    const over = v.status === 'finished' || v.status === 'aborted';
    notice.update({ mine: legal.length > 0 && !over, game: GAME_NAMES[v.game] || GAME_NAMES.santorini, perMove: v.clock?.kind === 'turn', over });
    // Drawn in place (dom.js morph): a step changes a few squares, a card, a log line, and the
    // browser redraws those rather than the whole table (a phone's battery, and the browser
    // tests' CPU, went mostly to laying out and painting unchanged text again).
    morph(els.bar, renderBar(v));
    morph(els.main, table.main(v));
    const historyChanged = v.history.length !== lastHistoryLength;
    lastHistoryLength = v.history.length;
    const log = renderLog(v);
    const seated = v.you !== null && v.you !== undefined;
    const canAbort = seated && !over && table.canAbort(v);
    const canResign = seated && v.status === 'playing' && !v.seats[v.you]?.out;
    const typing = document.activeElement === chat.input;
    morph(
      els.side,
      h(
        'div',
        { class: 'status-line' },
        h('span', {}, table.turnLabel(v)),
        h('span', { class: 'muted', id: 'spectators', title: t('match.spectators') }, t('match.watching', { count: v.spectators })),
      ),
      awayNotice(v, { claim: (seat, what) => conn.request({ type: 'match.claim', match: id, seat, what }).catch((e) => ctx.toast(errorText(e))) }),
      table.side(v),
      log,
      chat.element,
      h(
        'div',
        { class: 'row end' },
        canAbort ? h('button', { id: 'abort', onclick: () => confirm(t('game.abortConfirm')) && conn.request({ type: 'match.abort', match: id }).catch((e) => ctx.toast(errorText(e))) }, t('game.abort')) : null,
        canResign ? h('button', { id: 'resign', class: 'danger', onclick: () => confirm(t('game.resignConfirm')) && conn.request({ type: 'match.resign', match: id }).catch((e) => ctx.toast(errorText(e))) }, t('game.resign')) : null,
      ),
      spectatorShare(v),
      settingsEl,
    );
    chat.update(v);
    if (typing) chat.input.focus();
    // The end dialog opens when the match ends in front of this screen; a match that was
    // already over when the screen opened it (a reload, a late spectator, a link) shows the
    // final table, and its result block's Details opens the dialog.
    if (!over) sawLive = true;
    else if (sawLive) ending.once(v);
    if (over) ending.update(v);
    // The log follows new steps unless the reader scrolled back through it (the list on screen
    // is kept, its scroll position with it). In the next frame, whose layout the browser makes
    // anyway, rather than in a layout forced now.
    if (historyChanged || wasAtBottom) {
      requestAnimationFrame(() => {
        const ol = els.side.querySelector('#log');
        if (ol) ol.scrollTop = ol.scrollHeight;
      });
    }
    tick();
  };

  // Clocks count down locally from the moment the last version arrived. Four ticks a second
  // for a display of whole seconds: a clock's text is set only when it reads differently, since
  // setting it anew, even to the same words, makes the browser lay out and paint the seat bar
  // again (and wakes every MutationObserver on the page).
  const show = (el, text) => {
    if (el.textContent !== text) el.textContent = text;
  };
  const tick = () => {
    const m = match();
    const v = m?.view;
    if (!v || !v.clock) return;
    if (v.clock.kind === 'realtime') {
      for (const el of gameEl.querySelectorAll('.clock[data-seat]')) {
        const seat = Number(el.dataset.seat);
        let left = v.clock.remaining_ms[seat];
        const running = v.clock.running === seat && v.status !== 'finished' && v.status !== 'aborted';
        if (running) left -= performance.now() - m.receivedAt;
        show(el, clockText(left));
        el.classList.toggle('running', running);
        el.classList.toggle('low', left < 20000);
      }
    } else if (v.clock.kind === 'turn') {
      for (const el of gameEl.querySelectorAll('.clock[data-deadline]')) {
        show(el, t('game.clockLeft', { time: clockText(Number(el.dataset.deadline) - Date.now()) }));
      }
    }
  };
  const timer = setInterval(tick, 250);

  // Keys: U or Ctrl+Z takes back a step, E or Ctrl+Enter ends the turn (phase `confirm`).
  // Not while typing, and not with other modifiers (the browser's own shortcuts stay).
  const keys = (e) => {
    const t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
    if (e.altKey || e.metaKey) return;
    const key = e.key.toLowerCase();
    const { undo, endTurn } = turnSteps(view());
    if (undo && ((key === 'u' && !e.ctrlKey) || (key === 'z' && e.ctrlKey && !e.shiftKey))) {
      e.preventDefault();
      play(undo);
    } else if (endTurn && ((key === 'e' && !e.ctrlKey) || (key === 'enter' && e.ctrlKey))) {
      e.preventDefault();
      play(endTurn);
    }
  };
  window.addEventListener('keydown', keys);

  const offs = [
    conn.on('match.snapshot', (msg) => msg.match === id && render()),
    conn.on('match.patch', (msg) => msg.match === id && render()),
    conn.on('match.error', (msg) => {
      if (msg.match !== id) return;
      // A finished match leaves the server's memory soon after its last patch: a reconnect that
      // reopens it gets unknown_match, and the final table this screen shows stays.
      if (view()) return;
      if (msg.code === 'unknown_match') refused(msg.code, t('game.refused.noMatch'), h('p', {}, `${t('game.refused.noMatchText')} `, h('a', { href: replayHash(id, code) }, t('game.refused.tryReplay'))));
      else if (msg.code === 'not_authorized' && code) refused(msg.code, t('game.refused.wrongCode'), h('p', {}, t('game.refused.wrongCodeText')));
      else if (msg.code === 'not_authorized') refused(msg.code, t('game.refused.private'), h('p', {}, t('game.refused.privateText')));
      else refused(msg.code, t('game.refused.couldNotOpen'), h('p', { class: 'error' }, errorText(msg)));
    }),
  ];
  // A change of language redraws this screen in place: the match stays open, the game goes on.
  ctx.onLanguage?.(() => {
    els.bar.setAttribute('aria-label', t('game.seatBar'));
    settingsEl = makeSettings(settingsEl.open);
    chat.relabel();
    shareEl = null;
    ratedEl = null;
    ending.relabel(view());
    if (view()) redraw();
    else gameEl.querySelector(':scope > p.muted')?.replaceChildren(t('game.opening'));
  });
  conn.openMatch(id, { code });
  render();
  return () => {
    clearInterval(timer);
    window.removeEventListener('keydown', keys);
    offs.forEach((off) => off());
    offPreferences();
    table?.dispose?.();
    notice.dispose();
    ending.dispose();
    conn.closeMatch(id);
  };
}
