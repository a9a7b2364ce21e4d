// The client in every language it speaks (web/js/i18n): every language file has every English
// key with the same placeholders, and every error code the server documents (docs/protocol.md
// "Errors", docs/api.md "Errors", docs/openapi.yaml's Error) has a text in each; the log lines in
// Italian. In chromium with the locale it-IT (database server): every screen from the sign-in to
// the account, through a lobby and a game against the computer (draft, table, log, the end
// dialog after a resignation, the replay), with no key missing and none of the English-only
// words of en.js left on the page; and a switch of language in the middle of the live game that
// keeps the same match open (no new snapshot, no new welcome) and lets the next step be played.
// Screenshots docs/screenshots/italian-desktop.png (1280x800) and italian-phone.png (390x844).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startServer, launchBrowser, showAllSteps, screenshot, readGame, pickStep, clickStep, repoRoot } from '../harness.js';
import en from '../../../web/js/i18n/en.js';
import { PACKS, setLang, t, missingKeys } from '../../../web/js/i18n/index.js';
import { santoriniWords } from '../../../web/js/santorini/words.js';
import { splendorWords } from '../../../web/js/splendor/words.js';

const database = process.env.SANTORINI_TEST_DATABASE_URL;
const doc = (name) => readFileSync(path.join(repoRoot, 'docs', name), 'utf8');

/** The codes of the first table under `## Errors` in a markdown document (column `column`). */
function codesInTable(text, column) {
  const section = text.split(/^## Errors\s*$/m)[1].split(/^## /m)[0];
  const codes = [];
  let body = false; // past the header row and its |---| line
  for (const line of section.split('\n')) {
    if (/^\|\s*-/.test(line)) body = true;
    if (!body) continue;
    const cells = line.split('|').map((c) => c.trim());
    const m = /^`([a-z_]+)`$/.exec(cells[column] || '');
    if (m) codes.push(m[1]);
  }
  return codes;
}

/** Every error code the server documents. */
function documentedCodes() {
  const ws = codesInTable(doc('protocol.md'), 1);
  const http = codesInTable(doc('api.md'), 2);
  // The Error schema's `code` enum.
  const schema = /^ {4}Error:\s*\n {6}type: object[\s\S]*?code:[\s\S]*?enum: \[([^\]]*)\]/m.exec(doc('openapi.yaml'));
  const openapi = (schema ? schema[1] : '').split(',').map((c) => c.trim()).filter(Boolean);
  assert.ok(ws.length >= 20 && http.length >= 8 && openapi.length >= 8, `the error tables were not found: ${ws.length} ${http.length} ${openapi.length}`);
  return [...new Set([...ws, ...http, ...openapi])];
}

const placeholders = (value) => [...new Set(JSON.stringify(value).match(/\{\w+\}/g) || [])].sort();

test('every language file has every English key, with the placeholders its words need', () => {
  // A language may name the viewer among others, or a gem instead of its colour.
  const free = new Set(['end.you', 'splendor.returnToken', 'splendor.pickOrPutBack', 'splendor.pick', 'splendor.putBack']);
  for (const pack of PACKS) {
    assert.ok(pack.code && pack.name, 'a language names itself');
    const missing = Object.keys(en.strings).filter((k) => pack.strings[k] === undefined);
    assert.deepEqual(missing, [], `${pack.code}: missing keys`);
    const extra = Object.keys(pack.strings).filter((k) => en.strings[k] === undefined);
    assert.deepEqual(extra, [], `${pack.code}: keys English does not have`);
    for (const [key, value] of Object.entries(pack.strings)) {
      if (typeof value === 'object') assert.ok(value.other, `${pack.code}:${key}: a plural set needs 'other'`);
      if (free.has(key)) continue;
      for (const p of placeholders(value)) assert.ok(placeholders(en.strings[key]).includes(p), `${pack.code}:${key} uses ${p}, which English does not fill`);
    }
  }
});

test('every error code in docs/protocol.md, docs/api.md and docs/openapi.yaml has a text in every language', () => {
  const codes = documentedCodes();
  for (const pack of PACKS) {
    const without = codes.filter((code) => typeof pack.strings[`error.${code}`] !== 'string' || !pack.strings[`error.${code}`].trim());
    assert.deepEqual(without, [], `${pack.code}: error codes without a text`);
  }
});

