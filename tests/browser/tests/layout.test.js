// Every screen on a 390x844 phone: no sideways scrolling, no console errors, no serious or
// critical accessibility violation (axe-core, injected into the page), text of at least 12 px
// and buttons of at least 40 px. On the game screen the seat bar (clocks, whose turn), the
// board, the prompt and the Undo button are on the first screen; the tab's title says "Your
// turn" exactly while it is; the end of the game opens a dialog with the reason in words, and
// closing it leaves the final board. A server without a database hides the links into stored
// games. Runs against a server with PostgreSQL (scripts/with-postgres) for the replay, player,
// leaderboard and account screens.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { createRequire } from 'node:module';
import { startServer, launchBrowser, guest, readGame, pickStep, clickStep, screenshot } from '../harness.js';

const database = process.env.SANTORINI_TEST_DATABASE_URL;
const axePath = path.join(path.dirname(createRequire(import.meta.url).resolve('axe-core')), 'axe.min.js');
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

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

/** A phone guest whose console errors are collected in `errors`. */
async function phoneGuest(name) {
  const g = await guest(browser, server.url, name, PHONE);
  g.errors = [];
  g.page.on('console', (m) => m.type() === 'error' && g.errors.push(m.text()));
  g.page.on('pageerror', (e) => g.errors.push(e.message));
  return g;
}

