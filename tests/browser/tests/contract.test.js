// Browser tests of what needs the server's database: quick play (rated queues over the
// WebSocket), then the finished game in the replay viewer (GET /api/matches/{id}/replay and
// /view?after=N), the player page with its rating history and the leaderboard (docs/api.md),
// and the ratings beside the names in the home page's lobby and live lists.
// They run against a server with a PostgreSQL: scripts/with-postgres sets
// SANTORINI_TEST_DATABASE_URL, and without it they fail (they never skip).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, guest, playToEnd, readGame, screenshot, createLobby, openReplay } from '../harness.js';

const database = process.env.SANTORINI_TEST_DATABASE_URL;

let server;
let browser;

before(async () => {
  assert.ok(database, 'SANTORINI_TEST_DATABASE_URL is not set: run under scripts/with-postgres');
  server = await startServer({ database });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('quick play pairs two players; the game, its replay, player pages and the leaderboard', { timeout: 150000 }, async () => {
  const ann = await guest(browser, server.url, 'Quinn');
  const bob = await guest(browser, server.url, 'Rae');
  try {
    // Each queue card shows the player's rating in its pool: none yet, so 1500, provisional.
    await ann.page.waitForSelector('.queue-rating[data-pool="santorini"]');
    assert.equal(await ann.page.textContent('.queue-rating[data-pool="santorini"]'), 'Your rating: 1500?');
    await screenshot(ann.page, 'home-queues');
    await ann.page.click('#queue-box button[data-queue="santorini"][data-clock="3 + 2"]');
    await ann.page.waitForSelector('#queue-waiting');
    await screenshot(ann.page, 'quick-play');
    await bob.page.click('#queue-box button[data-queue="santorini"][data-clock="3 + 2"]');
    await ann.page.waitForSelector('.game[data-match]');
    await bob.page.waitForSelector('.game[data-match]');
    const id = await ann.page.getAttribute('.game', 'data-match');
    assert.equal(await bob.page.getAttribute('.game', 'data-match'), id);

    // Quick play deals the seats at random: Quinn's seat climbs, so that she wins.
    await ann.page.waitForSelector('.game[data-you]:not([data-you=""])');
    const quinnSeat = Number(await ann.page.getAttribute('.game', 'data-you'));
    const played = await playToEnd([ann.page, bob.page], { climberSeat: quinnSeat });
    await ann.page.waitForSelector('#result');
    const final = await readGame(ann.page);
    assert.equal(final.status, 'finished');

    // The end dialog: the reason in words, both ratings before and after (a rated queue), and a
    // new opponent from the same queue.
    await ann.page.waitForSelector('#end-dialog[open]');
    assert.equal(await ann.page.textContent('#end-title'), 'You won!');
    assert.match(await ann.page.textContent('#end-reason'), /^You (climbed to the third level|won by the power)|Rae had no legal turn left/);
    await ann.page.waitForSelector('#end-ratings[data-state="rated"]');
    const ratings = await ann.page.$$eval('#end-ratings .end-rating', (els) => els.map((e) => [Number(e.dataset.before), Number(e.dataset.after)]));
    assert.equal(ratings.length, 2);
    assert.ok(ratings[quinnSeat][1] > ratings[quinnSeat][0] && ratings[1 - quinnSeat][1] < ratings[1 - quinnSeat][0], `the winner gained, the loser lost: ${JSON.stringify(ratings)}`);
    assert.equal(await ann.page.textContent('#end-new'), 'New opponent (same queue)');
    await screenshot(ann.page, 'result-dialog');
    // Rae, paired at once when she joined, asks for a new opponent: the same queue and clock.
    await bob.page.waitForSelector('#end-dialog[open]');
    assert.equal(await bob.page.textContent('#end-title'), 'You lost');
    await bob.page.click('#end-new');
    await bob.page.waitForSelector('#queue-waiting');
    assert.match(await bob.page.textContent('#queue-waiting'), /Santorini, no gods, 3 \+ 2/);
    await bob.page.click('#queue-waiting button');
    await bob.page.waitForSelector('#queue-box .queues');
    // Back home after the loss: her rating in the pool of that queue went down.
    await bob.page.waitForSelector('.queue-rating[data-pool="santorini"]');
    const after = await bob.page.textContent('.queue-rating[data-pool="santorini"]');
    assert.ok(Number(after.match(/(\d+)\??$/)[1]) < 1500, after);

    // The replay viewer: forward, back, a jump, the end, autoplay.
    await openReplay(ann.page);
    await ann.page.waitForSelector('#board[data-after="0"] svg.board');
    const heights = () => ann.page.$$eval('svg.board .cell', (cells) => cells.map((c) => c.dataset.height + c.dataset.dome).join(''));
    const empty = await heights();
    await ann.page.click('#replay-forward');
    await ann.page.waitForSelector('#board[data-after="1"]');
    await ann.page.click('#replay-back');
    await ann.page.waitForSelector('#board[data-after="0"]');
    await ann.page.click('#replay-last');
    await ann.page.waitForSelector(`#board[data-after="${final.log}"]`);
    assert.notEqual(await heights(), empty, 'the last position has buildings');
    await ann.page.click('#log li[data-n="6"] button');
    await ann.page.waitForSelector('#board[data-after="6"]');
    assert.match(await ann.page.textContent('#replay-position'), /Step 6 of/);
    await ann.page.click('#replay-play');
    await ann.page.waitForSelector('#board[data-after="7"]', { timeout: 5000 });
    await ann.page.click('#replay-play');
    assert.ok(played > 0);

    // The player page: ratings, the rating chart, the match just played.
    const me = await ann.page.evaluate(() => window.santoriniTest.me.id);
    await ann.page.goto(`${server.url}/#/player/${me}`);
    // One rated game: one point on the chart (a one-point polyline has no size to be visible).
    await ann.page.waitForSelector('#rating-chart svg.chart circle.point');
    await ann.page.waitForSelector(`#recent li[data-match="${id}"]`);

    // The leaderboard answers for the pool played (provisional players are not ranked).
    await ann.page.goto(`${server.url}/#/leaderboard/santorini`);
    await ann.page.waitForFunction(() => /Nobody ranked yet|Rating/.test(document.querySelector('#leaderboard')?.textContent || ''));
  } finally {
    await Promise.all([ann.context.close(), bob.context.close()]);
  }
});

test("the home page's lobby and live lists show each player's rating beside the name", { timeout: 60000 }, async () => {
  const sal = await guest(browser, server.url, 'Sal');
  const tess = await guest(browser, server.url, 'Tess');
  const vic = await guest(browser, server.url, 'Vic');
  const wes = await guest(browser, server.url, 'Wes', { viewport: { width: 1280, height: 800 } });
  /** The names and ratings a list entry shows: [[name, rating or null], …]. */
  const listed = (page, selector) =>
    page.$$eval(`${selector} .listed-player`, (els) => els.map((e) => [e.querySelector('.listed-name').textContent, e.querySelector('.list-rating')?.textContent ?? null]));
  try {
    // Sal's public lobby: nobody has played a rated game, so 1500, provisional ("?").
    await createLobby(sal.page, { powers: 'none', isPublic: true });
    const lobbyId = await sal.page.getAttribute('.lobby', 'data-lobby');
    const lobbyRow = `#lobby-list li[data-lobby="${lobbyId}"]`;
    await wes.page.waitForSelector(`${lobbyRow} .list-rating`);
    assert.deepEqual(await listed(wes.page, lobbyRow), [['Sal', '1500?']]);
    assert.equal(await wes.page.getAttribute(`${lobbyRow} .list-rating`, 'title'), 'Provisional rating: 1500?');

    // Tess joins from her list: the lobby is full and leaves the list of lobbies to join (the
    // list shows waiting lobbies only); then the live game lists both names, each with its rating.
    await tess.page.click(`${lobbyRow} button`);
    await wes.page.waitForSelector(lobbyRow, { state: 'detached' });
    await sal.page.click('#lobby-start:not([disabled])');
    await sal.page.waitForSelector('.game[data-match]');
    const matchId = await sal.page.getAttribute('.game', 'data-match');
    const matchRow = `#match-list li[data-match="${matchId}"]`;
    await wes.page.waitForFunction((row) => document.querySelectorAll(`${row} .list-rating`).length === 2, matchRow);
    assert.deepEqual(await listed(wes.page, matchRow), [['Sal', '1500?'], ['Tess', '1500?']]);
    assert.match(await wes.page.textContent(`${matchRow} strong`), /^Sal ?1500\? vs Tess ?1500\?$/);

    // Vic opens another lobby: both lists at once, on a desktop and on a phone (no horizontal scroll).
    await createLobby(vic.page, { powers: 'simple', isPublic: true });
    const vicRow = `#lobby-list li[data-lobby="${await vic.page.getAttribute('.lobby', 'data-lobby')}"]`;
    await wes.page.waitForSelector(`${vicRow} .list-rating`);
    await wes.page.evaluate(() => document.querySelector('#lobby-list').scrollIntoView());
    await screenshot(wes.page, 'home-ratings-desktop');
    await wes.page.setViewportSize({ width: 390, height: 844 });
    const overflow = await wes.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the home page scrolls sideways by ${overflow} px at 390 px`);
    await wes.page.evaluate(() => document.querySelector('#lobby-list').scrollIntoView());
    await screenshot(wes.page, 'home-ratings-phone');
  } finally {
    await Promise.all([sal.context.close(), tess.context.close(), vic.context.close(), wes.context.close()]);
  }
});
