// Taking back a step and confirming turns, end to end (docs/protocol.md "Taking back a step
// (undo) and confirming turns"): a Santorini lobby with Confirm turns, two players and a
// spectator; a player moves, undoes, moves elsewhere, builds, undoes the build at the confirm
// prompt, builds elsewhere and ends the turn; the spectator's log and board follow the undos
// live; the finished (resigned) game's replay lists the undo steps. Then one undo without
// Confirm turns, and a Splendor turn taken back (gems taken, undone, others taken, turn ended).
// They run against a server with a PostgreSQL (the replay): scripts/with-postgres.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, guest, clickStep, screenshot, openReplay } from '../harness.js';

const database = process.env.SANTORINI_TEST_DATABASE_URL;

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

/** What a page shows: every legal step listed (undo and end_turn included), the log, where
 *  the workers stand, the phase. */
const look = (page) =>
  page.evaluate(() => {
    const game = document.querySelector('.game');
    const workers = {};
    for (const w of document.querySelectorAll('svg.board .worker')) workers[w.closest('.cell').dataset.square] = Number(w.dataset.side);
    const heights = {};
    for (const c of document.querySelectorAll('svg.board .cell')) heights[c.dataset.square] = Number(c.dataset.height);
    return {
      status: game?.dataset.status,
      phase: game?.dataset.phase,
      version: Number(game?.dataset.version),
      you: game?.dataset.you === '' ? null : Number(game?.dataset.you),
      decider: game?.dataset.decider === '' ? null : Number(game?.dataset.decider),
      legal: [...document.querySelectorAll('#legal button[data-json]')].map((b) => JSON.parse(b.dataset.json)),
      log: [...document.querySelectorAll('#log li')].map((li) => ({ text: li.dataset.notation, mark: li.className })),
      workers,
      heights,
    };
  });

/** Waits until `page`'s log has `n` lines; returns the page's look. */
async function logOf(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll('#log li').length >= k, n);
  return look(page);
}

/** Creates a Santorini lobby without gods from the form (Confirm turns if asked), fills it by
 *  invite link, starts it; the spectator opens it from the live list. */
async function santoriniGame(host, other, watcher, { confirm }) {
  await host.page.click('#create-game');
  await host.page.click('.game-choice[data-game="santorini"]');
  await host.page.selectOption('#set-players', '2');
  await host.page.selectOption('#set-powers', 'none');
  await host.page.selectOption('#set-clock', 'none');
  if (confirm) await host.page.check('#set-confirm');
  await host.page.selectOption('#set-clock', 'none');
  // Left public: the spectator watches from the live list (a private match is never listed).
  await host.page.click('#create-submit');
  await host.page.waitForSelector('#invite-link');
  if (confirm) assert.match(await host.page.textContent('.lobby p.muted'), /confirm turns/);
  const link = await host.page.inputValue('#invite-link');
  await other.page.goto(link);
  await other.page.waitForSelector('.lobby');
  await host.page.click('#lobby-start:not([disabled])');
  await host.page.waitForSelector('.game[data-status]');
  const match = await host.page.getAttribute('.game', 'data-match');
  await other.page.waitForSelector(`.game[data-match="${match}"]`);
  if (watcher) {
    await watcher.page.goto(`${server.url}/#/match/${match}`);
    await watcher.page.waitForSelector(`.game[data-match="${match}"]`);
  }
  return match;
}

/** Plays the setup (start player, then the workers) by clicking whatever is first legal,
 *  confirming where asked; returns once a seat may move. */
async function playSetup(pages) {
  for (let i = 0; i < 20; i++) {
    for (const page of pages) {
      const g = await look(page);
      if (g.decider !== g.you || !g.legal.length) continue;
      if (g.legal.some((s) => s.kind === 'move')) return page;
      assert.ok(!g.legal.some((s) => s.kind === 'undo'), 'no undo during the draft and placement');
      const places = g.legal.filter((s) => s.kind === 'place');
      const step = g.legal.find((s) => s.kind === 'end_turn') || g.legal.find((s) => s.kind === 'start_player' && s.seat === 0) || places[g.you === 0 ? 0 : places.length - 1] || g.legal[0];
      const before = g.log.length;
      await clickStep(page, step);
      await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, before);
    }
  }
  throw new Error('the setup did not end');
}

/** Plays `step` on `page` by clicking and waits for the log line it adds. */
async function play(page, step) {
  const before = (await look(page)).log.length;
  await clickStep(page, step);
  return logOf(page, before + 1);
}

