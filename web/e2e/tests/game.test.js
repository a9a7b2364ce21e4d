// Browser end-to-end tests against the in-memory server: a private lobby joined by its invite
// link, the god draft, a full game to a win by clicking, a spectator who sees every step live,
// a player whose connection drops mid-game, and a whole game on a phone-sized screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, guest, createLobby, playToEnd, readGame, screenshot, pickStep, clickStep } from '../harness.js';

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

test('a public lobby appears live, seats fill by clicking Join, the clock ticks, abort before the first move', { timeout: 60000 }, async () => {
  const fay = await guest(browser, server.url, 'Fay');
  const gus = await guest(browser, server.url, 'Gus');
  try {
    await fay.page.click('#create-game');
    await fay.page.selectOption('#set-powers', 'none');
    await fay.page.selectOption('#set-clock', 'realtime');
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
    await fay.page.click('#lobby-start:not([disabled])');
    await fay.page.waitForSelector('.game .clock');
    await gus.page.waitForSelector('.game .clock');
    // The deciding seat's clock runs down locally.
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
    await hal.page.uncheck('#set-public');
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
