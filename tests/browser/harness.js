// Shared by the browser tests: start a real santorini-server on a free loopback port, launch
// Debian's chromium through playwright-core, sign in guests, and drive a game by clicking.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');
export const screenshotDir = path.join(repoRoot, 'docs', 'screenshots');

/** Starts the server; resolves to {url, stop()}. `database`: a PostgreSQL URL or undefined;
 *  `extra`: more command-line arguments. stop() rejects unless the server ends cleanly on
 *  SIGTERM (exit 0): scripts/test runs these tests against the sanitizer tree's server, whose
 *  leak check at exit, like any sanitizer report, ends it with another status. A server that
 *  dies while the tests run writes what it printed to stderr (the sanitizer's report). */
export async function startServer({ database, extra = [] } = {}) {
  const binary = process.env.SANTORINI_SERVER || path.join(repoRoot, 'build', 'release', 'santorini-server');
  const args = ['--address', '127.0.0.1', '--port', '0', '--web-root', path.join(repoRoot, 'web'), '--guests-per-minute', '1000', '--guest-burst', '1000', '--log-level', 'warn', ...extra];
  if (database) args.push('--database-url', database, '--migrations', path.join(repoRoot, 'migrations'));
  const child = spawn(binary, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
    if (process.env.E2E_SERVER_LOG) process.stderr.write(d);
  });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 20 s: ${stderr}`)), 20000);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/open (http:\/\/[^\s/]+)\//);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${stderr}`));
    });
  });
  let stopping = false;
  const tail = () => stderr.slice(-20000);
  child.on('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`santorini-server ended during the tests (${signal || `exit ${code}`}):\n${tail()}\n`);
  });
  const stop = () =>
    new Promise((resolve, reject) => {
      stopping = true;
      const ended = (code, signal) => (code === 0 ? resolve() : reject(new Error(`santorini-server ended with ${signal || `exit ${code}`}, not 0:\n${tail()}`)));
      if (child.exitCode !== null || child.signalCode !== null) return ended(child.exitCode, child.signalCode);
      // A sanitized server checks its heap for leaks as it exits: give it time.
      const kill = setTimeout(() => child.kill('SIGKILL'), 15000);
      child.on('exit', (code, signal) => {
        clearTimeout(kill);
        ended(code, signal);
      });
      child.kill('SIGTERM');
    });
  return { url, stop };
}

/** The browser the tests drive: `CHROMIUM` if set; else Debian's chromium-headless-shell, the
 *  same Blink as chromium without the desktop browser around it (a third less CPU over the
 *  suite: docs/benchmarks.md, "Toward a cold run under 20 minutes"); else chromium. */
export const chromiumPath = process.env.CHROMIUM || (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

export async function launchBrowser() {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    timeout: 30000,
  });
}

/** How often a page's `waitForFunction` tries its predicate unless the call says (ms). */
export const pollMs = 50;

/** Makes `waitForFunction` poll every `pollMs` instead of on every animation frame, for every
 *  page (all share one prototype; the first page patches it). Playwright's default, 'raf', asks
 *  the page for a new frame 60 times a second for as long as a test waits, and each frame costs
 *  the renderer, the compositor and the GPU process some CPU; with four or five pages waiting at
 *  once on two cores, the gods test ran 10% faster without it (docs/benchmarks.md, "The server
 *  side at -O0 under the sanitizers, and in unity batches"). */
export function pollEvery(page) {
  const proto = Object.getPrototypeOf(page);
  if (proto.waitForFunction.polled) return;
  const waitForFunction = proto.waitForFunction;
  const polled = function (fn, arg, options = {}) {
    return waitForFunction.call(this, fn, arg, { polling: pollMs, ...options });
  };
  polled.polled = true;
  proto.waitForFunction = polled;
}

/** A new browser context with a signed-in guest on the home page. `record: true` keeps every
 *  WebSocket frame the page receives, from its first connection on, in `frames` (text). */
export async function guest(browser, url, name, { record = false, ...options } = {}) {
  // The server's Content-Security-Policy has no 'unsafe-eval', which Playwright's
  // waitForFunction needs; the client itself is checked under the policy in csp.test.js.
  // Animations off (reducedMotion): a board settles at once, as the tests read it.
  // English unless a test asks for another locale: the tests read the client's English words
  // (web/js/i18n picks the language from navigator.languages).
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, bypassCSP: true, reducedMotion: 'reduce', locale: 'en-US', ...options });
  context.setDefaultTimeout(15000);
  await showAllSteps(context);
  const page = await context.newPage();
  pollEvery(page);
  page.on('pageerror', (e) => console.error(`[${name}] page error: ${e.message}`));
  const frames = [];
  if (record) page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => frames.push(String(payload))));
  await page.goto(`${url}/#/`);
  await page.fill('#guest-name', name);
  await page.click('#sign-in');
  await page.waitForSelector('#create-game');
  await page.waitForFunction(() => window.santoriniTest?.conn?.status === 'online');
  return { context, page, name, frames };
}

