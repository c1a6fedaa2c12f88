// Checks perfgate's dashboard in a real browser: no console error, no network request, no script element; for each
// --change "SERIES@COMMIT" (SERIES: the heading's text, e.g. "BM_Parse real_time"), exactly one series of that name
// (one machine's, one suite's) shows one change point, whose first run at the new level links to that commit, and
// every series not named shows none; each --kind "SERIES=gated|advisory|
// recorded" carries that badge; choosing a value of each filter (suite, machine, kind) leaves only the series with
// that value visible, and "all" shows every one again. --screenshot PATH saves the page as PNG.
// Usage: node check_dashboard.mjs INDEX.html [--series N] [--change S@C]... [--kind S=K]... [--screenshot PATH]
// Exit 0 when every check holds; 1 with one line per failed check; 2 on bad usage.
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const args = process.argv.slice(2);
if (args.length === 0) { console.error('usage: node check_dashboard.mjs INDEX.html [--series N] [--change S@C]... [--kind S=K]... [--screenshot P]'); process.exit(2); }
const page_file = path.resolve(args[0]);
const want = { changes: [], kinds: [] };
for (let i = 1; i < args.length; i += 2) {
  const [flag, value] = [args[i], args[i + 1]];
  if (value === undefined) { console.error(`check_dashboard: ${flag} needs a value`); process.exit(2); }
  if (flag === '--series') want.series = Number(value);
  else if (flag === '--change') want.changes.push(value.split('@'));
  else if (flag === '--kind') want.kinds.push(value.split('='));
  else if (flag === '--screenshot') want.screenshot = value;
  else { console.error(`check_dashboard: unknown option ${flag}`); process.exit(2); }
}

const browser = await puppeteer.launch({
  executablePath: process.env.PERFGATE_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu'],
});
const problems = [];
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 900 });
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warn') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => { if (!/^(file|data):/.test(r.url())) problems.push(`network request: ${r.url()}`); });
  await page.goto(`file://${page_file}`, { waitUntil: 'load' });
  if (await page.$('script')) problems.push('a script element');

  const series = await page.$$eval('section.series', (sections) => sections.map((s) => ({
    title: s.querySelector('h2').firstChild.textContent.trim(),
    kind: s.querySelector('.kind').textContent,
    classes: s.className,
    changeLinks: [...s.querySelectorAll('ul.changes li')].map((li) => li.querySelector('a')?.getAttribute('href') ?? li.textContent),
  })));
  if (want.series !== undefined && series.length !== want.series) problems.push(`${series.length} series, expected ${want.series}`);
  const named = new Set(want.changes.map(([s]) => s));
  for (const [title, commit] of want.changes) {
    const found = series.filter((s) => s.title === title);
    if (found.length === 0) problems.push(`no series ${title}`);
    const changed = found.filter((s) => s.changeLinks.length > 0);
    if (changed.length !== 1 || changed[0].changeLinks.length !== 1 || !changed[0].changeLinks[0].endsWith(commit)) {
      problems.push(`${title}: change points ${JSON.stringify(found.map((s) => s.changeLinks))}, expected one series with one at ${commit}`);
    }
  }
  for (const s of series) if (!named.has(s.title) && s.changeLinks.length > 0) problems.push(`${s.title}: a change point nobody planted: ${s.changeLinks}`);
  for (const [title, kind] of want.kinds) {
    const s = series.find((x) => x.title === title);
    if (!s || s.kind !== kind) problems.push(`${title}: kind ${s?.kind}, expected ${kind}`);
  }

  // Each filter value leaves exactly its own series visible.
  const visible = () => page.$$eval('section.series', (sections) => sections.filter((s) => getComputedStyle(s).display !== 'none').map((s) => s.className));
  for (const name of ['suite', 'machine', 'kind']) {
    const ids = await page.$$eval(`input[name=${name}]`, (inputs) => inputs.map((i) => i.id).filter((id) => !id.endsWith('-all')));
    for (const id of ids) {
      await page.click(`#${id}`);
      const shown = await visible();
      const expected = series.filter((s) => s.classes.split(' ').includes(id)).length;
      if (shown.length !== expected || shown.some((c) => !c.split(' ').includes(id))) problems.push(`filter ${id}: ${shown.length} series shown, expected ${expected}`);
    }
    await page.click(`#${name}-all`);
    if ((await visible()).length !== series.length) problems.push(`filter ${name}-all does not show every series`);
  }
  if (want.screenshot) await page.screenshot({ path: want.screenshot, fullPage: false });
} finally {
  await browser.close();
}
for (const p of problems) console.log(`check_dashboard: ${p}`);
if (problems.length === 0) console.log('check_dashboard: every check holds');
process.exit(problems.length === 0 ? 0 : 1);
