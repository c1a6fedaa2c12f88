// Figures that cannot go stale: in every Markdown table with a "checked against" column, each number written in a
// "value" column must be a number of the committed JSON files that row names (in backticks), rounded as written:
// "35.16" matches 35.1557…, "421,522,487" only 421522487. A figure whose file moved on fails here, not in a reader's
// hands. Prints each stale figure as FILE:LINE: FIGURE (why) and exits 1; 0 when every figure is found.
// Usage: node tools/lint/figures.mjs ROOT FILE.md...   (files relative to ROOT)
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [root, ...files] = process.argv.slice(2);
if (!root || files.length === 0) {
  console.error("figures: usage: node figures.mjs ROOT FILE.md...");
  process.exit(2);
}

function numbersOf(value, into) {
  if (typeof value === "number") into.push(value);
  else if (Array.isArray(value)) value.forEach((v) => numbersOf(v, into));
  else if (value && typeof value === "object") Object.values(value).forEach((v) => numbersOf(v, into));
  return into;
}

// A written figure matches a recorded number when the number, rounded to the figure's decimals, is the figure.
function matches(written, recorded) {
  const decimals = written.includes(".") ? written.split(".")[1].length : 0;
  const figure = Number(written.replace(/,/g, ""));
  if (decimals === 0 && written.includes(",")) return recorded === figure;  // a count written in full: exact
  return Math.abs(Number(recorded.toFixed(decimals)) - figure) < 1e-9 * Math.max(1, Math.abs(figure));
}

function cells(line) {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

let stale = 0;
let checked = 0;
for (const file of files) {
  const lines = readFileSync(join(root, file), "utf8").split("\n");
  let header = null;
  lines.forEach((line, index) => {
    if (!line.trim().startsWith("|")) {
      header = null;
      return;
    }
    const row = cells(line);
    if (header === null) {
      header = row.map((c) => c.toLowerCase());
      return;
    }
    if (row.every((c) => /^:?-+:?$/.test(c))) return;
    const against = header.indexOf("checked against");
    if (against < 0) return;
    const sources = [...(row[against] ?? "").matchAll(/`([^`]+\.json)`/g)].map((m) => m[1]);
    const where = `${file}:${index + 1}`;
    const recorded = [];
    for (const source of sources) {
      const path = join(root, source);
      if (!existsSync(path)) {
        console.log(`${where}: ${source} (no such file)`);
        stale++;
        continue;
      }
      numbersOf(JSON.parse(readFileSync(path, "utf8")), recorded);
    }
    header.forEach((name, column) => {
      if (!name.includes("value")) return;
      for (const m of (row[column] ?? "").replace(/`[^`]*`/g, "").matchAll(/\d[\d,]*(?:\.\d+)?/g)) {
        const written = m[0].replace(/,$/, "");
        checked++;
        if (sources.length === 0) {
          console.log(`${where}: ${written} (the row names no committed JSON file to check it against)`);
          stale++;
        } else if (!recorded.some((r) => matches(written, r))) {
          console.log(`${where}: ${written} (not in ${sources.join(", ")} as written)`);
          stale++;
        }
      }
    });
  });
}
console.log(`figures: ${files.length} file(s), ${checked} figure(s) checked, ${stale} stale`);
process.exit(stale === 0 ? 0 : 1);
