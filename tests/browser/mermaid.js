// Renders Mermaid diagrams with the real Mermaid (node_modules/mermaid, pinned in
// package-lock.json) in headless Chromium.
//   node tests/browser/mermaid.js OUT_DIR FILE.mmd...
// For each file: parses and renders it, saves OUT_DIR/<n>.svg and a screenshot, and prints one
// JSON line {file, nodes, edges, edgeLabels, subgraphs, live, styleInjected, text, width, height}. Exits 1 on any parse
// or render error, console error or failed request.
'use strict';
const fs = require('fs');
const path = require('path');
const { launch, page, fileUrl } = require('./chromium');

async function main() {
  const [outDir, ...files] = process.argv.slice(2);
  if (!outDir || files.length === 0) throw new Error('usage: mermaid.js OUT_DIR FILE.mmd...');
  fs.mkdirSync(outDir, { recursive: true });
  const mermaidJs = path.join(__dirname, '../../node_modules/mermaid/dist/mermaid.min.js');
  if (!fs.existsSync(mermaidJs)) throw new Error(`${mermaidJs} is missing: run \`npm ci\``);
  const html = path.join(outDir, 'mermaid.html');
  fs.writeFileSync(html, `<!doctype html><meta charset="utf-8"><title>mermaid</title>
<script src="${fileUrl(mermaidJs)}"></script><body><div id="out"></div></body>`);
  const problems = [];
  const browser = await launch();
  try {
    const p = await page(browser, problems);
    await p.goto(fileUrl(html));
    await p.evaluate(() => window.mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' }));
    for (const [i, file] of files.entries()) {
      const text = fs.readFileSync(file, 'utf8');
      const result = await p.evaluate(async ({ text, i }) => {
        try {
          await window.mermaid.parse(text);
          const { svg } = await window.mermaid.render(`diagram${i}`, text);
          const out = document.getElementById('out');
          out.innerHTML = svg;
          const el = out.querySelector('svg');
          const box = el.getBoundingClientRect();
          return {
            svg,
            nodes: el.querySelectorAll('g.node').length,
            edges: el.querySelectorAll('path.flowchart-link').length,
            edgeLabels: [...el.querySelectorAll('g.edgeLabel')].filter((l) => l.textContent.trim() !== '').length,
            subgraphs: el.querySelectorAll('g.cluster').length,
            error: el.querySelector('.error-text') ? 'Mermaid drew its error diagram' : null,
            // What a model's text could make live: elements a label should never hold,
            // event handler attributes, and a directive's CSS in the diagram's style.
            live: el.querySelectorAll('img, a, script, iframe, object, embed, b').length
              + [...el.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
            styleInjected: [...el.querySelectorAll('style')].some((s) => /fill:\s*red/.test(s.textContent)),
            text: el.textContent,
            width: box.width,
            height: box.height,
          };
        } catch (e) {
          return { error: String(e && e.message || e) };
        }
      }, { text, i });
      if (result.error) problems.push(`${file}: ${result.error}`);
      if (result.svg) {
        fs.writeFileSync(path.join(outDir, `${i}.svg`), result.svg);
        await p.locator('#out svg').screenshot({ path: path.join(outDir, `${i}.png`) });
      }
      delete result.svg;
      console.log(JSON.stringify({ file, ...result }));
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
