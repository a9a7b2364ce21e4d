// Browser end-to-end tests against the in-memory server: a lobby joined by its invite
// link, the god draft, a full game to a win by clicking, a spectator who sees every step live,
// a player whose connection drops mid-game, and a whole game on a phone-sized screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, guest, createLobby, playToEnd, readGame, screenshot, pickStep, clickStep } from '../harness.js';

let server;
let browser;
/** What the first game recorded for the replay test: spectator views by steps played, the
 *  steps with their seats, the match id and the players. */
const recorded = { views: [], steps: [], match: null, seats: [] };
const viewOf = (page) => page.evaluate(() => {
  const id = document.querySelector('.game').dataset.match;
  return window.santoriniTest.conn.match(id).view;
});

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('a lobby joined by invite link, god draft, a full game to a win, spectated live, with a dropped connection', { timeout: 150000 }, async () => {
  const ann = await guest(browser, server.url, 'Ann');
  const bob = await guest(browser, server.url, 'Bob');
  const cat = await guest(browser, server.url, 'Cat');
  try {
    await screenshot(ann.page, 'home');
    // Public, so that Cat can find the game among the live ones: a private lobby's match is
    // never listed, and watching it needs its invite code (docs/protocol.md, "Private matches").
    const link = await createLobby(ann.page, { powers: 'simple', draft: 'full', isPublic: true });
    assert.match(link, /#\/join\/[A-Z0-9]{8}$/);
    // Bob opens the invite link: it joins on open.
    await bob.page.goto(link);
    await bob.page.waitForSelector('.lobby');
    await ann.page.waitForSelector('#lobby-start:not([disabled])');
    await screenshot(ann.page, 'lobby');
    await ann.page.click('#lobby-start');
    await ann.page.waitForSelector('.game[data-status="draft"]');
    await bob.page.waitForSelector('.game[data-status="draft"]');
    const matchId = await ann.page.getAttribute('.game', 'data-match');

    // Cat finds the game among the live games and watches it.
    await cat.page.waitForSelector(`#match-list li[data-match="${matchId}"] a`);
    await cat.page.click(`#match-list li[data-match="${matchId}"] a`);
    await cat.page.waitForSelector('.game[data-status="draft"]');
    assert.equal((await readGame(cat.page)).you, null);
    recorded.match = matchId;
    recorded.views[0] = await viewOf(cat.page);
    await ann.page.waitForFunction(() => document.querySelector('#spectators')?.textContent.includes('watching: 1'));

    // The challenger sees the pool with descriptions; the other waits.
    const challenger = (await readGame(ann.page)).legal.length > 0 ? ann : bob;
    await challenger.page.waitForSelector('#draft .power-card[data-power="Apollo"]');
    assert.match(await challenger.page.textContent('#draft .power-card[data-power="Apollo"]'), /opponent/);
    await screenshot(challenger.page, 'draft');

    const seen = [];
    let dropped = false;
    let snapshotsBefore = null;
    let shotTaken = false;
    const played = await playToEnd([ann.page, bob.page], {
      climberSeat: 0,
      onStep: async (n, logLength, page, step) => {
        // The spectator sees every step, live.
        await cat.page.waitForFunction((k) => document.querySelectorAll('#log li').length >= k, logLength);
        seen.push(await cat.page.getAttribute(`#log li[data-n="${logLength}"]`, 'data-notation'));
        // The first line's element, marked: the steps after it add lines and keep it.
        if (logLength === 3) await cat.page.evaluate(() => (document.querySelector('#log li[data-n="1"]').keptByTest = true));
        const catView = await viewOf(cat.page);
        recorded.views[catView.history.length] = catView;
        recorded.steps.push({ number: logLength, seat: (await readGame(page)).you, step, at: new Date().toISOString() });
        if (!shotTaken && (await readGame(page)).status === 'playing' && logLength > 14) {
          shotTaken = true;
          await screenshot(ann.page, 'game');
          await screenshot(cat.page, 'spectator');
        }
        // Mid-game, Bob's socket drops; Ann plays on; Bob reconnects by himself and catches up.
        if (!dropped && logLength >= 12 && page === ann.page) {
          dropped = true;
          snapshotsBefore = await bob.page.evaluate(() => window.santoriniTest.conn.stats.snapshots);
          await bob.page.evaluate(() => window.santoriniTest.conn.socket.close());
          await bob.page.waitForFunction(() => window.santoriniTest.conn.status !== 'online');
        }
      },
    });
    assert.ok(dropped, 'the connection was dropped during the game');
    assert.ok(played > 10);
    for (const p of [ann.page, bob.page, cat.page]) await p.waitForSelector('#result');
    const a = await readGame(ann.page);
    const b = await readGame(bob.page);
    const c = await readGame(cat.page);
    assert.equal(a.status, 'finished');
    assert.equal(a.log, b.log);
    assert.equal(a.log, c.log);
    assert.equal(seen.length, played);
    // The log reads as people write it: every line names its player and says what happened in
    // words, not notation (which stays on the line as data-notation), for players and spectator.
    for (const p of [ann.page, bob.page, cat.page]) {
      const lines = await p.$$eval('#log li', (lis) => lis.map((li) => ({ text: li.textContent, notation: li.dataset.notation, who: li.querySelector('.log-who')?.textContent })));
      assert.equal(lines.length, a.log);
      for (const l of lines) {
        assert.ok(['Ann', 'Bob'].includes(l.who), `"${l.text}" names its player`);
        const words = l.text.slice(l.who.length + 1);
        assert.ok(l.text.startsWith(`${l.who} `) && words.split(' ')[0] !== l.notation.split(' ')[0], `"${l.text}" is in words, not "${l.notation}"`);
      }
    }
    // Lines are drawn once, not again at every step (game.js renderLog); the notation switch
    // draws them all again, in notation, and back in words.
    assert.equal(await cat.page.evaluate(() => document.querySelector('#log li[data-n="1"]').keptByTest), true, 'the first log line is the element drawn for it');
    const firstLine = () => cat.page.evaluate(() => { const li = document.querySelector('#log li[data-n="1"]'); return { text: li.textContent, notation: li.dataset.notation }; });
    const inWords = await firstLine();
    await cat.page.click('#end-close');
    await cat.page.click('#log-notation');
    await cat.page.waitForFunction((text) => document.querySelector('#log li[data-n="1"]').textContent !== text, inWords.text);
    const inNotation = await firstLine();
    assert.ok(inNotation.text.endsWith(inNotation.notation), `"${inNotation.text}" shows the notation`);
    await cat.page.click('#log-notation');
    await cat.page.waitForFunction((text) => document.querySelector('#log li[data-n="1"]').textContent === text, inWords.text);
    assert.match(await ann.page.textContent('#result'), /won/);
    await screenshot(ann.page, 'result');
    // Bob came back with hello and match.open since his version: patches, no new snapshot.
    const stats = await bob.page.evaluate(() => window.santoriniTest.conn.stats);
    assert.equal(stats.welcomes, 2);
    assert.equal(stats.snapshots, snapshotsBefore);
    assert.equal(await bob.page.evaluate(() => window.santoriniTest.conn.status), 'online');
  } finally {
    await Promise.all([ann.context.close(), bob.context.close(), cat.context.close()]);
  }
});

test('a whole game on a 390x844 phone screen', { timeout: 120000 }, async () => {
  const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
  const dan = await guest(browser, server.url, 'Dan', phone);
  const eve = await guest(browser, server.url, 'Eve', phone);
  try {
    await screenshot(dan.page, 'phone-home');
    const link = await createLobby(dan.page, { powers: 'none', isPublic: false });
    await eve.page.goto(link);
    await dan.page.waitForSelector('#lobby-start:not([disabled])');
    await dan.page.click('#lobby-start');
    await dan.page.waitForSelector('.game');
    await eve.page.waitForSelector('.game');
    // The board fits the screen: no sideways scrolling.
    const width = await dan.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `page is ${width}px wide`);
    let shot = false;
    let reloaded = false;
    await playToEnd([dan.page, eve.page], {
      climberSeat: 1,
      onStep: async (n, logLength, page) => {
        // Eve reloads the page mid-game: her guest comes back from localStorage and the
        // match reopens where it stands.
        if (!reloaded && logLength >= 8) {
          reloaded = true;
          await eve.page.reload();
          await eve.page.waitForFunction((k) => document.querySelectorAll('#log li').length >= k, logLength);
        }
        if (!shot && logLength > 10) {
          shot = true;
          await screenshot(page === dan.page ? eve.page : dan.page, 'phone-game');
        }
      },
    });
    await dan.page.waitForSelector('#result');
    await eve.page.waitForSelector('#result');
    assert.equal((await readGame(eve.page)).status, 'finished');
    assert.ok(reloaded);
  } finally {
    await Promise.all([dan.context.close(), eve.context.close()]);
  }
});