/** Switches on the developer's list of every legal step (web/js/prefs.js) before the pages of
 *  `context` load: the tests read the legal steps from its `data-json`. */
export async function showAllSteps(context) {
  await context.addInitScript(() => localStorage.setItem('santorini.dev-steps', '1'));
}

export async function screenshot(page, name, { fullPage = false } = {}) {
  if (process.env.E2E_NO_SCREENSHOTS) return;
  mkdirSync(screenshotDir, { recursive: true });
  // As players see the page: without the developer's list of every legal step.
  const dev = await page.evaluate(() => {
    const game = document.querySelector('.game.dev-steps');
    game?.classList.remove('dev-steps');
    return Boolean(game);
  });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage });
  if (dev) await page.evaluate(() => document.querySelector('.game')?.classList.add('dev-steps'));
}

/** Creates a lobby from the form; returns the invite link. */
export async function createLobby(page, { players = '2', powers = 'simple', draft = 'full', isPublic = false, clock = 'none' } = {}) {
  await page.click('#create-game');
  await page.selectOption('#set-players', players);
  await page.selectOption('#set-powers', powers);
  if (powers !== 'none') await page.selectOption('#set-draft', draft);
  await page.selectOption('#set-clock', clock);
  if (!isPublic) await page.uncheck('#set-public');
  await page.click('#create-submit');
  await page.waitForSelector('#invite-link');
  return page.inputValue('#invite-link');
}

/** What a page shows: the legal steps offered (from the step list), the board, the status. */
export async function readGame(page) {
  return page.evaluate(() => {
    const game = document.querySelector('.game');
    // Undo is left to the tests that take back steps on purpose.
    const legal = [...document.querySelectorAll('#legal button[data-json]')].map((b) => JSON.parse(b.dataset.json)).filter((st) => st.kind !== 'undo');
    const cells = {};
    for (const c of document.querySelectorAll('svg.board .cell')) {
      const w = c.querySelector('.worker');
      cells[c.dataset.square] = { height: Number(c.dataset.height), dome: c.dataset.dome === '1', side: w ? Number(w.dataset.side) : null };
    }
    return { status: game?.dataset.status, version: Number(game?.dataset.version), you: game?.dataset.you === '' ? null : Number(game?.dataset.you), legal, cells, log: document.querySelectorAll('#log li').length };
  });
}

const dist = (a, b) => Math.max(Math.abs(a.charCodeAt(0) - b.charCodeAt(0)), Math.abs(Number(a[1]) - Number(b[1])));

/** A deterministic strategy over the steps shown: the `climber` side builds a staircase and
 *  climbs it; the other side stays low, keeps away and declines every option. */
export function pickStep(g, climber) {
  const legal = g.legal;
  const me = g.you;
  const mine = Object.entries(g.cells).filter(([, c]) => c.side === me).map(([sq]) => sq);
  const theirs = Object.entries(g.cells).filter(([, c]) => c.side !== null && c.side !== me).map(([sq]) => sq);
  const h = (sq) => g.cells[sq].height;
  const near = (sq, list) => Math.min(99, ...list.map((o) => dist(sq, o)));
  const best = (steps, score) => steps.reduce((a, b) => (score(b) > score(a) ? b : a));
  const climbing = me === climber;
  const kinds = new Set(legal.map((s) => s.kind));
  // With confirm_turns the finished turn waits: confirm it.
  if (kinds.has('end_turn')) return legal.find((s) => s.kind === 'end_turn');
  if (kinds.has('offer') || kinds.has('choose')) {
    const calm = ['Hephaestus', 'Pan', 'Demeter', 'Hestia', 'Atlas', 'Prometheus'];
    for (const p of calm) {
      const s = legal.find((x) => x.power === p);
      if (s) return s;
    }
    return legal[0];
  }
  if (kinds.has('start_player')) return legal.find((s) => s.seat === climber) || legal[0];
  if (kinds.has('place')) {
    const order = climbing ? ['C3', 'B3', 'D3', 'C2', 'C4', 'B2', 'D2'] : ['A5', 'E5', 'A4', 'E4', 'B5', 'D5', 'A1', 'E1'];
    for (const sq of order) {
      const s = legal.find((x) => x.kind === 'place' && x.to === sq);
      if (s) return s;
    }
    return legal[0];
  }
  const moves = legal.filter((s) => s.kind === 'move');
  if (moves.length) {
    if (climbing) {
      const win = moves.find((s) => h(s.to) === 3);
      if (win) return win;
      return best(moves, (s) => 10 * h(s.to) + Object.keys(g.cells).filter((sq) => dist(sq, s.to) === 1 && !g.cells[sq].dome && g.cells[sq].side === null && h(sq) === h(s.to)).length - near(s.to, theirs) * 0.1);
    }
    return best(moves, (s) => -5 * h(s.to) + near(s.to, theirs) - (h(s.to) >= 2 ? 50 : 0));
  }
  const builds = legal.filter((s) => s.kind === 'build' || s.kind === 'dome');
  if (climbing) {
    if (builds.length && !kinds.has('pass')) {
      // The builder's height after moving: where it stands now.
      return best(builds, (s) => {
        const mineH = h(s.from);
        const t = h(s.to);
        let score = 0;
        if (s.kind === 'dome') score -= 100;
        if (t === mineH && t < 3) score += 20; // a step up for next turn
        if (t === mineH + 1) score -= 30; // would make it too tall
        if (t >= 3) score -= 50;
        score -= near(s.to, theirs) < 2 ? 5 : 0;
        return score;
      });
    }
    if (kinds.has('pass')) return legal.find((s) => s.kind === 'pass');
  }
  if (kinds.has('pass')) return legal.find((s) => s.kind === 'pass');
  if (builds.length) {
    return best(builds, (s) => {
      let score = near(s.to, mine.length ? theirs : theirs) * 2;
      if (s.kind === 'dome') score -= 100;
      if (h(s.to) >= 2) score -= 3;
      return score;
    });
  }
  return legal[0];
}

