// Checks a pull request comment rendered to HTML by GitHub's Markdown library (cmark-gfm with GitHub's extensions,
// raw HTML let through as GitHub lets its allowed tags through) against the inputs it was made from: only the links
// perfgate wrote, no image or HTML from the inputs (one HTML comment: the hidden marker), no mention or issue reference
// outside inline code (every '@' and '#' followed by a zero-width space),
// every table row as wide as its header, and every name, reason, unit and tolerance of the inputs readable in the text.
// Usage: node comment_render_check.mjs COMMENT.html ALLOWED_LINK... -- INPUT.json...
// Exit 0 when all hold; 1 with one line per finding.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const split = args.indexOf('--');
const [htmlFile, ...links] = args.slice(0, split);
const inputs = args.slice(split + 1);
const html = readFileSync(htmlFile, 'utf8');
const findings = [];

const allowedTags = new Set(['a', 'code', 'h3', 'p', 'strong', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'ul', 'li']);
for (const [, tag] of html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)/g)) {
  if (!allowedTags.has(tag.toLowerCase())) findings.push(`a <${tag}> element: markup from the inputs`);
}
const hrefs = [...html.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1].replaceAll('&amp;', '&'));
for (const href of hrefs) if (!links.includes(href)) findings.push(`a link to ${href}, which perfgate did not write`);
const htmlComments = html.match(/<!--/g) ?? [];
if (htmlComments.length !== 1) findings.push(`${htmlComments.length} HTML comments (only the hidden marker line is one)`);

const unescape = (s) => s.replace(/<[^>]*>/g, '').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
// Inline code (perfgate's: the commands that accept a change) is shown literally by GitHub: no mention, reference or
// emoji inside it, so those checks read the text around it.
const outsideCode = unescape(html.replace(/<code>[^<]*<\/code>/g, ''));
const text = html.replace(/<[^>]*>/g, '').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
for (const m of outsideCode.matchAll(/[@#]/g)) {
  if (outsideCode[m.index + 1] !== '\u200B') findings.push(`'${m[0]}' without a zero-width space: ${JSON.stringify(outsideCode.slice(m.index, m.index + 20))}`);
}
// GitHub's own references and emoji, found in the rendered text: GH-1, GHSA-..., and :name: shortcodes.
for (const m of outsideCode.matchAll(/\b(GH-\d|GHSA-\w)|:[a-z0-9_+-]+:/gi)) findings.push(`a GitHub reference or emoji: ${JSON.stringify(m[0])}`);

for (const table of html.split('<table>').slice(1)) {
  const rows = table.split('</table>')[0].split('<tr>').slice(1);
  const width = (row) => (row.match(/<t[hd][ >]/g) ?? []).length;
  for (const row of rows.slice(1)) if (width(row) !== width(rows[0])) findings.push(`a table row of ${width(row)} cells under a header of ${width(rows[0])}`);
}

// What a reader must see: each name and reason as text (the zero-width spaces removed, control characters shown as
// escapes the way perfgate prints them, and at most the 200 characters perfgate keeps).
const visible = (s) => s.replace(/\n/g, '\\n').replace(/\u202E/g, '\\u{202e}').slice(0, 200);
const plain = text.replaceAll('\u200B', '');
const names = [];
for (const file of inputs) {
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  for (const c of doc.checks ?? []) {
    if (c.verdict === 'PASS') continue;
    names.push(c.benchmark, c.reason);
    for (const key of ['unit', 'tolerance_text']) if (c[key]) names.push(c[key]);
  }
  for (const t of doc.timings ?? []) names.push(t.benchmark);
  for (const f of doc.fixes ?? []) names.push(f.suite, f.command);
}
for (const name of names) if (!plain.includes(visible(name))) findings.push(`not readable in the comment: ${JSON.stringify(name)}`);

for (const f of findings) console.log(`comment_render_check: ${f}`);
if (findings.length === 0) console.log(`comment_render_check: ${hrefs.length} links, ${names.length} names and reasons readable, no markup from the inputs`);
process.exit(findings.length === 0 ? 0 : 1);
