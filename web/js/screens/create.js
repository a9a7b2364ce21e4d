// Creating a lobby: every setting the server accepts (docs/protocol.md `lobby.create`, and
// "Splendor", Lobby settings): the game, players, the gods for Santorini (and the handicap game:
// a hero for one seat against a god for the other), confirmed turns, rated or casual, the clock,
// public or private.
import { h, mount } from '../dom.js';
import { allPowers, powerInfo, powerName, powerText } from '../catalog.js';
import { BOT_LEVELS } from '../bots.js';
import { t, num } from '../i18n/index.js';
import { errorText } from '../errors.js';

export const GAMES = { santorini: 'Santorini', splendor: 'Splendor' };

/** One line describing lobby settings. */
export function settingsSummary(st) {
  const game = st.game || 'santorini';
  const parts = [GAMES[game] || game, t('players.count', { count: st.players })];
  if (game === 'santorini') {
    parts.push(st.powers === 'none' ? t('summary.noGods') : st.powers === 'custom' ? t('summary.godsChosen', { count: (st.pool || []).length }) : t(`summary.powers.${st.powers}`));
    if (st.powers !== 'none') parts.push(t(`summary.draft.${st.draft}`));
    if (st.golden_fleece) parts.push(t('power.goldenFleece'));
    if (st.hero_seat === 0 || st.hero_seat === 1) parts.push(st.hero_seat === 0 ? t('summary.heroHost') : t('summary.heroGuest'));
  }
  if (st.bots > 0) parts.push(t('summary.bots', { count: st.bots, level: st.bot_level }));
  if (st.confirm_turns) parts.push(t('summary.confirmTurns'));
  const c = st.clock || { kind: 'none' };
  if (c.kind === 'realtime') parts.push(`${Math.round(c.base_seconds / 60)}+${c.increment_seconds}`);
  else if (c.kind === 'turn') parts.push(t('summary.perMove', { hours: num(c.hours_per_move) }));
  else parts.push(t('summary.noClock'));
  if (st.rated === false) parts.push(t('summary.casual'));
  if (st.public === false) parts.push(t('summary.private'));
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
      h('span', { class: 'small muted' }, key === 'santorini' ? t('create.santoriniTagline') : t('create.splendorTagline')),
    ),
  );
  const players = select('set-players', [['2', t('players.count', { count: 2 })], ['3', t('players.count', { count: 3 })], ['4', t('create.fourTeams')]], '2');
  const powers = select('set-powers', [['none', t('gods.none')], ['simple', t('gods.simple')], ['all', t('gods.all')], ['heroes', t('gods.heroes')], ['custom', t('gods.custom')]], 'simple');
  const draft = select('set-draft', [['random', t('create.draft.random')], ['subset', t('create.draft.subset')], ['full', t('create.draft.full')]], 'full');
  const fleece = h('input', { type: 'checkbox', id: 'set-fleece' });
  // The handicap game (`hero_seat`): the host is seat 0, the first to join seat 1.
  const handicap = select('set-handicap', [['', t('create.handicap.none')], ['0', t('create.handicap.me')], ['1', t('create.handicap.opponent')]], '');
  const handicapField = field(t('create.handicap'), handicap);
  const confirmTurns = h('input', { type: 'checkbox', id: 'set-confirm' });
  const clockKind = select('set-clock', [['none', t('create.clock.none')], ['realtime', t('create.clock.realtime')], ['turn', t('create.clock.turn')]], 'realtime');
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
  const bots = select('set-bots', [['0', t('create.bots.none')], ['1', num(1)], ['2', num(2)], ['3', num(3)]], '0');
  const botLevel = select('set-bot-level', BOT_LEVELS.map((l) => [String(l), t(l === 1 ? 'bot.levelWeakest' : l === 5 ? 'bot.levelStrongest' : 'bot.level', { level: l })]), '3');
  const poolBoxes = allPowers().map((p) =>
    h('label', { class: 'pool-item', title: powerText(p.id) }, h('input', { type: 'checkbox', value: p.id, 'data-power': p.id }), ` ${powerName(p.id)}`),
  );
  const group = (category, title) =>
    h('div', { class: 'pool-group' }, h('div', { class: 'pool-title' }, title), poolBoxes.filter((l) => powerInfo(l.querySelector('input').value).category === category));
  const pool = h(
    'fieldset',
    { class: 'pool', hidden: true },
    h('legend', {}, t('create.pool')),
    group('simple', t('gods.simple')),
    group('advanced', t('gods.advanced')),
    group('hero', t('create.pool.heroes')),
  );
  const realtime = h('div', { class: 'inline', hidden: true }, field(t('create.minutes'), base), field(t('create.increment'), inc));
  const turn = h('div', { class: 'inline', hidden: true }, field(t('create.clock.turn'), hours));
  const error = h('p', { class: 'error', role: 'alert' });
  const santoriniOnly = h(
    'div',
    { class: 'santorini-only' },
    field(t('create.gods'), powers),
    pool,
    field(t('create.draft'), draft),
    handicapField,
    h('label', { class: 'check' }, fleece, ` ${t('create.fleece')}`),
  );
  const splendorNote = h('p', { class: 'muted small splendor-only' }, t('create.splendorNote'));

  const sync = () => {
    const splendor = game.value === 'splendor';
    for (const b of gameButtons) b.setAttribute('aria-pressed', String(b.dataset.game === game.value));
    santoriniOnly.hidden = splendor;
    splendorNote.hidden = !splendor;
    players.querySelector('option[value="4"]').textContent = splendor ? t('players.count', { count: 4 }) : t('create.fourTeams');
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
      error.textContent = errorText(err);
    }
  };

  mount(
    screen,
    h(
      'form',
      { class: 'card narrow create', onsubmit: submit },
      h('h1', {}, t('home.createGame')),
      game,
      h('div', { class: 'game-choices', role: 'group', 'aria-label': t('create.game') }, gameButtons),
      field(t('create.players'), players),
      santoriniOnly,
      splendorNote,
      h('div', { class: 'inline' }, field(t('create.bots'), bots), field(t('create.botLevel'), botLevel)),
      field(t('create.clock'), clockKind),
      realtime,
      turn,
      h('label', { class: 'check' }, confirmTurns, ` ${t('create.confirmTurns')}`),
      h('label', { class: 'check' }, rated, ` ${t('create.rated')}`),
      h('label', { class: 'check' }, isPublic, ` ${t('create.public')}`),
      h('div', { class: 'row' }, h('a', { href: '#/' }, t('common.cancel')), h('button', { type: 'submit', class: 'primary', id: 'create-submit' }, t('create.submit'))),
      error,
    ),
  );
  sync();
}
