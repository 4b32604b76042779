// Headless Chromium (Debian's /usr/bin/chromium, or CHROMIUM) driven through playwright-core,
// for the browser tests: a page that records every console error, page error and request that
// failed or tried to leave the machine (only file: and data: URLs may load).
'use strict';
const path = require('path');
const { chromium } = require('playwright-core');

const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** Launches Chromium; Playwright gives it a fresh temporary profile (user data dir). */
async function launch() {
  const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
  return chromium.launch({ executablePath, args: FLAGS, headless: true });
}

/** A new page whose problems are pushed onto `problems` (strings). */
async function page(browser, problems) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const p = await context.newPage();
  p.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  p.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure() && r.failure().errorText})`));
  await p.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
    problems.push(`request leaves the page: ${url}`);
    return route.abort();
  });
  return p;
}

/** `file://` URL of a path. */
function fileUrl(file) {
  return 'file://' + path.resolve(file).split(path.sep).map(encodeURIComponent).join('/');
}

module.exports = { launch, page, fileUrl };
