#!/usr/bin/env node
/**
 * `npm run test:mutation [-- --all] [--minutes N] [--lines N]`
 *
 * Mutation testing with Stryker, in one of two modes:
 *
 * - default (what CI runs): mutates only the lines of `src/` that changed
 *   since the commit in scripts/mutation-base.json, newest lines first, at
 *   most `--lines` of them (default 400), and stops at `--minutes` (default
 *   10). Nothing is cached between runs and nothing is committed but the base.
 * - `--all`: every mutable file of `src/`, with no line or time bound. Run it
 *   before moving the base forward, and give its score when you do.
 * - `--sample N [--seed S]`: N lines drawn at random (seeded, printed) from
 *   every line of the mutable files: an unbiased estimate of the `--all`
 *   score in a fraction of its time.
 *
 * Every mutant Stryker tests is counted: killed and timed-out ones as
 * detected, survived and uncovered ones as undetected, equivalent ones
 * included. The run fails under BREAK percent, or when it tested nothing it
 * was asked to.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';

const BREAK = 90;
const PROGRESS_FILE = 'reports/mutation/progress.jsonl';
const STRYKER_BIN = 'node_modules/@stryker-mutator/core/bin/stryker.js';
/**
 * Not mutated: what is not library behaviour (terminal formatting, the bin's
 * wiring, reading the demo fixtures and the version, which the build embeds
 * instead, types), and the Redis backend, whose only
 * tests run against a real Redis in the end-to-end project: with that suite
 * included, Stryker's per-test coverage still reported every one of its
 * mutants as uncovered, so a score for it would measure the tooling, not the
 * tests.
 */
const NOT_MUTATED = [
  'src/redis/index.ts',
  'src/cli/format.ts',
  'src/cli/main.ts',
  'src/cli/sample-data.ts',
  'src/cli/version.ts',
  'src/ledger/types.ts',
];

const { values: flags } = parseArgs({
  options: {
    all: { type: 'boolean', default: false },
    minutes: { type: 'string' },
    lines: { type: 'string', default: '400' },
    sample: { type: 'string' },
    seed: { type: 'string', default: '1' },
  },
});

const git = (...args) => {
  const run = spawnSync('git', args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr.trim()}`);
  return run.stdout;
};

const mutable = (path) => /^src\/.+\.ts$/.test(path) && !NOT_MUTATED.includes(path);

/** Lines added or changed since `base`, per file, from `git diff -U0` hunk headers. */
function changedLines(base) {
  const lines = new Map();
  let file = null;
  for (const row of git(
    'diff',
    '--unified=0',
    '--no-color',
    '--no-renames',
    base,
    '--',
    'src',
  ).split('\n')) {
    if (row.startsWith('+++ ')) {
      file = row === '+++ /dev/null' ? null : row.slice('+++ b/'.length);
      if (file !== null && !mutable(file)) file = null;
      continue;
    }
    const hunk = /^@@ -\S+ \+(\d+)(?:,(\d+))? @@/.exec(row);
    if (hunk === null || file === null) continue;
    const start = Number(hunk[1]);
    const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
    if (!lines.has(file)) lines.set(file, []);
    for (let line = start; line < start + count; line++) lines.get(file).push(line);
  }
  return lines;
}

/** When each line was last written (seconds; uncommitted lines count as now). */
function lineTimes(file) {
  const times = [];
  let time = 0;
  for (const row of git('blame', '--line-porcelain', '--', file).split('\n')) {
    if (row.startsWith('author-time ')) time = Number(row.slice('author-time '.length));
    else if (row.startsWith('\t')) times.push(time);
  }
  return times;
}

/** `src/a.ts:3-7` patterns for Stryker's `mutate`, one per run of consecutive lines. */
function toPatterns(file, lines) {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const patterns = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    patterns.push(`${file}:${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return patterns;
}

/** Every mutable file of src/ that git tracks, with its line count. */
function mutableFiles() {
  return git('ls-files', 'src')
    .split('\n')
    .filter(mutable)
    .map((file) => ({ file, count: readFileSync(file, 'utf8').split('\n').length }));
}

/** A small seeded generator (mulberry32), so that a sample can be drawn again. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function selectMutate() {
  if (flags.sample !== undefined) {
    const size = Number(flags.sample);
    const seed = Number(flags.seed);
    const every = mutableFiles().flatMap(({ file, count }) =>
      Array.from({ length: count }, (_, i) => ({ file, line: i + 1 })),
    );
    const next = random(seed);
    for (let i = every.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [every[i], every[j]] = [every[j], every[i]];
    }
    const byFile = new Map();
    for (const { file, line } of every.slice(0, size)) {
      if (!byFile.has(file)) byFile.set(file, []);
      byFile.get(file).push(line);
    }
    return {
      mutate: [...byFile].flatMap(([file, lines]) => toPatterns(file, lines)),
      summary: `a sample of ${Math.min(size, every.length)} of the ${every.length} lines of src/ (seed ${seed})`,
    };
  }
  if (flags.all) {
    return { mutate: ['src/**/*.ts', ...NOT_MUTATED.map((p) => `!${p}`)], summary: 'all of src/' };
  }
  const { commit } = JSON.parse(readFileSync('scripts/mutation-base.json', 'utf8'));
  const changed = changedLines(commit);
  const budget = Number(flags.lines);
  const all = [];
  for (const [file, lines] of changed) {
    const times = lineTimes(file);
    for (const line of lines) all.push({ file, line, time: times[line - 1] ?? 0 });
  }
  all.sort((a, b) => b.time - a.time || a.file.localeCompare(b.file) || a.line - b.line);
  const chosen = all.slice(0, budget);
  const byFile = new Map();
  for (const { file, line } of chosen) {
    if (!byFile.has(file)) byFile.set(file, []);
    byFile.get(file).push(line);
  }
  const mutate = [...byFile].flatMap(([file, lines]) => toPatterns(file, lines));
  const left = all.length - chosen.length;
  const summary =
    `${chosen.length} changed lines of src/ since ${commit.slice(0, 12)}` +
    (left > 0 ? ` (the newest; ${left} older ones wait for a run with --all)` : '');
  return { mutate, summary };
}

