// Measures the first usable page on loopback: the name form of a new visitor (no guest kept),
// then the home page after signing in, then a returning visitor's home page (guest kept).
// Prints milliseconds from navigation start (Navigation Timing) and the bytes transferred.
// Usage (from tests/browser): SANTORINI_SERVER=... node first-page.mjs [RUNS]
import { startServer, launchBrowser } from './harness.js';

const runs = Number(process.argv[2] || 5);
const server = await startServer();
const browser = await launchBrowser();
const rows = { form: [], home: [], returning: [] };
const bytes = [];
const bytesAgain = [];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/#/`, { waitUntil: 'commit' });
    await page.waitForSelector('#guest-name', { state: 'visible' });
    rows.form.push(await page.evaluate(() => performance.now()));
    bytes.push(await page.evaluate(() => performance.getEntriesByType('resource').reduce((a, r) => a + r.transferSize, 0) + performance.getEntriesByType('navigation')[0].transferSize));
    await page.fill('#guest-name', `Timer${i}`);
    const t0 = await page.evaluate(() => performance.now());
    await page.click('#sign-in');
    await page.waitForSelector('#create-game', { state: 'visible' });
    rows.home.push((await page.evaluate(() => performance.now())) - t0);
    // A returning visitor: a new page of the same context (the guest is in localStorage).
    const again = await context.newPage();
    await again.goto(`${server.url}/#/`, { waitUntil: 'commit' });
    await again.waitForSelector('#create-game', { state: 'visible' });
    rows.returning.push(await again.evaluate(() => performance.now()));
    bytesAgain.push(await again.evaluate(() => performance.getEntriesByType('resource').reduce((a, r) => a + r.transferSize, 0) + performance.getEntriesByType('navigation')[0].transferSize));
    await context.close();
  }
  console.log(`first usable page on loopback, ${runs} runs, median (min-max) ms:`);
  for (const [k, xs] of Object.entries(rows)) console.log(`  ${k.padEnd(9)} ${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`);
  console.log(`  bytes of a first visit: ${median(bytes)}; of a returning visit: ${median(bytesAgain)}`);
} finally {
  await browser.close();
  await server.stop();
}
