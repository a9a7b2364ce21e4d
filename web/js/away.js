// An opponent who is away (docs/protocol.md, "Abandonment"): one line under the table's status
// per away seat, counting down to the rule's deadline ("Bob is away - you win in 4:12 unless
// they return"), and, once the view's claim_ms has passed, the claim a present player may make
// at once ("Claim the win", or "Abort" before everyone has moved). The view's instants are fixed,
// so the line keeps its own second timer and stops it once it is off the page.
import { h, clockText, fresh } from './dom.js';
import { nameOf } from './bots.js';
import { t } from './i18n/index.js';

/** What the rule does to `seat` at the deadline, as the viewer reads it: the key of its line. */
function ending(v, seat) {
  const { claim } = v.seats[seat].away;
  if (claim === 'abort') return 'abort';
  const inPlay = v.seats.filter((s) => !s.out).length;
  if (v.you !== null && v.you !== undefined && inPlay === 2) return 'youWin';
  return 'loses';
}

/** The away lines of view `v`, or null when nobody is away. `claim(seat, what)` sends the claim;
 *  `now()` is the wall clock in epoch ms (the view's instants are the server's). */
export function awayNotice(v, { claim, now = () => Date.now() }) {
  const over = v.status === 'finished' || v.status === 'aborted';
  const away = v.seats.filter((s) => s.away);
  if (over || away.length === 0) return null;
  const me = v.you === null || v.you === undefined ? null : v.seats[v.you];
  const mayClaim = me && !me.out && !me.away;
  const lines = away.map((s) => {
    const name = nameOf(s.player);
    const text = h('span', {});
    const button = mayClaim
      ? h(
          'button',
          { class: 'claim', id: `claim-${s.seat}`, hidden: true, onclick: () => claim(s.seat, s.away.claim) },
          s.away.claim === 'abort' ? t('game.abort') : t('away.claimWin'),
        )
      : null;
    const update = () => {
      text.textContent = t(`away.${ending(v, s.seat)}`, { name, time: clockText(s.away.deadline_ms - now()) });
      if (button) button.hidden = now() < s.away.claim_ms;
    };
    update();
    return { el: h('p', { class: 'away', 'data-seat': s.seat }, text, button ? ' ' : null, button), update };
  });
  // Replaced whole at each redraw (dom.js fresh): its timer reads the view it was drawn from.
  const el = fresh(h('div', { id: 'away' }, ...lines.map((l) => l.el)));
  const timer = setInterval(() => {
    // The game screen mounts the notice as it makes it; a newer view replaces it.
    if (!el.isConnected) return clearInterval(timer);
    lines.forEach((l) => l.update());
  }, 1000);
  return el;
}
