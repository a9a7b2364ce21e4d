// Creating a lobby: every setting the server accepts (docs/protocol.md `lobby.create`, and
// "Splendor", Lobby settings): the game, players, the gods for Santorini (and the handicap game:
// a hero for one seat against a god for the other), confirmed turns, rated or casual, the clock,
// public or private.
import { h, mount } from '../dom.js';
import { allPowers, powerInfo } from '../catalog.js';
import { BOT_LEVELS } from '../bots.js';

export const GAMES = { santorini: 'Santorini', splendor: 'Splendor' };

/** One line describing lobby settings. */
export function settingsSummary(st) {
  const game = st.game || 'santorini';
  const parts = [GAMES[game] || game, `${st.players} players`];
  if (game === 'santorini') {
    parts.push(st.powers === 'none' ? 'no gods' : st.powers === 'custom' ? `gods: ${(st.pool || []).length} chosen` : `${st.powers} gods`);
    if (st.powers !== 'none') parts.push(`${st.draft} draft`);
    if (st.golden_fleece) parts.push('Golden Fleece');
    if (st.hero_seat === 0 || st.hero_seat === 1) parts.push(st.hero_seat === 0 ? 'handicap: a hero for the host' : 'handicap: a hero for the guest');
  }
  if (st.bots > 0) parts.push(`${st.bots} computer${st.bots > 1 ? 's' : ''} (level ${st.bot_level})`);
  if (st.confirm_turns) parts.push('confirm turns');
  const c = st.clock || { kind: 'none' };
  if (c.kind === 'realtime') parts.push(`${Math.round(c.base_seconds / 60)}+${c.increment_seconds}`);
  else if (c.kind === 'turn') parts.push(`${c.hours_per_move} h per move`);
  else parts.push('no clock');
  if (st.rated === false) parts.push('casual');
  if (st.public === false) parts.push('private');
  return parts.join(' · ');
}

