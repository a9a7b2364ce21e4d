// The draft screen (web/js/santorini/draft.js) against the in-memory server: it takes the
// board's place; the challenger's offer is staged locally (the counter follows, a card is
// taken back by a second tap or its chip) and sent by one button, one step per version; a
// refused step is dropped from the stage and said in words; the search box and the category
// chips; a card's whole text on tap; banned pairs greyed with the reason; the choose phase,
// staged the same way (pick, put back, then send); a game without powers asks "Who starts?"
// and never says "God draft"; 3- and 4-player drafts and a Golden Fleece draft played through
// to the first move. Screenshots docs/screenshots/draft-desktop.png, draft-choose-desktop.png
// (1280x800), draft-phone.png and draft-three-phone.png (390x844).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, guest, createLobby, readGame, clickStep, screenshot } from '../harness.js';

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
    // Choosing is staged like the offer: a tap picks (nothing is sent), a second tap or the
    // chip puts it back, another card replaces it, and the button sends the choice.
    const op = other.page;
    const nothingChosen = async () => {
      const v = await view(op);
      assert.equal(v.state.phase, 'choose');
      assert.ok(v.state.powers.every((p) => !p), 'nothing sent yet');
    };
    assert.equal(await op.isDisabled('#draft-take'), true);
    await op.click('#draft .power-card[data-power="Pan"]');
    assert.equal(await op.getAttribute('#draft .power-card[data-power="Pan"]', 'aria-pressed'), 'true');
    assert.match(await op.textContent('#draft-left'), /Pan chosen, not sent yet/);
    assert.match(await op.textContent('#draft-take'), /^Take Pan$/);
    await nothingChosen();
    await op.click('#draft .power-card[data-power="Pan"]');
    assert.equal(await op.getAttribute('#draft .power-card[data-power="Pan"]', 'aria-pressed'), 'false');
    assert.equal(await op.isDisabled('#draft-take'), true);
    await op.click('#draft .power-card[data-power="Pan"]');
    await op.click('#draft .power-card[data-power="Athena"]');
    assert.equal(await op.getAttribute('#draft .power-card[data-power="Pan"]', 'aria-pressed'), 'false');
    assert.equal(await op.getAttribute('#draft .power-card[data-power="Athena"]', 'aria-pressed'), 'true');
    await op.click('#draft .staged-chip[data-power="Athena"]');
    assert.equal(await op.$('#draft .staged-chip'), null);
    assert.equal(await op.isDisabled('#draft-take'), true);
    await nothingChosen();
    // The details panel picks too (and says it is not sent yet).
    await op.click('#draft .power-info[data-power="Athena"]');
    await op.click('#draft-details-act');
    assert.match(await op.textContent('#draft-take'), /^Take Athena$/);
    await op.evaluate(() => scrollTo(0, 0));
    await screenshot(op, 'draft-choose-desktop');
    await nothingChosen();
    await op.click('#draft-take');
    await page.waitForSelector('#draft[data-phase="start_player"]');
    assert.deepEqual((await view(page)).state.powers.filter(Boolean).sort(), ['Athena', 'Pan']);
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

/** Guests named `names` in a started match (`players` seats, simple gods, full draft, no clock;
 *  `fleece`: the Golden Fleece), on phones; returns them in seat order and the challenger. */
async function startedMany(names, { fleece = false } = {}) {
  const guests = [];
  for (const name of names) guests.push(await guest(browser, server.url, name, { viewport: { width: 390, height: 844 } }));
  const [host, ...rest] = guests;
  await host.page.click('#create-game');
  await host.page.selectOption('#set-players', String(names.length));
  await host.page.selectOption('#set-powers', 'simple');
  await host.page.selectOption('#set-draft', 'full');
  if (fleece) await host.page.check('#set-fleece');
  await host.page.selectOption('#set-clock', 'none');
  await host.page.uncheck('#set-public');
  await host.page.click('#create-submit');
  const link = await host.page.inputValue('#invite-link');
  for (const g of rest) {
    await g.page.goto(link);
    await g.page.waitForSelector('.lobby');
  }
  await host.page.click('#lobby-start:not([disabled])');
  for (const g of guests) await g.page.waitForSelector('.game[data-status="draft"] #draft');
  const bySeat = [];
  for (const g of guests) bySeat[(await readGame(g.page)).you] = g;
  const challenger = (await view(host.page)).state.draft.challenger;
  return { bySeat, challenger };
}

/** Plays a draft through the UI to the first move, checking the counter, the take-backs and
 *  the width at 390 px on the way; `shot`: the screenshot of the full offer, if any. */