/** The checks every screen passes; `label` names the screen in the messages. */
async function checkScreen(g, label) {
  const { page } = g;
  await page.waitForTimeout(150); // layout settles (fonts, a list that just arrived)
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  assert.ok(widths.scroll <= widths.inner, `${label}: the page is ${widths.scroll}px wide on a ${widths.inner}px screen`);
  const small = await page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll('body *:not(svg *)')) {
      if (!el.checkVisibility?.() || ![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < 12) out.push(`${el.tagName.toLowerCase()}.${el.className} ${size}px "${el.textContent.trim().slice(0, 20)}"`);
    }
    return out;
  });
  assert.deepEqual(small, [], `${label}: text under 12px`);
  const tiny = await page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll('button:not(.link), a.button, select, input:not([type=checkbox]):not([type=hidden]), header.top a')) {
      if (!el.checkVisibility?.()) continue;
      const r = el.getBoundingClientRect();
      if (r.height < 40) out.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className} ${Math.round(r.height)}px "${el.textContent.trim().slice(0, 20)}"`);
    }
    return out;
  });
  assert.deepEqual(tiny, [], `${label}: touch targets under 40px`);
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  });
  assert.deepEqual(violations, [], `${label}: accessibility`);
  assert.deepEqual(g.errors, [], `${label}: console errors`);
}

/** Whether the element's box lies on the first screen (no scrolling from the top). */
const onFirstScreen = (page, selector) =>
  page.$eval(selector, (el) => {
    window.scrollTo(0, 0);
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
  });

/** Plays the deciding page's steps until `done(game)` holds on page `a`. */
async function playUntil(pages, done) {
  for (let i = 0; i < 40; i += 1) {
    if (done(await readGame(pages[0]))) return;
    for (const page of pages) {
      const g = await readGame(page);
      if (g.legal.length === 0) continue;
      const before = g.log;
      await clickStep(page, pickStep(g, 0));
      await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, before);
    }
  }
  throw new Error('the game did not get there');
}

test('every screen fits a 390x844 phone; the game on the first screen; the title; the end dialog', { timeout: 240000 }, async () => {
  const ann = await phoneGuest('Ann');
  const bob = await phoneGuest('Bob');
  try {
    await ann.page.waitForSelector('#lobby-list li');
    await checkScreen(ann, 'home');

    // The create form; a new lobby has a real-time clock unless the host chooses otherwise.
    await ann.page.click('#create-game');
    await ann.page.waitForSelector('#set-clock');
    assert.equal(await ann.page.inputValue('#set-clock'), 'realtime');
    await checkScreen(ann, 'create');
    await ann.page.selectOption('#set-powers', 'none');
    await ann.page.uncheck('#set-public');
    await ann.page.click('#create-submit');
    await ann.page.waitForSelector('#invite-link');
    await bob.page.goto(await ann.page.inputValue('#invite-link'));
    await ann.page.waitForSelector('#lobby-start:not([disabled])');
    await checkScreen(ann, 'lobby');
    await ann.page.click('#lobby-start');
    await ann.page.waitForSelector('.game[data-status]');
    await bob.page.waitForSelector('.game[data-status]');
    const matchId = await ann.page.getAttribute('.game', 'data-match');

    // Placement, then the first moves.
    await playUntil([ann.page, bob.page], (g) => g.status === 'playing' && g.log >= 6);
    const mover = (await readGame(ann.page)).legal.length ? ann : bob;
    const waiter = mover === ann ? bob : ann;
    await mover.page.waitForSelector('#prompt.mine');
    for (const sel of ['#seat-bar', 'svg.board', '#prompt', '#undo', '#seat-bar .clock.running']) assert.ok(await onFirstScreen(mover.page, sel), `${sel} is on the first screen`);
    assert.match(await mover.page.title(), /^Your turn/);
    assert.doesNotMatch(await waiter.page.title(), /Your turn/);
    assert.equal(await mover.page.isVisible('.all-steps'), true, 'the tests switch the step list on');
    // Without the developer setting, players do not see the list of every legal step; the
    // table's settings switch it (and the turn's tone) and this browser remembers them.
    await mover.page.click('#table-settings summary');
    await mover.page.uncheck('#pref-devSteps');
    assert.equal(await mover.page.isVisible('.all-steps'), false);
    assert.equal(await mover.page.evaluate(() => localStorage.getItem('santorini.dev-steps')), null);
    assert.equal(await mover.page.isChecked('#pref-sound'), false, 'no sound unless chosen');
    await mover.page.check('#pref-sound');
    assert.equal(await mover.page.evaluate(() => localStorage.getItem('santorini.sound')), '1');
    await mover.page.click('#table-settings summary');
    await checkScreen(mover, 'game');
    await checkScreen(waiter, 'game, waiting');
    // Once the mover's turn is over, the title follows the turn to the other tab.
    await mover.page.evaluate(() => document.querySelector('.game').classList.add('dev-steps'));
    for (let k = 0; k < 3; k += 1) {
      const g = await readGame(mover.page);
      if (g.legal.length === 0) break;
      await clickStep(mover.page, pickStep(g, 0));
      await mover.page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, g.log);
    }
    await waiter.page.waitForFunction(() => document.title.startsWith('Your turn'));
    // Under reduced motion (every context of these tests) the "your turn" mark does not pulse.
    assert.equal(await waiter.page.$eval('.seat-chip.me.turn .seat-turn', (el) => getComputedStyle(el).animationName), 'none');
    assert.doesNotMatch(await mover.page.title(), /Your turn/);

    // The end dialog's buttons stay where they are drawn while the ratings and the rematch
    // arrive under them: every change of the dialog until it settles records where they are.
    await mover.page.evaluate(() => {
      window.endButtonPlaces = [];
      const record = () => {
        const dialog = document.querySelector('#end-dialog[open]');
        if (!dialog) return;
        const at = (sel) => { const r = document.querySelector(sel)?.getBoundingClientRect(); return r && r.width ? [r.x, r.y, r.width, r.height].map(Math.round).join(',') : null; };
        window.endButtonPlaces.push(['#end-new', '#replay-link', '#end-home'].map(at).join(' '));
      };
      new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    // The waiting player resigns: both see the dialog with the reason in words.
    waiter.page.once('dialog', (d) => d.accept());
    await waiter.page.waitForSelector('#resign');
    await waiter.page.click('#resign');
    for (const p of [ann, bob]) await p.page.waitForSelector('#end-dialog[open]');
    assert.equal(await mover.page.textContent('#end-title'), 'You won!');
    assert.equal(await waiter.page.textContent('#end-title'), 'You lost');
    assert.equal(await mover.page.textContent('#end-reason'), `${waiter.name} resigned.`);
    assert.equal(await waiter.page.textContent('#end-reason'), 'You resigned.');
    await mover.page.waitForSelector('#end-ratings[data-state="none"]');
    assert.match(await mover.page.textContent('#end-rating-note'), /Casual game/);
    const places = await mover.page.evaluate(() => window.endButtonPlaces);
    assert.ok(places.length >= 2, `the dialog was seen opening and settling: ${places.length} records`);
    assert.deepEqual([...new Set(places)], [places[0]], 'no button of the end dialog moved while it filled in');
    assert.equal(await mover.page.isVisible('#replay-link'), true);
    assert.equal(await mover.page.isVisible('#end-new'), true);
    // The rematch is offered in the dialog (docs/protocol.md, "Rematch").
    assert.equal(await mover.page.isVisible('#end-rematch-offer'), true);
    assert.doesNotMatch(await mover.page.title(), /Your turn/);
    await checkScreen(mover, 'end dialog');
    await screenshot(mover.page, 'phone-result');
    // Closing it leaves the final board.
    await mover.page.click('#end-close');
    await mover.page.waitForSelector('#end-dialog:not([open])', { state: 'attached' });
    assert.equal(await mover.page.isVisible('svg.board'), true);
    assert.equal(await mover.page.isVisible('#result'), true);
    // A reload shows the final table, not the dialog again; Details opens it.
    await waiter.page.reload();
    await waiter.page.waitForSelector('#result');
    assert.equal(await waiter.page.isVisible('#end-dialog'), false, 'the dialog opens by itself only when the game ends in view');
    await waiter.page.click('#result-open');
    await waiter.page.waitForSelector('#end-dialog[open]');
    assert.equal(await waiter.page.textContent('#end-title'), 'You lost');

    // The stored game's screens.
    await ann.page.goto(`${server.url}/#/replay/${matchId}`);
    await ann.page.waitForSelector('#board svg.board');
    await checkScreen(ann, 'replay');
    const annId = await ann.page.evaluate(() => window.santoriniTest.me.id);
    await ann.page.goto(`${server.url}/#/player/${annId}`);
    await ann.page.waitForSelector('#recent li');
    await checkScreen(ann, 'player');
    await ann.page.goto(`${server.url}/#/leaderboard`);
    await ann.page.waitForSelector('#leaderboard');
    await checkScreen(ann, 'leaderboard');
    await ann.page.goto(`${server.url}/#/account`);
    await ann.page.waitForSelector('#account form, #account-create');
    await checkScreen(ann, 'account');

    // Splendor on the phone: the table and the prompt, then an abort before the first step.
    await ann.page.goto(`${server.url}/#/`);
    await ann.page.click('#create-game');
    await ann.page.click('.game-choice[data-game="splendor"]');
    await ann.page.uncheck('#set-public');
    await ann.page.click('#create-submit');
    await ann.page.waitForSelector('#invite-link');
    await bob.page.goto(await ann.page.inputValue('#invite-link'));
    await ann.page.waitForSelector('#lobby-start:not([disabled])');
    await ann.page.click('#lobby-start');
    for (const p of [ann, bob]) await p.page.waitForSelector('.game[data-game="splendor"] #sp-table');
    const first = (await ann.page.$('#prompt.mine')) ? ann : bob;
    await first.page.waitForSelector('#prompt.mine');
    for (const sel of ['#seat-bar', '#sp-nobles', '#sp-supply']) assert.ok(await onFirstScreen(first.page, sel), `Splendor: ${sel} is on the first screen`);
    assert.match(await first.page.title(), /^Your turn · Splendor/);
    assert.equal(await first.page.textContent('#brand'), 'Splendor');
    await checkScreen(first, 'Splendor game');
    first.page.once('dialog', (d) => d.accept());
    await first.page.click('#abort');
    await first.page.waitForSelector('#end-dialog[open]');
    assert.equal(await first.page.textContent('#end-title'), 'Game aborted');
    await checkScreen(first, 'Splendor aborted');
  } finally {
    await Promise.all([ann.context.close(), bob.context.close()]);
  }
});

test('a server without a database hides the replay, leaderboard, player and account links', { timeout: 60000 }, async () => {
  const bare = await startServer();
  const context = await browser.newContext({ ...PHONE, bypassCSP: true });  // waitForFunction evaluates strings (harness.js)
  try {
    const page = await context.newPage();
    await page.goto(`${bare.url}/#/`);
    await page.waitForSelector('#guest-name');
    await page.waitForFunction(() => document.documentElement.dataset.stores === '0');
    assert.equal(await page.isVisible('#account-sign-in'), false, 'accounts need the database');
    await page.fill('#guest-name', 'Nell');
    await page.click('#sign-in');
    await page.waitForSelector('#create-game');
    assert.equal(await page.isVisible('#leaderboard-link'), false);
    assert.equal(await page.isVisible('#account-link'), false);
    assert.equal(await page.textContent('#me-link'), 'Nell');
    assert.equal(await page.getAttribute('#me-link', 'href'), null);
    assert.equal(await page.textContent('#brand'), 'Santorini & Splendor');
  } finally {
    await context.close();
    await bare.stop();
  }
});
