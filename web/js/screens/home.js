// Home: quick play queues, the public lobbies and the live games (both kept live over the
// WebSocket subscriptions), and the way to create a game.
import { h, mount } from '../dom.js';
import { queues as fetchQueues, player as fetchPlayer, storesGames } from '../api.js';
import { powerName } from '../catalog.js';
import { settingsSummary } from './create.js';
import { BOT_LEVELS, botBadge, nameOf, localName } from '../bots.js';
import { t, term, num, rating } from '../i18n/index.js';
import { errorText } from '../errors.js';

// A list after a `<list>.changed` event: each changed entry replaces the one with its id (or
// comes last), each removed id leaves. Applying the same change twice changes nothing.
function applyChanges(list, { changed = [], removed = [] }) {
  const gone = new Set(removed);
  const next = list.filter((entry) => !gone.has(entry.id));
  for (const entry of changed) {
    const at = next.findIndex((e) => e.id === entry.id);
    if (at >= 0) next[at] = entry;
    else next.push(entry);
  }
  return next;
}

/** The rated queues; `key` names their words in i18n ('queue.<key>.name', '….text'); `pool`
 *  the rating pool their games count in (docs/ratings.md). */
export const QUEUES = [
  { queue: 'santorini', game: 'Santorini', key: 'noGods', pool: 'santorini' },
  { queue: 'santorini_simple', game: 'Santorini', key: 'simpleGods', pool: 'santorini_powers' },
  { queue: 'santorini_gods', game: 'Santorini', key: 'allGods', pool: 'santorini_powers' },
  { queue: 'splendor', game: 'Splendor', key: 'splendor', pool: 'splendor' },
];
const queueTitle = (q) => t(`queue.${q.key}.name`);

export const CLOCK_PRESETS = [
  { label: '3 + 2', base_seconds: 180, increment_seconds: 2 },
  { label: '5 + 3', base_seconds: 300, increment_seconds: 3 },
  { label: '10 + 5', base_seconds: 600, increment_seconds: 5 },
];

const queueName = (key) => {
  const q = QUEUES.find((x) => x.queue === key);
  return q ? `${q.game}, ${queueTitle(q).toLowerCase()}` : key;
};

/** "Play against the computer": a private lobby whose other seats are all the computer's
 *  (`bots` = players - 1), started at once; lobby.closed then takes us to the match. */
function computerCard(ctx, conn) {
  const field = (label, input) => h('label', { class: 'field' }, h('span', {}, label), input);
  const select = (id, options, value) => h('select', { id }, options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)));
  const game = select('bot-game', [['santorini', 'Santorini'], ['splendor', 'Splendor']], 'santorini');
  const level = select('bot-level', BOT_LEVELS.map((l) => [String(l), t(l === 1 ? 'bot.levelEasiest' : l === 5 ? 'bot.levelHardest' : 'bot.level', { level: l })]), '2');
  const gods = select('bot-gods', [['none', t('gods.none')], ['simple', t('gods.simple')], ['all', t('gods.all')]], 'simple');
  const players = select('bot-players', [['2', t('home.bot.twoPlayers')], ['3', t('players.count', { count: 3 })], ['4', t('players.count', { count: 4 })]], '2');
  const godsField = field(t('create.gods'), gods);
  const error = h('p', { class: 'error', role: 'alert' });
  const button = h('button', { type: 'submit', class: 'primary', id: 'bot-play' }, t('home.bot.play'));
  const sync = () => {
    godsField.hidden = game.value !== 'santorini';
    // Santorini with 3 or 4 players is played with gods.
    const none = gods.querySelector('option[value="none"]');
    none.disabled = game.value === 'santorini' && players.value !== '2';
    if (none.disabled && gods.value === 'none') gods.value = 'simple';
  };
  for (const el of [game, players]) el.addEventListener('change', sync);
  const play = async (e) => {
    e.preventDefault();
    error.textContent = '';
    button.disabled = true;
    const n = Number(players.value);
    const settings = { game: game.value, players: n, bots: n - 1, bot_level: Number(level.value), public: true, clock: { kind: 'none' } };
    if (game.value === 'santorini') settings.powers = gods.value;
    try {
      await conn.request({ type: 'lobby.create', settings });
      // The `lobby` event came before the ack: every other seat is the computer's, so start.
      if (!ctx.state.lobby) throw new Error(t('home.bot.noLobby'));
      await conn.request({ type: 'lobby.start', lobby: ctx.state.lobby.id });
    } catch (err) {
      error.textContent = errorText(err);
      button.disabled = false;
    }
  };
  sync();
  return h(
    'form',
    { class: 'card computer', id: 'play-computer', onsubmit: play },
    h('h2', {}, t('home.bot.title')),
    h('p', { class: 'muted small' }, t('home.bot.text')),
    h('div', { class: 'inline' }, field(t('create.game'), game), field(t('home.bot.levelField'), level), godsField, field(t('create.players'), players)),
    h('div', { class: 'row' }, h('span'), button),
    error,
  );
}

