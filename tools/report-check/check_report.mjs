// Checks a perfgate report in a real browser: no console error or warning, no page error, no network request
// (the report is self-contained), no script element, no two texts of a plot drawn over each other and none outside
// its plot (measured with the browser's own fonts), and the structure asked for on the command line; --screenshot
// writes the page as the browser drew it.
// Usage: node check_report.mjs REPORT.html [--overall PASS|FAIL|INCONCLUSIVE] [--min-plots N] [--images N]
//        [--sections a,b,...] [--text "shown verbatim"]... [--screenshot FILE.png]
// Exit 0 when every check holds; 1 with one line per failed check otherwise; 2 on bad usage.
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const args = process.argv.slice(2);
if (args.length === 0 || args[0].startsWith('--')) {
  console.error('usage: node check_report.mjs REPORT.html [--overall V] [--min-plots N] [--images N] [--sections a,b] [--text T]...');
  process.exit(2);
}
const report = path.resolve(args[0]);
const want = { texts: [] };
for (let i = 1; i < args.length; i += 2) {
  const [flag, value] = [args[i], args[i + 1]];
  if (value === undefined) { console.error(`check_report: ${flag} needs a value`); process.exit(2); }
  if (flag === '--overall') want.overall = value;
  else if (flag === '--min-plots') want.minPlots = Number(value);
  else if (flag === '--images') want.images = Number(value);
  else if (flag === '--sections') want.sections = value.split(',');
  else if (flag === '--text') want.texts.push(value);
  else if (flag === '--screenshot') want.screenshot = path.resolve(value);
  else { console.error(`check_report: unknown option ${flag}`); process.exit(2); }
}

const browser = await puppeteer.launch({
  executablePath: process.env.PERFGATE_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu'],  // CI containers run as root, where the sandbox refuses to start
});
const problems = [];
try {
  const page = await browser.newPage();
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warn') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => { if (!/^(file|data):/.test(r.url())) problems.push(`network request: ${r.url()}`); });
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url().slice(0, 80)}`));
  const response = await page.goto(`file://${report}`, { waitUntil: 'load' });
  if (!response || !response.ok()) problems.push(`cannot load ${report}`);
  const facts = await page.evaluate(() => ({
    scripts: document.scripts.length,
    overall: document.querySelector('#overall .verdict')?.textContent ?? '',
    plots: document.querySelectorAll('figure.plot > svg').length,
    emptyPlots: [...document.querySelectorAll('figure.plot > svg')].filter((s) => s.getBBox().width === 0).length,
    text: document.body.innerText + [...document.querySelectorAll('svg title')].map((t) => t.textContent).join('\n'),
    images: [...document.images].map((i) => i.complete && i.naturalWidth > 0),
    sections: [...document.querySelectorAll('section[id]')].map((s) => s.id),
    // Every pair of texts in one plot whose drawn boxes intersect, and every text reaching outside its plot.
    collisions: [...document.querySelectorAll('figure.plot > svg')].flatMap((svg) => {
      const box = (t) => { const b = t.getBBox(); return { x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height, text: t.textContent }; };
      const texts = [...svg.querySelectorAll('text')].filter((t) => t.getBBox().width > 0).map(box);
      const view = svg.viewBox.baseVal;
      const found = [];
      texts.forEach((a, i) => {
        if (a.x0 < -0.5 || a.y0 < -0.5 || a.x1 > view.width + 0.5 || a.y1 > view.height + 0.5) found.push(`'${a.text}' reaches outside its plot`);
        for (const b of texts.slice(i + 1)) {
          const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0), h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
          if (w > 0.5 && h > 0.5) found.push(`'${a.text}' drawn over '${b.text}'`);
        }
      });
      const title = svg.querySelector('title')?.textContent ?? '';
      return found.map((f) => `${title}: ${f}`);
    }),
  }));
  if (facts.scripts !== 0) problems.push(`${facts.scripts} script element(s) in the report`);
  if (want.overall && facts.overall !== want.overall) problems.push(`overall verdict '${facts.overall}', expected '${want.overall}'`);
  if (want.minPlots !== undefined && facts.plots < want.minPlots) problems.push(`${facts.plots} plots, expected at least ${want.minPlots}`);
  if (facts.emptyPlots > 0) problems.push(`${facts.emptyPlots} plot(s) draw nothing`);
  if (want.images !== undefined && facts.images.length !== want.images) problems.push(`${facts.images.length} images, expected ${want.images}`);
  if (facts.images.some((ok) => !ok)) problems.push('an image does not decode');
  for (const s of want.sections ?? []) if (!facts.sections.includes(s)) problems.push(`no section #${s}`);
  for (const t of want.texts) if (!facts.text.includes(t)) problems.push(`text not shown verbatim: ${t}`);
  for (const c of facts.collisions) problems.push(`plot text: ${c}`);
  if (want.screenshot) await page.screenshot({ path: want.screenshot, fullPage: true });
} finally {
  await browser.close();
}
if (problems.length > 0) {
  for (const p of problems) console.log(`report check: ${p}`);
  process.exit(1);
}
console.log(`report check: ${report} renders cleanly`);
