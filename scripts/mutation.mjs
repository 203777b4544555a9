#!/usr/bin/env node
/**
 * `npm run test:mutation [-- --sample N] [--seed S] [--minutes M]`,
 * `-- --changed [--lines N]`, `-- --all`; `--static` / `--ignore-static`;
 * `--list` prints the lines a run would mutate, and runs nothing.
 *
 * Mutation testing with Stryker. What it mutates depends on the sources of
 * the commit alone, never on the clock or the machine:
 *
 * - default (what CI runs): a seeded sample of the code lines of every
 *   mutable file of `src/` (`--sample`, default 110 lines, `--seed`, default
 *   1). A line is in the sample when it is among the N lowest hashes of
 *   (seed, file, its text, which repeat of that text in the file it is), so
 *   an edit elsewhere does not move it, and editing src/ swaps only a few
 *   lines in or out. It is an unbiased estimate of the `--all` score over
 *   the mutants it keeps (those within one line: a mutant spanning several
 *   lines, such as an emptied block, is left out; and no static ones, below),
 *   and it does not concentrate on the code written last.
 * - `--changed`: the lines changed since the commit in
 *   scripts/mutation-base.json, the newest `--lines` of them (default 400),
 *   to check one's own change.
 * - `--all`: every mutable file of `src/`, static mutants included, with no
 *   time bound (hours on two cores). Run it before moving the base forward,
 *   and give its score when you do.
 *
 * Static mutants (Stryker's `ignoreStatic`) are left out of every run but
 * `--all` (`--static` adds them, `--ignore-static` leaves them out of `--all`):
 * mutants of code that runs only while a module loads, such as the
 * module-level regexes of the response parser and the constant tables (67 of
 * the 1,725 mutants of a 1,500-line sample). Stryker cannot tell which tests reach such code, so
 * each one re-runs the whole suite: some 25 seconds on two cores, twenty times
 * a mutant of code that runs inside tests, so a few of them would take most of
 * the bound. They are real changes of behaviour all the same: the `--all` run
 * scores them. Mutants of code that runs both at load and in tests are kept,
 * run against the tests that reach it; work a test does while its file loads
 * (a value computed in a `describe` body) does not count as reaching it, so
 * such a test should do its work inside `it`.
 *
 * A sample or `--changed` run must finish inside `--minutes` (default 4): when
 * it does not, it fails and says the set must shrink, and never scores the part
 * it reached (that would depend on the machine's speed).
 *
 * Every mutant Stryker tests is counted: killed and timed-out ones as
 * detected, survived and uncovered ones as undetected, equivalent ones
 * included. The run fails under BREAK percent, or when it cannot finish
 * inside its bound.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';

const BREAK = 90;
const SAMPLE_LINES = 110;
const SAMPLE_MINUTES = 4;
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
    changed: { type: 'boolean', default: false },
    minutes: { type: 'string' },
    lines: { type: 'string', default: '400' },
    sample: { type: 'string' },
    seed: { type: 'string', default: '1' },
    static: { type: 'boolean', default: false },
    'ignore-static': { type: 'boolean', default: false },
    list: { type: 'boolean', default: false },
  },
});

const git = (...args) => {
  const run = spawnSync('git', args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr.trim()}`);
  return run.stdout;
};

/**
 * Nor the conformance runner (src/cli/conform/): its tests drive other
 * processes (Python, a cargo build, a child per broken implementation), a
 * few seconds each, which one mutant after another would not fit in the
 * sample's bound; the reference it answers with is the library, mutated
 * where it lives.
 */
const NOT_MUTATED_UNDER = 'src/cli/conform/';

const mutable = (path) =>
  /^src\/.+\.ts$/.test(path) && !NOT_MUTATED.includes(path) && !path.startsWith(NOT_MUTATED_UNDER);

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

/**
 * The code lines of every mutable file of src/ that git tracks: not blank,
 * not a comment, not an import, not only brackets (none of those holds a
 * mutant).
 */
function codeLines() {
  const lines = [];
  for (const file of git('ls-files', 'src').split('\n').filter(mutable)) {
    const repeats = new Map();
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((row, i) => {
        const text = row.trim();
        if (!/\w/.test(text) || /^(\/\/|\/\*|\*|import\b)/.test(text)) return;
        const repeat = repeats.get(text) ?? 0;
        repeats.set(text, repeat + 1);
        lines.push({ file, line: i + 1, text, repeat });
      });
  }
  return lines;
}