/** Plays `step` by clicking: buttons for steps off the board, squares for the rest. */
export async function clickStep(page, step) {
  const text = stepTextOf(step);
  if (['pass', 'start_player', 'aim'].includes(step.kind)) {
    await page.click(`#prompt .buttons button[data-step="${text}"]`);
    return;
  }
  if (step.kind === 'undo' || step.kind === 'end_turn') {
    await page.click(step.kind === 'undo' ? '#undo:not([disabled])' : '#end-turn');
    return;
  }
  if (step.kind === 'offer' || step.kind === 'choose') {
    await page.click(`#draft .power-card[data-power="${step.power}"]`);
    // An offer is staged by its card and goes out with the send button (one god at a time
    // here); a choice likewise, with the take button.
    await page.click(step.kind === 'offer' ? '#draft-send:not([disabled])' : '#draft-take:not([disabled])');
    return;
  }
  const to = step.kind === 'select' ? step.worker : step.to;
  const from = step.kind === 'token' ? null : step.from;
  if (from) {
    const selected = await page.$(`svg.board .cell.selected[data-square="${from}"]`);
    if (!selected) await page.click(`svg.board .cell[data-square="${from}"]`);
    await page.waitForSelector(`svg.board .cell.selected[data-square="${from}"]`);
  }
  await page.click(`svg.board .cell.target[data-square="${to}"]`);
  const choice = await page.$(`#choice button[data-step="${text}"]`);
  if (choice) await choice.click();
}

export function stepTextOf(step) {
  switch (step.kind) {
    case 'place':
      return `place ${step.to}${step.female ? ' female' : ''}`;
    case 'build':
      return `build ${step.from} ${step.to}${step.before_move ? ' first' : ''}`;
    case 'pass':
      return 'pass';
    case 'offer':
    case 'choose':
      return `${step.kind} ${step.power}`;
    case 'start_player':
      return `start ${String.fromCharCode(65 + step.seat)}`;
    case 'aim':
      return `aim ${step.direction}`;
    case 'select':
      return `select ${step.worker}`;
    case 'token':
      return `token ${step.from ? `${step.from} ` : ''}${step.to}`;
    case 'undo':
      return 'undo';
    case 'end_turn':
      return 'end turn';
    default:
      return `${step.kind} ${step.from} ${step.to}`;
  }
}

/** Plays the match to its end by clicking on whichever page must decide; `onStep(n)` runs
 *  after each step has been acknowledged. Returns the number of steps played. */
export async function playToEnd(pages, { climberSeat, maxSteps = 400, onStep } = {}) {
  let played = 0;
  const deadline = Date.now() + 150000;
  while (played < maxSteps) {
    if (Date.now() > deadline) throw new Error('the game took too long');
    let acted = false;
    let finished = false;
    for (const page of pages) {
      const g = await readGame(page);
      if (g.status === 'finished' || g.status === 'aborted') {
        finished = true;
        break;
      }
      if (g.legal.length === 0) continue;
      const step = pickStep(g, climberSeat);
      const before = g.log;
      await clickStep(page, step);
      await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, before);
      played += 1;
      acted = true;
      if (onStep) await onStep(played, before + 1, page, step);
    }
    if (finished) return played;
    if (!acted) await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no result after ${maxSteps} steps`);
}

/** Opens the replay from a finished match's page (the end dialog's link) and waits for it to
 *  load. A replay refused or never drawn fails with what the page shows instead: the address
 *  and the start of its text (a timeout alone would say only which element was missing). */
export async function openReplay(page) {
  // Clicked at once, as an impatient player would: nothing the dialog draws after it opens
  // (ratings, rematch) is above its buttons (CI, 2026-12-02: when the ratings were drawn above
  // them, a click in that moment missed the link).
  await page.click('#replay-link');
  const shown = await page.waitForSelector('#replay-position, #replay-refused', { timeout: 30000 }).catch(() => null);
  if (shown && (await shown.getAttribute('id')) === 'replay-position') return;
  const what = await page.evaluate(() => ({ hash: location.hash, text: (document.querySelector('main') || document.body).innerText.slice(0, 400) }));
  throw new Error(`the replay did not open: ${JSON.stringify(what)}`);
}
