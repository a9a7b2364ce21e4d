// The client's reconnects (web/js/net.js), on a fixed view without a game server
// (tests/fixture-page.js): after a 1012 (service restart: a node of a fleet went away or lost a
// match to another, docs/protocol.md) it reconnects at once, within a quarter second; after any
// other drop it backs off from half a second. Either way it says hello again and reopens the
// match since the version it holds.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser } from '../harness.js';
import { serveWeb, fixturePage } from '../fixture-page.js';
import { midGame } from '../splendor-fixture.js';

let web;
let browser;

before(async () => {
  web = await serveWeb();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await web?.close();
});

/** Waits until `count()` reaches `n` (messages the page sent), polling the node side. */
async function until(count, n, what) {
  const deadline = Date.now() + 10000;
  while (count() < n) {
    if (Date.now() > deadline) throw new Error(`no ${what} ${n} in 10 s (${count()})`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('a 1012 is answered by a reconnect at once, another close after the backoff; both reopen the match', { timeout: 30000 }, async () => {
  const view = midGame(0);
  const t = await fixturePage(browser, web.url, { me: view.seats[0].player, views: [view] });
  try {
    const { page: p } = t;
    await p.waitForSelector('#sp-table');
    const hellos = () => t.sent.filter((m) => m.type === 'hello').length;
    const opens = () => t.sent.filter((m) => m.type === 'match.open');
    assert.equal(hellos(), 1);
    const retry = () => p.evaluate(() => window.santoriniTest.conn.retryDelay);

    // A node of the fleet went away: at once.
    await t.closeSocket(1012);
    await until(hellos, 2, 'hello');
    assert.ok((await retry()) < 250, `after a 1012 the client waited ${await retry()} ms`);
    await until(() => opens().length, 2, 'match.open');
    assert.equal(opens()[1].match, 'm_fixture');
    assert.equal(opens()[1].since, 1, 'the match is reopened since the version held');

    // Any other close (here 1011, a server error): the backoff's first step, 0.5 s +-25%.
    await p.waitForFunction(() => window.santoriniTest.conn.status === 'online');
    await t.closeSocket(1011);
    await until(hellos, 3, 'hello');
    const waited = await retry();
    assert.ok(waited >= 375 && waited <= 625, `after a 1011 the client waited ${waited} ms`);
    await until(() => opens().length, 3, 'match.open');
  } finally {
    await t.close();
  }
});
