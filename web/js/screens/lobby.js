// A lobby we sit in: seats, settings, the invite link; the host starts or kicks; the members
// chat (docs/protocol.md "Lobby chat"). And the invite link's target, which joins the lobby by
// its code.
import { h, mount } from '../dom.js';
import { settingsSummary } from './create.js';
import { playerName } from '../bots.js';
import { t } from '../i18n/index.js';
import { errorText } from '../errors.js';
import { lobbyChatPanel } from '../chat.js';
import { onPreferences, pref, prefToggle } from '../prefs.js';
import { SIDE_COLORS } from '../santorini/pieces.js';

const CHAT_LINES = 30; // as many as the server keeps per lobby

/** The colour of the seat `player` sits in (null if none): a Santorini team's colour in a
 *  four-player game (seats 0 and 2 against 1 and 3), else the seat's. */
function seatColour(lobby, player) {
  const seat = lobby ? lobby.seats.findIndex((s) => s && s.player.id === player) : -1;
  if (seat < 0) return null;
  const side = lobby.settings.game === 'santorini' && lobby.settings.players === 4 ? seat % 2 : seat;
  return SIDE_COLORS[side % SIDE_COLORS.length];
}

export function lobbyScreen(ctx, id) {
  const { screen } = ctx;
  const conn = ctx.state.conn;
  // The chat panel and its switch are made once and kept across redraws, so what is being typed
  // stays; the rest of the card is drawn again at every `lobby` event.
  const chat = lobbyChatPanel({ conn, lobby: id, me: ctx.state.me.id, toast: ctx.toast, colourOf: (player) => seatColour(ctx.state.lobby, player) });
  chat.element.hidden = pref('chatOff');
  const chatSwitch = h('p', { class: 'small lobby-chat-switch' }, prefToggle(h, 'chatOff', t('game.settings.chatOff'), (on) => {
    chat.element.hidden = on;
  }));
  // The server's preferences arrived (prefs.js): its chat off and mutes apply here too.
  const offPreferences = onPreferences(() => {
    chat.element.hidden = pref('chatOff');
    const box = chatSwitch.querySelector('#pref-chatOff');
    if (box) box.checked = pref('chatOff');
    chat.relabel();
  });
  const top = h('div', { class: 'lobby-top' });
  const card = h('div', { class: 'card narrow lobby', 'data-lobby': id }, top, chat.element, chatSwitch);
  let shown = false;
  const render = () => {
    const lobby = ctx.state.lobby;
    if (!lobby || lobby.id !== id) {
      shown = false;
      mount(screen, h('div', { class: 'card narrow' }, h('p', {}, t('lobby.notIn')), h('a', { href: '#/' }, t('common.backHome'))));
      return;
    }
    if (!shown) mount(screen, card);
    shown = true;
    const host = lobby.host === ctx.state.me.id;
    const link = lobby.code ? `${location.origin}${location.pathname}#/join/${lobby.code}` : null;
    chat.set(lobby.chat);
    mount(
      top,
      h(
        'div',
        {},
        h('h1', {}, t('lobby.title')),
        h('p', { class: 'muted' }, settingsSummary(lobby.settings)),
        h(
          'ol',
          { class: 'seats' },
          lobby.seats.map((seat, i) =>
            h(
              'li',
              { class: seat ? 'taken' : 'free', 'data-seat': i },
              seat ? (seat.player.bot ? playerName(seat.player) : seat.player.name) : h('span', { class: 'muted' }, t('lobby.waitingSeat')),
              seat && seat.player.id === lobby.host ? h('span', { class: 'badge' }, t('lobby.host')) : null,
              // The handicap game: this seat plays a hero against the other's god.
              lobby.settings.hero_seat === i ? h('span', { class: 'badge hero-seat', title: t('lobby.heroSeatTitle') }, t('lobby.heroSeat')) : null,
              // A computer's seat is the settings' (`bots`): it cannot be kicked.
              host && seat && seat.player.id !== ctx.state.me.id && !seat.player.bot
                ? h('button', { class: 'small', onclick: () => conn.request({ type: 'lobby.kick', lobby: lobby.id, player: seat.player.id }).catch((e) => ctx.toast(errorText(e))) }, t('lobby.kick'))
                : null,
            ),
          ),
        ),
        link
          ? h(
              'div',
              { class: 'invite' },
              h('label', { for: 'invite-link' }, t('lobby.inviteLink')),
              h('div', { class: 'row' }, h('input', { id: 'invite-link', readonly: true, value: link, onclick: (e) => e.target.select() }), h('button', { onclick: () => navigator.clipboard?.writeText(link).then(() => ctx.toast(t('common.linkCopied'))) }, t('common.copy'))),
              h('p', { class: 'muted small' }, t('lobby.code'), ' ', h('code', { id: 'invite-code' }, lobby.code)),
            )
          : null,
        h(
          'div',
          { class: 'row' },
          h('button', { id: 'lobby-leave', onclick: () => conn.request({ type: 'lobby.leave', lobby: lobby.id }).catch((e) => ctx.toast(errorText(e))) }, host ? t('lobby.close') : t('lobby.leave')),
          host
            ? h('button', { class: 'primary', id: 'lobby-start', disabled: lobby.status !== 'full', onclick: () => conn.request({ type: 'lobby.start', lobby: lobby.id }).catch((e) => ctx.toast(errorText(e))) }, lobby.status === 'full' ? t('lobby.start') : t('lobby.waitingPlayers'))
            : h('span', { class: 'muted' }, t('lobby.hostStarts')),
        ),
      ),
    );
  };
  render();
  const offLobby = conn.on('lobby', render);
  const offChat = conn.on('lobby.chat', (msg) => {
    const lobby = ctx.state.lobby;
    if (msg.lobby !== id || !lobby || lobby.id !== id) return;
    // Kept with the lobby too, so a redraw (a change of language routes here again) has it.
    lobby.chat = [...(lobby.chat || []).filter((line) => line.n < msg.line.n), msg.line].slice(-CHAT_LINES);
    chat.add(msg.line);
  });
  return () => {
    offLobby();
    offChat();
    offPreferences();
  };
}

export function joinScreen(ctx, code) {
  const { screen } = ctx;
  mount(screen, h('div', { class: 'card narrow' }, h('p', {}, t('lobby.joining', { code }))));
  ctx.state.conn.request({ type: 'lobby.join', code }).catch((e) => {
    mount(screen, h('div', { class: 'card narrow' }, h('h1', {}, t('lobby.couldNotJoin')), h('p', { class: 'error' }, errorText(e)), h('a', { href: '#/' }, t('common.backHome'))));
  });
}
