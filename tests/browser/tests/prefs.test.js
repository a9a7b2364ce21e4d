// Preferences remembered by the server (docs/api.md "Preferences"), against a server with a
// PostgreSQL (scripts/with-postgres): a player with an account mutes the opponent in a match's
// chat, picks Italian and turns the chat off; a second browser context (its own storage, an
// English browser) signs in to the same account and gets all three: the page in Italian, the
// chat off, and once the chat is on again the opponent's lines hidden. Turning the chat on there
// reaches the server too.
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

const chatTexts = (page) => page.evaluate(() => [...document.querySelectorAll('#chat-lines .chat-text')].map((el) => el.textContent));

/** Types `text` into the chat and sends it; waits until the page shows it. */
async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.press('#chat-input', 'Enter');
  await page.waitForFunction((t) => [...document.querySelectorAll('#chat-lines .chat-text')].some((el) => el.textContent === t), text);
}

/** The server's copy of the preferences of the player signed in on `page`. */
const serverCopy = (page) =>
  page.evaluate(async () => {
    const r = await fetch('/api/me/preferences', { headers: { Authorization: `Bearer ${window.santoriniTest.me.token}` } });
    return r.json();
  });

/** Waits until the server's copy satisfies `holds`. */
async function serverHolds(page, holds) {
  let last = null;
  for (let i = 0; i < 100; i++) {
    last = await serverCopy(page);
    if (holds(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the server's preferences never became as expected: ${JSON.stringify(last)}`);
}

test('mute, language and chat off follow an account to a second browser', { timeout: 120000 }, async () => {
  const username = `Ann_${Math.random().toString(36).slice(2, 8)}`; // the database is shared by the run's files
  const password = 'ann password 1';
  const ann = await guest(browser, server.url, 'Ann');
  const bob = await guest(browser, server.url, 'Bob');
  let second = null;
  try {
    // Ann claims an account.
    await ann.page.click('#account-link');
    await ann.page.waitForSelector('#account-create');
    await ann.page.fill('#account-username', username);
    await ann.page.fill('#account-password', password);
    await ann.page.click('#account-create');
    await ann.page.waitForSelector('#account-name');
    await ann.page.goto(`${server.url}/#/`);

    // A private match with Bob; both say something.
    await ann.page.click('#create-game');
    await ann.page.selectOption('#set-players', '2');
    await ann.page.selectOption('#set-powers', 'none');
    await ann.page.uncheck('#set-public');
    await ann.page.click('#create-submit');
    await ann.page.waitForSelector('#invite-link');
    await bob.page.goto(await ann.page.inputValue('#invite-link'));
    await bob.page.waitForSelector('.lobby');
    await ann.page.waitForSelector('#lobby-start:not([disabled])');
    await ann.page.click('#lobby-start');
    for (const p of [ann, bob]) await p.page.waitForSelector('.game[data-match] #chat-input');
    const matchId = await ann.page.getAttribute('.game', 'data-match');
    await say(ann.page, 'Ann here');
    await say(bob.page, 'Bob says hi');
    await ann.page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-text').length === 2);

    // Ann mutes Bob, picks Italian and turns the chat off: each reaches the server.
    const bobId = await bob.page.evaluate(() => window.santoriniTest.me.id);
    await ann.page.click(`#chat-lines li[data-player="${bobId}"] .chat-mute`);
    await ann.page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-text').length === 1);
    await ann.page.selectOption('#lang-picker', 'it');
    await ann.page.waitForFunction(() => window.santoriniTest.i18n.lang === 'it');
    await ann.page.click('#table-settings summary');
    await ann.page.check('#pref-chatOff');
    assert.equal(await ann.page.isVisible('#chat'), false);
    const kept = await serverHolds(ann.page, (p) => p.chat_off === true && p.language === 'it');
    assert.deepEqual(kept, { language: 'it', chat_off: true, muted: [bobId] });

    // A second browser, English, with nothing stored: it signs in to Ann's account.
    second = await browser.newContext({ viewport: { width: 1280, height: 860 }, bypassCSP: true, reducedMotion: 'reduce', locale: 'en-US' });
    second.setDefaultTimeout(15000);
    const page = await second.newPage();
    page.on('pageerror', (e) => console.error(`[second] page error: ${e.message}`));
    await page.goto(`${server.url}/#/`);
    await page.waitForSelector('#signin-username');
    assert.equal(await page.evaluate(() => window.santoriniTest.i18n.lang), 'en');
    await page.fill('#signin-username', username);
    await page.fill('#signin-password', password);
    await page.click('#signin-submit');
    await page.waitForFunction(() => window.santoriniTest?.conn?.status === 'online');
    // The account's language replaces the browser's.
    await page.waitForFunction(() => window.santoriniTest.i18n.lang === 'it');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'it');
    assert.equal(await page.inputValue('#lang-picker'), 'it');

    // The match: the chat is off here too; on again, Bob's line stays hidden.
    await page.goto(`${server.url}/#/match/${matchId}`);
    await page.waitForSelector('.game[data-match] #chat-input', { state: 'attached' });
    await page.waitForFunction(() => document.querySelector('#chat')?.hidden === true);
    await page.click('#table-settings summary');
    assert.equal(await page.isChecked('#pref-chatOff'), true);
    await page.uncheck('#pref-chatOff');
    assert.equal(await page.isVisible('#chat'), true);
    await page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-text').length === 1);
    assert.deepEqual(await chatTexts(page), ['Ann here']);
    assert.match(await page.textContent('#chat-muted'), /Bob/);
    // Which reaches the server, the mute and the language untouched.
    assert.deepEqual(await serverHolds(page, (p) => p.chat_off === false), { language: 'it', chat_off: false, muted: [bobId] });
    assert.deepEqual(await page.evaluate(() => window.santoriniTest.i18n.missing), []);
  } finally {
    await Promise.all([ann.context.close(), bob.context.close(), second?.close()]);
  }
});