test('Confirm turns: move, undo, move, build, undo at the prompt, build, end turn; the spectator sees it live; the replay lists the undos', { timeout: 120000 }, async () => {
  const ann = await guest(browser, server.url, 'Ann');
  const bob = await guest(browser, server.url, 'Bob');
  const cat = await guest(browser, server.url, 'Cat');
  try {
    const match = await santoriniGame(ann, bob, cat, { confirm: true });
    const mover = await playSetup([ann.page, bob.page]);
    const waiter = mover === ann.page ? bob.page : ann.page;
    let g = await look(mover);
    // Nothing to take back at the start of a turn.
    assert.equal(await mover.isDisabled('#undo'), true);
    assert.ok(!g.legal.some((s) => s.kind === 'undo'));
    const start = g.log.length;
    const [first, second] = g.legal.filter((s) => s.kind === 'move' && !g.workers[s.to]);
    const second2 = g.legal.find((s) => s.kind === 'move' && s.to !== first.to && !g.workers[s.to]) || second;

    // Move, then take it back: the worker is home again on every page.
    g = await play(mover, first);
    assert.equal(g.phase, 'after_move');
    assert.equal(await mover.isEnabled('#undo'), true);
    let c = await logOf(cat.page, start + 1);
    assert.equal(c.workers[first.to], g.you, 'the spectator sees the move');
    await mover.click('#undo');
    g = await logOf(mover, start + 2);
    assert.equal(g.log.at(-1).text, 'undo');
    assert.equal(g.phase, 'begin');
    assert.equal(g.workers[first.from], g.you);
    assert.equal(g.workers[first.to], undefined);
    c = await logOf(cat.page, start + 2);
    assert.deepEqual(c.log.slice(-2), [{ text: `move ${first.from} ${first.to}`, mark: 'undone' }, { text: 'undo', mark: 'undo' }]);
    assert.equal(c.workers[first.from], g.you, 'the spectator sees the worker back');
    assert.equal(c.workers[first.to], undefined);
    assert.equal(await cat.page.$('#undo'), null, 'the spectator has no Undo');

    // Move elsewhere and build: the turn waits for its confirmation.
    g = await play(mover, second2);
    const builds = g.legal.filter((s) => s.kind === 'build');
    assert.ok(builds.length >= 2);
    const [b1, b2] = builds;
    g = await play(mover, b1);
    assert.equal(g.phase, 'confirm');
    assert.equal(await mover.textContent('#prompt strong'), 'Confirm your turn or undo');
    assert.deepEqual(g.legal.map((s) => s.kind).sort(), ['end_turn', 'undo']);
    assert.equal((await look(waiter)).decider, g.you, 'the turn has not passed');
    c = await logOf(cat.page, start + 4);
    assert.equal(c.heights[b1.to], 1);
    await screenshot(mover, 'undo-confirm');
    // Undo the build at the prompt (the key U), build elsewhere, end the turn.
    await mover.keyboard.press('u');
    g = await logOf(mover, start + 5);
    assert.equal(g.log.at(-1).text, 'undo');
    assert.equal(g.phase, 'after_move');
    assert.equal(g.heights[b1.to], 0);
    c = await logOf(cat.page, start + 5);
    assert.equal(c.heights[b1.to], 0, 'the spectator sees the block taken back');
    g = await play(mover, b2);
    assert.equal(g.phase, 'confirm');
    await mover.click('#end-turn');
    g = await logOf(mover, start + 7);
    assert.equal(g.log.at(-1).text, 'end turn');
    await waiter.waitForFunction(() => document.querySelector('.game').dataset.decider === document.querySelector('.game').dataset.you);
    c = await logOf(cat.page, start + 7);
    assert.deepEqual(c.log.slice(start).map((l) => `${l.text}|${l.mark}`), [
      `move ${first.from} ${first.to}|undone`,
      'undo|undo',
      `move ${second2.from} ${second2.to}|`,
      `build ${b1.from} ${b1.to}|undone`,
      'undo|undo',
      `build ${b2.from} ${b2.to}|`,
      'end turn|end-turn',
    ]);
    await screenshot(cat.page, 'undo-spectator');

    // The other player resigns; the replay lists the two undos and the end of the turn.
    waiter.once('dialog', (d) => d.accept());
    await waiter.click('#resign');
    await ann.page.waitForSelector('#result');
    await openReplay(ann.page);
    await ann.page.waitForFunction(() => document.querySelectorAll('#log li[data-kind]').length > 0);
    const kinds = await ann.page.$$eval('#log li[data-kind]', (lis) => lis.map((li) => li.dataset.kind));
    assert.equal(kinds.filter((k) => k === 'undo').length, 2);
    assert.equal(kinds.filter((k) => k === 'end_turn').length, 1);
    assert.equal(await ann.page.$$eval('#log li.undone', (lis) => lis.length), 2);
    assert.equal(await ann.page.getAttribute('#log li[data-kind="undo"]', 'data-notation'), 'undo');
    assert.match(await ann.page.textContent('#log li[data-kind="undo"]'), /took back a step$/);
    // Stepping onto the undo shows the position before the step it took back.
    const n = Number(await ann.page.getAttribute('#log li[data-kind="undo"]', 'data-n'));
    await ann.page.click(`#log li[data-n="${n}"] button`);
    await ann.page.waitForFunction((k) => document.querySelector('#board')?.dataset.after === String(k), n);
    assert.equal(await ann.page.$eval(`svg.board .cell[data-square="${first.to}"]`, (cell) => Boolean(cell.querySelector('.worker'))), false);
    assert.equal(await ann.page.$eval(`svg.board .cell[data-square="${first.from}"]`, (cell) => Boolean(cell.querySelector('.worker'))), true);
    await screenshot(ann.page, 'undo-replay');
    assert.ok(match);
  } finally {
    await Promise.all([ann.context.close(), bob.context.close(), cat.context.close()]);
  }
});