test('the log in Italian: both games\' lines in words, in the rulebooks\' terms', () => {
  setLang('it');
  try {
    assert.equal(santoriniWords('move D4 E4'), 'ha mosso da D4 a E4');
    assert.equal(santoriniWords('dome C2 C3'), 'ha messo una cupola su C3');
    assert.equal(santoriniWords('place B2 female'), 'ha piazzato l’operaia su B2');
    assert.equal(splendorWords('take red red'), 'ha preso 2 rubini');
    assert.equal(splendorWords('take white blue green'), 'ha preso 1 diamante, 1 zaffiro e 1 smeraldo');
    assert.equal(splendorWords('buy #35 (level 2 red, 2 points) for blue 3 gold 2'), 'ha acquistato una carta rubino di livello 2 (#35, 2 punti) per 3 zaffiri e 2 oro');
    assert.equal(splendorWords('reserve from the level 3 deck'), 'ha prenotato una carta coperta dal mazzo di livello 3');
    assert.equal(t('players.count', { count: 1 }), '1 giocatore');
    assert.equal(t('players.count', { count: 3 }), '3 giocatori');
    assert.deepEqual(missingKeys(), []);
  } finally {
    setLang('en');
  }
  assert.equal(splendorWords('take red red'), 'took 2 ruby');
});

/** The English-only words: each English value's literal parts (between placeholders) that no
 *  Italian value contains. Words of one piece are matched whole, longer ones as they are. */
function englishOnly(it) {
  const italian = Object.values(it.strings).flatMap((v) => (typeof v === 'object' ? Object.values(v) : [v])).join('\n');
  const parts = new Set();
  for (const [key, value] of Object.entries(en.strings)) {
    const itValue = it.strings[key];
    if (JSON.stringify(itValue) === JSON.stringify(value)) continue;
    for (const form of typeof value === 'object' ? Object.values(value) : [value]) {
      for (let part of form.split(/\{\w+\}/)) {
        part = part.replace(/^[\s\p{P}\p{S}\d]+|[\s\p{P}\p{S}\d]+$/gu, '');
        if ((part.match(/\p{L}/gu) || []).length < 3 || italian.includes(part)) continue;
        parts.add(part);
      }
    }
  }
  return [...parts];
}

function leftovers(text, parts) {
  return parts.filter((part) => (/\s/.test(part) ? text.includes(part) : new RegExp(`(?<![\\p{L}])${part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}])`, 'u').test(text)));
}

let server;
let browser;

