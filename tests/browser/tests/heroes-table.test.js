// The table's answers to heroes, undo and confirmed turns (docs/protocol.md, "Taking back a
// step (undo) and confirming turns") on fixed views, without a game server (tests/fixture-page.js):
// the Undo and End turn buttons (both games), their keys, the confirm prompt, the log's undo
// lines; the heroes' cards (power ready or used, Jason's reserve, Adonis' charmed worker on the
// board); each kind of step a hero plays, sent by clicks exactly as `legal` lists it (Achilles'
// build before moving, Jason's place on his own turn, Medea's remove, Odysseus' force, Theseus'
// capture, Heracles' and Polyphemus' domes, Adonis' select); the create form's handicap and
// Confirm turns settings. The views are written by hand: the tests check what the client shows
// and sends back, not the rules.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, screenshot } from '../harness.js';
import { serveWeb, fixturePage } from '../fixture-page.js';
import { midGame } from '../splendor-fixture.js';

let web;
let browser;

before(async () => {
  web = await serveWeb();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await web?.close();
});

const ANN = { id: 'p_ann', name: 'Ann' };
const BOB = { id: 'p_bob', name: 'Bob' };

/** A 2-player Santorini view in turn 5 seen by `you` (seat 0 decides): Ann's workers on B2 and
 *  D2, Bob's on C3 (height 1) and D4; `powers` for the seats; `legal` only in the decider's view. */
function santorini({ you = 0, powers = ['Achilles', 'Adonis'], phase = 'begin', legal = [], cards = [{}, {}], history = [], workers = null, board = null } = {}) {
  const b = board || Array(25).fill('0');
  if (!board) b[12] = '1'; // C3
  const state = {
    phase,
    decider: 0,
    turn: 5,
    players: 2,
    board: b,
    workers: workers || [
      { id: 0, side: 0, square: 'B2', female: false, reserve: false },
      { id: 1, side: 0, square: 'D2', female: false, reserve: false },
      { id: 2, side: 1, square: 'C3', female: false, reserve: false },
      { id: 3, side: 1, square: 'D4', female: false, reserve: false },
    ],
    powers,
    out: [false, false],
    winners: [],
    draft: { mode: 'full', challenger: 1, start_player: 0, pool: [], offer: powers, hero_seat: null },
    fleece: null,
    memory: [0, 0],
    cards: powers.map((p, i) => ({ seat: i, holder: i, power: p, acting_as: null, memory: 0, counter: 0, tokens: [], ...cards[i] })),
    this_turn: { seat: 0, worker: null, start: null, moved: [], moves: 0, builds: 0, last_build: null, moved_up: false, no_move_up: false, dome_built: false, built_before_move: false, extra_turn: false },
  };
  if (you === 0) state.legal = legal;
  return {
    match: 'm_fixture',
    game: 'santorini',
    status: 'playing',
    seats: [
      { seat: 0, player: ANN, power: powers[0], side: 0, out: false, connected: true },
      { seat: 1, player: BOB, power: powers[1], side: 1, out: false, connected: true },
    ],
    you,
    spectators: 1,
    clock: { kind: 'none' },
    result: null,
    history: ['offer Achilles', 'offer Adonis', 'choose Adonis', 'start A', 'place B2', 'place D2', 'place C3', 'place D4', 'move B2 B3', 'build B3 B4', 'move C4 C3', 'build C3 C4', ...history],
    state,
  };
}