test('without Confirm turns: an undo within the turn, and the turn passes by itself', { timeout: 90000 }, async () => {
  const dan = await guest(browser, server.url, 'Dan');
  const eve = await guest(browser, server.url, 'Eve');
  try {
    await santoriniGame(dan, eve, null, { confirm: false });
    const mover = await playSetup([dan.page, eve.page]);
    const waiter = mover === dan.page ? eve.page : dan.page;
    let g = await look(mover);
    const start = g.log.length;
    const move = g.legal.find((s) => s.kind === 'move' && !g.workers[s.to]);
    g = await play(mover, move);
    const [b1, b2] = g.legal.filter((s) => s.kind === 'build');
    g = await play(mover, b1);
    // The build ended the turn: the door is closed.
    assert.notEqual(g.decider, g.you);
    assert.equal(await mover.$('#undo:not([disabled])'), null);
    assert.ok(b2);
    // The next player moves and takes it back with Ctrl+Z.
    let w = await logOf(waiter, start + 2);
    assert.equal(w.decider, w.you);
    const wm = w.legal.find((s) => s.kind === 'move' && !w.workers[s.to]);
    w = await play(waiter, wm);
    await waiter.keyboard.press('Control+z');
    w = await logOf(waiter, start + 4);
    assert.equal(w.log.at(-1).text, 'undo');
    assert.equal(w.phase, 'begin');
    assert.equal(w.workers[wm.from], w.you);
    g = await logOf(mover, start + 4);
    assert.deepEqual(g.log.slice(-2).map((l) => l.mark), ['undone', 'undo']);
    assert.equal(g.workers[wm.from], w.you, 'the opponent sees the worker back');
  } finally {
    await Promise.all([dan.context.close(), eve.context.close()]);
  }
});

test('Splendor with Confirm turns: take gems, undo, take others, end the turn', { timeout: 90000 }, async () => {
  const fay = await guest(browser, server.url, 'Fay');
  const gus = await guest(browser, server.url, 'Gus');
  try {
    await fay.page.click('#create-game');
    await fay.page.click('.game-choice[data-game="splendor"]');
    await fay.page.selectOption('#set-players', '2');
    await fay.page.check('#set-confirm');
    await fay.page.selectOption('#set-clock', 'none');
    await fay.page.uncheck('#set-public');
    await fay.page.selectOption('#set-clock', 'none');
    await fay.page.click('#create-submit');
    await fay.page.waitForSelector('#invite-link');
    await gus.page.goto(await fay.page.inputValue('#invite-link'));
    await gus.page.waitForSelector('.lobby');
    await fay.page.click('#lobby-start:not([disabled])');
    await Promise.all([fay.page, gus.page].map((p) => p.waitForSelector('#sp-table')));
    const legalOf = (page) => page.evaluate(() => {
      const id = document.querySelector('.game').dataset.match;
      return window.santoriniTest.conn.match(id).view.state.legal || [];
    });
    const mover = (await legalOf(fay.page)).length ? fay.page : gus.page;
    const other = mover === fay.page ? gus.page : fay.page;
    assert.equal(await mover.isDisabled('#undo'), true);
    const takes = (await legalOf(mover)).filter((s) => s.kind === 'take' && s.gems.length === 3);
    const [t1, t2] = [takes[0], takes[takes.length - 1]];
    const take = async (t) => {
      for (const gem of t.gems) await mover.click(`#sp-supply .sp-token.legal[data-gem="${gem}"]`);
      await mover.click(`#sp-take[data-step="take ${t.gems.join(' ')}"]:not([disabled])`);
    };
    await take(t1);
    await mover.waitForFunction(() => document.querySelector('.game').dataset.phase === 'confirm');
    assert.equal(await mover.textContent('#prompt .prompt-text'), 'Confirm your turn or undo');
    await mover.click('#undo');
    await mover.waitForFunction(() => document.querySelector('.game').dataset.phase === 'action');
    assert.equal(await mover.getAttribute('#log li:last-child', 'data-notation'), 'undo');
    await take(t2);
    await mover.waitForFunction(() => document.querySelector('.game').dataset.phase === 'confirm');
    await mover.click('#end-turn');
    await other.waitForFunction(() => document.querySelector('#log li:last-child')?.dataset.notation === 'end turn');
    const lines = await other.$$eval('#log li', (lis) => lis.map((li) => `${li.dataset.notation}|${li.className}`));
    assert.deepEqual(lines.slice(-4), [`take ${t1.gems.join(' ')}|undone`, 'undo|undo', `take ${t2.gems.join(' ')}|`, 'end turn|end-turn']);
    assert.ok((await legalOf(other)).some((s) => s.kind === 'take'), 'the turn passed');
  } finally {
    await Promise.all([fay.context.close(), gus.context.close()]);
  }
});
