// Every relative link in the project's Markdown resolves: the file or folder exists, and an anchor (#section) names
// a heading of the target page (GitHub's slugs: lower case, punctuation dropped, spaces to hyphens). Links to the
// web are not followed. Prints each broken link as FILE:LINE: TARGET (why) and exits 1; 0 when all resolve.
// Usage: node tools/lint/doc-links.mjs ROOT FILE.md...   (files relative to ROOT)
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

const [root, ...files] = process.argv.slice(2);
if (!root || files.length === 0) {
  console.error("doc-links: usage: node doc-links.mjs ROOT FILE.md...");
  process.exit(2);
}

function slug(heading) {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

const anchorsOf = new Map();
function anchors(path) {
  if (!anchorsOf.has(path)) {
    const seen = new Map();
    const list = new Set();
    let fenced = false;
    for (const line of readFileSync(path, "utf8").split("\n")) {
      if (/^```/.test(line)) fenced = !fenced;
      const m = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
      if (!m) continue;
      const base = slug(m[1].replace(/`/g, ""));
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      list.add(n === 0 ? base : `${base}-${n}`);
    }
    anchorsOf.set(path, list);
  }
  return anchorsOf.get(path);
}

let broken = 0;
let links = 0;
for (const file of files) {
  const path = join(root, file);
  let fenced = false;
  readFileSync(path, "utf8").split("\n").forEach((line, index) => {
    if (/^```/.test(line)) fenced = !fenced;
    if (fenced) return;
    const text = line.replace(/`[^`]*`/g, "");  // code spans are not links
    for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/i.test(target)) continue;  // https:, mailto:
      links++;
      const [pathPart, anchor] = target.split("#", 2);
      const resolved = pathPart === "" ? path : normalize(join(dirname(path), decodeURIComponent(pathPart)));
      const where = `${file}:${index + 1}: ${target}`;
      if (!existsSync(resolved)) {
        console.log(`${where} (no such file: ${relative(root, resolved)})`);
        broken++;
        continue;
      }
      if (anchor && statSync(resolved).isFile() && resolved.endsWith(".md") && !anchors(resolved).has(anchor)) {
        console.log(`${where} (no heading with the anchor #${anchor} in ${relative(root, resolved)})`);
        broken++;
      }
    }
  });
}
console.log(`doc-links: ${files.length} file(s), ${links} relative link(s), ${broken} broken`);
process.exit(broken === 0 ? 0 : 1);
