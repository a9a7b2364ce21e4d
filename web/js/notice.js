// Noticing that it is your turn while looking elsewhere: the tab's title says "Your turn", a
// short tone sounds if the player switched sound on (prefs.js; off by default), and in a game
// with hours per move a browser notification shows when the tab is hidden, once the player
// allowed it. Permission is asked only from a click on the settings' button (browsers refuse
// or penalise a request made without a user gesture).
import { h } from './dom.js';
import { pref } from './prefs.js';
import { t } from './i18n/index.js';

/** The notice for one match screen: update() after each view, dispose() when leaving it. */
export function turnNotice() {
  let mine = null; // whether it was this player's turn at the last update (null: no view yet)
  let audio = null;

  const chime = () => {
    try {
      audio ??= new AudioContext();
      if (audio.state === 'suspended') audio.resume();
      const now = audio.currentTime;
      // Two soft notes, a fifth apart: noticeable, not alarming.
      [[660, 0], [990, 0.14]].forEach(([freq, at]) => {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, now + at);
        gain.gain.exponentialRampToValueAtTime(0.18, now + at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.35);
        osc.connect(gain).connect(audio.destination);
        osc.start(now + at);
        osc.stop(now + at + 0.4);
      });
    } catch {
      /* no audio here: the title still says it */
    }
  };

  const notify = (game) => {
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted' || !document.hidden) return;
    try {
      const n = new Notification(t('notice.yourTurnNotification', { game }), { body: t('notice.opponentPlayed'), tag: 'santorini-turn' });
      n.onclick = () => {
        window.focus();
        n.close();
      };
    } catch {
      /* some browsers only notify from a service worker */
    }
  };

  return {
    /** `mine`: this player must play now; `perMove`: the clock gives hours per move. */
    update({ mine: now, game, perMove, over }) {
      document.title = now ? t('notice.titleYourTurn', { game }) : over ? t('notice.titleOver', { game }) : `${game} · ${t('site.name')}`;
      if (now && mine === false) {
        if (pref('sound')) chime();
        if (perMove) notify(game);
      }
      mine = now;
    },
    chime,
    /** "Notify me on my turn": shown while the browser may still ask for permission. */
    notifyButton() {
      if (typeof Notification === 'undefined' || Notification.permission !== 'default') return null;
      const button = h(
        'button',
        {
          type: 'button',
          id: 'notify-ask',
          class: 'small',
          onclick: async () => {
            const answer = await Notification.requestPermission();
            button.replaceWith(h('span', { class: 'muted small' }, answer === 'granted' ? t('notice.on') : t('notice.refused')));
          },
        },
        t('notice.ask'),
      );
      return button;
    },
    dispose() {
      document.title = t('site.name');
      audio?.close?.();
    },
  };
}
