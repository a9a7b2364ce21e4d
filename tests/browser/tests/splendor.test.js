// Splendor in the browser against a real server with PostgreSQL (scripts/with-postgres sets
// SANTORINI_TEST_DATABASE_URL; without it these fail, they never skip): whole games played by
// clicking the table (splendor-driver.js), a rated 2-player game found through the `splendor`
// quick-play queue with one player on a 390x844 phone and a spectator, in which a card reserved
// from a deck stays hidden from the opponent and the spectator (in their pages and in every
// WebSocket frame they received) while its owner sees it, then the replay that reveals it and
// the Splendor rating on the player page; a casual 2-player game from a private lobby with a
// reload and a resignation; and a casual 4-player game from a private lobby joined by its
// invite link, watched by a spectator.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, guest, screenshot, openReplay } from '../harness.js';
import { playToEnd, tableOf } from '../splendor-driver.js';

const database = process.env.SANTORINI_TEST_DATABASE_URL;
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

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

/** Lets a freshly dealt card finish its flourish before a screenshot. */
const settle = (page) => page.waitForTimeout(600);

async function noSidewaysScroll(page, when) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `${when}: the page is ${width}px wide at 390`);
}

/** Every page ends on the same result, and the winners have the most points. */
async function sameResult(pages) {
  const results = [];
  for (const p of pages) {
    await p.waitForSelector('#result');
    const t = await tableOf(p);
    results.push({ text: await p.textContent('#result strong'), result: t.view.result, points: t.view.state.hands.map((x) => x.points), log: t.log });
  }
  for (const r of results.slice(1)) {
    assert.equal(r.text, results[0].text);
    assert.deepEqual(r.result, results[0].result);
    assert.deepEqual(r.points, results[0].points);
    assert.equal(r.log, results[0].log);
  }
  const { result, points } = results[0];
  assert.equal(result.reason, 'win');
  const best = Math.max(...points);
  assert.ok(best >= 15, `the game ended with ${best} points at most`);
  for (const w of result.winners) assert.equal(points[w], best);
  return results[0];
}

