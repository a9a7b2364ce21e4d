// Browser end-to-end tests against the in-memory server: a private lobby joined by its invite
// link, the god draft, a full game to a win by clicking, a spectator who sees every step live,
// a player whose connection drops mid-game, and a whole game on a phone-sized screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, guest, createLobby, playToEnd, readGame, screenshot } from '../harness.js';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('private lobby, god draft, a full game to a win, spectated live, with a dropped connection', { timeout: 150000 }, async () => {
  const ann = await guest(browser, server.url, 'Ann');
  const bob = await guest(browser, server.url, 'Bob');
  const cat = await guest(browser, server.url, 'Cat');
  try {
    await screenshot(ann.page, 'home');
    const link = await createLobby(ann.page, { powers: 'simple', draft: 'full', isPublic: false });
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
    await ann.page.waitForFunction(() => document.querySelector('#spectators')?.textContent.includes('watching: 1'));

    // The challenger sees the pool with descriptions; the other waits.
    const challenger = (await readGame(ann.page)).legal.length > 0 ? ann : bob;
    await challenger.page.waitForSelector('#draft .power-card[data-power="Apollo"]');
    assert.match(await challenger.page.textContent('#draft .power-card[data-power="Apollo"]'), /opponent/);
    await screenshot(challenger.page, 'draft');

    const seen = [];
    let dropped = false;
    let shotTaken = false;
    const played = await playToEnd([ann.page, bob.page], {
      climberSeat: 0,
      onStep: async (n, logLength, page) => {
        // The spectator sees every step, live.
        await cat.page.waitForFunction((k) => document.querySelectorAll('#log li').length >= k, logLength);
        seen.push(await cat.page.textContent(`#log li[data-n="${logLength}"]`));
        if (!shotTaken && (await readGame(page)).status === 'playing' && logLength > 14) {
          shotTaken = true;
          await screenshot(ann.page, 'game');
          await screenshot(cat.page, 'spectator');
        }
        // Mid-game, Bob's socket drops; Ann plays on; Bob reconnects by himself and catches up.
        if (!dropped && logLength >= 12 && page === ann.page) {
          dropped = true;
          await bob.page.evaluate(() => window.santoriniApp.conn.socket.close());
          await bob.page.waitForFunction(() => window.santoriniApp.conn.status !== 'online');
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
    assert.match(await ann.page.textContent('#result'), /won/);
    await screenshot(ann.page, 'result');
    assert.equal(await bob.page.evaluate(() => window.santoriniApp.conn.status), 'online');
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
    await playToEnd([dan.page, eve.page], {
      climberSeat: 1,
      onStep: async (n, logLength, page) => {
        if (!shot && logLength > 10) {
          shot = true;
          await screenshot(page === dan.page ? eve.page : dan.page, 'phone-game');
        }
      },
    });
    await dan.page.waitForSelector('#result');
    await eve.page.waitForSelector('#result');
    assert.equal((await readGame(eve.page)).status, 'finished');
  } finally {
    await Promise.all([dan.context.close(), eve.context.close()]);
  }
});
