// The browser client under the server's security headers (server/http/security_headers.hpp): with
// the Content-Security-Policy enforced (no bypass), a guest signs in, the WebSocket connects and
// a lobby is created, and the page reports no policy violation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser } from '../harness.js';

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

// page.evaluate until `check` holds (waitForFunction would need 'unsafe-eval').
async function until(page, check, what, ms = 15000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await page.evaluate(check)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out waiting for ${what}`);
}

test('the client works under its Content-Security-Policy, with no violation', { timeout: 60000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  context.setDefaultTimeout(15000);
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  try {
    const response = await page.goto(`${server.url}/#/`);
    const headers = response.headers();
    assert.match(headers['content-security-policy'], /script-src 'self'/);
    assert.match(headers['content-security-policy'], /frame-ancestors 'none'/);
    assert.equal(headers['x-frame-options'], 'DENY');
    assert.equal(headers['x-content-type-options'], 'nosniff');

    await page.fill('#guest-name', 'Ann');
    await page.click('#sign-in');
    await page.waitForSelector('#create-game');
    await until(page, () => window.santoriniTest?.conn?.status === 'online', 'the WebSocket');
    await page.click('#create-game');
    await page.click('#create-submit');
    await page.waitForSelector('#invite-link');
    assert.deepEqual(await page.evaluate(() => window.__violations), []);
    assert.deepEqual(errors.filter((e) => /Content Security Policy/i.test(e)), []);
  } finally {
    await context.close();
  }
});
