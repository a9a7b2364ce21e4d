// An opponent who is away (docs/protocol.md, "Abandonment"): the table says so and counts down
// to the rule's deadline, the line goes when the player comes back, and once the claim time has
// passed the present player ends the match at once (here before anyone moved: "Abort"). The
// server runs with a short abandonment time (5 s: a claim after 1 s). Also: a new lobby's clock
// is real time unless the host chooses otherwise.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, guest, createLobby } from '../harness.js';

let server;
let browser;

before(async () => {
  server = await startServer({ extra: ['--abandon-seconds', '5'] });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('a new lobby defaults to a real-time clock', { timeout: 30000 }, async () => {
  const ann = await guest(browser, server.url, 'Ann');
  try {
    await ann.page.click('#create-game');
    assert.equal(await ann.page.inputValue('#set-clock'), 'realtime');
    assert.equal(await ann.page.isVisible('#set-base'), true);
  } finally {
    await ann.context.close();
  }
});

test('an away opponent: the countdown, gone on return, then Abort once the claim time has passed', { timeout: 60000 }, async () => {
  const ann = await guest(browser, server.url, 'Ann');
  const bob = await guest(browser, server.url, 'Bob');
  try {
    const invite = await createLobby(ann.page, { powers: 'none', clock: 'none' });
    await bob.page.goto(invite);
    await bob.page.waitForSelector('.lobby');
    await ann.page.waitForSelector('#lobby-start:not([disabled])');
    await ann.page.click('#lobby-start');
    await ann.page.waitForSelector('.game[data-status] :is(svg.board, #draft)');
    await bob.page.waitForSelector('.game[data-status] :is(svg.board, #draft)');
    const matchUrl = bob.page.url();
    assert.equal(await ann.page.$('#away'), null);

    // Bob leaves the table: Ann reads who is away and what the rule will do, counting down.
    await bob.page.goto(`${server.url}/#/`);
    await ann.page.waitForSelector('#away p.away');
    const line = await ann.page.textContent('#away p.away');
    assert.match(line, /Bob is away - the match is aborted in 0:0[1-5] unless they return/);
    // He comes back before anything is claimed: the line goes.
    await bob.page.goto(matchUrl);
    await bob.page.waitForSelector('.game[data-status] :is(svg.board, #draft)');
    await ann.page.waitForFunction(() => !document.querySelector('#away'));

    // He leaves again; after the claim time Ann may abort at once.
    await bob.page.goto(`${server.url}/#/`);
    await ann.page.waitForSelector('#away button.claim:not([hidden])', { timeout: 4000 });
    assert.equal(await ann.page.textContent('#away button.claim'), 'Abort');
    await ann.page.click('#away button.claim');
    await ann.page.waitForSelector('.game[data-status="aborted"]', { timeout: 3000 });
    assert.equal(await ann.page.$('#away'), null);
  } finally {
    await Promise.all([ann.context.close(), bob.context.close()]);
  }
});
