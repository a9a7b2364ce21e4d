// The draft screen (web/js/santorini/draft.js) against the in-memory server: it takes the
// board's place; the challenger's offer is staged locally (the counter follows, a card is
// taken back by a second tap or its chip) and sent by one button, one step per version; a
// refused step is dropped from the stage and said in words; the search box and the category
// chips; a card's whole text on tap; banned pairs greyed with the reason; the choose phase;
// a game without powers asks "Who starts?" and never says "God draft". Screenshots
// docs/screenshots/draft-desktop.png (1280x800) and draft-phone.png (390x844).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, guest, createLobby, readGame, screenshot } from '../harness.js';

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

/** Two guests in a started match of `settings` (createLobby's); returns [challenger, other]. */
async function started(names, settings, options = {}) {
  const a = await guest(browser, server.url, names[0], options);
  const b = await guest(browser, server.url, names[1], options);
  const link = await createLobby(a.page, settings);
  await b.page.goto(link);
  await b.page.waitForSelector('.lobby');
  await a.page.waitForSelector('#lobby-start:not([disabled])');
  await a.page.click('#lobby-start');
  for (const p of [a, b]) await p.page.waitForSelector('.game[data-status="draft"] #draft');
  const first = (await readGame(a.page)).legal.length > 0;
  return first ? [a, b] : [b, a];
}

const counter = (page) => page.textContent('#draft-counter strong');
const visibleTiles = (page) => page.$$eval('#draft .power-grid .power-tile', (tiles) => tiles.filter((t) => !t.hidden).map((t) => ({ power: t.dataset.power, category: t.dataset.category })));
const view = (page) => page.evaluate(() => window.santoriniTest.conn.match(document.querySelector('.game').dataset.match).view);

/** No horizontal scroll, and every visible button of the draft at least 40 px each way. */
async function phoneChecks(page) {
  const { scroll, small } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth - innerWidth,
    // The developer's list of every legal step (off for players) is left out.
    small: [...document.querySelectorAll('#draft button, #draft input')]
      .filter((b) => !b.closest('.all-steps'))
      .map((b) => ({ b, r: b.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && (r.width < 40 || r.height < 40))
      .map(({ b, r }) => `${b.className || b.id} ${Math.round(r.width)}x${Math.round(r.height)}`),
  }));
  assert.ok(scroll <= 0, `no horizontal scroll (${scroll} px too wide)`);
  assert.deepEqual(small, [], 'tap targets of 40 px');
}

