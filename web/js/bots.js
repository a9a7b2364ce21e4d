// Computer players (docs/bot.md, "In the server"): a seat's player with `bot` is played by the
// server itself. Everywhere a player is named, a computer shows as its "Computer (level N)" badge.
import { h } from './dom.js';
import { t } from './i18n/index.js';

export const BOT_LEVELS = [1, 2, 3, 4, 5];

/** The badge naming a computer player, e.g. "Computer (level 3)". */
export function botBadge(level) {
  return h('span', { class: 'badge bot', 'data-bot-level': level, title: t('bot.badgeTitle') }, t('bot.badge', { level }));
}

/** A player's name as the server gives it, in the current language when it is a computer's
 *  ("Computer (level 3)", "Computer 2 (level 3)": server/bots/bot_players.hpp). */
export function localName(name) {
  const m = /^Computer(?: (\d+))? \(level (\d+)\)$/.exec(name || '');
  return m ? t(m[1] ? 'bot.badgeNth' : 'bot.badge', { n: m[1], level: m[2] }) : name;
}

/** A seat's player's name as shown in text (undefined for no player). */
export const nameOf = (player) => (player ? localName(player.name) : undefined);

/** A player's name as shown in seats: a link to the player's page, or the computer's badge. */
export function playerName(player, attrs = {}) {
  if (player && player.bot) return botBadge(player.bot.level);
  return h('a', { href: `#/player/${player.id}`, class: 'name', ...attrs }, localName(player.name));
}
