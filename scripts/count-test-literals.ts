/**
 * Counts the inline literals the test suites build their inputs from: emission
 * literals (an object literal with `projectRoot` and `files`), file literals
 * (one with `path`, `ranges` and `chars`) and range literals (one of exactly
 * `start` and `end`), per file under test/ and in total. The shared builders
 * (test/_build.ts) are what the suites should use instead; this says how far
 * they have got.
 *
 * Usage: npx tsx scripts/count-test-literals.ts [--files] [dir…]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const perFile = args.includes('--files');
const dirs = args.filter((a) => !a.startsWith('--'));

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path);
    return /\.(ts|mts|mjs|js)$/.test(name) ? [path] : [];
  });
}

const has = (node: ts.ObjectLiteralExpression, names: readonly string[]): boolean => {
  const keys = new Set(
    node.properties.map((p) =>
      p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : '',
    ),
  );
  return names.every((n) => keys.has(n));
};

const totals = { emission: 0, file: 0, range: 0 };
const rows: [string, number, number, number][] = [];
for (const path of (dirs.length > 0 ? dirs : ['test']).flatMap(walk)) {
  const source = ts.createSourceFile(
    path,
    readFileSync(path, 'utf8'),
    ts.ScriptTarget.ES2022,
    true,
  );
  const count = { emission: 0, file: 0, range: 0 };
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node)) {
      if (has(node, ['projectRoot', 'files'])) count.emission++;
      if (has(node, ['path', 'ranges', 'chars'])) count.file++;
      if (node.properties.length === 2 && has(node, ['start', 'end'])) count.range++;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  totals.emission += count.emission;
  totals.file += count.file;
  totals.range += count.range;
  rows.push([path, count.emission, count.file, count.range]);
}
if (perFile) {
  for (const [path, e, f, r] of rows.sort((a, b) => b[1] + b[2] - (a[1] + a[2]) || b[3] - a[3]))
    if (e + f + r > 0)
      console.log(
        `${String(e).padStart(4)} ${String(f).padStart(4)} ${String(r).padStart(4)}  ${path}`,
      );
}
console.log(
  `emission literals ${totals.emission}, file literals ${totals.file} ` +
    `(together ${totals.emission + totals.file}), range literals ${totals.range}`,
);