/** The `size` code lines with the lowest seeded hashes: the same lines for the same sources. */
function sampleLines(size, seed) {
  const keyed = codeLines().map((l) => ({
    ...l,
    key: createHash('sha256').update(`${seed}\n${l.file}\n${l.repeat}\n${l.text}`).digest('hex'),
  }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { chosen: keyed.slice(0, size), of: keyed.length };
}

const byFile = (lines) => {
  const files = new Map();
  for (const { file, line } of lines) {
    if (!files.has(file)) files.set(file, []);
    files.get(file).push(line);
  }
  return [...files]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([file, rows]) => toPatterns(file, rows));
};

function selectMutate() {
  if (flags.all) {
    return { mutate: ['src/**/*.ts', ...NOT_MUTATED.map((p) => `!${p}`)], summary: 'all of src/' };
  }
  if (flags.changed) {
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
    const left = all.length - chosen.length;
    return {
      mutate: byFile(chosen),
      summary:
        `${chosen.length} changed lines of src/ since ${commit.slice(0, 12)}` +
        (left > 0 ? ` (the newest; ${left} older ones wait for a run with --all)` : ''),
    };
  }
  const size = Number(flags.sample ?? SAMPLE_LINES);
  const seed = flags.seed;
  if (!Number.isSafeInteger(size) || size < 1) {
    console.error(`--sample ${flags.sample}: not a count of lines`);
    process.exit(2);
  }
  const { chosen, of } = sampleLines(size, seed);
  return {
    mutate: byFile(chosen),
    summary: `a sample of ${chosen.length} of the ${of} code lines of src/ (seed ${seed})`,
  };
}

const { mutate, summary } = selectMutate();
const ignoreStatic = flags['ignore-static'] || (!flags.all && !flags.static);
console.log(
  `# mutation testing: ${summary}; static mutants ${ignoreStatic ? 'left out' : 'included'}`,
);
if (flags.list) {
  console.log(mutate.join('\n'));
  process.exit(0);
}
if (mutate.length === 0) {
  console.log('nothing to mutate: no line of src/ changed since the base');
  process.exit(0);
}

const minutes =
  flags.minutes === undefined ? (flags.all ? Infinity : SAMPLE_MINUTES) : Number(flags.minutes);
mkdirSync('reports/mutation', { recursive: true });
rmSync(PROGRESS_FILE, { force: true });
const started = Date.now();
// Its own process group, so that the bound can stop Stryker and every test runner it started.
const stryker = spawn(process.execPath, [STRYKER_BIN, 'run', 'scripts/stryker.config.mjs'], {
  stdio: 'inherit',
  detached: true,
  env: {
    ...process.env,
    SPAN_LEDGER_MUTATE: JSON.stringify(mutate),
    SPAN_LEDGER_PROGRESS: PROGRESS_FILE,
    SPAN_LEDGER_IGNORE_STATIC: ignoreStatic ? '1' : '0',
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
const elapsed = `${((Date.now() - started) / 60_000).toFixed(1)} minutes`;

const results = existsSync(PROGRESS_FILE)
  ? readFileSync(PROGRESS_FILE, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((row) => JSON.parse(row))
  : [];
if (stopped) {
  rmSync('.stryker-tmp', { recursive: true, force: true });
  console.error(
    `\nmutation run FAILED: the set did not finish inside its ${minutes}-minute bound ` +
      `(${results.length} mutants tested by then). A score over the part reached would ` +
      'depend on the machine, so there is none: the set must shrink (a smaller --sample, ' +
      'or fewer --lines), or the tests that reach it must get faster.',
  );
  process.exit(1);
}
if (status !== 0) {
  console.error(`stryker failed (exit ${status})`);
  process.exit(1);
}

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const perFile = new Map();
let ignored = 0;
for (const { file, status: outcome } of results) {
  if (outcome === 'Ignored') ignored++;
  if (!perFile.has(file)) perFile.set(file, { detected: 0, undetected: 0 });
  const tally = perFile.get(file);
  if (DETECTED.has(outcome)) tally.detected++;
  else if (UNDETECTED.has(outcome)) tally.undetected++;
}
const total = { detected: 0, undetected: 0 };
const score = (t) => (100 * t.detected) / (t.detected + t.undetected);
const rows = [];
for (const [file, tally] of [...perFile].sort(([a], [b]) => a.localeCompare(b))) {
  if (tally.detected + tally.undetected === 0) continue;
  total.detected += tally.detected;
  total.undetected += tally.undetected;
  rows.push(
    `${score(tally).toFixed(2).padStart(7)}%  ${String(tally.undetected).padStart(4)} undetected  ${file}`,
  );
}
if (rows.length > 0) console.log(`\n# mutation score per file\n${rows.join('\n')}`);
const tested = total.detected + total.undetected;
if (tested === 0) {
  console.log('the chosen lines hold no mutant');
  process.exit(0);
}
const overall = score(total);
console.log(
  `\nmutation score: ${overall.toFixed(2)}% (${total.detected} detected, ${total.undetected} undetected of ${tested}; break at ${BREAK}%) in ${elapsed}` +
    (ignored > 0 ? `; ${ignored} static mutants left out (--static tests them)` : ''),
);
if (overall < BREAK) process.exit(1);