test('the offer: staged, taken back, searched, filtered, read in full, sent; a refusal; the choose phase', { timeout: 90000 }, async () => {
  const [ch, other] = await started(['Dora', 'Eli'], { powers: 'all', draft: 'full' }, { viewport: { width: 1280, height: 800 } });
  try {
    const page = ch.page;
    // The draft is where the board would be, not in the side column; no board meanwhile.
    assert.ok(await page.$('.table-area #draft'));
    assert.equal(await page.$('svg.board'), null);
    assert.match(await page.textContent('#draft .draft-kicker'), /God draft/);
    assert.match(await page.textContent('#draft h2'), /Offer 2 gods/);
    assert.equal(await counter(page), '0 of 2 offered');
    assert.match(await other.page.textContent('#draft h2'), new RegExp(`${ch.name} is offering 2 gods`));

    // Tap to add, tap again to take back: the counter follows, nothing is sent.
    await page.click('#draft .power-card[data-power="Apollo"]');
    assert.equal(await counter(page), '1 of 2 offered');
    assert.equal(await page.getAttribute('#draft .power-card[data-power="Apollo"]', 'aria-pressed'), 'true');
    await page.click('#draft .power-card[data-power="Apollo"]');
    assert.equal(await counter(page), '0 of 2 offered');
    assert.equal(await page.isDisabled('#draft-send'), true);

    // A banned pair: with Pan staged, Hades is greyed and says why (the catalog's pairs).
    await page.click('#draft .power-card[data-power="Pan"]');
    assert.equal(await page.isDisabled('#draft .power-card[data-power="Hades"]'), true);
    assert.match(await page.textContent('#draft .power-card[data-power="Hades"] .reason'), /Cannot be played with Pan/);
    // Full: a third card cannot be staged; a chip takes Pan back.
    await page.click('#draft .power-card[data-power="Artemis"]');
    assert.equal(await counter(page), '2 of 2 offered');
    assert.equal(await page.isDisabled('#draft .power-card[data-power="Athena"]'), true);
    assert.match(await page.getAttribute('#draft .power-card[data-power="Athena"]', 'title'), /offer is full/);
    assert.match(await page.textContent('#draft-counter'), /Send it, or take one back/);
    assert.match(await page.textContent('#draft-send'), /Offer these 2 gods/);
    await page.click('#draft .staged-chip[data-power="Pan"]');
    assert.equal(await counter(page), '1 of 2 offered');
    assert.equal(await page.isDisabled('#draft .power-card[data-power="Hades"]'), false);
    assert.equal((await view(page)).state.draft.offer.length, 0, 'nothing sent yet');

    // The search box and the category chips.
    const all = await visibleTiles(page);
    assert.ok(all.length > 8);
    await page.fill('#draft-search', 'zeus');
    assert.deepEqual((await visibleTiles(page)).map((t) => t.power), ['Zeus']);
    await page.fill('#draft-search', 'nothing like this');
    assert.equal(await page.isVisible('#draft-none'), true);
    await page.fill('#draft-search', '');
    assert.equal((await visibleTiles(page)).length, all.length);
    assert.equal(await page.$('#draft .filter-chip[data-filter="hero"]'), null, 'no chip for a category the pool lacks');
    await page.click('#draft .filter-chip[data-filter="advanced"]');
    const advanced = await visibleTiles(page);
    assert.ok(advanced.length > 0 && advanced.length < all.length);
    assert.ok(advanced.every((t) => t.category === 'advanced'));
    await page.click('#draft .filter-chip[data-filter="fleece"]');
    const fleece = await visibleTiles(page);
    assert.ok(fleece.length > 0 && fleece.length < all.length);
    await page.click('#draft .filter-chip[data-filter="simple"]');
    assert.ok((await visibleTiles(page)).every((t) => t.category === 'simple'));
    await page.click('#draft .filter-chip[data-filter="all"]');

    // The whole card on tap: the details panel, with what the card does and its banned pairs.
    const catalog = await page.evaluate(async () => (await (await fetch('/api/powers')).json()).powers);
    const hades = catalog.find((p) => p.id === 'Hades');
    await page.click('#draft .power-info[data-power="Hades"]');
    await page.waitForSelector('#draft-details');
    assert.ok((await page.textContent('#draft-details')).includes(hades.text));
    assert.match(await page.textContent('#draft-details'), /Never in the same game as Pan/);
    await page.evaluate(() => scrollTo(0, 0));
    await screenshot(page, 'draft-desktop');
    await page.click('#draft-details .close');
    assert.equal(await page.$('#draft-details'), null);
    // By keyboard: the panel takes the focus as it opens, Escape closes it, and the focus goes
    // back to the card's "i" button.
    await page.focus('#draft .power-info[data-power="Hades"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#draft-details');
    await page.waitForFunction(() => document.activeElement?.matches('#draft-details .close'));
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('#draft-details'));
    await page.waitForFunction(() => document.activeElement?.matches('.power-info[data-power="Hades"]'));

    // The phone: the same screen at 390x844, no horizontal scroll, 40 px tap targets.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => scrollTo(0, 0));
    await phoneChecks(page);
    await screenshot(page, 'draft-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // A refusal: the client's catalog forgets that Pan and Hades are banned together, so both
    // may be staged; the server takes Pan and refuses Hades, which leaves the stage.
    await page.evaluate(async () => {
      const { powerInfo } = await import('/js/catalog.js');
      for (const [a, b] of [['Pan', 'Hades'], ['Hades', 'Pan']]) powerInfo(a).banned = powerInfo(a).banned.filter((x) => x !== b);
    });
    await page.click('#draft .staged-chip[data-power="Artemis"]');
    await page.click('#draft .power-card[data-power="Pan"]');
    await page.click('#draft .power-card[data-power="Hades"]');
    assert.equal(await counter(page), '2 of 2 offered');
    await page.click('#draft-send');
    await page.waitForSelector('#draft-error');
    const error = await page.textContent('#draft-error');
    assert.match(error, /Hades could not be offered/);
    assert.match(error, /Pan was offered and stays offered/);
    assert.deepEqual((await view(page)).state.draft.offer, ['Pan']);
    assert.equal(await counter(page), '1 of 2 offered');
    assert.equal(await page.$('#draft .staged-chip[data-power="Hades"]'), null);
    assert.match(await page.textContent('#draft .power-card[data-power="Hades"] .reason'), /Not allowed with the gods offered so far/);

    // The rest of the offer, sent by the button: the other player then chooses.
    await page.click('#draft .power-card[data-power="Athena"]');
    assert.match(await page.textContent('#draft-send'), /Offer this god/);
    await page.click('#draft-send');
    await other.page.waitForSelector('#draft[data-phase="choose"]');
    assert.deepEqual((await view(other.page)).state.draft.offer, ['Pan', 'Athena']);
    assert.match(await other.page.textContent('#draft h2'), /Choose your god/);
    assert.match(await other.page.textContent('#draft-left'), /Left: Pan and Athena/);
    assert.match(await page.textContent('#draft h2'), new RegExp(`${other.name} is choosing a god`));
    await other.page.click('#draft .power-card[data-power="Athena"]');
    await page.waitForSelector('#draft[data-phase="start_player"]');
    assert.match(await page.textContent('#draft h2'), /Who starts\?/);
    await page.click('#prompt .buttons button[data-step="start A"]');
    await page.waitForSelector('.game[data-status="placement"] svg.board');
    assert.equal(await page.$('#draft'), null);
  } finally {
    await ch.context.close();
    await other.context.close();
  }
});

test('a game without powers asks who starts and never says "God draft"', { timeout: 60000 }, async () => {
  const [ch, other] = await started(['Fay', 'Gus'], { powers: 'none' }, { viewport: { width: 390, height: 844 } });
  try {
    for (const p of [ch.page, other.page]) {
      await p.waitForSelector('#draft[data-phase="start_player"]');
      assert.match(await p.textContent('#draft h2'), /Who starts\?/);
      assert.doesNotMatch(await p.textContent('.game'), /god draft/i);
    }
    assert.match(await other.page.textContent('#draft'), new RegExp(`${ch.name} names the start player`));
    await phoneChecks(ch.page);
    await ch.page.click('#draft #prompt .buttons button[data-step="start B"]');
    await ch.page.waitForSelector('.game[data-status="placement"] svg.board');
  } finally {
    await ch.context.close();
    await other.context.close();
  }
});
