// The replay viewer: every step of a match, forward and back, a jump to any step, autoplay.
// Views come from the server (GET /api/matches/{id}/view?after=N): the client replays no rules.
// A finished game's views are revealed (docs/api.md): Splendor's cards reserved from a deck
// show face up in their owner's hand. A private match's replay needs its invite code
// (`#/replay/{id}/{code}`, sent as `?code=`) unless the reader played in it (docs/api.md).
import { h, mount } from '../dom.js';
import { nameOf } from '../bots.js';
import { replay as fetchReplay, viewAfter } from '../api.js';
import { historyMarks } from '../history.js';
import { lineContent, notationToggle } from '../log-lines.js';
import { santoriniReplay } from '../santorini/replay.js';
import { splendorReplay } from '../splendor/replay.js';
import { t, term, list } from '../i18n/index.js';
import { errorText } from '../errors.js';
import { chatLineItem } from '../chat.js';
import { mutedPlayers } from '../prefs.js';

// Each game's part of the viewer, chosen by the match's `game`: {start(screenEl, boardEl),
// show(boardEl, view, n), players(), note(), notation(record), logWords(record),
// seatColor(seat)}.
const GAMES = { santorini: santoriniReplay, splendor: splendorReplay };

/** `code`: a private match's invite code, from the route (or null). */
/** Why the replay cannot be shown, in words: a private match without (or with a wrong) code. */
function refusal(e, code) {
  if (e.status === 403 && code) return t('replay.wrongCode');
  if (e.status === 403) return t('replay.private');
  if (e.status === 404) return t('replay.noMatch');
  return errorText(e);
}

export function replayScreen(ctx, id, code = null) {
  const { screen } = ctx;
  let data = null;
  let game = null; // the game's part of the viewer, once the replay is in
  let position = 0;
  let timer = null;
  let closed = false;
  const cache = new Map(); // after -> view
  const boardEl = h('div', { class: 'board-wrap', id: 'board' });
  const side = h('div', { class: 'side' });

  const current = (n) => !closed && n === position; // still the position to show
  const viewOf = async (n) => {
    if (!cache.has(n)) cache.set(n, viewAfter(id, n, code).then((r) => r.view));
    try {
      return await cache.get(n);
    } catch (e) {
      cache.delete(n);
      throw e;
    }
  };

  const go = async (n) => {
    if (!data) return;
    position = Math.max(0, Math.min(data.steps.length, n));
    const wanted = position;
    renderSide();
    try {
      const v = await viewOf(wanted);
      if (!current(wanted)) return;
      await game.show(boardEl, v, wanted);
      if (!current(wanted)) return;
      boardEl.dataset.after = wanted;
      if (wanted + 1 <= data.steps.length) viewOf(wanted + 1).catch(() => {}); // prefetch
    } catch (e) {
      mount(boardEl, h('p', { class: 'error' }, errorText(e)));
    }
  };

  const autoplay = () => {
    if (timer) {
      clearInterval(timer);
      timer = null;
    } else {
      if (position >= data.steps.length) go(0);
      timer = setInterval(() => {
        if (position >= data.steps.length) autoplay();
        else go(position + 1);
      }, 900);
    }
    renderSide();
  };

  const names = () => (data.match.seats || []).map((s) => nameOf(s.player));

  const renderSide = () => {
    const header = data.match;
    // Undo and end turn lines, and the steps an undo took back, marked as in the live log.
    const marks = historyMarks(data.steps.map((s) => (s.step.kind === 'undo' ? 'undo' : s.step.kind === 'end_turn' ? 'end turn' : 'step')));
    const result = header.result;
    mount(
      side,
      game.players(),
      h('p', { class: 'muted small' }, `${term('status.', header.status)}${result?.winners?.length ? ` · ${t('replay.wonBy', { names: list(result.winners.map((w) => names()[w])), reason: term('replay.reason.', result.reason) })}` : ''}`),
      h(
        'div',
        { class: 'replay-controls' },
        h('button', { id: 'replay-first', onclick: () => go(0), title: t('replay.startTitle') }, `« ${t('replay.start')}`),
        h('button', { id: 'replay-back', onclick: () => go(position - 1), title: t('replay.back') }, '◀'),
        h('button', { id: 'replay-play', onclick: autoplay, title: t('replay.autoplay') }, timer ? t('replay.pause') : t('replay.play')),
        h('button', { id: 'replay-forward', onclick: () => go(position + 1), title: t('replay.forward') }, '▶'),
        h('button', { id: 'replay-last', onclick: () => go(data.steps.length), title: t('replay.endTitle') }, `${t('replay.end')} »`),
      ),
      h('input', { type: 'range', id: 'replay-slider', 'aria-label': t('replay.slider'), min: 0, max: data.steps.length, value: position, oninput: (e) => go(Number(e.target.value)) }),
      h('p', { id: 'replay-position' }, t('replay.position', { n: position, of: data.steps.length })),
      game.note(),
      h('div', { class: 'log-head' }, notationToggle(() => renderSide())),
      h(
        'ol',
        { class: 'log', id: 'log' },
        h('li', { class: position === 0 ? 'current' : '', value: 0 }, h('button', { class: 'link', onclick: () => go(0) }, t('replay.setup'))),
        data.steps.map((s, i) =>
          h(
            'li',
            { class: [s.number === position ? 'current' : '', marks[i]].filter(Boolean).join(' ') || null, 'data-n': s.number, 'data-kind': s.step.kind, 'data-notation': game.notation(s) },
            h('button', { class: 'link', onclick: () => go(s.number) }, lineContent({ name: names()[s.seat], color: game.seatColor(s.seat), words: game.logWords(s), notation: game.notation(s) })),
          ),
        ),
      ),
    );
    // A finished match's chat, both channels (docs/api.md "Replay"), muted players hidden.
    const muted = mutedPlayers();
    const chat = (data.chat || []).filter((line) => !muted.has(line.player));
    if (chat.length)
      side.append(
        h('section', { class: 'chat', id: 'replay-chat' }, h('h3', {}, t('chat.title')), h('ol', { class: 'chat-lines' }, chat.map((line) => chatLineItem(line, line.seat === null ? null : game.seatColor(line.seat), { tagSpectators: true })))),
      );
    side.querySelector('li.current')?.scrollIntoView({ block: 'nearest' });
  };

  mount(screen, h('div', { class: 'game replay', 'data-match': id }, boardEl, side));
  mount(boardEl, h('p', { class: 'muted' }, t('replay.loading')));
  fetchReplay(id, code)
    .then((r) => {
      if (closed) return;
      data = r;
      game = (GAMES[data.match.game] || santoriniReplay)(data, { viewOf, current, rerender: () => !closed && renderSide() });
      game.start(screen, boardEl);
      go(0);
    })
    .catch((e) => mount(screen, h('div', { class: 'card narrow', id: 'replay-refused', 'data-status': e.status || '' }, h('h1', {}, t('replay.unavailable')), h('p', { class: 'error' }, refusal(e, code)), h('a', { href: '#/' }, t('common.home')))));
  const keys = (e) => {
    if (!data || e.target.tagName === 'INPUT') return;
    if (e.key === 'ArrowLeft') go(position - 1);
    if (e.key === 'ArrowRight') go(position + 1);
  };
  window.addEventListener('keydown', keys);
  return () => {
    closed = true;
    if (timer) clearInterval(timer);
    window.removeEventListener('keydown', keys);
  };
}