export function createScreen(ctx) {
  const { screen } = ctx;
  const field = (label, input) => h('label', { class: 'field' }, h('span', {}, label), input);
  const select = (id, options, value) =>
    h('select', { id }, options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)));

  const chosen = sessionStorage.getItem('create.game') === 'splendor' ? 'splendor' : 'santorini';
  const game = h('input', { type: 'hidden', id: 'set-game', value: chosen });
  const gameButtons = Object.entries(GAMES).map(([key, name]) =>
    h(
      'button',
      { type: 'button', class: `game-choice game-${key}`, 'data-game': key, 'aria-pressed': String(key === chosen), onclick: () => { game.value = key; sessionStorage.setItem('create.game', key); sync(); } },
      h('strong', {}, name),
      h('span', { class: 'small muted' }, key === 'santorini' ? 'Build, climb, and outwit the gods' : 'Gems, cards and nobles: race to 15 points'),
    ),
  );
  const players = select('set-players', [['2', '2 players'], ['3', '3 players'], ['4', '4 players (2 teams)']], '2');
  const powers = select('set-powers', [['none', 'No gods'], ['simple', 'Simple gods'], ['all', 'All gods'], ['heroes', 'Heroes'], ['custom', 'Choose the gods…']], 'simple');
  const draft = select('set-draft', [['random', 'Dealt at random'], ['subset', 'Challenger offers from a random few'], ['full', 'Challenger offers from all']], 'full');
  const fleece = h('input', { type: 'checkbox', id: 'set-fleece' });
  // The handicap game (`hero_seat`): the host is seat 0, the first to join seat 1.
  const handicap = select('set-handicap', [['', 'None: gods for both'], ['0', 'A hero for me (against a god)'], ['1', 'A hero for my opponent (against a god)']], '');
  const handicapField = field('Handicap (2 players)', handicap);
  const confirmTurns = h('input', { type: 'checkbox', id: 'set-confirm' });
  const clockKind = select('set-clock', [['none', 'No clock'], ['realtime', 'Real time'], ['turn', 'Hours per move']], 'realtime');
  const base = h('input', { type: 'number', id: 'set-base', min: 1, max: 180, value: 5 });
  const inc = h('input', { type: 'number', id: 'set-inc', min: 0, max: 180, value: 3 });
  const hours = h('input', { type: 'number', id: 'set-hours', min: 1, max: 168, value: 24 });
  const isPublic = h('input', { type: 'checkbox', id: 'set-public', checked: true });
  const rated = h('input', { type: 'checkbox', id: 'set-rated', checked: true });
  // Public games are rated and private ones casual unless the host chooses (docs/protocol.md, `lobby.create`).
  let ratedChosen = false;
  rated.addEventListener('change', () => (ratedChosen = true));
  isPublic.addEventListener('change', () => {
    if (!ratedChosen) rated.checked = isPublic.checked;
  });
  // Computer players take the last seats; a game with them is never rated.
  const bots = select('set-bots', [['0', 'None: people only'], ['1', '1'], ['2', '2'], ['3', '3']], '0');
  const botLevel = select('set-bot-level', BOT_LEVELS.map((l) => [String(l), `Level ${l}${l === 1 ? ' (weakest)' : l === 5 ? ' (strongest)' : ''}`]), '3');
  const poolBoxes = allPowers().map((p) =>
    h('label', { class: 'pool-item', title: p.text }, h('input', { type: 'checkbox', value: p.id, 'data-power': p.id }), ` ${p.name}`),
  );
  const group = (category, title) =>
    h('div', { class: 'pool-group' }, h('div', { class: 'pool-title' }, title), poolBoxes.filter((l) => powerInfo(l.querySelector('input').value).category === category));
  const pool = h(
    'fieldset',
    { class: 'pool', hidden: true },
    h('legend', {}, 'Gods in the pool (the server deals only those it plays)'),
    group('simple', 'Simple gods'),
    group('advanced', 'Advanced gods'),
    group('hero', 'Heroes (2 players)'),
  );
  const realtime = h('div', { class: 'inline', hidden: true }, field('Minutes', base), field('Increment (s)', inc));
  const turn = h('div', { class: 'inline', hidden: true }, field('Hours per move', hours));
  const error = h('p', { class: 'error', role: 'alert' });
  const santoriniOnly = h(
    'div',
    { class: 'santorini-only' },
    field('Gods', powers),
    pool,
    field('Draft', draft),
    handicapField,
    h('label', { class: 'check' }, fleece, ' Golden Fleece variant (2 players: one god beside the board, used by whoever touches the Ram)'),
  );
  const splendorNote = h('p', { class: 'muted small splendor-only' }, 'The first player is drawn at random. The first to 15 prestige points ends the round; the most points wins.');

  const sync = () => {
    const splendor = game.value === 'splendor';
    for (const b of gameButtons) b.setAttribute('aria-pressed', String(b.dataset.game === game.value));
    santoriniOnly.hidden = splendor;
    splendorNote.hidden = !splendor;
    players.querySelector('option[value="4"]').textContent = splendor ? '4 players' : '4 players (2 teams)';
    pool.hidden = splendor || powers.value !== 'custom';
    draft.disabled = powers.value === 'none';
    realtime.hidden = clockKind.value !== 'realtime';
    turn.hidden = clockKind.value !== 'turn';
    const two = players.value === '2';
    fleece.disabled = !two || powers.value === 'none' || handicap.value !== '';
    if (fleece.disabled) fleece.checked = false;
    // A hero against a god: 2 players, a pool with gods (hero against hero is "Heroes"), no Fleece.
    handicap.disabled = !two || powers.value === 'none' || powers.value === 'heroes' || fleece.checked;
    if (handicap.disabled) handicap.value = '';
    handicapField.hidden = !two || powers.value === 'none' || powers.value === 'heroes';
    for (const o of bots.querySelectorAll('option')) o.disabled = Number(o.value) > Number(players.value) - 1;
    if (Number(bots.value) > Number(players.value) - 1) bots.value = String(Number(players.value) - 1);
    botLevel.disabled = bots.value === '0';
    rated.disabled = bots.value !== '0';
    if (rated.disabled) rated.checked = false;
  };
  for (const el of [players, powers, clockKind, fleece, handicap, bots]) el.addEventListener('change', sync);

  const submit = async (e) => {
    e.preventDefault();
    error.textContent = '';
    let settings;
    if (game.value === 'splendor') {
      settings = { game: 'splendor', players: Number(players.value), public: isPublic.checked };
    } else {
      settings = { game: 'santorini', players: Number(players.value), powers: powers.value, public: isPublic.checked };
      if (powers.value !== 'none') settings.draft = draft.value;
      if (powers.value === 'custom') settings.pool = poolBoxes.map((l) => l.querySelector('input')).filter((i) => i.checked).map((i) => i.value);
      if (fleece.checked) settings.golden_fleece = true;
      if (handicap.value !== '' && !handicap.disabled) settings.hero_seat = Number(handicap.value);
    }
    if (bots.value !== '0') {
      settings.bots = Number(bots.value);
      settings.bot_level = Number(botLevel.value);
    }
    if (confirmTurns.checked) settings.confirm_turns = true;
    // A game with computer players is never rated.
    settings.rated = settings.bots ? false : rated.checked;
    if (clockKind.value === 'realtime') settings.clock = { kind: 'realtime', base_seconds: Math.round(Number(base.value) * 60), increment_seconds: Number(inc.value) };
    else if (clockKind.value === 'turn') settings.clock = { kind: 'turn', hours_per_move: Number(hours.value) };
    else settings.clock = { kind: 'none' };
    try {
      await ctx.state.conn.request({ type: 'lobby.create', settings });
      // The `lobby` event that follows takes us to the lobby.
    } catch (err) {
      error.textContent = err.message;
    }
  };

  mount(
    screen,
    h(
      'form',
      { class: 'card narrow create', onsubmit: submit },
      h('h1', {}, 'Create a game'),
      game,
      h('div', { class: 'game-choices', role: 'group', 'aria-label': 'Game' }, gameButtons),
      field('Players', players),
      santoriniOnly,
      splendorNote,
      h('div', { class: 'inline' }, field('Computer players (last seats)', bots), field('Computer level', botLevel)),
      field('Clock', clockKind),
      realtime,
      turn,
      h('label', { class: 'check' }, confirmTurns, ' Confirm turns (a finished turn waits for “End turn”, so a misclick can still be undone)'),
      h('label', { class: 'check' }, rated, ' Rated (the result changes the players’ ratings; untick for a casual game)'),
      h('label', { class: 'check' }, isPublic, ' Public (listed on the home page; otherwise share the invite link)'),
      h('div', { class: 'row' }, h('a', { href: '#/' }, 'Cancel'), h('button', { type: 'submit', class: 'primary', id: 'create-submit' }, 'Create lobby')),
      error,
    ),
  );
  sync();
}
