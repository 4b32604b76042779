// Opens cosmap's HTML design reports in headless Chromium, offline.
//   node tests/browser/report.js OUT_DIR FILE.html...
// For each report: measures the diagram and the charts as drawn (elements and their boxes),
// checks the diagram's layout (labels' overlaps, edges through boxes they do not join, both
// without and with the attributes), tries the rule filter, saves OUT_DIR/<name>.png (the whole
// page), <name>.top.png, <name>.diagram.png, <name>.attributes.png and <name>.spending.png, and prints one JSON line.
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
      // The diagram as laid out, without and then with the attributes: no two edge labels
      // overlap, no edge passes through a box it does not join, the page fits 1,400 px.
      const base = path.join(outDir, path.basename(file).replace(/\.html$/, ''));
      const compactShot = base + '.diagram.png';
      await (await p.$('#diagram-section')).screenshot({ path: compactShot });
      result.diagramScreenshot = compactShot;
      result.layout = [await p.evaluate(measureDiagram, 'svg#diagram')];
      await p.check('#show-attributes');
      result.layout.push(await p.evaluate(measureDiagram, 'svg#diagram-attributes'));
      result.pageWidth = await p.evaluate(() => document.documentElement.scrollWidth);
      const diagramShot = base + '.attributes.png';
      await (await p.$('svg#diagram-attributes')).screenshot({ path: diagramShot });
      result.attributesScreenshot = diagramShot;
      const spendingShot = base + '.spending.png';
      await (await p.$('#spending')).screenshot({ path: spendingShot });
      result.spendingScreenshot = spendingShot;
      await p.uncheck('#show-attributes');
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

// Runs in the page: the labels' overlaps and the edges' crossings of the diagram `selector`.
function measureDiagram(selector) {
  const svg = document.querySelector(selector);
  if (!svg) return null;
  const inside = (r, x, y, inset) => x > r.x + inset && x < r.x + r.width - inset && y > r.y + inset && y < r.y + r.height - inset;
  const labels = [...svg.querySelectorAll('text.link-label')].map((t) => t.getBoundingClientRect());
  const overlaps = [];
  for (let i = 0; i < labels.length; i++) {
    for (let j = i + 1; j < labels.length; j++) {
      const a = labels[i]; const b = labels[j];
      const apart = a.right <= b.left + 0.5 || b.right <= a.left + 0.5 || a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5;
      if (!apart) overlaps.push([svg.querySelectorAll('text.link-label')[i].textContent, svg.querySelectorAll('text.link-label')[j].textContent]);
    }
  }
  const boxes = [...svg.querySelectorAll('g.container')].map((g) => ({ index: g.getAttribute('data-index'), r: g.querySelector('rect.box').getBBox() }));
  const crossings = [];
  for (const link of svg.querySelectorAll('g.link')) {
    const ends = [link.getAttribute('data-from'), link.getAttribute('data-to')];
    const path = link.querySelector('path');
    const length = path.getTotalLength();
    for (const b of boxes) {
      if (ends.includes(b.index)) continue;
      for (let at = 0; at <= length; at += 2) {
        const pt = path.getPointAtLength(at);
        if (inside(b.r, pt.x, pt.y, 1.5)) { crossings.push(`${ends.join('->')} crosses ${b.index}`); break; }
      }
    }
  }
  // Labels over the boxes of containers count as hidden text too.
  const labelOverBox = [];
  for (const t of svg.querySelectorAll('text.link-label')) {
    const r = t.getBBox();
    for (const b of boxes) {
      const apart = r.x + r.width <= b.r.x || b.r.x + b.r.width <= r.x || r.y + r.height <= b.r.y || b.r.y + b.r.height <= r.y;
      if (!apart) { labelOverBox.push(`${t.textContent} over ${b.index}`); break; }
    }
  }
  const box = svg.getBoundingClientRect();
  const kinds = {};
  for (const kind of ['ref', 'ext', 'copy', 'claim']) kinds[kind] = svg.querySelectorAll(`g.link.${kind}`).length;
  return { labels: labels.length, overlaps, crossings, labelOverBox, links: svg.querySelectorAll('g.link').length, kinds, right: box.right, width: box.width };
}

main().catch((e) => { console.error(e.stack || String(e)); process.exit(1); });