test('a public lobby appears live, seats fill by clicking Join, no clock in the draft, then the clock ticks, abort before the first move', { timeout: 60000 }, async () => {
  const fay = await guest(browser, server.url, 'Fay');
  const gus = await guest(browser, server.url, 'Gus');
  try {
    await fay.page.click('#create-game');
    await fay.page.selectOption('#set-powers', 'none');
    // The form shows only the fields that apply; a new lobby has a real-time clock by default.
    assert.equal(await fay.page.inputValue('#set-clock'), 'realtime');
    assert.equal(await fay.page.isVisible('#set-base'), true);
    await fay.page.selectOption('#set-clock', 'none');
    assert.equal(await fay.page.isVisible('#set-base'), false);
    assert.equal(await fay.page.isDisabled('#set-draft'), true);
    assert.equal(await fay.page.isVisible('.pool'), false);
    await fay.page.selectOption('#set-clock', 'realtime');
    assert.equal(await fay.page.isVisible('#set-base'), true);
    assert.equal(await fay.page.isVisible('#set-hours'), false);
    await fay.page.fill('#set-base', '2');
    await fay.page.fill('#set-inc', '1');
    await fay.page.click('#create-submit');
    await fay.page.waitForSelector('.lobby');
    const lobbyId = await fay.page.getAttribute('.lobby', 'data-lobby');
    // Gus's home page lists the new lobby without a reload.
    await gus.page.waitForSelector(`#lobby-list li[data-lobby="${lobbyId}"] button`);
    assert.match(await gus.page.textContent(`#lobby-list li[data-lobby="${lobbyId}"]`), /no gods.*2\+1/);
    await gus.page.click(`#lobby-list li[data-lobby="${lobbyId}"] button`);
    await gus.page.waitForSelector('.lobby');
    // A reload keeps the seat and shows the lobby again; the start still reaches the tab.
    await gus.page.reload();
    await gus.page.waitForSelector(`.lobby[data-lobby="${lobbyId}"]`);
    await gus.page.waitForFunction(() => window.santoriniTest.conn.status === 'online');
    await fay.page.click('#lobby-start:not([disabled])');
    await fay.page.waitForSelector('.game .clock');
    await gus.page.waitForSelector('.game .clock');
    // No clock runs while the start player is chosen (docs/rulings.md, "No clock in the draft").
    await fay.page.waitForSelector('.game[data-status="draft"]');
    assert.equal(await fay.page.$('.clock.running'), null);
    const chooser = (await readGame(fay.page)).legal.length > 0 ? fay : gus;
    await clickStep(chooser.page, (await readGame(chooser.page)).legal[0]);
    await fay.page.waitForSelector('.game[data-status="placement"]');
    // Then the deciding seat's clock runs down locally.
    const running = async () => fay.page.textContent('.clock.running');
    await fay.page.waitForSelector('.clock.running');
    const first = await running();
    assert.match(first, /^[12]:[0-5][0-9]$/);
    await fay.page.waitForFunction((t) => document.querySelector('.clock.running')?.textContent !== t, first, { timeout: 5000 });
    // Nobody has moved: a seated player may abort.
    fay.page.once('dialog', (d) => d.accept());
    await fay.page.click('#abort');
    await fay.page.waitForSelector('.game[data-status="aborted"]');
    await gus.page.waitForSelector('.game[data-status="aborted"]');
    assert.match(await gus.page.textContent('#result'), /aborted/);
  } finally {
    await Promise.all([fay.context.close(), gus.context.close()]);
  }
});