/** A listed player's name with their rating in the game's pool beside it ("Ann 1532", "Bob
 *  1500?" while provisional), as the lists carry it (docs/protocol.md, "Ratings in the lists");
 *  the name alone when the rating is not known (a computer, or a server without a database). */
function ratedName(name, r) {
  const shown = r ? `${rating(r.rating)}${r.provisional ? '?' : ''}` : null;
  return h(
    'span',
    { class: 'listed-player' },
    h('span', { class: 'listed-name' }, name),
    shown
      ? h(
          'span',
          { class: 'list-rating', title: t(r.provisional ? 'home.rating.provisional' : 'home.rating.title', { rating: shown }) },
          shown,
        )
      : null,
  );
}

/** Items with `between` (text) between each two. */
const joined = (items, between) => items.flatMap((item, i) => (i ? [between, item] : [item]));

export function homeScreen(ctx) {
  const { screen } = ctx;
  const conn = ctx.state.conn;
  const lobbyList = h('ul', { class: 'list', id: 'lobby-list' }, h('li', { class: 'muted' }, t('common.loading')));
  const matchList = h('ul', { class: 'list', id: 'match-list' }, h('li', { class: 'muted' }, t('common.loading')));
  const queueBox = h('div', { id: 'queue-box' });
  const waiting = new Map(); // "queue|base|inc" -> count
  // This player's rating per pool (read once: GET /api/players/{id}; a server without a
  // database keeps none, and the cards then show no rating).
  const ratings = new Map(); // pool -> {rating, provisional}
  let ratingsRead = false;
  /** "Your rating: 1532" on a queue card; `?` while provisional or before a first rated game. */
  const ratingLine = (q) => {
    if (!ratingsRead) return null;
    const r = ratings.get(q.pool);
    const value = r ? `${rating(Math.round(r.rating))}${r.provisional ? '?' : ''}` : `${rating(1500)}?`;
    return h('span', { class: 'queue-rating small', 'data-pool': q.pool, title: r?.provisional || !r ? t('home.queue.provisional') : null }, t('home.queue.yourRating', { rating: value }));
  };

  const renderQueues = () => {
    if (ctx.state.queue) {
      const q = ctx.state.queue;
      const preset = CLOCK_PRESETS.find((p) => p.base_seconds === q.clock.base_seconds && p.increment_seconds === q.clock.increment_seconds);
      mount(
        queueBox,
        h(
          'div',
          { class: 'queue-waiting', id: 'queue-waiting' },
          h('span', { class: 'spinner' }),
          t('home.queue.looking', { queue: queueName(q.queue), clock: preset ? preset.label : '' }),
          h('button', { onclick: () => conn.request({ type: 'queue.leave' }).catch((e) => ctx.toast(errorText(e))) }, t('common.cancel')),
        ),
      );
      return;
    }
    mount(
      queueBox,
      h(
        'div',
        { class: 'queues' },
        QUEUES.map((q) =>
          h(
            'div',
            { class: `queue queue-${q.game.toLowerCase()}`, 'data-queue': q.queue },
            h('span', { class: 'queue-game small' }, q.game),
            h('strong', {}, queueTitle(q)),
            h('span', { class: 'muted small' }, t(`queue.${q.key}.text`)),
            ratingLine(q),
            h(
              'div',
              { class: 'presets' },
              CLOCK_PRESETS.map((p) => {
                const n = waiting.get(`${q.queue}|${p.base_seconds}|${p.increment_seconds}`);
                return h(
                  'button',
                  {
                    class: 'preset',
                    'data-queue': q.queue,
                    'data-clock': p.label,
                    onclick: () => {
                      const clock = { kind: 'realtime', base_seconds: p.base_seconds, increment_seconds: p.increment_seconds };
                      // Kept for the end of the game's "New opponent": a pairing may come at once.
                      ctx.state.joining = { queue: q.queue, clock };
                      return conn
                        .request({ type: 'queue.join', queue: q.queue, clock })
                        .catch((e) => ctx.toast(e.code === 'unavailable' ? t('home.queue.needsDatabase') : errorText(e)));
                    },
                  },
                  p.label,
                  n ? h('span', { class: 'badge', title: t('home.queue.waiting', { count: n }) }, num(n)) : null,
                );
              }),
            ),
          ),
        ),
      ),
    );
  };

  const renderLobbies = (lobbies) => {
    const open = lobbies.filter((l) => l.status === 'waiting');
    mount(
      lobbyList,
      open.length === 0
        ? h('li', { class: 'muted' }, t('home.noLobbies'))
        : open.map((l) =>
            h(
              'li',
              { class: 'row', 'data-lobby': l.id },
              h(
                'div',
                {},
                h('strong', { class: 'listed-players' }, joined(l.seats.filter((x) => x).map((x) => ratedName(nameOf(x.player), x.player.rating)), ', ')),
                h('div', { class: 'muted small' }, settingsSummary(l.settings)),
              ),
              h('span', { class: 'muted' }, `${l.seats.filter((x) => x).length}/${l.seats.length}`),
              h('button', { onclick: () => conn.request({ type: 'lobby.join', lobby: l.id }).catch((e) => ctx.toast(errorText(e))) }, t('home.join')),
            ),
          ),
    );
  };

  const renderMatches = (matches) => {
    mount(
      matchList,
      matches.length === 0
        ? h('li', { class: 'muted' }, t('home.noMatches'))
        : matches.map((m) =>
            h(
              'li',
              { class: 'row', 'data-match': m.id },
              h(
                'div',
                {},
                h('strong', { class: 'listed-players' }, (m.players || []).length ? joined(m.players.map((name, i) => ratedName(localName(name), (m.ratings || [])[i])), t('match.versus')) : m.id),
                (m.bots || []).length ? h('span', { class: 'bots' }, ' ', [...new Set(m.bots.map((b) => b.level))].map((l) => botBadge(l))) : null,
                h(
                  'div',
                  { class: 'muted small' },
                  m.game === 'splendor'
                    ? `Splendor${m.points ? ` · ${t('home.points', { points: m.points.map((x) => num(x)).join(' – ') })}` : ''}`
                    : (m.powers || []).filter(Boolean).map(powerName).join(' · ') || term('status.', m.status),
                ),
              ),
              h('span', { class: 'muted', title: t('match.spectators') }, t('match.watching', { count: m.spectators || 0 })),
              h('a', { class: 'button', href: `#/match/${m.id}` }, t('home.watch')),
            ),
          ),
    );
  };

  mount(
    screen,
    h(
      'div',
      { class: 'home' },
      computerCard(ctx, conn),
      h('section', { class: 'card' }, h('h2', {}, t('home.quickPlay')), h('p', { class: 'muted small' }, t('home.quickPlayText')), queueBox),
      h(
        'section',
        { class: 'card' },
        h('div', { class: 'row' }, h('h2', {}, t('home.openLobbies')), h('a', { class: 'button primary', href: '#/create', id: 'create-game' }, t('home.createGame'))),
        lobbyList,
      ),
      h('section', { class: 'card' }, h('h2', {}, t('home.liveGames')), matchList),
    ),
  );
  renderQueues();

  // A list arrives whole when subscribing, then as coalesced changes (docs/protocol.md).
  let lobbies = [];
  let matches = [];
  const offs = [
    conn.on('lobbies', (msg) => renderLobbies((lobbies = msg.lobbies))),
    conn.on('lobbies.changed', (msg) => renderLobbies((lobbies = applyChanges(lobbies, msg)))),
    conn.on('matches', (msg) => renderMatches((matches = msg.matches))),
    conn.on('matches.changed', (msg) => renderMatches((matches = applyChanges(matches, msg)))),
    conn.on('queue', () => renderQueues()),
  ];
  conn.subscribe('lobbies');
  conn.subscribe('matches');
  const me = ctx.state.me;
  if (me)
    storesGames()
      .then((stores) => (stores ? fetchPlayer(me.id) : null))
      .then((p) => {
        if (!p) return;
        for (const r of p.ratings || []) ratings.set(r.pool, r);
        ratingsRead = true;
        renderQueues();
      })
      .catch(() => {});
  fetchQueues()
    .then((list) => {
      for (const q of list) waiting.set(`${q.queue}|${q.clock.base_seconds}|${q.clock.increment_seconds}`, q.waiting);
      renderQueues();
    })
    .catch(() => {});
  return () => {
    offs.forEach((off) => off());
    conn.unsubscribe('lobbies');
    conn.unsubscribe('matches');
  };
}
