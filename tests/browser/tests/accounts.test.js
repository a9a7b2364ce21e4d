// Accounts in the browser (docs/api.md "Accounts"), against a server with a
// PostgreSQL (scripts/with-postgres): a guest wins a rated game, claims its player with a
// username and a password, signs in on a second browser context and sees the same player and
// the same rating there; a wrong password is refused; signing the second device out leaves the
// first signed in; a password change there signs the first device out at once (its socket closed
// with 4001).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, guest } from '../harness.js';

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

/** The ratings table of a player's page, as text ("No gods 1662 ±290 (provisional) 1"). */
async function ratingsOf(page, url, id) {
  await page.goto(`${url}/#/player/${id}`);
  await page.waitForSelector('table.ratings');
  return (await page.textContent('table.ratings')).replace(/\s+/g, ' ').trim();
}

/** Plays the first legal step on whichever page decides until the first move is due. */
async function placeWorkers(pages, matchId) {
  for (let round = 0; round < 100; round++) {
    for (const page of pages) {
      const state = await page.evaluate(async (id) => {
        const v = window.santoriniTest.conn.match(id)?.view;
        if (!v || !v.state) return 'waiting';
        if (v.status === 'playing' && v.state.phase === 'begin') return 'placed';
        const legal = v.state.legal || [];
        if (legal.length === 0) return 'waiting';
        await window.santoriniTest.conn.request({ type: 'match.step', match: id, step: legal[0] });
        return 'stepped';
      }, matchId);
      if (state === 'placed') return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the workers were not placed');
}

test('sign up, sign in on a second browser, the same player and rating', { timeout: 120000 }, async () => {
  // The database is shared by the test files of a run: a username of this run only.
  const username = `Ann_${Math.random().toString(36).slice(2, 8)}`;
  const password = 'ann password 1';
  const ann = await guest(browser, server.url, 'Ann');
  const bob = await guest(browser, server.url, 'Bob');
  let second = null;
  try {
    // A private lobby is casual unless the host ticks Rated.
    await ann.page.click('#create-game');
    await ann.page.selectOption('#set-players', '2');
    await ann.page.selectOption('#set-powers', 'none');
    await ann.page.selectOption('#set-clock', 'none');
    assert.equal(await ann.page.isChecked('#set-rated'), true);
    await ann.page.uncheck('#set-public');
    assert.equal(await ann.page.isChecked('#set-rated'), false);
    await ann.page.check('#set-rated');
    await ann.page.click('#create-submit');
    await ann.page.waitForSelector('#invite-link');
    await bob.page.goto(await ann.page.inputValue('#invite-link'));
    await bob.page.waitForSelector('.lobby');
    await ann.page.waitForSelector('#lobby-start:not([disabled])');
    await ann.page.click('#lobby-start');
    // The workers are placed (the first legal steps, sent as the client would: a match that
    // ends before its first move is aborted), then Bob resigns: Ann wins a rated game.
    await ann.page.waitForSelector('.game[data-match]');
    const matchId = await ann.page.getAttribute('.game', 'data-match');
    await placeWorkers([ann.page, bob.page], matchId);
    await bob.page.waitForSelector('#resign');
    bob.page.once('dialog', (d) => d.accept());
    await bob.page.click('#resign');
    await ann.page.waitForSelector('#result');
    const annId = await ann.page.evaluate(() => window.santoriniTest.me.id);
    const rated = await ratingsOf(ann.page, server.url, annId);
    assert.match(rated, /no gods/i);
    const rating = Number(rated.match(/(\d{3,4}) ±/)[1]);
    assert.ok(rating > 1500, `a win raised the rating: ${rated}`);

    // Ann claims her player.
    await ann.page.click('#account-link');
    await ann.page.waitForSelector('#account-create');
    await ann.page.fill('#account-username', 'ab');
    await ann.page.fill('#account-password', password);
    await ann.page.click('#account-create');
    await ann.page.waitForFunction(() => document.querySelector('#account-error')?.textContent.includes('3 to 24'));
    await ann.page.fill('#account-username', username);
    await ann.page.click('#account-create');
    await ann.page.waitForSelector('#account-name');
    assert.equal(await ann.page.textContent('#account-name'), username);
    assert.equal(await ann.page.textContent('#account-link'), username);

    // A second browser (its own storage): a wrong password first, then the right one.
    second = await browser.newContext({ viewport: { width: 1280, height: 860 }, bypassCSP: true });  // waitForFunction evaluates strings (harness.js)
    second.setDefaultTimeout(15000);
    const page = await second.newPage();
    await page.goto(`${server.url}/#/`);
    await page.waitForSelector('#signin-username');
    await page.fill('#signin-username', username.toLowerCase());
    await page.fill('#signin-password', 'not my password');
    await page.click('#signin-submit');
    await page.waitForFunction(() => document.querySelector('#signin-error')?.textContent.includes('wrong username or password'));
    await page.fill('#signin-password', password);
    await page.click('#signin-submit');
    await page.waitForSelector('#create-game');
    await page.waitForFunction(() => window.santoriniTest?.conn?.status === 'online');
    assert.equal(await page.evaluate(() => window.santoriniTest.me.id), annId);
    assert.equal(await page.textContent('#me-link'), 'Ann');
    // The same rating on both devices.
    assert.equal(await ratingsOf(page, server.url, annId), rated);

    // Signing the second device out leaves the first signed in.
    await page.click('#account-link');
    await page.waitForSelector('#sign-out');
    await page.click('#sign-out');
    await page.waitForSelector('#guest-name');
    assert.equal(await page.evaluate(() => localStorage.getItem('santorini.guest')), null);
    await ann.page.click('#account-link');
    await ann.page.waitForSelector('#account-name');
    assert.equal(await ann.page.evaluate(() => window.santoriniTest.conn.status), 'online');

    // The second device signs in again and changes the password: the first device's session is
    // revoked, and its open connection closed (4001), so it is signed out at once, in words.
    await page.fill('#signin-username', username);
    await page.fill('#signin-password', password);
    await page.click('#signin-submit');
    // Signed in, back on the page it signed out from (the account page).
    await page.waitForSelector('#old-password');
    await page.fill('#old-password', password);
    await page.fill('#new-password', 'ann password 2');
    await page.click('#change-password');
    await ann.page.waitForSelector('#signin-username');
    assert.equal(await ann.page.evaluate(() => localStorage.getItem('santorini.guest')), null);
    assert.match(await ann.page.textContent('body'), /This device was signed out/);
  } finally {
    await Promise.all([ann.context.close(), bob.context.close(), second?.close()]);
  }
});