test("Atlas' dome-or-block and Prometheus' build-before-moving are offered as a choice; resign", { timeout: 90000 }, async () => {
  const hal = await guest(browser, server.url, 'Hal');
  const ivy = await guest(browser, server.url, 'Ivy');
  try {
    await hal.page.click('#create-game');
    await hal.page.selectOption('#set-powers', 'custom');
    await hal.page.check('.pool input[data-power="Atlas"]');
    await hal.page.check('.pool input[data-power="Prometheus"]');
    await hal.page.selectOption('#set-draft', 'full');
    await hal.page.selectOption('#set-clock', 'none');
    await hal.page.uncheck('#set-public');
    await screenshot(hal.page, 'create', { fullPage: true });
    await hal.page.click('#create-submit');
    const link = await hal.page.inputValue('#invite-link');
    await ivy.page.goto(link);
    await hal.page.click('#lobby-start:not([disabled])');
    await hal.page.waitForSelector('.game');
    await ivy.page.waitForSelector('.game');
    const pages = [hal.page, ivy.page];
    let atlas = false;
    let prometheus = false;
    for (let i = 0; i < 80 && !(atlas && prometheus); i++) {
      for (const page of pages) {
        const g = await readGame(page);
        if (g.legal.length === 0) continue;
        const before = g.log;
        const domeAndBlock = g.legal.find((d) => d.kind === 'dome' && g.legal.some((b) => b.kind === 'build' && b.from === d.from && b.to === d.to));
        const moveOrBuild = g.legal.find((b) => b.kind === 'build' && b.before_move && g.legal.some((m) => m.kind === 'move' && m.from === b.from && m.to === b.to));
        if (!atlas && domeAndBlock) {
          atlas = true;
          await clickSquares(page, domeAndBlock.from, domeAndBlock.to);
          const options = await page.$$eval('#choice button[data-step]', (bs) => bs.map((b) => b.dataset.step).sort());
          assert.deepEqual(options, [`build ${domeAndBlock.from} ${domeAndBlock.to}`, `dome ${domeAndBlock.from} ${domeAndBlock.to}`]);
          await page.click(`#choice button[data-step="dome ${domeAndBlock.from} ${domeAndBlock.to}"]`);
          await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, before);
          assert.equal((await readGame(page)).cells[domeAndBlock.to].dome, true);
        } else if (!prometheus && moveOrBuild) {
          prometheus = true;
          await clickSquares(page, moveOrBuild.from, moveOrBuild.to);
          const options = await page.$$eval('#choice button[data-step]', (bs) => bs.map((b) => b.dataset.step).sort());
          assert.deepEqual(options, [`build ${moveOrBuild.from} ${moveOrBuild.to} first`, `move ${moveOrBuild.from} ${moveOrBuild.to}`]);
          await page.click(`#choice button[data-step="build ${moveOrBuild.from} ${moveOrBuild.to} first"]`);
          await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, before);
          assert.equal((await readGame(page)).cells[moveOrBuild.to].height, g.cells[moveOrBuild.to].height + 1);
        } else {
          await clickStep(page, pickStep(g, 0));
          await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, before);
        }
      }
      if ((await readGame(hal.page)).status === 'finished') break;
    }
    assert.ok(atlas, 'Atlas had a square where both a block and a dome were legal');
    assert.ok(prometheus, 'Prometheus could build before moving');
    if ((await readGame(hal.page)).status === 'playing') {
      ivy.page.once('dialog', (d) => d.accept());
      await ivy.page.click('#resign');
      await hal.page.waitForSelector('#result');
      assert.match(await hal.page.textContent('#result'), /Hal won by resignation/);
    }
  } finally {
    await Promise.all([hal.context.close(), ivy.context.close()]);
  }
});

