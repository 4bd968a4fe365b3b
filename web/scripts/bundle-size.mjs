#!/usr/bin/env node
// Sums the gzip sizes of the JavaScript a route needs: the entry chunk, the
// route's own lazy chunk and everything both import statically. Reads
// dist/.vite/manifest.json, so run `npm run build` first.
//
//   node scripts/bundle-size.mjs [route-module ...] [--max-kb 300]
//
// Without arguments it measures the login route and fails (exit 1) when it
// exceeds the budget.
import { readFileSync } from 'node:fs';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = resolve(root, 'dist');
const manifest = JSON.parse(readFileSync(resolve(dist, '.vite/manifest.json'), 'utf8'));

const args = process.argv.slice(2);
let maxKb = 300;
const routes = [];
for (let i = 0; i < args.length; i += 1) {
  if (args[i] === '--max-kb') maxKb = Number(args[++i]);
  else routes.push(args[i]);
}
if (routes.length === 0) routes.push('src/features/auth/components/login-page.tsx');

const gz = new Map();
function gzipSize(file) {
  if (!gz.has(file)) {
    const content = readFileSync(resolve(dist, file));
    gz.set(file, { raw: content.length, gzip: gzipSync(content, { level: 9 }).length });
  }
  return gz.get(file);
}

/** Static closure of a manifest entry: its file and all statically imported chunks. */
function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`Not in the manifest: ${key}`);
  seen.add(key);
  for (const dep of chunk.imports ?? []) closure(dep, seen);
  return seen;
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const kb = (bytes) => (bytes / 1024).toFixed(1);
let failed = false;

for (const route of routes) {
  const keys = new Set([...closure(entryKey), ...closure(route)]);
  const rows = [...keys].map((key) => ({ file: manifest[key].file, ...gzipSize(manifest[key].file) }));
  rows.sort((a, b) => b.gzip - a.gzip);
  const total = rows.reduce((sum, row) => ({ raw: sum.raw + row.raw, gzip: sum.gzip + row.gzip }), { raw: 0, gzip: 0 });
  const css = new Set([...keys].flatMap((key) => manifest[key].css ?? []));
  const cssGzip = [...css].reduce((sum, file) => sum + gzipSize(file).gzip, 0);
  console.log(`\nRoute chunk: ${route}`);
  for (const row of rows) console.log(`  ${row.file.padEnd(52)} ${kb(row.raw).padStart(8)} KB  gzip ${kb(row.gzip).padStart(7)} KB`);
  console.log(`  JavaScript total: ${kb(total.raw)} KB raw, ${kb(total.gzip)} KB gzip (${rows.length} chunks); budget ${maxKb} KB gzip`);
  console.log(`  CSS: ${kb(cssGzip)} KB gzip (${css.size} files)`);
  if (total.gzip / 1024 > maxKb) failed = true;
}

const allJs = Object.values(manifest)
  .map((chunk) => chunk.file)
  .filter((file, index, list) => file.endsWith('.js') && list.indexOf(file) === index);
const allGzip = allJs.reduce((sum, file) => sum + gzipSize(file).gzip, 0);
console.log(`\nAll JavaScript: ${allJs.length} chunks, ${kb(allGzip)} KB gzip`);
if (failed) {
  console.error(`Over budget (${maxKb} KB gzip).`);
  process.exit(1);
}
