// The lobby chat in the browser (docs/protocol.md, "Lobby chat"): two players waiting in a
// public lobby chat; a line written as HTML shows as its text; a reload shows the conversation
// again; a mute hides a player's lines for that viewer only; "Chat off" hides the panel; a
// guest on the home page (subscribed to the lobby list) is never sent a word of it, nor is the
// kicked player after the kick. No horizontal scroll at 390x844. In-memory server. Screenshots
// docs/screenshots/lobby-chat-desktop.png (1280x800) and lobby-chat-phone.png (390x844).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, guest, createLobby, screenshot } from '../harness.js';

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

const texts = (page) => page.evaluate(() => [...document.querySelectorAll('#lobby-chat-lines .chat-text')].map((el) => el.textContent));

/** Types `text` into the lobby chat and sends it with Enter; waits until the page shows it. */
async function say(page, text) {
  await page.fill('#lobby-chat-input', text);
  await page.press('#lobby-chat-input', 'Enter');
  await page.waitForFunction((t) => [...document.querySelectorAll('#lobby-chat-lines .chat-text')].some((el) => el.textContent === t), text);
  // The box empties when the server acknowledges the line, which may come just after the
  // line's own event: wait for it rather than read it once.
  await page.waitForFunction((s) => document.querySelector(s).value === '', '#lobby-chat-input');
}

const shows = (page, text) => page.waitForFunction((t) => [...document.querySelectorAll('#lobby-chat-lines .chat-text')].some((el) => el.textContent === t), text);

test('two players in a lobby chat; the list and the kicked player read nothing of it', { timeout: 120000 }, async () => {
  const ann = await guest(browser, server.url, 'Ann', { record: true });
  const bob = await guest(browser, server.url, 'Bob', { record: true });
  const cat = await guest(browser, server.url, 'Cat', { record: true });
  try {
    const invite = await createLobby(ann.page, { powers: 'none', isPublic: true });
    await ann.page.waitForSelector('#lobby-chat');
    assert.match(await ann.page.textContent('#lobby-chat-note'), /Only the players in this lobby/);
    // Cat, on the home page, sees the public lobby in the list (while it waits for a player).
    await cat.page.waitForFunction(() => document.body.textContent.includes('Ann'));
    await bob.page.goto(invite);
    await bob.page.waitForSelector('#lobby-chat');

    await say(ann.page, 'Hello Bob, ready?');
    await shows(bob.page, 'Hello Bob, ready?');
    await say(bob.page, '<b>almost</b>');
    await shows(ann.page, '<b>almost</b>');
    for (const p of [ann, bob]) assert.deepEqual(await texts(p.page), ['Hello Bob, ready?', '<b>almost</b>']);
    assert.equal(await ann.page.$('#lobby-chat-lines b'), null);
    assert.equal(await ann.page.textContent('#lobby-chat-lines li:first-child .chat-who'), 'Ann');
    // The writer's name in their seat's colour.
    const colours = await ann.page.evaluate(() => [...document.querySelectorAll('#lobby-chat-lines .chat-who')].map((el) => el.style.getPropertyValue('--side')));
    assert.equal(colours.length, 2);
    assert.ok(colours[0] && colours[1] && colours[0] !== colours[1], `seat colours ${colours}`);

    // A reload reads the conversation again (the server's lobby event carries it).
    await bob.page.reload();
    await bob.page.waitForSelector('#lobby-chat');
    await shows(bob.page, '<b>almost</b>');
    assert.deepEqual(await texts(bob.page), ['Hello Bob, ready?', '<b>almost</b>']);

    // Bob mutes Ann: her lines go for him only; unmuted, they are back.
    await bob.page.click('#lobby-chat-lines li[data-player] .chat-mute');
    await bob.page.waitForFunction(() => document.querySelectorAll('#lobby-chat-lines .chat-text').length === 1);
    assert.deepEqual(await texts(bob.page), ['<b>almost</b>']);
    assert.match(await bob.page.textContent('#lobby-chat-muted'), /Ann/);
    assert.equal((await texts(ann.page)).length, 2);
    await bob.page.click('#lobby-chat-muted .chat-unmute');
    await bob.page.waitForFunction(() => document.querySelectorAll('#lobby-chat-lines .chat-text').length === 2);

    // "Chat off" hides the panel, and on again shows it.
    await bob.page.check('#pref-chatOff');
    assert.equal(await bob.page.isVisible('#lobby-chat'), false);
    await bob.page.uncheck('#pref-chatOff');
    assert.equal(await bob.page.isVisible('#lobby-chat'), true);

    await say(bob.page, 'Ciao! Let’s play a long game, with a rather long line to see how it wraps on a phone.');
    await ann.page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(ann.page, 'lobby-chat-desktop');
    await bob.page.setViewportSize({ width: 390, height: 844 });
    await bob.page.evaluate(() => document.querySelector('#lobby-chat')?.scrollIntoView());
    await screenshot(bob.page, 'lobby-chat-phone');
    const overflow = await bob.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `horizontal scroll of ${overflow} px at 390 px`);

    // Ann kicks Bob: from then on he is sent nothing of the chat.
    await ann.page.click('.seats li[data-seat="1"] button');
    await bob.page.waitForFunction(() => !location.hash.startsWith('#/lobby/'));
    await say(ann.page, 'Just me now 0815');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(bob.frames.some((f) => f.includes('0815')), false, 'the kicked player was sent a line');
    for (const secret of ['Hello Bob', 'almost', '0815'])
      assert.equal(cat.frames.some((f) => f.includes(secret)), false, `the list subscriber was sent "${secret}"`);
  } finally {
    await ann.context.close();
    await bob.context.close();
    await cat.context.close();
  }
});
