#!/usr/bin/env node
/**
 * `npm run test:mutation [-- [--force] layer…]`: Stryker once per layer (all of
 * them by default), then one report for the whole library at
 * reports/mutation/mutation.json, a score per file and per layer, and a
 * non-zero exit when the library's score is under the break threshold.
 *
 * Runs are incremental (stryker-incremental/<layer>.json). `--force` tests
 * every mutant again and rewrites the baseline: use it when results look
 * stale, for instance after an interrupted run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { LAYERS } from './mutation-layers.mjs';

const BREAK = 90;
const force = process.argv.includes('--force');
const asked = process.argv.slice(2).filter((a) => a !== '--force');
const unknown = asked.filter((l) => !(l in LAYERS));
if (unknown.length > 0) {
  console.error(`unknown layer ${unknown.join(', ')}: one of ${Object.keys(LAYERS).join(', ')}`);
  process.exit(2);
}
const layers = asked.length > 0 ? asked : Object.keys(LAYERS);

for (const layer of layers) {
  console.log(`\n# mutation testing: ${layer}`);
  const run = spawnSync('npx', ['--no-install', 'stryker', 'run', ...(force ? ['--force'] : [])], {
    stdio: 'inherit',
    env: { ...process.env, SPAN_LEDGER_MUTATION_LAYER: layer },
  });
  if (run.status !== 0) {
    console.error(`stryker failed on layer ${layer} (exit ${run.status})`);
    process.exit(1);
  }
}

/** Merges every layer's report that exists into one. */
const merged = {
  schemaVersion: '2',
  thresholds: { high: 95, low: BREAK },
  files: {},
  testFiles: {},
};
for (const layer of Object.keys(LAYERS)) {
  const file = `reports/mutation/${layer}.json`;
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  merged.schemaVersion = report.schemaVersion ?? merged.schemaVersion;
  Object.assign(merged.files, report.files);
  Object.assign(merged.testFiles, report.testFiles ?? {});
}
mkdirSync('reports/mutation', { recursive: true });
writeFileSync('reports/mutation/mutation.json', JSON.stringify(merged));

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const tally = () => ({ detected: 0, undetected: 0 });
const score = (t) =>
  t.detected + t.undetected === 0 ? 100 : (100 * t.detected) / (t.detected + t.undetected);
const total = tally();
const rows = [];
for (const [path, file] of Object.entries(merged.files).sort(([a], [b]) => a.localeCompare(b))) {
  const t = tally();
  for (const m of file.mutants) {
    if (DETECTED.has(m.status)) t.detected++;
    else if (UNDETECTED.has(m.status)) t.undetected++;
  }
  total.detected += t.detected;
  total.undetected += t.undetected;
  rows.push(
    `${score(t).toFixed(2).padStart(7)}%  ${String(t.undetected).padStart(4)} undetected  ${path}`,
  );
}
console.log(`\n# mutation score per file\n${rows.join('\n')}`);
const overall = score(total);
console.log(
  `\nmutation score of src/: ${overall.toFixed(2)}% (${total.detected} detected, ${total.undetected} undetected; break at ${BREAK}%)`,
);
if (overall < BREAK) process.exit(1);
