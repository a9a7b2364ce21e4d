// The Santorini board as players read it (web/js/santorini/board.js, pieces.js), on a fixed view
// without a game server (fixture-page.js): a dome never shares a worker's shape or colour, on any
// level (Atlas' low domes too); each side's workers have their own shape; towers of levels 1-3
// are blocks of three sizes with their number; a power's special target (Apollo's swap onto an
// occupied square) is marked otherwise than a plain move; the last step's build is marked; the
// log's Notation switch.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser } from '../harness.js';
import { serveWeb, fixturePage } from '../fixture-page.js';

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

const PLAYERS = ['Ann', 'Bob', 'Cy', 'Di'].map((name) => ({ id: `p_${name.toLowerCase()}`, name }));

/** Four sides (4 players, each its own side here: the board draws by side), domes on levels
 *  0-3, towers of each height; Ann (Apollo) to move from B3, next to Bob's worker on C3. */
function view() {
  const board = Array(25).fill('0');
  const set = (sq, v) => {
    board[(Number(sq[1]) - 1) * 5 + sq.charCodeAt(0) - 65] = v;
  };
  for (const [sq, v] of Object.entries({ A1: '1', B1: '2', C1: '3', D1: '3D', E1: '0D', A2: '1D', E4: '2D', B3: '2' })) set(sq, v);
  const workers = [['B3', 0], ['D2', 0], ['C3', 1], ['E5', 1], ['A5', 2], ['C5', 3]].map(([square, side], id) => ({ id, side, square, female: false }));
  return {
    match: 'm_fixture',
    game: 'santorini',
    status: 'playing',
    seats: PLAYERS.map((player, i) => ({ seat: i, player, power: ['Apollo', 'Atlas', 'Pan', 'Hermes'][i], side: i, out: false, connected: true })),
    you: 0,
    spectators: 0,
    clock: { kind: 'none' },
    result: null,
    history: ['place B2', 'place D2', 'place C3', 'place D4', 'move B2 B3', 'build B3 B4', 'move D4 E5', 'dome E5 E4'],
    state: {
      phase: 'begin', decider: 0, turn: 5, players: 4, board, workers, out: [false, false, false, false], winners: [], fleece: null,
      powers: ['Apollo', 'Atlas', 'Pan', 'Hermes'],
      cards: ['Apollo', 'Atlas', 'Pan', 'Hermes'].map((power, i) => ({ seat: i, holder: i, power, tokens: [] })),
      this_turn: { seat: 0 },
      legal: [{ kind: 'move', from: 'B3', to: 'C3' }, { kind: 'move', from: 'B3', to: 'A3' }, { kind: 'move', from: 'B3', to: 'C4' }, { kind: 'move', from: 'D2', to: 'D3' }],
    },
  };
}

test('a dome never shares a worker\'s shape or colour; each side has its own worker shape; towers read by size and number', { timeout: 30000 }, async () => {
  const t = await fixturePage(browser, web.url, { me: PLAYERS[0], views: [view()] });
  try {
    const { page } = t;
    await page.waitForSelector('svg.board .cell[data-square="D1"] .dome');
    const read = await page.evaluate(() => {
      const fill = (el) => getComputedStyle(el).fill;
      return {
        domes: [...document.querySelectorAll('svg.board .dome')].map((d) => ({ square: d.closest('.cell').dataset.square, tag: d.tagName, fill: fill(d) })),
        workers: [...document.querySelectorAll('svg.board .worker')].map((w) => ({ side: w.dataset.side, tag: w.tagName, shape: w.dataset.shape, fill: fill(w) })),
        blocks: Object.fromEntries([...document.querySelectorAll('svg.board .cell')].map((c) => [c.dataset.square, [...c.querySelectorAll('.level')].map((b) => Number(b.getAttribute('width')))])),
        badges: Object.fromEntries([...document.querySelectorAll('svg.board .cell')].map((c) => [c.dataset.square, c.querySelector('.level-badge')?.textContent ?? null])),
      };
    });
    assert.deepEqual(read.domes.map((d) => d.square).sort(), ['A2', 'D1', 'E1', 'E4'], 'a dome on every level: 0 (Atlas), 1, 2 and 3');
    assert.equal(read.workers.length, 6);
    for (const d of read.domes) {
      for (const w of read.workers) {
        assert.notEqual(d.tag, w.tag, `the dome on ${d.square} and side ${w.side}'s worker differ in shape`);
        assert.notEqual(d.fill, w.fill, `the dome on ${d.square} and side ${w.side}'s worker differ in colour`);
      }
    }
    // One shape per side, and one colour per side.
    const bySide = new Map(read.workers.map((w) => [w.side, `${w.tag}:${w.shape}`]));
    assert.equal(new Set(bySide.values()).size, 4, `four sides, four shapes: ${[...bySide.values()]}`);
    assert.equal(new Set(read.workers.map((w) => w.fill)).size, 4);
    // Blocks of three distinct sizes, level 1 the largest, and the height in numbers.
    assert.deepEqual(read.blocks.C1, [...read.blocks.C1].sort((a, b) => b - a));
    assert.equal(new Set(read.blocks.C1).size, 3);
    assert.equal(read.blocks.A1[0], read.blocks.C1[0], 'level 1 is the same block on every tower');
    assert.deepEqual([read.badges.A1, read.badges.B1, read.badges.C1, read.badges.C2], ['1', '2', '3', null]);

    // Apollo's move onto Bob's worker is marked as a swap, a move to a free square as a move.
    await page.click('svg.board .cell[data-square="B3"]');
    await page.waitForSelector('svg.board .cell.selected[data-square="B3"]');
    const kinds = await page.$$eval('svg.board .cell.target', (cs) => Object.fromEntries(cs.map((c) => [c.dataset.square, c.querySelector('[data-target-kind]')?.dataset.targetKind])));
    assert.deepEqual(kinds, { C3: 'displace', A3: 'move', C4: 'move' });
    assert.ok(await page.$('svg.board .cell[data-square="C3"] .worker'), 'the worker to be swapped stays visible');
    // The last step, a dome on E4, is marked on the board.
    assert.ok(await page.$('svg.board .cell[data-square="E4"] .built-mark'));
    // The log in words; the Notation switch shows the steps as the history writes them.
    assert.equal(await page.textContent('#log li[data-n="8"]'), 'placed a dome on E4');
    await page.check('#log-notation');
    await page.waitForFunction(() => document.querySelector('#log li[data-n="8"]').textContent === 'dome E5 E4');
    await page.uncheck('#log-notation');
    await page.waitForFunction(() => document.querySelector('#log li[data-n="8"]').textContent === 'placed a dome on E4');
  } finally {
    await t.close();
  }
});
