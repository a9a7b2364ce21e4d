// The Splendor table on fixed views, without a game server: the page is served from web/ by a
// few lines of node, the guest is put in localStorage, and the WebSocket is answered by the test
// (Playwright's routeWebSocket) with snapshots of the views in splendor-fixture.js. It checks
// what the table shows (cards, decks, nobles, supply, hands, hidden reserves) and that each
// click sends back exactly one entry of `legal`: gems picked and confirmed, a card's menu with
// its ways to pay, a deck, a reserved card, tokens returned, a noble chosen, pass; then the
// spectator's view, the final round, the result, the replay screen and the phone layout.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { launchBrowser, screenshot } from '../harness.js';
import { serveWeb } from '../fixture-page.js';
import { midGame, tokens, NOBLES, CARDS } from '../splendor-fixture.js';

let server;
let url;
let browser;

before(async () => {
  server = await serveWeb();
  url = server.url;
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A page signed in as seat `you`'s player whose WebSocket the test answers. `views`: the views
 *  to send one after another (the first on match.open, the next after each step). */
async function table(views, { viewport = { width: 1280, height: 860 }, phone = false } = {}) {
  // Reduced motion: the menu is read and photographed as it stands, not while it slides in.
  const context = await browser.newContext({ ...(phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : { viewport }), reducedMotion: 'reduce' });
  context.setDefaultTimeout(5000);
  const me = views[0].you === null ? { id: 'p_watch', name: 'Watcher' } : views[0].seats[views[0].you].player;
  await context.addInitScript((guest) => localStorage.setItem('santorini.guest', JSON.stringify(guest)), { ...me, token: 'f'.repeat(32) });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  const steps = [];
  let version = 1;
  let next = 0;
  let socket = null;
  const snapshot = () => socket.send(JSON.stringify({ type: 'match.snapshot', match: 'm_fixture', version: version++, view: views[Math.min(next, views.length - 1)] }));
  await page.routeWebSocket(/\/ws$/, (ws) => {
    socket = ws;
    ws.onMessage((text) => {
      const msg = JSON.parse(text);
      if (msg.type === 'hello') ws.send(JSON.stringify({ type: 'welcome', protocol: 1, player: { id: me.id, name: me.name } }));
      else if (msg.type === 'match.open') snapshot();
      else if (msg.type === 'match.step') {
        steps.push(msg.step);
        next += 1;
        snapshot();
        ws.send(JSON.stringify({ type: 'ack', ref: msg.ref }));
      } else if (msg.ref !== undefined) ws.send(JSON.stringify({ type: 'ack', ref: msg.ref }));
    });
  });
  await page.goto(`${url}/#/match/m_fixture`);
  await page.waitForSelector('#sp-table');
  return { page, steps, context, close: () => context.close() };
}

const mid = () => midGame(0);

const axePath = path.join(path.dirname(createRequire(import.meta.url).resolve('axe-core')), 'axe.min.js');

/** No serious or critical accessibility violation on the page (axe-core): in particular every
 *  clickable piece's name holds what it shows (label-content-name-mismatch, WCAG 2.5.3). */
async function accessible(page, label) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  assert.deepEqual(violations, [], `${label}: accessibility`);
}

test('the table shows the rows, decks, nobles, supply and every hand', { timeout: 30000 }, async () => {
  const t = await table([mid()]);
  try {
    const { page } = t;
    // Level 3 on top, four cards a row after the deck.
    const rows = await page.$$eval('.sp-row', (rs) => rs.map((r) => ({ level: Number(r.dataset.level), deck: Number(r.querySelector('[data-deck]').dataset.count), cards: [...r.querySelectorAll('.sp-card')].map((c) => Number(c.dataset.card)) })));
    assert.deepEqual(rows, [
      { level: 3, deck: 16, cards: [70, 77, 83, 89] },
      { level: 2, deck: 24, cards: [41, 50, 60, 66] },
      { level: 1, deck: 32, cards: [3, 12, 25, 38] },
    ]);
    // A card shows its points, bonus and cost per colour.
    const c89 = CARDS[89];
    const shown = await page.$eval('.sp-row .sp-card[data-card="89"]', (c) => ({ points: c.querySelector('.points').textContent, bonus: c.dataset.bonus, cost: Object.fromEntries([...c.querySelectorAll('.pip')].map((p) => [p.dataset.gem, Number(p.textContent)])) }));
    assert.equal(shown.points, String(c89.points));
    assert.equal(shown.bonus, c89.bonus);
    assert.deepEqual(shown.cost, Object.fromEntries(Object.entries(c89.cost).filter(([, n]) => n > 0)));
    assert.deepEqual(await page.$$eval('#sp-nobles .sp-noble', (ns) => ns.map((n) => Number(n.dataset.noble))), [0, 5, 9]);
    assert.deepEqual(await page.$eval('#sp-nobles .sp-noble[data-noble="0"]', (n) => [...n.querySelectorAll('.req')].map((r) => `${r.dataset.gem} ${r.textContent}`)), ['white 4', 'blue 4']);
    assert.deepEqual(await page.$$eval('#sp-supply .sp-token', (ts) => ts.map((t) => `${t.dataset.gem} ${t.dataset.count}`)), ['white 3', 'blue 4', 'green 2', 'red 4', 'black 1', 'gold 3']);
    // The hands: yours first; points, cards, tokens and bonuses; reserved cards.
    const hands = await page.$$eval('.sp-hand', (hs) => hs.map((h) => ({ seat: Number(h.dataset.seat), points: Number(h.dataset.points), cards: Number(h.dataset.cards), tokens: Object.fromEntries([...h.querySelectorAll('.sp-gemcol')].map((c) => [c.dataset.gem, Number(c.querySelector('.sp-token').dataset.count)])), reserved: [...h.querySelectorAll('.sp-reserved')].map((r) => `${r.dataset.level}:${r.dataset.card || 'hidden'}`) })));
    assert.deepEqual(hands.map((x) => x.seat), [0, 1]);
    assert.deepEqual(hands[0].tokens, { white: 1, blue: 2, green: 1, red: 0, black: 1, gold: 1 });
    assert.deepEqual(hands[0].reserved, ['2:47']);
    assert.deepEqual(hands[1].reserved, ['2:hidden', '1:9']);
    assert.equal(hands[1].points, 2);
    assert.equal(await page.$eval('.sp-hand[data-seat="0"] .sp-gemcol[data-gem="blue"] .bonus-stack', (b) => b.dataset.bonus), '1');
    // Your own blind reserve is marked as one only you see.
    assert.ok(await page.$('.sp-hand[data-seat="0"] .sp-reserved[data-card="47"] .secret'));
    assert.match(await page.textContent('#prompt'), /Your turn/);
    assert.equal(await page.getAttribute('#log li[data-n="5"]', 'data-notation'), 'buy #1 (level 1 white, 0 points) for blue 2 black 1');
  } finally {
    await t.close();
  }
});

test('gems are picked in the supply until they make a legal take, then taken', { timeout: 30000 }, async () => {
  const t = await table([mid(), midGame(1)]);
  try {
    const { page, steps } = t;
    const legalGems = () => page.$$eval('#sp-supply .sp-token.legal', (ts) => ts.map((x) => x.dataset.gem));
    assert.deepEqual(await legalGems(), ['white', 'blue', 'green', 'red', 'black']);
    await page.click('#sp-supply .sp-token[data-gem="blue"]');
    // The bank shows what would be left; data-supply keeps what it holds.
    assert.equal(await page.getAttribute('#sp-supply .sp-token[data-gem="blue"]', 'data-supply'), '4');
    assert.equal(await page.getAttribute('#sp-supply .sp-token[data-gem="blue"]', 'data-count'), '3');
    assert.ok(await page.$('#sp-take[disabled]'));
    // Blue again makes the double; nothing more can join it.
    await page.click('#sp-supply .sp-token[data-gem="blue"]');
    assert.deepEqual(await legalGems(), []);
    assert.equal(await page.getAttribute('#sp-take', 'data-step'), 'take blue blue');
    // Put one back (from the pick), take green and black instead: three colours.
    await page.click('#sp-pick .sp-token[data-gem="blue"]');
    await page.click('#sp-supply .sp-token[data-gem="black"]');
    assert.deepEqual(await legalGems(), ['white', 'green', 'red']); // one black only: it cannot join twice
    await page.click('#sp-supply .sp-token[data-gem="green"]');
    assert.deepEqual(await legalGems(), []);
    await page.click('#sp-take');
    await page.waitForFunction(() => document.querySelector('.game').dataset.you === '1');
    assert.deepEqual(steps, [{ kind: 'take', gems: ['blue', 'green', 'black'] }]);
  } finally {
    await t.close();
  }
});

test('a card opens a menu of its buys and its reserve; a deck reserves blind; a reserved card is bought', { timeout: 30000 }, async () => {
  const t = await table([mid(), mid(), mid(), mid()]);
  try {
    const { page, steps } = t;
    const v = mid();
    // Every clickable piece is named by what it shows, its numbers in words around them.
    await accessible(page, 'the table');
    assert.equal(await page.getByRole('button', { name: /^Level III deck, \d+ cards left — reserve its top card unseen$/ }).count(), 1);
    assert.match(await page.getByRole('button', { name: /card #12:/ }).textContent(), /card #12: .*costs /);
    assert.equal(await page.getByRole('button', { name: /^Buy your reserved .* card #47:/ }).count(), 1);
    // Card 12: three ways to pay and a reserve. The first pay is the default (first, primary).
    await page.click('.sp-row .sp-card[data-card="12"]');
    await page.waitForSelector('#sp-menu');
    const options = await page.$$eval('#sp-menu button[data-action]', (bs) => bs.map((b) => `${b.dataset.action}${b.classList.contains('primary') ? '*' : ''}: ${b.dataset.step}`));
    assert.deepEqual(options, ['buy*: buy #12 for blue 2 green 1', 'buy: buy #12 for blue 2 gold 1', 'buy: buy #12 for blue 1 green 1 gold 1', 'reserve: reserve #12']);
    assert.equal(await page.$eval('#sp-menu', (el) => getComputedStyle(el).animationName), 'none');
    // The menu names the card's gem as the log does ("sapphire card", not "blue card").
    assert.match(await page.textContent('#sp-menu strong'), /^Level I+ (diamond|sapphire|emerald|ruby|onyx) card/);
    await screenshot(page, 'splendor-menu');
    // Cancel closes it; then the second way to pay.
    await page.click('#sp-menu-cancel');
    assert.equal(await page.$('#sp-menu'), null);
    await page.click('.sp-row .sp-card[data-card="12"]');
    await page.click('#sp-menu button[data-action="buy"][data-pay-index="1"]');
    await page.waitForFunction(() => Number(document.querySelector('.game').dataset.version) === 2);
    assert.deepEqual(steps[0], v.state.legal.find((s) => s.kind === 'buy' && s.card === 12 && s.pay.gold === 1 && s.pay.blue === 2));
    // A card that may only be reserved.
    await page.click('.sp-row .sp-card[data-card="89"]');
    assert.deepEqual(await page.$$eval('#sp-menu button[data-action]', (bs) => bs.map((b) => b.dataset.action)), ['reserve']);
    await page.click('#sp-menu button[data-action="reserve"]');
    await page.waitForFunction(() => Number(document.querySelector('.game').dataset.version) === 3);
    assert.deepEqual(steps[1], { kind: 'reserve', card: 89 });
    // The level 3 deck.
    await page.click('.sp-back[data-deck="3"]');
    await page.click('#sp-menu button[data-action="reserve"]');
    await page.waitForFunction(() => Number(document.querySelector('.game').dataset.version) === 4);
    assert.deepEqual(steps[2], { kind: 'reserve', level: 3 });
    // The card reserved earlier, from the hand.
    await page.click('.sp-hand[data-seat="0"] .sp-reserved[data-card="47"] .sp-card');
    await page.click('#sp-menu button[data-action="buy"]');
    await page.waitForFunction(() => Number(document.querySelector('.game').dataset.version) === 5);
    assert.deepEqual(steps[3], { kind: 'buy', card: 47, pay: tokens({ white: 1, blue: 1, gold: 1 }) });
  } finally {
    await t.close();
  }
});

test('returning tokens, choosing a noble, passing', { timeout: 30000 }, async () => {
  const ret = mid();
  ret.state.phase = 'return';
  ret.state.hands[0].tokens = tokens({ white: 3, blue: 3, green: 2, black: 2, gold: 1 });
  ret.state.legal = ['white', 'blue', 'green', 'black', 'gold'].map((gem) => ({ kind: 'return', gem }));
  const noble = mid();
  noble.state.phase = 'noble';
  noble.state.legal = [{ kind: 'noble', noble: 5 }, { kind: 'noble', noble: 9 }];
  const pass = mid();
  pass.state.legal = [{ kind: 'pass' }];
  const t = await table([ret, noble, pass, midGame(1)]);
  try {
    const { page, steps } = t;
    assert.match(await page.textContent('#prompt'), /return one at a time/);
    assert.deepEqual(await page.$$eval('.sp-hand[data-seat="0"] .sp-token.legal', (ts) => ts.map((x) => x.dataset.gem)), ['white', 'blue', 'green', 'black', 'gold']);
    assert.equal((await page.$$('#sp-supply .sp-token.legal')).length, 0);
    await accessible(page, 'returning tokens');
    await page.click('.sp-hand[data-seat="0"] .sp-token[data-gem="green"]');
    await page.waitForSelector('.game[data-phase="noble"]');
    assert.deepEqual(await page.$$eval('#sp-nobles .sp-noble.legal', (ns) => ns.map((n) => n.dataset.noble)), ['5', '9']);
    await accessible(page, 'choosing a noble');
    assert.equal(await page.getByRole('button', { name: /^Choose Noble #9: \d points, .*needs \d .*bonuses$/ }).count(), 1);
    await page.click('#sp-nobles .sp-noble[data-noble="9"]');
    await page.waitForSelector('#prompt button[data-step="pass"]');
    assert.equal((await page.$$('.sp-card.legal, .sp-back.legal, .sp-token.legal')).length, 0);
    await page.click('#prompt button[data-step="pass"]');
    await page.waitForSelector('.game[data-you="1"]');
    assert.deepEqual(steps, [{ kind: 'return', gem: 'green' }, { kind: 'noble', noble: 9 }, { kind: 'pass' }]);
  } finally {
    await t.close();
  }
});

test('a spectator sees hidden reserves face down and nothing to click; the final round and the result', { timeout: 30000 }, async () => {
  const watch = midGame(null);
  const t = await table([watch]);
  try {
    const { page } = t;
    assert.match(await page.textContent('#prompt'), /Spectating · Ada to play/);
    assert.equal((await page.$$('.legal')).length, 0);
    assert.deepEqual(await page.$$eval('.sp-reserved', (rs) => rs.map((r) => `${r.dataset.level}:${r.dataset.hidden}:${r.dataset.card}`)), ['2:1:', '2:1:', '1:0:9']);
    assert.equal(await page.$('[data-card="47"]'), null);
    assert.equal(await page.$('[data-card="52"]'), null);
  } finally {
    await t.close();
  }
  const final = midGame(1);
  final.state.final_round = true;
  final.state.hands[0].points = 15;
  const over = structuredClone(final);
  over.status = 'finished';
  over.state.phase = 'over';
  over.state.decider = null;
  over.state.winners = [0];
  over.state.final_round = true;
  over.state.hands[0].nobles = [NOBLES[3]];
  over.result = { winners: [0], reason: 'win' };
  over.clock.running = null;
  const t2 = await table([final]);
  try {
    await t2.page.waitForSelector('#final-round');
    assert.match(await t2.page.textContent('#final-round'), /Ada has 15 points: .* before Bo would play again/);
    assert.match(await t2.page.textContent('#prompt'), /Waiting for Ada/);
  } finally {
    await t2.close();
  }
  const t3 = await table([over]);
  try {
    await t3.page.waitForSelector('#result');
    assert.match(await t3.page.textContent('#result'), /Ada won with 15 points/);
    assert.equal(await t3.page.$('#final-round'), null);
    assert.ok(await t3.page.$('.sp-hand.winner[data-seat="0"] .sp-noble[data-noble="3"]'));
  } finally {
    await t3.close();
  }
});

test('at 390x844 the table fits the width and its targets are big enough to tap', { timeout: 30000 }, async () => {
  const t = await table([mid()], { phone: true });
  try {
    const { page } = t;
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `page is ${width}px wide`);
    const small = await page.$$eval('.sp-card.legal, .sp-back.legal, #sp-supply .sp-token.legal', (els) =>
      els.map((e) => e.getBoundingClientRect()).filter((r) => r.width < 40 || r.height < 40).length,
    );
    assert.equal(small, 0, 'every clickable piece is at least 40x40');
    await page.click('.sp-row .sp-card[data-card="12"]');
    await page.waitForSelector('#sp-menu');
    const menu = await page.$eval('#sp-menu', (m) => m.getBoundingClientRect().toJSON());
    assert.ok(menu.left >= 0 && menu.right <= 390, 'the menu is on the screen');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390));
  } finally {
    await t.close();
  }
  // Returning tokens: your tokens, in your hand and in the action bar, are the targets.
  const ret = mid();
  ret.state.phase = 'return';
  ret.state.hands[0].tokens = tokens({ white: 3, blue: 3, green: 2, black: 2, gold: 1 });
  ret.state.legal = ['white', 'blue', 'green', 'black', 'gold'].map((gem) => ({ kind: 'return', gem }));
  const t2 = await table([ret], { phone: true });
  try {
    const sizes = await t2.page.$$eval('.sp-hand .sp-token.legal, #sp-return .sp-token.legal', (els) => els.map((e) => Math.min(e.getBoundingClientRect().width, e.getBoundingClientRect().height)));
    assert.equal(sizes.length, 10);
    assert.ok(Math.min(...sizes) >= 40, `tokens to return are ${Math.min(...sizes)}px`);
    assert.ok(await t2.page.evaluate(() => document.documentElement.scrollWidth <= 390));
  } finally {
    await t2.close();
  }
});

test('the replay of a finished game shows each position with the cards reserved blind face up', { timeout: 30000 }, async () => {
  // Views as GET /api/matches/{id}/view?after=N gives them for a finished game: revealed.
  const revealed = (v) => {
    const out = structuredClone(v);
    delete out.you;
    delete out.spectators;
    delete out.clock;
    delete out.state.legal;
    for (const s of out.seats) delete s.connected;
    out.state.hands[1].reserved[0].card = structuredClone(CARDS[52]);
    return out;
  };
  const v0 = revealed(midGame(0));
  v0.history = [];
  const v1 = structuredClone(v0);
  v1.history.push('take white blue green');
  v1.state.decider = 1;
  const v2 = structuredClone(v1);
  v2.history.push('reserve #80 (level 3 white, 4 points) from the level 3 deck');
  v2.state.hands[1].reserved.push({ card: structuredClone(CARDS[80]), level: 3, blind: true });
  v2.state.decks[2] -= 1;
  v2.state.decider = 0;
  // Then Ada resigns: a record without a history line.
  const v3 = structuredClone(v2);
  v3.status = 'finished';
  v3.state.phase = 'over';
  v3.state.decider = null;
  v3.state.winners = [1];
  v3.result = { winners: [1], reason: 'resign' };
  const views = [v0, v1, v2, v3];
  const header = { id: 'm_fixture', game: 'splendor', status: 'finished', live: false, settings: { game: 'splendor', players: 2 }, seats: v0.seats.map((s) => ({ seat: s.seat, team: null, player: s.player, power: null })), result: { winners: [1], reason: 'resign' }, pool: 'splendor', steps: 3 };
  const steps = [
    { number: 1, seat: 0, player: 'p_fix0', step: { kind: 'take', gems: ['white', 'blue', 'green'] }, at: '2026-11-24T10:00:00.000Z' },
    { number: 2, seat: 1, player: 'p_fix1', step: { kind: 'reserve', level: 3 }, at: '2026-11-24T10:00:05.000Z' },
    { number: 3, seat: 0, player: 'p_fix0', step: { kind: 'resign', seat: 0 }, at: '2026-11-24T10:00:09.000Z' },
  ];
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  context.setDefaultTimeout(5000);
  const page = await context.newPage();
  const json = (route, body) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
  await page.route(/\/api\/matches\/m_fixture\/replay$/, (route) => json(route, { match: header, steps }));
  await page.route(/\/api\/matches\/m_fixture\/view\?after=\d+$/, (route) => {
    const after = Number(new URL(route.request().url()).searchParams.get('after'));
    return json(route, { match: 'm_fixture', after, view: views[after] });
  });
  try {
    await page.goto(`${url}/#/replay/m_fixture`);
    await page.waitForSelector('#board[data-after="0"] #sp-table');
    // Everything is revealed: Bo's blind reserve from before the replay's first step too.
    assert.deepEqual(await page.$$eval('.sp-hand[data-seat="1"] .sp-reserved', (rs) => rs.map((r) => r.dataset.card)), ['52', '9']);
    assert.equal((await page.$$('.legal, #prompt')).length, 0, 'nothing to click, no action bar');
    // The log reads the last view's history, one line per step (the resignation has none).
    await page.waitForFunction(() => document.querySelector('#log li[data-n="2"]').dataset.notation === 'reserve #80 (level 3 white, 4 points) from the level 3 deck');
    assert.equal(await page.textContent('#log li[data-n="2"]'), 'Bo reserved a level 3 diamond card (#80, 4 points) from the level 3 deck');
    assert.equal(await page.getAttribute('#log li[data-n="1"]', 'data-notation'), 'take white blue green');
    assert.equal(await page.textContent('#log li[data-n="1"]'), 'Ada took 1 diamond, 1 sapphire and 1 emerald');
    assert.equal(await page.textContent('#log li[data-n="3"]'), 'Ada resigned');
    await page.click('#replay-forward');
    await page.waitForSelector('#board[data-after="1"]');
    await page.click('#replay-forward');
    await page.waitForSelector('#board[data-after="2"]');
    assert.deepEqual(await page.$$eval('.sp-hand[data-seat="1"] .sp-reserved', (rs) => rs.map((r) => `${r.dataset.card}:${r.dataset.blind}`)), ['52:1', '9:0', '80:1']);
    await page.waitForFunction(() => document.querySelector('#replay-step-text').dataset.notation === 'reserve #80 (level 3 white, 4 points) from the level 3 deck');
    assert.equal(await page.textContent('#replay-step-text'), 'Bo reserved a level 3 diamond card (#80, 4 points) from the level 3 deck');
    assert.equal(await page.getAttribute('.sp-row[data-level="3"] [data-deck]', 'data-count'), '15');
    await page.click('#replay-back');
    await page.waitForSelector('#board[data-after="1"]');
    assert.equal(await page.$('.sp-hand[data-seat="1"] .sp-reserved[data-card="80"]'), null);
    await page.click('#replay-last');
    await page.waitForSelector('#board[data-after="3"]');
    await page.waitForFunction(() => document.querySelector('#replay-step-text').textContent === 'Ada resigned');
    assert.ok(await page.$('.sp-hand.winner[data-seat="1"]'));
  } finally {
    await context.close();
  }
});
