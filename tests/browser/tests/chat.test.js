// The match chat in the browser (docs/protocol.md, "Chat"): two players and a spectator of a
// private match chat; the spectator's line is not shown to the players while the game is on
// (nor does it reach their sockets), a line written as HTML shows as its text, a muted player's
// lines are hidden for that viewer only (and stay muted after a reload), "Chat off" hides the
// panel, what is being typed survives a step played meanwhile, and after the end everyone reads
// both channels. No horizontal scroll at 390x844. In-memory server. Screenshots
// docs/screenshots/chat-desktop.png (1280x800) and chat-phone.png (390x844).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, guest, createLobby, screenshot, readGame, pickStep, clickStep } from '../harness.js';

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

/** Plays one step on whichever page decides. */
async function playOneStep(pages) {
  for (let tries = 0; tries < 200; tries += 1) {
    for (const page of pages) {
      const g = await readGame(page);
      if (g.legal.length === 0) continue;
      await clickStep(page, pickStep(g, 0));
      await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, g.log);
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('nobody had a step to play');
}

/** Types `text` into the chat and sends it with Enter; waits until the page shows it. */
async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.press('#chat-input', 'Enter');
  await page.waitForFunction((t) => [...document.querySelectorAll('#chat-lines .chat-text')].some((el) => el.textContent === t), text);
  // The box empties when the server acknowledges the line, which may come just after the
  // line's own event: wait for it rather than read it once.
  await page.waitForFunction((s) => document.querySelector(s).value === '', '#chat-input');
}

const chatTexts = (page) => page.evaluate(() => [...document.querySelectorAll('#chat-lines .chat-text')].map((el) => el.textContent));

test('players and a spectator chat; the spectator channel stays apart until the end; mute and chat off', { timeout: 150000 }, async () => {
  const ann = await guest(browser, server.url, 'Ann', { record: true });
  const bob = await guest(browser, server.url, 'Bob', { record: true });
  const cat = await guest(browser, server.url, 'Cat');
  try {
    const invite = await createLobby(ann.page, { powers: 'none', isPublic: false });
    await bob.page.goto(invite);
    await bob.page.waitForSelector('.lobby');
    await ann.page.waitForSelector('#lobby-start:not([disabled])');
    await ann.page.click('#lobby-start');
    for (const p of [ann, bob]) await p.page.waitForSelector('.game[data-status] :is(svg.board, #draft)');
    await playOneStep([ann.page, bob.page]); // who starts: then the board
    for (const p of [ann, bob]) await p.page.waitForSelector('.game svg.board');
    const link = await ann.page.inputValue('#spectator-link');
    await cat.page.goto(link);
    await cat.page.waitForSelector('.game svg.board');
    await ann.page.waitForFunction(() => document.querySelector('#spectators')?.textContent.includes('watching: 1'));

    // The players' channel; HTML is shown as text.
    await say(ann.page, 'Good luck!');
    await say(bob.page, '<b>x</b>');
    await ann.page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-text').length === 2);
    assert.deepEqual(await chatTexts(ann.page), ['Good luck!', '<b>x</b>']);
    assert.equal(await ann.page.$('#chat-lines b'), null);
    assert.equal(await ann.page.textContent('#chat-lines li:first-child .chat-who'), 'Ann');

    // The spectator writes in the spectators' channel, which says the players do not see it.
    assert.equal(await cat.page.textContent('#chat-title'), 'Spectators’ chat');
    assert.match(await cat.page.textContent('#chat-note'), /players do not see this chat/);
    const secret = 'Cat whispers 4711';
    await say(cat.page, secret);
    assert.deepEqual(await chatTexts(cat.page), [secret]);
    // A step later the players still show (and were sent) nothing of it.
    await playOneStep([ann.page, bob.page]);
    await cat.page.waitForFunction(() => document.querySelectorAll('#log li').length >= 2);
    for (const p of [ann, bob]) {
      assert.deepEqual(await chatTexts(p.page), ['Good luck!', '<b>x</b>']);
      assert.equal(p.frames.some((f) => f.includes('4711')), false, `${p.name} was sent the spectators' line`);
    }

    // What is being typed stays while the opponent plays.
    await ann.page.fill('#chat-input', 'half a thou');
    await ann.page.focus('#chat-input');
    await playOneStep([bob.page, ann.page]);
    assert.equal(await ann.page.inputValue('#chat-input'), 'half a thou');
    await ann.page.fill('#chat-input', '');

    // Ann mutes Bob: his lines go for her only, and stay gone after a reload.
    await ann.page.click('#chat-lines li[data-player] .chat-mute');
    await ann.page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-text').length === 1);
    assert.deepEqual(await chatTexts(ann.page), ['Good luck!']);
    assert.match(await ann.page.textContent('#chat-muted'), /Bob/);
    assert.deepEqual(await chatTexts(bob.page), ['Good luck!', '<b>x</b>']);
    await ann.page.reload();
    await ann.page.waitForSelector('.game svg.board');
    await ann.page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-text').length === 1);
    assert.deepEqual(await chatTexts(ann.page), ['Good luck!']);

    await ann.page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(ann.page, 'chat-desktop');
    await bob.page.setViewportSize({ width: 390, height: 844 });
    await bob.page.evaluate(() => document.querySelector('#chat')?.scrollIntoView());
    await screenshot(bob.page, 'chat-phone');
    const overflow = await bob.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `horizontal scroll of ${overflow} px at 390 px`);

    // Unmute; then "Chat off" hides the panel, remembered across a reload.
    await ann.page.click('#chat-muted .chat-unmute');
    await ann.page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-text').length === 2);
    await ann.page.click('#table-settings summary');
    await ann.page.check('#pref-chatOff');
    assert.equal(await ann.page.isVisible('#chat'), false);
    await ann.page.reload();
    await ann.page.waitForSelector('.game svg.board');
    assert.equal(await ann.page.isVisible('#chat'), false);
    await ann.page.click('#table-settings summary');
    await ann.page.uncheck('#pref-chatOff');
    assert.equal(await ann.page.isVisible('#chat'), true);

    // The end: both channels for everyone, the spectators' lines marked.
    await bob.page.setViewportSize({ width: 1280, height: 860 });
    bob.page.once('dialog', (d) => d.accept());
    await bob.page.click('#abort'); // still placing workers: the match ends aborted
    for (const p of [ann, bob, cat]) {
      await p.page.waitForFunction((t) => [...document.querySelectorAll('#chat-lines .chat-text')].some((el) => el.textContent === t), secret);
      assert.deepEqual(await chatTexts(p.page), ['Good luck!', '<b>x</b>', secret]);
      assert.match(await p.page.textContent('#chat-lines li[data-channel="spectators"]'), /spectator/);
    }
  } finally {
    await ann.context.close();
    await bob.context.close();
    await cat.context.close();
  }
});
