// A lobby we sit in: seats, settings, the invite link; the host starts or kicks. And the
// invite link's target, which joins the lobby by its code.
import { h, mount } from '../dom.js';
import { settingsSummary } from './create.js';
import { playerName } from '../bots.js';
import { t } from '../i18n/index.js';
import { errorText } from '../errors.js';

export function lobbyScreen(ctx, id) {
  const { screen } = ctx;
  const conn = ctx.state.conn;
  const render = () => {
    const lobby = ctx.state.lobby;
    if (!lobby || lobby.id !== id) {
      mount(screen, h('div', { class: 'card narrow' }, h('p', {}, t('lobby.notIn')), h('a', { href: '#/' }, t('common.backHome'))));
      return;
    }
    const host = lobby.host === ctx.state.me.id;
    const link = lobby.code ? `${location.origin}${location.pathname}#/join/${lobby.code}` : null;
    mount(
      screen,
      h(
        'div',
        { class: 'card narrow lobby', 'data-lobby': lobby.id },
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
  return conn.on('lobby', render);
}

export function joinScreen(ctx, code) {
  const { screen } = ctx;
  mount(screen, h('div', { class: 'card narrow' }, h('p', {}, t('lobby.joining', { code }))));
  ctx.state.conn.request({ type: 'lobby.join', code }).catch((e) => {
    mount(screen, h('div', { class: 'card narrow' }, h('h1', {}, t('lobby.couldNotJoin')), h('p', { class: 'error' }, errorText(e)), h('a', { href: '#/' }, t('common.backHome'))));
  });
}
