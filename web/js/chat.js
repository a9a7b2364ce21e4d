// The chat of a match (docs/protocol.md "Chat"): the view's `chat` lines, an input that sends
// `match.chat`, and per-player mutes (prefs.js: kept in this browser and by the server). While
// the match is on a player reads the players' channel and a spectator the spectators' (the
// players do not see it, which the panel says); from the end on both channels are shown, the
// spectators' lines marked.
// Every text is put in as a text node (dom.js h()), never as HTML. The panel is made once and
// kept across the game screen's redraws, so what is being typed stays. lobbyChatPanel is the
// lobby's chat (docs/protocol.md "Lobby chat"): the same lines, mutes and form, for members only.
import { h, mount } from './dom.js';
import { mutedPlayers, setMuted } from './prefs.js';
import { t } from './i18n/index.js';
import { errorText } from './errors.js';

const MAX_CHARACTERS = 280;

/** One chat line as a list item: the writer's name in `colour` (null: a spectator's), the
 *  text as text; `tagSpectators` marks a spectator's line as such; `mute`: a button after it. */
export function chatLineItem(line, colour, { tagSpectators = false, mute = null } = {}) {
  return h(
    'li',
    { class: `chat-line${line.channel === 'spectators' ? ' from-spectator' : ''}`, 'data-n': line.n, 'data-player': line.player, 'data-channel': line.channel },
    h('span', { class: 'chat-who log-who', style: colour ? `--side:${colour}` : null }, line.name),
    line.channel === 'spectators' && tagSpectators ? h('span', { class: 'muted chat-tag' }, ` (${t('chat.spectator')})`) : null,
    ' ',
    h('span', { class: 'chat-text', dir: 'auto' }, line.text),
    mute,
  );
}

/** Draws `chat` (lines, oldest first) into the list `lines`, without the lines of `muted`
 *  players, with a mute button after other people's lines, and the muted writers' names in
 *  `mutedRow` (to unmute); keeps the list scrolled to the end if it was. */
function drawLines({ lines, mutedRow, chat, muted, me, colourOf, tagSpectators = false, toggleMute }) {
  const atBottom = lines.scrollTop + lines.clientHeight >= lines.scrollHeight - 4;
  const shown = chat.filter((line) => !muted.has(line.player));
  mount(
    lines,
    shown.length === 0 ? h('li', { class: 'muted chat-empty' }, t('chat.empty')) : null,
    shown.map((line) =>
      chatLineItem(line, colourOf(line), {
        tagSpectators,
        mute: line.player === me ? null : h('button', { type: 'button', class: 'link chat-mute', title: t('chat.mute', { name: line.name }), 'aria-label': t('chat.mute', { name: line.name }), onclick: () => toggleMute(line.player, true) }, t('chat.muteButton')),
      }),
    ),
  );
  // Muted players who wrote here: their names, to unmute.
  const mutedHere = new Map();
  for (const line of chat) if (muted.has(line.player)) mutedHere.set(line.player, line.name);
  mount(
    mutedRow,
    mutedHere.size ? `${t('chat.muted')} ` : null,
    [...mutedHere].map(([player, name]) => h('button', { type: 'button', class: 'link chat-unmute', 'data-player': player, title: t('chat.unmute', { name }), onclick: () => toggleMute(player, false) }, name)),
  );
  mutedRow.hidden = mutedHere.size === 0;
  if (atBottom) lines.scrollTop = lines.scrollHeight;
}

/** The form that sends `message(text)` (a request) from `input` with `send`; empties the input
 *  once the line is taken, shows an error with `toast`. */
function chatForm({ conn, input, send, message, toast }) {
  let sending = false;
  return h(
    'form',
    {
      class: 'chat-form row',
      onsubmit: (e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (!text || sending) return;
        sending = true;
        conn
          .request(message(text))
          .then(() => {
            if (input.value.trim() === text) input.value = '';
          })
          .catch((err) => toast(errorText(err)))
          .finally(() => {
            sending = false;
          });
      },
    },
    input,
    send,
  );
}

/** The panel for match `id`: {element, input, update(v), relabel()}; `colorOf(v, seat)` is the
 *  seat's colour, `toast(text)` shows an error. */