const { mutate, summary } = selectMutate();
console.log(`# mutation testing: ${summary}`);
if (mutate.length === 0) {
  console.log('nothing to mutate: no line of src/ changed since the base');
  process.exit(0);
}

const unbounded = flags.all || flags.sample !== undefined;
const minutes = flags.minutes === undefined ? (unbounded ? Infinity : 10) : Number(flags.minutes);
mkdirSync('reports/mutation', { recursive: true });
rmSync(PROGRESS_FILE, { force: true });
// Its own process group, so that the bound can stop Stryker and every test runner it started.
const stryker = spawn(process.execPath, [STRYKER_BIN, 'run', 'scripts/stryker.config.mjs'], {
  stdio: 'inherit',
  detached: true,
  env: {
    ...process.env,
    SPAN_LEDGER_MUTATE: JSON.stringify(mutate),
    SPAN_LEDGER_PROGRESS: PROGRESS_FILE,
  },
});
let stopped = false;
const deadline = Number.isFinite(minutes)
  ? setTimeout(() => {
      stopped = true;
      process.kill(-stryker.pid, 'SIGKILL');
    }, minutes * 60_000)
  : undefined;
const status = await new Promise((resolve) => stryker.on('exit', (code) => resolve(code)));
clearTimeout(deadline);
if (stopped) rmSync('.stryker-tmp', { recursive: true, force: true });
if (!stopped && status !== 0) {
  console.error(`stryker failed (exit ${status})`);
  process.exit(1);
}

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const perFile = new Map();
const results = existsSync(PROGRESS_FILE)
  ? readFileSync(PROGRESS_FILE, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((row) => JSON.parse(row))
  : [];
for (const { file, status: outcome } of results) {
  if (!perFile.has(file)) perFile.set(file, { detected: 0, undetected: 0 });
  const tally = perFile.get(file);
  if (DETECTED.has(outcome)) tally.detected++;
  else if (UNDETECTED.has(outcome)) tally.undetected++;
}
const total = { detected: 0, undetected: 0 };
const score = (t) => (100 * t.detected) / (t.detected + t.undetected);
const rows = [];
for (const [file, tally] of [...perFile].sort(([a], [b]) => a.localeCompare(b))) {
  total.detected += tally.detected;
  total.undetected += tally.undetected;
  rows.push(
    `${score(tally).toFixed(2).padStart(7)}%  ${String(tally.undetected).padStart(4)} undetected  ${file}`,
  );
}
if (rows.length > 0) console.log(`\n# mutation score per file\n${rows.join('\n')}`);
if (stopped)
  console.log(
    `\nstopped at the ${minutes}-minute bound: the score covers the mutants tested by then`,
  );
const tested = total.detected + total.undetected;
if (tested === 0) {
  console.log(
    stopped ? 'no mutant was tested before the bound' : 'the changed lines hold no mutant',
  );
  process.exit(stopped ? 1 : 0);
}
const overall = score(total);
console.log(
  `\nmutation score: ${overall.toFixed(2)}% (${total.detected} detected, ${total.undetected} undetected of ${tested}; break at ${BREAK}%)`,
);
if (overall < BREAK) process.exit(1);