async function draftToFirstMove({ bySeat, challenger }, { fleece = false, shot = null } = {}) {
  const players = bySeat.length;
  const need = fleece ? 1 : players;
  const ch = bySeat[challenger].page;
  assert.match(await ch.textContent('#draft h2'), new RegExp(`Offer ${need} gods?`));
  assert.equal(await counter(ch), `0 of ${need} offered`);
  for (const seat of bySeat.keys())
    if (seat !== challenger) assert.match(await bySeat[seat].page.textContent('#draft h2'), new RegExp(`${bySeat[challenger].name} is offering ${need} gods?`));
  // Stage the offer card by card: the counter follows ("2 of 3 offered").
  for (let i = 1; i <= need; i += 1) {
    await ch.click('#draft .power-grid .power-card:not([disabled]):not([aria-pressed="true"])');
    assert.equal(await counter(ch), `${i} of ${need} offered`);
  }
  assert.equal(await ch.isDisabled('#draft .power-grid .power-card:not([aria-pressed="true"])'), true, 'the offer is full');
  // Take the last one back by its chip, and the first by a second tap; then put them back in.
  const staged = await ch.$$eval('#draft .staged-chip', (chips) => chips.map((c) => c.dataset.power));
  assert.equal(staged.length, need);
  await ch.click(`#draft .staged-chip[data-power="${staged[need - 1]}"]`);
  assert.equal(await counter(ch), `${need - 1} of ${need} offered`);
  if (need > 1) {
    await ch.click(`#draft .power-card[data-power="${staged[0]}"]`);
    assert.equal(await counter(ch), `${need - 2} of ${need} offered`);
    await ch.click(`#draft .power-card[data-power="${staged[0]}"]`);
  }
  assert.equal((await view(ch)).state.draft.offer.length, 0, 'nothing sent yet');
  await ch.click(`#draft .power-card[data-power="${staged[need - 1]}"]`);
  assert.equal(await counter(ch), `${need} of ${need} offered`);
  await ch.evaluate(() => scrollTo(0, 0));
  await phoneChecks(ch);
  if (shot) await screenshot(ch, shot);
  await ch.click('#draft-send:not([disabled])');
  await ch.waitForFunction((n) => window.santoriniTest.conn.match(document.querySelector('.game').dataset.match).view.state.draft?.offer.length === n, need);

  if (!fleece) {
    // Each other seat, clockwise from the challenger, chooses: staged, put back, then sent.
    for (let k = 1; k < players; k += 1) {
      const p = bySeat[(challenger + k) % players].page;
      await p.waitForSelector('#draft[data-phase="choose"] #draft-choose-bar');
      assert.equal(Number(await p.getAttribute('#draft-left', 'data-left')), players - k + 1);
      const card = '#draft .power-grid .power-card:not([disabled])';
      const key = await p.getAttribute(card, 'data-power');
      await p.click(card);
      assert.match(await p.textContent('#draft-left'), /chosen, not sent yet/);
      await p.click(`#draft .staged-chip[data-power="${key}"]`);
      assert.equal(await p.isDisabled('#draft-take'), true);
      await p.click(`#draft .power-card[data-power="${key}"]`);
      await phoneChecks(p);
      const before = (await view(p)).state.powers.filter(Boolean).length;
      assert.equal(before, k - 1, 'nothing sent before the button');
      await p.click('#draft-take:not([disabled])');
      await p.waitForFunction((n) => window.santoriniTest.conn.match(document.querySelector('.game').dataset.match).view.state.powers.filter(Boolean).length > n, before);
    }
  }
  // The challenger names the start player; then the placement, by clicking, to the first move.
  await ch.waitForSelector('#draft[data-phase="start_player"] #prompt .buttons button');
  if (fleece) assert.equal((await view(ch)).state.fleece.power, (await view(ch)).state.draft.offer[0]);
  else assert.equal((await view(ch)).state.powers.filter(Boolean).length, players);
  await ch.click('#draft #prompt .buttons button');
  // Wait until the server has taken the start player: until then every page still lists the
  // start-player steps, and the loop below would click a button the next patch removes.
  await ch.waitForFunction(() => !document.querySelector('#draft[data-phase="start_player"]'));
  const pages = bySeat.map((g) => g.page);
  for (let i = 0; i < 30; i += 1) {
    const states = await Promise.all(pages.map(readGame));
    if (states.some((g) => g.status === 'playing')) break;
    const at = states.findIndex((g) => g.legal.length > 0);
    if (at < 0) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    await clickStep(pages[at], states[at].legal[0]);
    await pages[at].waitForFunction((n) => document.querySelectorAll('#log li').length > n, states[at].log);
  }
  for (const p of pages) await p.waitForSelector('.game[data-status="playing"] svg.board');
  const mover = (await Promise.all(pages.map(readGame))).find((g) => g.legal.length > 0);
  assert.ok(mover && mover.legal.some((st) => st.kind === 'move'), 'the first move is offered');
  for (const p of pages) await phoneChecks(p);
}

test('a 3-player draft on phones: "2 of 3 offered", take-backs, every choice staged, to the first move', { timeout: 120000 }, async () => {
  const game = await startedMany(['Hal', 'Ida', 'Jo']);
  try {
    await draftToFirstMove(game, { shot: 'draft-three-phone' });
  } finally {
    await Promise.all(game.bySeat.map((g) => g.context.close()));
  }
});

test('a 4-player draft on phones: "3 of 4 offered", take-backs, every choice staged, to the first move', { timeout: 150000 }, async () => {
  const game = await startedMany(['Kit', 'Lou', 'Max', 'Nia']);
  try {
    await draftToFirstMove(game);
  } finally {
    await Promise.all(game.bySeat.map((g) => g.context.close()));
  }
});

test('a Golden Fleece draft on phones: one god offered, taken back, sent; the Ram placed; to the first move', { timeout: 90000 }, async () => {
  const game = await startedMany(['Oz', 'Pia'], { fleece: true });
  try {
    await draftToFirstMove(game, { fleece: true });
  } finally {
    await Promise.all(game.bySeat.map((g) => g.context.close()));
  }
});
