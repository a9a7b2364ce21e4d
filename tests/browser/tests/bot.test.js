// Playing against the computer in the browser (docs/bot.md, "In the server"), in-memory server:
// from the home page's "Play against the computer" to the end of a god game, the human clicking
// random legal steps while the computer answers by itself; a spectator finds the game in the live
// list with the computer's badge. And the lobby form's computer seats: a 3-player lobby with two
// computers is full at once, their seats cannot be kicked, and the game shows them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, guest, readGame, screenshot, clickStep } from '../harness.js';

let server;
let browser;

before(async () => {
  // The server's pause before a computer's step, short so the test stays quick (inherited by
  // the server the harness starts).
  process.env.SANTORINI_BOT_DELAY_MS = '60';
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// A small seeded generator, so a failing run can be replayed (E2E_BOT_SEED).
function random(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

test('a whole god game against the computer, from the home page to the end', { timeout: 180000 }, async () => {
  const ann = await guest(browser, server.url, 'Ann');
  const cat = await guest(browser, server.url, 'Cat');
  const seed = Number(process.env.E2E_BOT_SEED || 20261128);
  const rnd = random(seed);
  try {
    await ann.page.waitForSelector('#play-computer');
    await ann.page.selectOption('#bot-game', 'santorini');
    await ann.page.selectOption('#bot-level', '2');
    await ann.page.selectOption('#bot-gods', 'simple');
    await ann.page.selectOption('#bot-players', '2');
    await screenshot(ann.page, 'home-computer');
    await ann.page.click('#bot-play');
    // Created and started at once: straight to the game.
    await ann.page.waitForSelector('.game[data-match]');
    const matchId = await ann.page.getAttribute('.game', 'data-match');
    await ann.page.waitForSelector('.game .badge.bot[data-bot-level="2"]');
    assert.match(await ann.page.textContent('.game .badge.bot'), /Computer \(level 2\)/);

    // Cat sees it among the live games, the computer's badge beside the names.
    await cat.page.waitForSelector(`#match-list li[data-match="${matchId}"] .badge.bot[data-bot-level="2"]`);

    let mine = 0;
    let shot = false;
    const deadline = Date.now() + 150000;
    for (;;) {
      assert.ok(Date.now() < deadline, `the game took too long (seed ${seed})`);
      const g = await readGame(ann.page);
      if (g.status === 'finished' || g.status === 'aborted') break;
      if (g.legal.length === 0) {
        // The computer's turn: its step arrives by itself.
        await ann.page.waitForFunction(
          (v) => {
            const el = document.querySelector('.game');
            return Number(el?.dataset.version) > v || ['finished', 'aborted'].includes(el?.dataset.status);
          },
          g.version,
          { timeout: 20000 },
        );
        continue;
      }
      const step = g.legal[Math.floor(rnd() * g.legal.length)];
      await clickStep(ann.page, step);
      await ann.page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, g.log);
      mine += 1;
      if (!shot && g.status === 'playing' && g.log > 12) {
        shot = true;
        await screenshot(ann.page, 'computer-game');
      }
    }
    const end = await readGame(ann.page);
    assert.equal(end.status, 'finished', `seed ${seed}`);
    assert.ok(mine > 0);
    const view = await ann.page.evaluate((id) => window.santoriniTest.conn.match(id).view, matchId);
    assert.equal(view.seats[1].player.bot.level, 2);
    assert.equal(view.result.winners.length, 1);
    // Both sides played: the log holds more steps than the human's.
    assert.ok(view.history.length > mine, `${view.history.length} steps, ${mine} by the human`);
    console.log(`bot game: ${view.history.length} steps, ${mine} clicked, winner seat ${view.result.winners[0]}`);
  } finally {
    await ann.context.close();
    await cat.context.close();
  }
});

test('the lobby form seats computers in the last seats, never kickable, shown in the game', { timeout: 60000 }, async () => {
  const bea = await guest(browser, server.url, 'Bea');
  try {
    await bea.page.click('#create-game');
    await bea.page.click('.game-choice[data-game="santorini"]');
    await bea.page.selectOption('#set-players', '3');
    await bea.page.selectOption('#set-powers', 'simple');
    await bea.page.selectOption('#set-bots', '2');
    await bea.page.selectOption('#set-bot-level', '4');
    assert.equal(await bea.page.isDisabled('#set-rated'), true); // never rated with computers
    await bea.page.uncheck('#set-public');
    await bea.page.selectOption('#set-clock', 'none');
    await bea.page.click('#create-submit');
    await bea.page.waitForSelector('.lobby');
    assert.equal(await bea.page.locator('.seats li[data-seat="1"] .badge.bot[data-bot-level="4"]').count(), 1);
    assert.equal(await bea.page.locator('.seats li[data-seat="2"] .badge.bot[data-bot-level="4"]').count(), 1);
    assert.equal(await bea.page.locator('.seats button').count(), 0); // no Kick for a computer
    assert.match(await bea.page.textContent('.lobby .muted'), /2 computers \(level 4\)/);
    await bea.page.waitForSelector('#lobby-start:not([disabled])');
    await screenshot(bea.page, 'lobby-computers');
    await bea.page.click('#lobby-start');
    await bea.page.waitForSelector('.game[data-match]');
    await bea.page.waitForFunction(() => document.querySelectorAll('.game .badge.bot[data-bot-level="4"]').length === 2);
  } finally {
    await bea.context.close();
  }
});