export function chatPanel({ conn, id, toast, colorOf }) {
  const title = h('summary', { id: 'chat-title' });
  const note = h('p', { class: 'muted small', id: 'chat-note' });
  const lines = h('ol', { id: 'chat-lines', class: 'chat-lines', 'aria-live': 'polite' });
  const mutedRow = h('p', { class: 'muted small chat-muted', id: 'chat-muted' });
  const input = h('input', { id: 'chat-input', type: 'text', maxlength: MAX_CHARACTERS, autocomplete: 'off', enterkeyhint: 'send' });
  const send = h('button', { id: 'chat-send', type: 'submit' });
  const form = chatForm({ conn, input, send, message: (text) => ({ type: 'match.chat', match: id, text }), toast });
  const element = h('details', { class: 'chat', id: 'chat', open: true }, title, note, lines, mutedRow, form);
  let last = null;
  let drawnKey = null;

  const relabel = () => {
    input.placeholder = t('chat.placeholder');
    input.setAttribute('aria-label', t('chat.inputLabel'));
    send.textContent = t('chat.send');
    drawnKey = null;
    if (last) update(last);
  };

  const toggleMute = (player, on) => {
    setMuted(player, on);
    drawnKey = null;
    if (last) update(last);
  };

  /** Draws the view's chat (again only when it or the mutes changed). */
  const update = (v) => {
    last = v;
    const chat = v.chat || [];
    const muted = mutedPlayers();
    const spectator = v.you === null || v.you === undefined;
    const over = v.status === 'finished' || v.status === 'aborted';
    const me = spectator ? null : v.seats[v.you]?.player?.id;
    const key = `${chat.length}:${chat.at(-1)?.n ?? 0}:${[...muted].join(',')}:${spectator}:${over}`;
    if (key === drawnKey) return;
    drawnKey = key;
    element.dataset.channel = spectator && !over ? 'spectators' : over ? 'both' : 'players';
    title.textContent = spectator && !over ? t('chat.spectatorsTitle') : t('chat.title');
    note.textContent = over ? t('chat.overNote') : spectator ? t('chat.spectatorNote') : '';
    note.hidden = !note.textContent;
    drawLines({ lines, mutedRow, chat, muted, me, colourOf: (line) => (line.seat === null ? null : colorOf(v, line.seat)), tagSpectators: over, toggleMute });
  };

  relabel();
  return { element, input, update, relabel };
}

/** The chat panel of lobby `lobby` (an id), for its members: {element, set(chat), add(line),
 *  relabel()}. `set` takes the `lobby` event's `chat`, `add` a `lobby.chat` line (one already
 *  held is skipped); `me` is the viewer's player id, `colourOf(player)` a member's seat colour. */
export function lobbyChatPanel({ conn, lobby, me, toast, colourOf }) {
  const title = h('summary', { id: 'lobby-chat-title' });
  const note = h('p', { class: 'muted small', id: 'lobby-chat-note' });
  const lines = h('ol', { id: 'lobby-chat-lines', class: 'chat-lines', 'aria-live': 'polite' });
  const mutedRow = h('p', { class: 'muted small chat-muted', id: 'lobby-chat-muted' });
  const input = h('input', { id: 'lobby-chat-input', type: 'text', maxlength: MAX_CHARACTERS, autocomplete: 'off', enterkeyhint: 'send' });
  const send = h('button', { id: 'lobby-chat-send', type: 'submit' });
  const form = chatForm({ conn, input, send, message: (text) => ({ type: 'lobby.chat', lobby, text }), toast });
  const element = h('details', { class: 'chat lobby-chat', id: 'lobby-chat', open: true }, title, note, lines, mutedRow, form);
  let chat = [];
  const draw = () => drawLines({ lines, mutedRow, chat, muted: mutedPlayers(), me, colourOf: (line) => colourOf(line.player), toggleMute });
  const toggleMute = (player, on) => {
    setMuted(player, on);
    draw();
  };
  const relabel = () => {
    title.textContent = t('chat.title');
    note.textContent = t('lobby.chatNote');
    input.placeholder = t('chat.placeholder');
    input.setAttribute('aria-label', t('chat.inputLabel'));
    send.textContent = t('chat.send');
    draw();
  };
  // The server keeps the newest 30 lines of a lobby; so does the panel.
  const set = (list) => {
    chat = (list || []).slice(-30);
    draw();
  };
  const add = (line) => {
    if (chat.length && line.n <= chat.at(-1).n) return;
    chat = [...chat, line].slice(-30);
    draw();
  };
  relabel();
  return { element, set, add, relabel };
}
