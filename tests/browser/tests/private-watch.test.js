// A private lobby's match, watched by someone who is not in it (docs/protocol.md "Private
// matches"): without the invite code the client says so instead of a table; with the spectator
// link a player copies from the game screen (`#/watch/{match}/{code}`) it watches live, and keeps
// the code across a dropped connection; the replay, live and finished, opens with the code
// (`#/replay/{id}/{code}`, sent as ?code=) and is refused in words without it. Runs against a
// server with a PostgreSQL (scripts/with-postgres): replays are the stored-data API.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, guest, createLobby, readGame, pickStep, clickStep, screenshot, openReplay } from '../harness.js';

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

/** Plays one step on whichever page decides; resolves to the log's new length. */
async function playOne(pages) {
  for (let tries = 0; tries < 200; tries += 1) {
    for (const page of pages) {
      const g = await readGame(page);
      if (g.legal.length === 0) continue;
      await clickStep(page, pickStep(g, 0));
      await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, g.log);
      return g.log + 1;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('nobody had a step to play');
}

const logLength = (page) => page.evaluate(() => document.querySelectorAll('#log li').length);

test('a private match: refused without its code, watched live with the spectator link, its replay with the code', { timeout: 150000 }, async () => {
  const ann = await guest(browser, server.url, 'Ann');
  const bob = await guest(browser, server.url, 'Bob');
  const cat = await guest(browser, server.url, 'Cat');
  // Every match.open Cat sends on a new socket, to check that the code goes with each one.
  const opens = [];
  cat.page.on('websocket', (ws) =>
    ws.on('framesent', ({ payload }) => {
      const msg = JSON.parse(String(payload));
      if (msg.type === 'match.open') opens.push(msg);
    }),
  );
  try {
    const invite = await createLobby(ann.page, { powers: 'none', isPublic: false });
    const code = invite.match(/#\/join\/([A-Z0-9]{8})$/)[1];
    await bob.page.goto(invite);
    await bob.page.waitForSelector('.lobby');
    await ann.page.waitForSelector('#lobby-start:not([disabled])');
    await ann.page.click('#lobby-start');
    await ann.page.waitForSelector('.game[data-status] :is(svg.board, #draft)');
    await bob.page.waitForSelector('.game[data-status] :is(svg.board, #draft)');
    const id = await ann.page.getAttribute('.game', 'data-match');

    // Both players are shown the spectator link, built from the lobby's code.
    const link = await ann.page.inputValue('#spectator-link');
    assert.equal(link, `${server.url}/#/watch/${id}/${code}`);
    assert.equal(await bob.page.inputValue('#spectator-link'), link);
    await playOne([ann.page, bob.page]);

    // Cat, with the match id but not the code: told so, no broken table.
    await cat.page.goto(`${server.url}/#/match/${id}`);
    await cat.page.waitForSelector('#match-refused[data-reason="not_authorized"]');
    assert.match(await cat.page.textContent('#match-refused'), /private game.*spectator link/s);
    assert.equal(await cat.page.$('svg.board'), null);
    await screenshot(cat.page, 'private-refused');
    // A wrong code: the same refusal, saying the code is wrong.
    await cat.page.goto(`${server.url}/#/watch/${id}/ZZZZ2345`);
    await cat.page.waitForSelector('#match-refused[data-reason="not_authorized"]');
    assert.match(await cat.page.textContent('#match-refused h1'), /Wrong invite code/);
    // The replay without the code: refused in words too (403).
    await cat.page.goto(`${server.url}/#/replay/${id}`);
    await cat.page.waitForSelector('#replay-refused[data-status="403"]');
    assert.match(await cat.page.textContent('#replay-refused'), /private game/);

    // With the spectator link Cat watches: the board, as a spectator, at the players' step.
    await cat.page.goto(link);
    await cat.page.waitForSelector('.game svg.board');
    assert.equal((await readGame(cat.page)).you, null);
    await cat.page.waitForFunction((n) => document.querySelectorAll('#log li').length >= n, await logLength(ann.page));
    await ann.page.waitForFunction(() => document.querySelector('#spectators')?.textContent.includes('watching: 1'));
    // A step played meanwhile reaches Cat.
    let n = await playOne([ann.page, bob.page]);
    await cat.page.waitForFunction((k) => document.querySelectorAll('#log li').length >= k, n);
    assert.equal(await cat.page.getAttribute(`#log li[data-n="${n}"]`, 'data-notation'), await ann.page.getAttribute(`#log li[data-n="${n}"]`, 'data-notation'));

    // Cat's connection drops; the players play on; Cat reconnects by itself, reopens the match
    // with the code again and catches up.
    const welcomes = await cat.page.evaluate(() => window.santoriniTest.conn.stats.welcomes);
    await cat.page.evaluate(() => window.santoriniTest.conn.socket.close());
    await cat.page.waitForFunction(() => window.santoriniTest.conn.status !== 'online');
    n = await playOne([ann.page, bob.page]);
    n = await playOne([ann.page, bob.page]);
    await cat.page.waitForFunction((w) => window.santoriniTest.conn.stats.welcomes > w, welcomes);
    await cat.page.waitForFunction((k) => document.querySelectorAll('#log li').length >= k, n);
    assert.equal(await cat.page.$('#match-refused'), null);
    // (Frames of the first socket are not recorded: it was open before the listener.)
    const mine = opens.filter((m) => m.match === id);
    assert.ok(mine.length >= 1, 'Cat reopened the match after reconnecting');
    assert.ok(mine.every((m) => m.code === code && m.since > 0), JSON.stringify(mine));
    assert.equal(await cat.page.inputValue('#spectator-link'), link);

    // Ann reloads: her browser still knows the code, so the link is still there.
    await ann.page.reload();
    await ann.page.waitForSelector('#spectator-link');
    assert.equal(await ann.page.inputValue('#spectator-link'), link);
    await screenshot(ann.page, 'private-spectator-link');
    // Bob's browser forgets the codes (as another device would never know it): no link, but
    // a word on why (the server keeps only the code's hash).
    await bob.page.evaluate(() => localStorage.removeItem('santorini.codes'));
    await bob.page.reload();
    await bob.page.waitForFunction(() => /Private game/.test(document.querySelector('#spectator-link-unknown')?.textContent || ''));
    assert.equal(await bob.page.$('#spectator-link'), null);

    // The replay of the live match with the code, in another tab of Cat's.
    const tab = await cat.context.newPage();
    await tab.goto(`${server.url}/#/replay/${id}/${code}`);
    await tab.waitForSelector('#board[data-after="0"] svg.board');
    await tab.click('#replay-last');
    await tab.waitForSelector(`#board[data-after="${n}"] svg.board`);
    await tab.close();

    // Play into the game proper, then Bob resigns; Cat's result links to the replay with the code.
    while ((await readGame(ann.page)).status !== 'playing' || (await readGame(bob.page)).status !== 'playing') await playOne([ann.page, bob.page]);
    await bob.page.waitForSelector('#resign');
    bob.page.once('dialog', (d) => d.accept());
    await bob.page.click('#resign');
    await cat.page.waitForSelector('#result');
    assert.equal(await cat.page.getAttribute('#replay-link', 'href'), `#/replay/${id}/${code}`);
    await openReplay(cat.page);
    await cat.page.waitForSelector('#board[data-after="0"] svg.board');
    const steps = await cat.page.$$eval('#log li[data-n]', (items) => items.map((li) => li.dataset.kind));
    assert.equal(steps.at(-1), 'resign');
    await cat.page.click('#replay-last');
    await cat.page.waitForSelector(`#board[data-after="${steps.length}"] svg.board`);
  } finally {
    await Promise.all([ann.context.close(), bob.context.close(), cat.context.close()]);
  }
});