const page = async (views, me = ANN) => {
  const t = await fixturePage(browser, web.url, { me, views });
  await t.page.waitForSelector('.game[data-status="playing"]');
  return t;
};
/** Waits until the page has sent `n` steps. */
const sentSteps = async (t, n) => {
  for (let i = 0; i < 100 && t.steps.length < n; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(t.steps.length, n, `${n} step(s) sent`);
  return t.steps[n - 1];
};
const prompt = (t) => t.page.textContent('#prompt strong');

test('Undo is enabled exactly when legal holds it and sends it; the confirm phase asks to end the turn or undo; the keys', { timeout: 30000 }, async () => {
  const moved = santorini({ phase: 'after_move', history: ['move B2 B3'], legal: [{ kind: 'build', from: 'B3', to: 'A3' }, { kind: 'build', from: 'B3', to: 'C4' }, { kind: 'undo' }] });
  moved.state.workers[0].square = 'B3';
  const begin = santorini({ history: ['move B2 B3', 'undo'], legal: [{ kind: 'move', from: 'B2', to: 'A1' }, { kind: 'move', from: 'D2', to: 'E1' }] });
  const confirm = santorini({ phase: 'confirm', history: ['move B2 B3', 'undo', 'move B2 A1', 'build A1 A2'], legal: [{ kind: 'end_turn' }, { kind: 'undo' }] });
  confirm.state.workers[0].square = 'A1';
  const t = await page([moved, begin, confirm, confirm, confirm]);
  try {
    const { page: p } = t;
    assert.equal(await p.isEnabled('#undo'), true);
    assert.equal(await p.$('#end-turn'), null, 'no End turn before the confirm phase');
    // Undo is a button of its own, not one of the table's step buttons.
    assert.equal(await p.$('#prompt .buttons button[data-step="undo"]'), null);
    await p.click('#undo');
    assert.deepEqual(await sentSteps(t, 1), { kind: 'undo' });
    // The restored turn: nothing to take back.
    await p.waitForSelector('.game[data-phase="begin"]');
    assert.equal(await p.isDisabled('#undo'), true);
    assert.equal(await p.getAttribute('#log li:last-child', 'data-notation'), 'undo');
    assert.equal(await p.getAttribute('#log li:last-child', 'class'), 'undo');
    assert.equal(await p.getAttribute('#log li:nth-last-child(2)', 'class'), 'undone', 'the step taken back is struck through');
    // A key does nothing while undo is not legal.
    await p.keyboard.press('u');
    await p.click('svg.board .cell[data-square="B2"]');
    await p.click('svg.board .cell.target[data-square="A1"]');
    assert.deepEqual(await sentSteps(t, 2), { kind: 'move', from: 'B2', to: 'A1' });
    // The confirm phase: the prompt, End turn and Undo.
    await p.waitForSelector('.game[data-phase="confirm"]');
    assert.equal(await prompt(t), 'Confirm your turn or undo');
    assert.equal(await p.isEnabled('#undo'), true);
    assert.equal(await p.textContent('#end-turn'), 'End turn ✓');
    await p.keyboard.press('e');
    assert.deepEqual(await sentSteps(t, 3), { kind: 'end_turn' });
    await p.waitForFunction(() => document.querySelector('.game').dataset.version === '4');
    await p.keyboard.press('Control+z');
    assert.deepEqual(await sentSteps(t, 4), { kind: 'undo' });
    await p.waitForFunction(() => document.querySelector('.game').dataset.version === '5');
    await p.click('#end-turn');
    assert.deepEqual(await sentSteps(t, 5), { kind: 'end_turn' });
  } finally {
    await t.close();
  }
});

test('a spectator sees the undo lines and no turn buttons', { timeout: 30000 }, async () => {
  const v = santorini({ you: null, phase: 'confirm', history: ['move B2 B3', 'undo', 'move B2 A1', 'build A1 A2', 'undo', 'build A1 B1'] });
  const t = await page([v], { id: 'p_watch', name: 'Watcher' });
  try {
    const { page: p } = t;
    assert.equal(await p.$('#undo'), null);
    assert.equal(await p.$('#end-turn'), null);
    const marks = await p.$$eval('#log li', (lis) => lis.slice(-6).map((li) => `${li.dataset.notation}:${li.className}`));
    assert.deepEqual(marks, ['move B2 B3:undone', 'undo:undo', 'move B2 A1:', 'build A1 A2:undone', 'undo:undo', 'build A1 B1:']);
  } finally {
    await t.close();
  }
});

test('hero cards show whether the power is used, Jason\'s reserve and Adonis\' charmed worker', { timeout: 30000 }, async () => {
  const v = santorini({ powers: ['Jason', 'Adonis'], cards: [{ spent: false, reserve: 1 }, { spent: true, memory: 3, counter: 1, charmed: 2 }], legal: [{ kind: 'move', from: 'B2', to: 'B3' }, { kind: 'move', from: 'D2', to: 'D3' }, { kind: 'place', to: 'A1' }, { kind: 'place', to: 'E1' }, { kind: 'place', to: 'A5' }] });
  v.state.workers.push({ id: 4, side: 0, square: null, female: false, reserve: true });
  const t = await page([v]);
  try {
    const { page: p } = t;
    assert.equal(await p.getAttribute('.player-card[data-seat="0"] .hero-power', 'data-spent'), '0');
    assert.equal(await p.textContent('.player-card[data-seat="0"] .hero-power'), 'power ready');
    assert.equal(await p.getAttribute('.player-card[data-seat="1"] .hero-power', 'data-spent'), '1');
    assert.equal(await p.textContent('.player-card[data-seat="1"] .hero-power'), 'power used');
    assert.ok(await p.$('.player-card[data-seat="1"] .power.spent'));
    assert.equal(await p.getAttribute('.player-card[data-seat="0"] .reserve', 'data-reserve'), '1');
    assert.match(await p.textContent('.player-card[data-seat="0"] .card-state'), /1 worker\(s\) on the card/);
    assert.match(await p.textContent('.player-card[data-seat="1"] .card-state'), /charms the worker on C3/);
    // The charmed worker (id 2, on C3) is marked on the board, and only it.
    assert.deepEqual(await p.$$eval('svg.board .cell[data-charmed="1"]', (cs) => cs.map((c) => c.dataset.square)), ['C3']);
    assert.equal(await p.getAttribute('svg.board .cell[data-square="C3"] .worker', 'data-charmed'), '1');
    await screenshot(p, 'hero-cards');
    // Gods carry no such badge.
    const gods = santorini({ powers: ['Apollo', 'Pan'] });
    const g = await page([gods]);
    try {
      assert.equal(await g.page.$('.hero-power'), null);
    } finally {
      await g.close();
    }
  } finally {
    await t.close();
  }
});

/** Each hero's step kind, clicked on the board: [name, powers, phase, legal, clicks, the step
 *  expected, the "Which one?" button to press if any]. */
const HERO_STEPS = [
  ['Achilles builds before moving', ['Achilles', 'Pan'], 'begin',
    [{ kind: 'move', from: 'B2', to: 'C2' }, { kind: 'build', from: 'B2', to: 'C2', before_move: true }, { kind: 'dome', from: 'B2', to: 'C2', before_move: true }, { kind: 'move', from: 'D2', to: 'E1' }],
    ['B2', 'C2'], { kind: 'build', from: 'B2', to: 'C2', before_move: true }, 'build B2 C2 first'],
  ['Bellerophon moves up two levels', ['Bellerophon', 'Pan'], 'begin',
    [{ kind: 'move', from: 'B2', to: 'A1' }, { kind: 'move', from: 'B2', to: 'C1' }, { kind: 'move', from: 'D2', to: 'E1' }],
    ['B2', 'C1'], { kind: 'move', from: 'B2', to: 'C1' }],
  ['Atalanta moves again', ['Atalanta', 'Pan'], 'after_move',
    [{ kind: 'move', from: 'B2', to: 'A1' }, { kind: 'build', from: 'B2', to: 'A1' }, { kind: 'build', from: 'B2', to: 'C1' }, { kind: 'pass' }],
    ['A1'], { kind: 'move', from: 'B2', to: 'A1' }, 'move B2 A1'],
  ['Heracles domes with either worker', ['Heracles', 'Pan'], 'after_move',
    [{ kind: 'build', from: 'B2', to: 'A1' }, { kind: 'dome', from: 'B2', to: 'A1' }, { kind: 'dome', from: 'D2', to: 'E1' }],
    ['D2', 'E1'], { kind: 'dome', from: 'D2', to: 'E1' }],
  ['Polyphemus domes anywhere', ['Polyphemus', 'Pan'], 'end',
    [{ kind: 'dome', from: 'B2', to: 'E5' }, { kind: 'dome', from: 'B2', to: 'A5' }, { kind: 'pass' }],
    ['E5'], { kind: 'dome', from: 'B2', to: 'E5' }],
  ['Jason places his extra worker on his own turn', ['Jason', 'Pan'], 'begin',
    [{ kind: 'move', from: 'B2', to: 'A1' }, { kind: 'move', from: 'D2', to: 'E1' }, { kind: 'place', to: 'A1' }, { kind: 'place', to: 'E5' }],
    ['E5'], { kind: 'place', to: 'E5' }],
  ['Jason places where a selected worker could move', ['Jason', 'Pan'], 'begin',
    [{ kind: 'move', from: 'B2', to: 'A1' }, { kind: 'move', from: 'D2', to: 'E1' }, { kind: 'place', to: 'A1' }, { kind: 'place', to: 'E5' }],
    ['B2', 'A1'], { kind: 'place', to: 'A1' }, 'place A1'],
  ['Medea removes a block from under a worker', ['Medea', 'Pan'], 'end',
    [{ kind: 'remove', from: 'B2', to: 'C3' }, { kind: 'pass' }],
    ['C3'], { kind: 'remove', from: 'B2', to: 'C3' }],
  ['Odysseus forces a worker to a corner', ['Odysseus', 'Pan'], 'begin',
    [{ kind: 'move', from: 'B2', to: 'A1' }, { kind: 'force', from: 'C3', to: 'A5' }, { kind: 'force', from: 'C3', to: 'E1' }],
    ['C3', 'A5'], { kind: 'force', from: 'C3', to: 'A5' }],
  ['Theseus captures a higher worker', ['Theseus', 'Pan'], 'end',
    [{ kind: 'capture', from: 'B2', to: 'C3' }, { kind: 'pass' }],
    ['C3'], { kind: 'capture', from: 'B2', to: 'C3' }],
  ['Adonis selects an opponent worker', ['Adonis', 'Pan'], 'end',
    [{ kind: 'select', worker: 'C3' }, { kind: 'select', worker: 'D4' }, { kind: 'pass' }],
    ['D4'], { kind: 'select', worker: 'D4' }],
];

for (const [name, powers, phase, legal, clicks, expected, which] of HERO_STEPS) {
  test(`clicks: ${name}`, { timeout: 30000 }, async () => {
    const t = await page([santorini({ powers, phase, legal, cards: [{ spent: false }, {}] })]);
    try {
      const { page: p } = t;
      for (const sq of clicks) await p.click(`svg.board .cell[data-square="${sq}"]`);
      if (which) await p.click(`#choice button[data-step="${which}"]`);
      else assert.equal(await p.$('#choice'), null, 'no question asked');
      assert.deepEqual(await sentSteps(t, 1), expected);
    } finally {
      await t.close();
    }
  });
}

test('Adonis\' select is labelled as a charm, and the Pass button declines it', { timeout: 30000 }, async () => {
  const t = await page([santorini({ powers: ['Adonis', 'Pan'], phase: 'end', legal: [{ kind: 'select', worker: 'C3' }, { kind: 'pass' }] })]);
  try {
    const { page: p } = t;
    assert.match(await prompt(t), /^Charm an opponent's worker: it must end its next turn next to one of yours, or pass$/);
    assert.ok(await p.$('svg.board .cell.target[data-square="C3"]'), 'the opponent worker is highlighted');
    assert.deepEqual(await p.$$eval('#legal button', (bs) => bs.map((b) => b.textContent)), ['Charm the worker on C3', 'Pass (skip the optional step)']);
    await p.click('#prompt .buttons button[data-step="pass"]');
    assert.deepEqual(await sentSteps(t, 1), { kind: 'pass' });
  } finally {
    await t.close();
  }
});

test('Splendor: Undo and End turn in the confirm phase', { timeout: 30000 }, async () => {
  const confirm = midGame(0);
  confirm.state.phase = 'confirm';
  confirm.state.legal = [{ kind: 'end_turn' }, { kind: 'undo' }];
  confirm.history.push('take white blue green');
  const action = midGame(0);
  action.state.legal.push({ kind: 'undo' });
  action.history.push('take white blue green', 'undo');
  const t = await fixturePage(browser, web.url, { me: confirm.seats[0].player, views: [confirm, action] });
  try {
    const { page: p } = t;
    await p.waitForSelector('#sp-table');
    assert.equal(await p.textContent('#prompt .prompt-text'), 'Confirm your turn or undo');
    assert.equal(await p.isEnabled('#undo'), true);
    await p.click('#undo');
    assert.deepEqual(await sentSteps(t, 1), { kind: 'undo' });
    await p.waitForFunction(() => !document.querySelector('#end-turn'));
    assert.match(await p.textContent('#prompt .prompt-text'), /^Your turn: take gems/);
    assert.equal(await p.getAttribute('#log li:last-child', 'class'), 'undo');
    assert.equal(await p.getAttribute('#log li:nth-last-child(2)', 'class'), 'undone');
  } finally {
    await t.close();
  }
});

test('the create form sends hero_seat and confirm_turns, and the summary names them', { timeout: 30000 }, async () => {
  const t = await fixturePage(browser, web.url, { me: ANN, hash: '#/create' });
  try {
    const { page: p } = t;
    await p.waitForSelector('#set-handicap');
    // Hero against hero is the Heroes choice: no handicap there, nor without gods.
    await p.selectOption('#set-powers', 'heroes');
    assert.equal(await p.isDisabled('#set-handicap'), true);
    await p.selectOption('#set-powers', 'none');
    assert.equal(await p.isDisabled('#set-handicap'), true);
    await p.selectOption('#set-powers', 'all');
    await p.selectOption('#set-handicap', '1');
    assert.equal(await p.isDisabled('#set-fleece'), true, 'no Golden Fleece with a handicap');
    await p.check('#set-confirm');
    await p.click('#create-submit');
    for (let i = 0; i < 100 && !t.sent.some((m) => m.type === 'lobby.create'); i++) await new Promise((r) => setTimeout(r, 20));
    const create = t.sent.find((m) => m.type === 'lobby.create');
    assert.equal(create.settings.hero_seat, 1);
    assert.equal(create.settings.confirm_turns, true);
    assert.equal(create.settings.powers, 'all');
    // Three players: no handicap; Splendor: confirm turns without Santorini's settings.
    await p.evaluate(() => { location.hash = '#/'; });
    await p.evaluate(() => { location.hash = '#/create'; });
    await p.waitForSelector('#set-handicap');
    await p.selectOption('#set-players', '3');
    assert.equal(await p.isDisabled('#set-handicap'), true);
    await p.click('.game-choice[data-game="splendor"]');
    await p.check('#set-confirm');
    await p.click('#create-submit');
    for (let i = 0; i < 100 && t.sent.filter((m) => m.type === 'lobby.create').length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    const second = t.sent.filter((m) => m.type === 'lobby.create')[1].settings;
    assert.equal(second.game, 'splendor');
    assert.equal(second.confirm_turns, true);
    assert.equal(second.hero_seat, undefined);
    // create.js needs the page's app: its summary is asked in the page.
    const summary = await p.evaluate(async () => (await import('/js/screens/create.js')).settingsSummary({ game: 'santorini', players: 2, powers: 'simple', draft: 'full', hero_seat: 0, confirm_turns: true, clock: { kind: 'none' } }));
    assert.match(summary, /handicap: a hero for the host/);
    assert.match(summary, /confirm turns/);
  } finally {
    await t.close();
  }
});