/** Clicks the worker on `from` (unless already selected) and then the target `to`. */
async function clickSquares(page, from, to) {
  if (!(await page.$(`svg.board .cell.selected[data-square="${from}"]`))) await page.click(`svg.board .cell[data-square="${from}"]`);
  await page.click(`svg.board .cell.target[data-square="${to}"]`);
  await page.waitForSelector('#choice');
}

test('replay viewer, player page and leaderboard on answers shaped as the HTTP API contract', { timeout: 60000 }, async () => {
  // The HTTP API branch serves these; until then the browser gets contract-shaped answers made
  // from the first game's real spectator views (tests/contract.test.js uses the real ones).
  assert.ok(recorded.match, 'the first game ran');
  const n = recorded.steps.length;
  for (let i = 0; i <= n; i++) assert.ok(recorded.views[i], `the spectator's view after ${i} steps was recorded`);
  const final = recorded.views[n];
  const header = {
    id: recorded.match,
    game: 'santorini',
    status: 'finished',
    live: false,
    settings: { game: 'santorini', players: 2, powers: 'simple', draft: 'full', golden_fleece: false, clock: { kind: 'none' }, public: false },
    pool: 'santorini_powers',
    rated: true,
    created_at: '2026-01-02T10:00:00Z',
    finished_at: '2026-01-02T10:20:00Z',
    steps: n,
    seats: final.seats.map((s) => ({ seat: s.seat, player: s.player, power: s.power, team: null, rating_before: { rating: 1500, deviation: 350 }, rating_after: { rating: final.result.winners.includes(s.seat) ? 1662 : 1338, deviation: 290 } })),
    result: final.result,
    spectators: 0,
  };
  const winner = final.seats[final.result.winners[0]].player;
  const history = Array.from({ length: 12 }, (_, i) => ({ at: `2026-01-${String(i + 2).padStart(2, '0')}T10:00:00Z`, rating: 1500 + 20 * i - (i % 3 === 0 ? 35 : 0), deviation: 350 - 20 * i, match: `m_${i}` }));
  const json = (route, body, status = 200) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, bypassCSP: true });  // waitForFunction evaluates strings (harness.js)
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.route(/\/api\/matches\/[^/]+\/replay$/, (route) => json(route, { match: header, steps: recorded.steps }));
  await page.route(/\/api\/matches\/[^/]+\/view\?after=\d+$/, (route) => {
    const after = Number(new URL(route.request().url()).searchParams.get('after'));
    if (after > n) return json(route, { error: 'after is past the last step', code: 'bad_request' }, 400);
    return json(route, { match: header.id, after, steps: n, view: recorded.views[after] });
  });
  await page.route(/\/api\/players\/[^/]+$/, (route) => json(route, { id: winner.id, name: winner.name, created_at: '2026-01-01T09:00:00Z', ratings: [{ pool: 'santorini_powers', rating: 1662, deviation: 290, volatility: 0.06, games: 12, provisional: false }], recent_matches: [header] }));
  await page.route(/\/api\/players\/[^/]+\/rating-history\?pool=santorini_powers$/, (route) => json(route, { player: winner.id, pool: 'santorini_powers', history }));
  // Two pages of matches: the header, then 25 made-up ones after the cursor.
  const older = Array.from({ length: 25 }, (_, i) => ({ ...header, id: `m_old${i}`, finished_at: `2025-12-${String(i + 1).padStart(2, '0')}T10:00:00Z` }));
  await page.route(/\/api\/players\/[^/]+\/matches\?/, (route) => {
    const url = new URL(route.request().url());
    assert.equal(url.searchParams.get('limit'), '20');
    const after = url.searchParams.get('after');
    const rows = after === null ? [header, ...older.slice(0, 19)] : after === 'c20' ? older.slice(19) : null;
    if (!rows) return json(route, { error: 'bad cursor', code: 'bad_request' }, 400);
    return route.fulfill({ status: 200, contentType: 'application/x-ndjson', headers: after === null ? { 'X-Next-Cursor': 'c20' } : {}, body: rows.map((r) => JSON.stringify(r)).join('\n') + '\n' });
  });
  await page.route(/\/api\/leaderboard\?pool=santorini_powers/, (route) => json(route, { pool: 'santorini_powers', entries: [{ rank: 1, player: winner, rating: 1662, deviation: 90, games: 12 }, { rank: 2, player: { id: 'p_x', name: 'Zed' }, rating: 1540, deviation: 75, games: 30 }] }));
  try {
    const boardOf = () => page.$$eval('svg.board .cell', (cells) => cells.map((c) => `${c.dataset.height}${c.dataset.dome === '1' ? 'D' : ''}`));
    const expectBoard = (k) => recorded.views[k].state.board;
    await page.goto(`${server.url}/#/replay/${header.id}`);
    await page.waitForSelector('#board[data-after="0"] svg.board');
    assert.match(await page.textContent('#replay-position'), new RegExp(`Step 0 of ${n}`));
    await page.click('#replay-forward');
    await page.waitForSelector('#board[data-after="1"]');
    await page.click('#replay-last');
    await page.waitForSelector(`#board[data-after="${n}"]`);
    assert.deepEqual(await boardOf(), expectBoard(n));
    await page.click('#replay-back');
    await page.waitForSelector(`#board[data-after="${n - 1}"]`);
    assert.deepEqual(await boardOf(), expectBoard(n - 1));
    const mid = Math.floor(n / 2);
    await page.click(`#log li[data-n="${mid}"] button`);
    await page.waitForSelector(`#board[data-after="${mid}"]`);
    assert.deepEqual(await boardOf(), expectBoard(mid));
    const workers = await page.$$eval('svg.board .worker', (ws) => ws.length);
    assert.equal(workers, recorded.views[mid].state.workers.filter((w) => w.square).length);
    await page.click('#replay-play');
    await page.waitForSelector(`#board[data-after="${mid + 2}"]`, { timeout: 5000 });
    await page.click('#replay-play');
    await screenshot(page, 'replay');

    await page.goto(`${server.url}/#/player/${winner.id}`);
    await page.waitForSelector('#rating-chart svg.chart polyline');
    assert.equal(await page.$$eval('#rating-chart circle.point', (c) => c.length), history.length);
    assert.match(await page.textContent(`#recent li[data-match="${header.id}"]`), /won \(\+162\)/);
    await screenshot(page, 'player');
    await page.click('#more-matches');
    await page.waitForFunction(() => document.querySelectorAll('#recent li').length === 20);
    await page.click('#more-matches');
    await page.waitForFunction(() => document.querySelectorAll('#recent li').length === 26);
    assert.equal(await page.isHidden('#more-matches'), true);

    await page.goto(`${server.url}/#/leaderboard`);
    await page.waitForSelector('#leaderboard table');
    assert.equal(await page.$$eval('#leaderboard tr', (r) => r.length), 3);
    await screenshot(page, 'leaderboard');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('three players: random gods, everyone sees the same board, cards and turn', { timeout: 60000 }, async () => {
  const players = [];
  for (const name of ['Jo', 'Kim', 'Lu']) players.push(await guest(browser, server.url, name));
  const pages = players.map((p) => p.page);
  try {
    const link = await createLobby(pages[0], { players: '3', powers: 'simple', draft: 'random' });
    await pages[1].goto(link);
    await pages[2].goto(link);
    await pages[0].click('#lobby-start:not([disabled])');
    for (const p of pages) await p.waitForSelector('.game');
    // Random gods are dealt at once: every seat shows its power card.
    for (const p of pages) await p.waitForFunction(() => document.querySelectorAll('.player-card .power').length === 3);
    let steps = 0;
    while (steps < 16) {
      let acted = false;
      for (const p of pages) {
        const g = await readGame(p);
        if (g.legal.length === 0) continue;
        await clickStep(p, pickStep(g, 0));
        await p.waitForFunction((n) => document.querySelectorAll('#log li').length > n, g.log);
        steps += 1;
        acted = true;
      }
      if (!acted) await new Promise((r) => setTimeout(r, 50));
      if ((await readGame(pages[0])).status === 'finished') break;
    }
    for (const p of pages) await p.waitForFunction((n) => document.querySelectorAll('#log li').length >= n, steps);
    const seen = await Promise.all(pages.map(readGame));
    assert.deepEqual(seen[1].cells, seen[0].cells);
    assert.deepEqual(seen[2].cells, seen[0].cells);
    assert.equal(Object.values(seen[0].cells).filter((c) => c.side !== null).length, 6);
    assert.deepEqual(new Set(Object.values(seen[0].cells).filter((c) => c.side !== null).map((c) => c.side)), new Set([0, 1, 2]));
    // Exactly one seat is asked to play, and every page shows the same one highlighted.
    assert.equal(seen.filter((g) => g.legal.length > 0).length, seen[0].status === 'finished' ? 0 : 1);
    const turn = await Promise.all(pages.map((p) => p.getAttribute('.player-card.turn', 'data-seat')));
    assert.equal(new Set(turn).size, 1);
    await screenshot(pages[0], 'three-players');
  } finally {
    await Promise.all(players.map((p) => p.context.close()));
  }
});

test('the server serves the client with the right content types', async () => {
  const types = {
    '/': /^text\/html/,
    '/js/app.js': /^text\/javascript/,
    '/js/screens/game.js': /^text\/javascript/,
    '/css/app.css': /^text\/css/,
    '/favicon.svg': /^image\/svg\+xml/,
  };
  for (const [path, type] of Object.entries(types)) {
    const response = await fetch(`${server.url}${path}`);
    assert.equal(response.status, 200, path);
    assert.match(response.headers.get('content-type'), type, path);
  }
  assert.equal((await fetch(`${server.url}/js/missing.js`)).status, 404);
});

test('the Golden Fleece: one god beside the board, the Ram placed by clicking', { timeout: 60000 }, async () => {
  const mo = await guest(browser, server.url, 'Mo');
  const ned = await guest(browser, server.url, 'Ned');
  try {
    await mo.page.click('#create-game');
    await mo.page.selectOption('#set-powers', 'simple');
    await mo.page.selectOption('#set-draft', 'full');
    await mo.page.check('#set-fleece');
    await mo.page.selectOption('#set-clock', 'none');
    await mo.page.uncheck('#set-public');
    await mo.page.click('#create-submit');
    const link = await mo.page.inputValue('#invite-link');
    await ned.page.goto(link);
    await mo.page.click('#lobby-start:not([disabled])');
    const pages = [mo.page, ned.page];
    for (const p of pages) await p.waitForSelector('.game .fleece');
    let token = false;
    for (let i = 0; i < 30; i++) {
      let acted = false;
      for (const p of pages) {
        const g = await readGame(p);
        if (g.legal.length === 0) continue;
        const step = pickStep(g, 0);
        if (step.kind === 'token') token = true;
        await clickStep(p, step);
        await p.waitForFunction((n) => document.querySelectorAll('#log li').length > n, g.log);
        acted = true;
      }
      if (!acted) await new Promise((r) => setTimeout(r, 50));
      if (token && (await readGame(mo.page)).status === 'playing') break;
    }
    assert.ok(token, 'the Ram was placed with a token step');
    for (const p of pages) {
      await p.waitForSelector('svg.board .ram');
      assert.match(await p.textContent('.fleece'), /Golden Fleece: \w+/);
      assert.match(await p.textContent('.fleece'), /Ram on [A-E][1-5]/);
    }
    await screenshot(mo.page, 'golden-fleece');
  } finally {
    await Promise.all([mo.context.close(), ned.context.close()]);
  }
});
