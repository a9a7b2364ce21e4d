// Home: quick play queues, the public lobbies and the live games (both kept live over the
// WebSocket subscriptions), and the way to create a game.
import { h, mount } from '../dom.js';
import { queues as fetchQueues } from '../api.js';
import { powerName } from '../catalog.js';
import { settingsSummary } from './create.js';
import { BOT_LEVELS, botBadge } from '../bots.js';

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

export const QUEUES = [
  { queue: 'santorini', game: 'Santorini', name: 'No gods', text: 'The base game.' },
  { queue: 'santorini_simple', game: 'Santorini', name: 'Simple gods', text: 'Each player is dealt a simple god.' },
  { queue: 'santorini_gods', game: 'Santorini', name: 'All gods', text: 'Gods drafted at random from all the server plays.' },
  { queue: 'splendor', game: 'Splendor', name: 'Two players', text: 'Race for gems, cards and nobles.' },
];

export const CLOCK_PRESETS = [
  { label: '3 + 2', base_seconds: 180, increment_seconds: 2 },
  { label: '5 + 3', base_seconds: 300, increment_seconds: 3 },
  { label: '10 + 5', base_seconds: 600, increment_seconds: 5 },
];

const queueName = (key) => {
  const q = QUEUES.find((x) => x.queue === key);
  return q ? (q.name === q.game ? q.name : `${q.game}, ${q.name.toLowerCase()}`) : key;
};

/** "Play against the computer": a private lobby whose other seats are all the computer's
 *  (`bots` = players - 1), started at once; lobby.closed then takes us to the match. */
function computerCard(ctx, conn) {
  const field = (label, input) => h('label', { class: 'field' }, h('span', {}, label), input);
  const select = (id, options, value) => h('select', { id }, options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)));
  const game = select('bot-game', [['santorini', 'Santorini'], ['splendor', 'Splendor']], 'santorini');
  const level = select('bot-level', BOT_LEVELS.map((l) => [String(l), `Level ${l}${l === 1 ? ' (easiest)' : l === 5 ? ' (hardest)' : ''}`]), '2');
  const gods = select('bot-gods', [['none', 'No gods'], ['simple', 'Simple gods'], ['all', 'All gods']], 'simple');
  const players = select('bot-players', [['2', '2 players: you and the computer'], ['3', '3 players'], ['4', '4 players']], '2');
  const godsField = field('Gods', gods);
  const error = h('p', { class: 'error', role: 'alert' });
  const button = h('button', { type: 'submit', class: 'primary', id: 'bot-play' }, 'Play');
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
      if (!ctx.state.lobby) throw new Error('the lobby was not made');
      await conn.request({ type: 'lobby.start', lobby: ctx.state.lobby.id });
    } catch (err) {
      error.textContent = err.message;
      button.disabled = false;
    }
  };
  sync();
  return h(
    'form',
    { class: 'card computer', id: 'play-computer', onsubmit: play },
    h('h2', {}, 'Play against the computer'),
    h('p', { class: 'muted small' }, 'A casual game at once: the computer takes every other seat.'),
    h('div', { class: 'inline' }, field('Game', game), field('Level', level), godsField, field('Players', players)),
    h('div', { class: 'row' }, h('span'), button),
    error,
  );
}

export function homeScreen(ctx) {
  const { screen } = ctx;
  const conn = ctx.state.conn;
  const lobbyList = h('ul', { class: 'list', id: 'lobby-list' }, h('li', { class: 'muted' }, 'Loading…'));
  const matchList = h('ul', { class: 'list', id: 'match-list' }, h('li', { class: 'muted' }, 'Loading…'));
  const queueBox = h('div', { id: 'queue-box' });
  const waiting = new Map(); // "queue|base|inc" -> count

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
          `Looking for an opponent: ${queueName(q.queue)}, ${preset ? preset.label : ''}…`,
          h('button', { onclick: () => conn.request({ type: 'queue.leave' }).catch((e) => ctx.toast(e.message)) }, 'Cancel'),
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
            h('strong', {}, q.name),
            h('span', { class: 'muted small' }, q.text),
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
                        .catch((e) => ctx.toast(e.code === 'unavailable' ? 'Quick play needs the server’s database; try a lobby instead.' : e.message));
                    },
                  },
                  p.label,
                  n ? h('span', { class: 'badge' }, String(n)) : null,
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
        ? h('li', { class: 'muted' }, 'No open lobbies. Create one!')
        : open.map((l) =>
            h(
              'li',
              { class: 'row', 'data-lobby': l.id },
              h('div', {}, h('strong', {}, l.seats.find((x) => x)?.player.name || '?'), h('div', { class: 'muted small' }, settingsSummary(l.settings))),
              h('span', { class: 'muted' }, `${l.seats.filter((x) => x).length}/${l.seats.length}`),
              h('button', { onclick: () => conn.request({ type: 'lobby.join', lobby: l.id }).catch((e) => ctx.toast(e.message)) }, 'Join'),
            ),
          ),
    );
  };

  const renderMatches = (matches) => {
    mount(
      matchList,
      matches.length === 0
        ? h('li', { class: 'muted' }, 'No games being played right now.')
        : matches.map((m) =>
            h(
              'li',
              { class: 'row', 'data-match': m.id },
              h(
                'div',
                {},
                h('strong', {}, (m.players || []).join(' vs ') || m.id),
                (m.bots || []).length ? h('span', { class: 'bots' }, ' ', [...new Set(m.bots.map((b) => b.level))].map((l) => botBadge(l))) : null,
                h(
                  'div',
                  { class: 'muted small' },
                  m.game === 'splendor'
                    ? `Splendor${m.points ? ` · ${m.points.join(' – ')} points` : ''}`
                    : (m.powers || []).filter(Boolean).map(powerName).join(' · ') || m.status,
                ),
              ),
              h('span', { class: 'muted', title: 'spectators' }, `watching: ${m.spectators || 0}`),
              h('a', { class: 'button', href: `#/match/${m.id}` }, 'Watch'),
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
      h('section', { class: 'card' }, h('h2', {}, 'Quick play'), h('p', { class: 'muted small' }, 'Rated games against the next player waiting with the same settings.'), queueBox),
      h(
        'section',
        { class: 'card' },
        h('div', { class: 'row' }, h('h2', {}, 'Open lobbies'), h('a', { class: 'button primary', href: '#/create', id: 'create-game' }, 'Create a game')),
        lobbyList,
      ),
      h('section', { class: 'card' }, h('h2', {}, 'Live games'), matchList),
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