test('quick play: a rated 2-player game on a desktop and a phone, watched; a blind reserve only its owner sees; the replay reveals it', { timeout: 420000 }, async () => {
  const started = Date.now();
  const ann = await guest(browser, server.url, 'Ann', { record: true });
  const bob = await guest(browser, server.url, 'Bob', { ...phone, record: true });
  const cat = await guest(browser, server.url, 'Cat', { record: true });
  try {
    await ann.page.click('#queue-box button[data-queue="splendor"][data-clock="10 + 5"]');
    await ann.page.waitForSelector('#queue-waiting');
    await bob.page.click('#queue-box button[data-queue="splendor"][data-clock="10 + 5"]');
    await ann.page.waitForSelector('.game[data-game="splendor"] #sp-table');
    await bob.page.waitForSelector('.game[data-game="splendor"] #sp-table');
    const id = await ann.page.getAttribute('.game', 'data-match');
    assert.equal(await bob.page.getAttribute('.game', 'data-match'), id);
    // Cat finds the game among the live games and watches it.
    await cat.page.waitForSelector(`#match-list li[data-match="${id}"] a`);
    assert.match(await cat.page.textContent(`#match-list li[data-match="${id}"]`), /Splendor · 0 – 0 points/);
    await cat.page.click(`#match-list li[data-match="${id}"] a`);
    await cat.page.waitForSelector('#sp-table');
    assert.equal((await tableOf(cat.page)).view.you, null);
    await noSidewaysScroll(bob.page, 'the start');

    const annSeat = (await tableOf(ann.page)).view.you;
    const bobSeat = 1 - annSeat;
    let blind = null; // the card Ann reserves from the level 2 deck: {card, number}
    let shots = false;
    let finalRound = false;
    const played = await playToEnd([ann.page, bob.page], {
      watchers: [cat.page],
      // Ann's first action is a blind reserve from the level 2 deck.
      force: (view) => (view.you === annSeat && !blind && view.state.phase === 'action' ? view.state.legal.find((s) => s.kind === 'reserve' && s.level === 2) || null : null),
      onStep: async ({ n, page, step, line, number }) => {
        if (!blind && page === ann.page && step.kind === 'reserve' && step.level === 2) {
          const card = Number(line.match(/^reserve #(\d+)/)[1]);
          blind = { card, number };
          // Ann sees the card, marked as hers alone; Bob and Cat see a level 2 back.
          await ann.page.waitForSelector(`.sp-hand[data-seat="${annSeat}"] .sp-reserved[data-card="${card}"][data-blind="1"] .secret`);
          for (const other of [bob.page, cat.page]) {
            await other.waitForSelector(`.sp-hand[data-seat="${annSeat}"] .sp-reserved[data-hidden="1"][data-level="2"]`);
            assert.equal(await other.$(`[data-card="${card}"]`), null);
            assert.equal(await other.getAttribute(`#log li[data-n="${number}"]`, 'data-notation'), 'reserve from the level 2 deck');
            const seen = (await tableOf(other)).view.state.hands[annSeat].reserved;
            assert.ok(seen.every((r) => r.card === null || r.card.id !== card));
          }
        }
        if (n % 10 === 0) await noSidewaysScroll(bob.page, `step ${n}`);
        if (n === 3) await cat.page.waitForSelector('.sp-hand.turn .clock.running');
        // A final round (someone has 15 before the round's end) is announced while it lasts;
        // there is none when the round's last seat is the first to reach 15.
        const seen = (await tableOf(cat.page)).view;
        if (seen.state.final_round && seen.status === 'playing') {
          finalRound = true;
          await cat.page.waitForSelector('#final-round');
        }
        if (!shots && n >= 24 && page === bob.page) {
          shots = true;
          await settle(ann.page);
          await screenshot(ann.page, 'splendor');
          await screenshot(bob.page, 'splendor-phone');
        }
      },
    });
    assert.ok(blind, 'Ann reserved from the deck');
    const end = await sameResult([ann.page, bob.page, cat.page]);
    await noSidewaysScroll(bob.page, 'the end');

    // The frames Bob and Cat received never named the card, until Ann bought it or the game
    // ended; Ann's did (so the search is not vacuous).
    const names = (text) => new RegExp(`"id":${blind.card}\\b|#${blind.card}\\b`).test(text);
    const until = (frames) => {
      const stop = frames.findIndex((f) => f.includes(`buy #${blind.card} `) || /"finished"/.test(f));
      return stop === -1 ? frames : frames.slice(0, stop);
    };
    assert.ok(ann.frames.some(names), "Ann's frames carry her card");
    for (const who of [bob, cat]) {
      const before = until(who.frames);
      assert.ok(before.some((f) => f.includes('"reserve from the level 2 deck"')), `${who.name} received the reserve itself before the cut`);
      const leak = before.find(names);
      assert.equal(leak, undefined, `${who.name} received the hidden card: ${leak}`);
    }

    // The replay: every step; at the blind reserve Ann's card is face up.
    await openReplay(ann.page);
    await ann.page.waitForSelector('#board[data-after="0"] #sp-table');
    assert.match(await ann.page.textContent('#replay-position'), new RegExp(`Step 0 of ${end.log}`));
    await ann.page.click(`#log li[data-n="${blind.number}"] button`);
    await ann.page.waitForSelector(`#board[data-after="${blind.number}"]`);
    await ann.page.waitForSelector(`.sp-hand[data-seat="${annSeat}"] .sp-reserved[data-card="${blind.card}"]`);
    await ann.page.waitForFunction((c) => document.querySelector('#replay-step-text').dataset.notation?.includes(`reserve #${c} `), blind.card);
    await ann.page.click('#replay-back');
    await ann.page.waitForSelector(`#board[data-after="${blind.number - 1}"]`);
    assert.equal(await ann.page.$(`.sp-reserved[data-card="${blind.card}"]`), null);
    await ann.page.click('#replay-last');
    await ann.page.waitForSelector(`#board[data-after="${end.log}"]`);
    await screenshot(ann.page, 'splendor-replay');
    // Bob (on his phone) steps through it too: nothing hidden any more.
    await bob.page.goto(`${server.url}/#/replay/${id}`);
    await bob.page.click(`#log li[data-n="${blind.number}"] button`);
    await bob.page.waitForSelector(`#board[data-after="${blind.number}"] .sp-hand[data-seat="${annSeat}"] .sp-reserved[data-card="${blind.card}"]`);
    await noSidewaysScroll(bob.page, 'the replay');

    // The player page shows the Splendor rating the game gave.
    const me = await ann.page.evaluate(() => window.santoriniTest.me.id);
    await ann.page.goto(`${server.url}/#/player/${me}`);
    await ann.page.waitForFunction(() => [...document.querySelectorAll('table.ratings td')].some((td) => td.textContent === 'Splendor'));
    await ann.page.waitForSelector(`#recent li[data-match="${id}"]`);
    await ann.page.waitForSelector('#rating-chart svg.chart circle.point');
    // The leaderboard has a Splendor tab (provisional players are not ranked yet).
    await ann.page.goto(`${server.url}/#/leaderboard/splendor`);
    await ann.page.waitForSelector('.tabs a.primary[href="#/leaderboard/splendor"]');
    await ann.page.waitForFunction(() => /Nobody ranked yet|Rating/.test(document.querySelector('#leaderboard')?.textContent || ''));
    console.log(`# 2 players: ${played} steps, ${end.points.join('-')} points, Bob seat ${bobSeat}, final round ${finalRound ? 'shown' : 'none'}, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await Promise.all([ann.context.close(), bob.context.close(), cat.context.close()]);
  }
});

/** Creates a Splendor lobby from the create screen; resolves to the invite link, or throws
 *  with the server's refusal. */
async function createSplendorLobby(page, { players, rated = true, isPublic = false }) {
  await page.click('#create-game');
  await page.click('.game-choice[data-game="splendor"]');
  assert.equal(await page.isVisible('#set-powers'), false, 'no gods for Splendor');
  await page.selectOption('#set-players', String(players));
  await page.selectOption('#set-clock', 'none');
  if (!rated) await page.uncheck('#set-rated');
  if (!isPublic) await page.uncheck('#set-public');
  await page.selectOption('#set-clock', 'none');
  await page.click('#create-submit');
  await page.waitForFunction(() => document.querySelector('#invite-link') || document.querySelector('form.create .error')?.textContent);
  const refused = await page.$eval('form.create .error', (e) => e.textContent).catch(() => '');
  if (refused) throw new Error(`the server refused the lobby: ${refused}`);
  return page.inputValue('#invite-link');
}

test('a private lobby joined by its invite link: a casual 2-player game, a reload, then a resignation', { timeout: 120000 }, async () => {
  const [ivy, jon] = await Promise.all(['Ivy', 'Jon'].map((n) => guest(browser, server.url, n)));
  try {
    const link = await createSplendorLobby(ivy.page, { players: 2, rated: false });
    assert.match(link, /#\/join\/[A-Z0-9]{8}$/);
    assert.match(await ivy.page.textContent('.lobby'), /Splendor · 2 players · no clock · casual · private/);
    await jon.page.goto(link);
    await jon.page.waitForSelector('.lobby');
    await ivy.page.waitForSelector('#lobby-start:not([disabled])');
    await ivy.page.click('#lobby-start');
    const pages = [ivy.page, jon.page];
    for (const p of pages) await p.waitForSelector('.game[data-game="splendor"] #sp-table');
    // Abort is offered before the first step only.
    assert.ok(await ivy.page.$('#abort'));
    let resigned = null;
    await playToEnd(pages, {
      onStep: async ({ n, page, number }) => {
        assert.equal(await page.$('#abort'), null);
        if (n === 4) {
          // Jon reloads: his guest comes back from localStorage, the match from a snapshot.
          await jon.page.reload();
          await jon.page.waitForFunction((k) => document.querySelectorAll('#log li').length >= k, number);
          await jon.page.waitForSelector('#sp-table');
        }
        if (n === 8) {
          // The player who just moved resigns; the other wins at once.
          resigned = page;
          page.once('dialog', (d) => d.accept());
          await page.click('#resign');
          for (const p of pages) await p.waitForSelector('#result');
        }
      },
    });
    assert.ok(resigned);
    for (const p of pages) await p.waitForSelector('#result[data-reason="resign"]');
    const winner = resigned === ivy.page ? 'Jon' : 'Ivy';
    assert.equal(await ivy.page.textContent('#result strong'), `${winner} won by resignation.`);
    assert.equal(await jon.page.textContent('#result strong'), `${winner} won by resignation.`);
    // Its replay: eight steps, each as its player read it, then the resignation (no history line).
    const history = await ivy.page.$$eval('#log li', (lis) => lis.map((li) => li.dataset.notation));
    await openReplay(ivy.page);
    await ivy.page.waitForSelector('#board[data-after="0"] #sp-table');
    await ivy.page.waitForFunction((n) => document.querySelectorAll('#log li[data-n]').length === n, history.length + 1);
    const loser = resigned === ivy.page ? 'Ivy' : 'Jon';
    assert.equal(await ivy.page.textContent(`#log li[data-n="${history.length + 1}"]`), `${loser} resigned`);
    await ivy.page.waitForFunction((lines) => lines.every((line, i) => document.querySelector(`#log li[data-n="${i + 1}"]`).dataset.notation === line), history);
  } finally {
    await Promise.all([ivy.context.close(), jon.context.close()]);
  }
});

// Public, so that a spectator without the invite code may watch (a private match needs its code).
test('a public lobby: a casual 4-player game joined by the invite link, played to the end, watched', { timeout: 600000 }, async () => {
  const started = Date.now();
  const [dan, eve, fay, gus, hal] = await Promise.all(['Dan', 'Eve', 'Fay', 'Gus', 'Hal'].map((n) => guest(browser, server.url, n)));
  try {
    const link = await createSplendorLobby(dan.page, { players: 4, rated: false, isPublic: true });
    assert.match(await dan.page.textContent('.lobby'), /Splendor · 4 players · no clock · casual/);
    assert.doesNotMatch(await dan.page.textContent('.lobby'), /private/);
    for (const p of [eve, fay, gus]) {
      await p.page.goto(link);
      await p.page.waitForSelector('.lobby');
    }
    await dan.page.waitForSelector('#lobby-start:not([disabled])');
    await dan.page.click('#lobby-start');
    const players = [dan, eve, fay, gus].map((x) => x.page);
    for (const p of players) await p.waitForSelector('#sp-table');
    const id = await dan.page.getAttribute('.game', 'data-match');
    await hal.page.goto(`${server.url}/#/match/${id}`);
    await hal.page.waitForSelector('#sp-table');
    const first = (await tableOf(hal.page)).view;
    assert.equal(first.state.players, 4);
    assert.equal(first.state.nobles.length, 5);
    assert.deepEqual(first.state.rows.map((r) => r.filter(Boolean).length), [4, 4, 4]);
    assert.equal(await hal.page.$$eval('.sp-hand', (hs) => hs.length), 4);
    let shot = false;
    const played = await playToEnd(players, {
      watchers: [hal.page],
      onStep: async ({ n }) => {
        if (!shot && n >= 40) {
          shot = true;
          await settle(hal.page);
          await screenshot(hal.page, 'splendor-4p');
        }
      },
    });
    const end = await sameResult([...players, hal.page]);
    console.log(`# 4 players: ${played} steps, ${end.points.join('-')} points, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await Promise.all([dan, eve, fay, gus, hal].map((x) => x.context.close()));
  }
});
