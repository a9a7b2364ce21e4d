// A page of the client on fixed views, without a game server: web/ is served by a few lines of
// node, the guest is put in localStorage, and the WebSocket is answered by the test
// (Playwright's routeWebSocket). Used by tests/heroes-table.test.js; splendor-table.test.js
// uses its web server and answers its WebSocket itself. The power catalog (GET /api/powers) is
// the real server's: serveWeb starts one (no database) and passes that one route through.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot, startServer, showAllSteps, pollEvery } from './harness.js';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json' };

/** Serves web/ on a free loopback port: {url, close()}. */
export async function serveWeb() {
  const root = path.join(repoRoot, 'web');
  const real = await startServer();
  const server = http.createServer(async (req, res) => {
    const p = new URL(req.url, 'http://x').pathname;
    if (p === '/api/powers') {
      const answer = await fetch(`${real.url}/api/powers`);
      return res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(await answer.text());
    }
    const file = path.join(root, p === '/' ? 'index.html' : p);
    if (!file.startsWith(root)) return res.writeHead(403).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"not found","code":"not_found"}');
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const close = async () => {
    await new Promise((r) => server.close(r));
    await real.stop();
  };
  return { url: `http://127.0.0.1:${server.address().port}`, close };
}

/** A page signed in as `me` ({id, name}) at `hash`, whose WebSocket the test answers: `views`
 *  are sent one after another as snapshots of match m_fixture (the first on match.open, the
 *  next after each step). Returns {page, steps (the steps sent), sent (every message), close,
 *  closeSocket(code)}. */
export async function fixturePage(browser, url, { me, views = [], hash = '#/match/m_fixture', viewport = { width: 1280, height: 900 } }) {
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce', locale: 'en-US' });
  context.setDefaultTimeout(5000);
  await context.addInitScript((guest) => localStorage.setItem('santorini.guest', JSON.stringify(guest)), { ...me, token: 'f'.repeat(32) });
  await showAllSteps(context);
  const page = await context.newPage();
  pollEvery(page);
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  const steps = [];
  const sent = [];
  let version = 1;
  let next = 0;
  let socket = null;
  const snapshot = () => socket.send(JSON.stringify({ type: 'match.snapshot', match: 'm_fixture', version: version++, view: views[Math.min(next, views.length - 1)] }));
  await page.routeWebSocket(/\/ws$/, (ws) => {
    socket = ws;
    ws.onMessage((text) => {
      const msg = JSON.parse(text);
      sent.push(msg);
      if (msg.type === 'hello') ws.send(JSON.stringify({ type: 'welcome', protocol: 1, player: { id: me.id, name: me.name } }));
      else if (msg.type === 'match.open') snapshot();
      else if (msg.type === 'match.step') {
        steps.push(msg.step);
        next += 1;
        snapshot();
        ws.send(JSON.stringify({ type: 'ack', ref: msg.ref }));
      } else if (msg.ref !== undefined) ws.send(JSON.stringify({ type: 'ack', ref: msg.ref }));
    });
  });
  await page.goto(`${url}/${hash}`);
  // closeSocket(code): the server side closes the page's WebSocket with `code`.
  return { page, steps, sent, context, close: () => context.close(), closeSocket: (code) => socket.close({ code }) };
}