before(async () => {
  assert.ok(database, 'SANTORINI_TEST_DATABASE_URL is not set: run under scripts/with-postgres');
  process.env.SANTORINI_BOT_DELAY_MS = '60';
  server = await startServer({ database });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('in Italian (locale it-IT): every screen, a game against the computer, and a switch of language mid-game', { timeout: 150000 }, async () => {
  const it = PACKS.find((p) => p.code === 'it');
  const english = englishOnly(it);
  assert.ok(english.length > 300, `${english.length} English-only words`);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true, reducedMotion: 'reduce', locale: 'it-IT' });
  context.setDefaultTimeout(15000);
  await showAllSteps(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[it] page error: ${e.message}`));
  page.on('dialog', (d) => {
    assert.doesNotMatch(d.message(), /[A-Za-z]+ this/, 'the confirmation speaks Italian');
    d.accept();
  });
  /** The page in view: Italian, no key missing, no English-only word. */
  const check = async (where) => {
    await page.waitForFunction(() => !document.querySelector('#screen > p.muted, .game > p.muted'));
    const state = await page.evaluate(() => ({ i18n: window.santoriniTest.i18n, lang: document.documentElement.lang, text: document.body.innerText }));
    assert.equal(state.lang, 'it', `${where}: <html lang>`);
    assert.equal(state.i18n.lang, 'it', where);
    assert.deepEqual(state.i18n.missing, [], `${where}: keys missing in Italian`);
    assert.deepEqual(leftovers(state.text, english), [], `${where}: English left on the page`);
  };
  try {
    // Signing in: the browser's language, unless the player picks another.
    await page.goto(`${server.url}/#/`);
    await page.waitForSelector('#guest-name');
    assert.equal(await page.inputValue('#lang-picker'), 'it');
    await check('sign-in');
    await page.fill('#guest-name', 'Anna');
    await page.click('#sign-in');
    await page.waitForSelector('#create-game');
    await page.waitForFunction(() => window.santoriniTest?.conn?.status === 'online');
    await page.waitForFunction(() => !document.querySelector('#lobby-list li.muted')?.textContent.includes('…'));
    await check('home');
    // Another screen than the game's is drawn again in the new language.
    await page.selectOption('#lang-picker', 'en');
    await page.waitForFunction(() => document.querySelector('#create-game')?.textContent === 'Create a game' && document.querySelector('#leaderboard-link').textContent === 'Leaderboard');
    await page.selectOption('#lang-picker', 'it');
    await page.waitForFunction(() => document.querySelector('#create-game')?.textContent === 'Crea una partita');
    await check('home, after English and back');

    // Creating a lobby (the pool of gods shown too), the lobby, leaving it.
    await page.click('#create-game');
    await page.selectOption('#set-powers', 'custom');
    await page.waitForSelector('.pool:not([hidden]) [data-power="Artemis"]');
    assert.match(await page.textContent('.pool'), /Artemide/);
    await check('create');
    await page.selectOption('#set-powers', 'simple');
    await page.selectOption('#set-clock', 'none');
    await page.click('#create-submit');
    await page.waitForSelector('.lobby');
    await check('lobby');
    await page.click('#lobby-leave');
    await page.waitForSelector('#create-game');

    // A game against the computer: the draft, then the table and its log.
    await page.selectOption('#bot-game', 'santorini');
    await page.selectOption('#bot-level', '1');
    await page.selectOption('#bot-gods', 'simple');
    await page.click('#bot-play');
    await page.waitForSelector('.game[data-match]');
    const matchId = await page.getAttribute('.game', 'data-match');
    let checkedDraft = false;
    const deadline = Date.now() + 60000;
    for (;;) {
      assert.ok(Date.now() < deadline, 'the game took too long');
      const g = await readGame(page);
      if (g.status === 'playing' && g.log >= 8 && g.legal.length > 0) break;
      if (g.legal.length === 0) {
        await page.waitForFunction((v) => Number(document.querySelector('.game')?.dataset.version) > v, g.version, { timeout: 20000 });
        continue;
      }
      if (g.status === 'draft' && !checkedDraft) {
        checkedDraft = true;
        await check('draft');
      }
      await clickStep(page, pickStep(g, g.you));
      await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, g.log);
    }
    await check('game table');
    assert.match(await page.textContent('#log'), /ha (mosso|piazzato|costruito|messo)/);
    await screenshot(page, 'italian-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await check('game table on a phone');
    await screenshot(page, 'italian-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // English in the middle of the game: the same match, no reopening, and a step still plays.
    const before = await page.evaluate((id) => ({ stats: { ...window.santoriniTest.conn.stats }, version: window.santoriniTest.conn.match(id).version }), matchId);
    await page.selectOption('#lang-picker', 'en');
    await page.waitForFunction(() => document.documentElement.lang === 'en' && document.querySelector('#resign')?.textContent === 'Resign');
    assert.match(await page.textContent('#log'), /(moved|placed|built)/);
    assert.equal(await page.getAttribute('.game', 'data-match'), matchId);
    const g = await readGame(page);
    assert.ok(g.legal.length > 0, 'still this player\'s turn');
    await clickStep(page, pickStep(g, g.you));
    await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, g.log);
    const after = await page.evaluate((id) => ({ stats: { ...window.santoriniTest.conn.stats }, version: window.santoriniTest.conn.match(id).version, status: window.santoriniTest.conn.status }), matchId);
    assert.equal(after.status, 'online');
    assert.equal(after.stats.welcomes, before.stats.welcomes, 'the socket was not reopened');
    assert.equal(after.stats.snapshots, before.stats.snapshots, 'the match was not reopened');
    assert.ok(after.version > before.version, 'the step was played');
    assert.equal(await page.evaluate(() => localStorage.getItem('santorini.lang')), 'en');
    await page.selectOption('#lang-picker', 'it');
    await page.waitForFunction(() => document.documentElement.lang === 'it' && document.querySelector('#resign')?.textContent === 'Abbandona');
    await check('game table, back in Italian');

    // Resigning: the end dialog, then the replay. Once the computer has answered the step above:
    // its line, drawn during the click, could move the button from under the pointer.
    await page.waitForFunction(() => document.querySelectorAll('#legal button[data-json]').length > 0);
    await page.click('#resign');
    await page.waitForSelector('#end-dialog[open]');
    assert.equal(await page.textContent('#end-title'), 'Hai perso');
    assert.equal(await page.textContent('#end-reason'), 'Hai abbandonato.');
    await page.waitForFunction(() => ['rated', 'none'].includes(document.querySelector('#end-ratings')?.dataset.state));
    await check('end dialog');
    await screenshot(page, 'italian-end-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'italian-end-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.click('#end-close');
    await page.click('#result-replay');
    await page.waitForSelector('#replay-position');
    await page.click('#replay-forward');
    await page.waitForFunction(() => document.querySelector('#board')?.dataset.after === '1');
    await check('replay');

    // The player's page, the leaderboard, the account.
    const me = await page.evaluate(() => window.santoriniTest.me.id);
    await page.goto(`${server.url}/#/player/${me}`);
    await page.waitForSelector('.player-page');
    await check('player page');
    await page.goto(`${server.url}/#/leaderboard`);
    await page.waitForSelector('#leaderboard p, #leaderboard table');
    await page.waitForFunction(() => !document.querySelector('#leaderboard p.muted')?.textContent.endsWith('…'));
    await check('leaderboard');
    await page.goto(`${server.url}/#/account`);
    await page.waitForSelector('#account-create');
    await check('account');
  } finally {
    await context.close();
  }
});
