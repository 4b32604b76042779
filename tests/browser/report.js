// Opens cosmap's HTML design reports in headless Chromium, offline.
//   node tests/browser/report.js OUT_DIR FILE.html...
// For each report: measures the diagram and the charts as drawn (elements and their boxes),
// tries the rule filter, saves OUT_DIR/<name>.png (the whole page), and prints one JSON line.
// Exits 1 on any console error, page error, or request that failed or left the machine.
'use strict';
const fs = require('fs');
const path = require('path');
const { launch, page, fileUrl } = require('./chromium');

async function main() {
  const [outDir, ...files] = process.argv.slice(2);
  if (!outDir || files.length === 0) throw new Error('usage: report.js OUT_DIR FILE.html...');
  fs.mkdirSync(outDir, { recursive: true });
  const problems = [];
  const browser = await launch();
  try {
    for (const file of files) {
      const p = await page(browser, problems);
      await p.goto(fileUrl(file), { waitUntil: 'load' });
      const result = await p.evaluate(() => {
        const box = (el) => { const r = el.getBoundingClientRect(); return { width: r.width, height: r.height }; };
        const sized = (list) => [...list].filter((el) => { const b = box(el); return b.width > 0 && b.height > 0; }).length;
        const diagram = document.querySelector('svg#diagram');
        const chart = document.querySelector('svg#cost-chart');
        const totals = document.querySelector('svg#totals-chart');
        return {
          title: document.title,
          diagram: diagram ? box(diagram) : null,
          containers: diagram ? diagram.querySelectorAll('g.container').length : 0,
          containersDrawn: diagram ? sized(diagram.querySelectorAll('g.container > rect.box')) : 0,
          documentRows: diagram ? sized(diagram.querySelectorAll('rect.doc')) : 0,
          links: diagram ? sized(diagram.querySelectorAll('g.link path')) : 0,
          chart: chart ? box(chart) : null,
          bars: chart ? chart.querySelectorAll('rect.bar').length : 0,
          barsDrawn: chart ? sized(chart.querySelectorAll('rect.bar')) : 0,
          totalBarsDrawn: totals ? sized(totals.querySelectorAll('rect.bar')) : 0,
          patterns: document.querySelectorAll('#patterns .pattern').length,
          decisions: document.querySelectorAll('#decisions tbody tr').length,
          overridden: document.querySelectorAll('#decisions tbody tr.overridden').length,
        };
      });
      // The filter: the first rule's button shows only that rule's decisions, "all" shows all.
      const rule = await p.getAttribute('.filter button:nth-child(2)', 'data-rule');
      await p.click('.filter button:nth-child(2)');
      result.filterRule = rule;
      result.visibleAfterFilter = await p.evaluate(() => [...document.querySelectorAll('#decisions tbody tr')].filter((r) => !r.hidden).length);
      result.ofThatRule = await p.evaluate((rule) => document.querySelectorAll(`#decisions tbody tr[data-rule="${rule}"]`).length, rule);
      result.shownCount = await p.textContent('#decision-count');
      await p.click('.filter button:nth-child(1)');
      result.visibleAfterAll = await p.evaluate(() => [...document.querySelectorAll('#decisions tbody tr')].filter((r) => !r.hidden).length);
      const shot = path.join(outDir, path.basename(file).replace(/\.html$/, '') + '.png');
      await p.screenshot({ path: shot, fullPage: true });
      result.screenshot = shot;
      // The top of the page (overview, totals chart, diagram): the picture for people to look at.
      const top = shot.replace(/\.png$/, '.top.png');
      await p.screenshot({ path: top, fullPage: true, clip: { x: 0, y: 0, width: 1400, height: 1750 } });
      result.topScreenshot = top;
      console.log(JSON.stringify({ file, ...result }));
      await p.close();
    }
  } finally {
    await browser.close();
  }
  if (problems.length) {
    for (const problem of problems) console.error(problem);
    process.exit(1);
  }
}

main().catch((e) => { console.error(e.stack || String(e)); process.exit(1); });
