// The rematch in the browser (docs/protocol.md, "Rematch"): a match ends in front of both
// players; Ann offers a rematch from the end dialog, Bob reads the offer and declines, Ann
// offers again from the result line beside the table and Bob accepts; both are taken to the new
// match, where they have changed places. In-memory server.
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

test('a rematch offered, declined, offered again and accepted; both players move to the new match', { timeout: 120000 }, async () => {
  const ann = await guest(browser, server.url, 'Ann');
  const bob = await guest(browser, server.url, 'Bob');
  try {
    const invite = await createLobby(ann.page, { powers: 'none', isPublic: false });
    await bob.page.goto(invite);
    await bob.page.waitForSelector('.lobby');
    await ann.page.waitForSelector('#lobby-start:not([disabled])');
    await ann.page.click('#lobby-start');
    for (const p of [ann, bob]) await p.page.waitForSelector('.game[data-status] :is(svg.board, #draft)');
    const first = await ann.page.getAttribute('.game', 'data-match');
    const annSeat = Number(await ann.page.getAttribute('.game', 'data-you'));

    // The match ends in front of both (aborted before the first move).
    ann.page.once('dialog', (d) => d.accept());
    await ann.page.click('#abort');
    for (const p of [ann, bob]) await p.page.waitForSelector('#end-dialog[open] #end-rematch-offer');

    // Ann offers; Bob reads the offer in the dialog, with the answers.
    await ann.page.click('#end-rematch-offer');
    await ann.page.waitForSelector('#end-rematch-cancel');
    assert.match(await ann.page.textContent('#end-rematch .rematch-text'), /waiting for Bob/);
    await bob.page.waitForSelector('#end-rematch-accept');
    assert.equal(await bob.page.textContent('#end-rematch .rematch-text'), 'Ann offers a rematch.');
    await screenshot(bob.page, 'rematch-offer-desktop');
    await bob.page.setViewportSize({ width: 390, height: 844 });
    await screenshot(bob.page, 'rematch-offer-phone');
    await bob.page.setViewportSize({ width: 1280, height: 860 });

    // Bob declines: Ann is told, and may offer again.
    await bob.page.click('#end-rematch-decline');
    await ann.page.waitForFunction(() => document.querySelector('#end-rematch .rematch-text')?.textContent === 'Bob declined the rematch.');
    await ann.page.waitForSelector('#end-rematch-offer');

    // Ann closes the dialog and offers again from the result line beside the table.
    await ann.page.click('#end-close');
    await ann.page.click('#result-rematch-offer');
    await bob.page.waitForSelector('#end-rematch-accept');
    await bob.page.click('#end-rematch-accept');

    // Both are taken to the same new match, in each other's seats.
    const next = [];
    for (const p of [ann, bob]) {
      await p.page.waitForFunction((old) => {
        const el = document.querySelector('.game[data-match]');
        return el && el.dataset.match !== old && el.dataset.status && el.querySelector(':is(svg.board, #draft)');
      }, first);
      next.push(await p.page.getAttribute('.game', 'data-match'));
    }
    assert.equal(next[0], next[1]);
    assert.notEqual(next[0], first);
    assert.match(ann.page.url(), new RegExp(`#/match/${next[0]}$`));
    assert.equal(Number(await ann.page.getAttribute('.game', 'data-you')), 1 - annSeat);
    assert.equal(await ann.page.isVisible('#end-dialog'), false);
  } finally {
    await ann.context.close();
    await bob.context.close();
  }
});
