/**
 * `npm run bench [-- name…] [--check]` (`ranges`, `ledger`, `dedup`, `tokens`, `faults`): every benchmark (or those whose name contains
 * one of the arguments), one process, peers side by side. Each suite prints
 * its ratios and returns whether it met its targets; the last line names the
 * suites that missed one, and `--check` makes that exit 1.
 *
 * The script compiles this file to .bench/ and runs it on plain Node, where
 * `span-ledger` resolves to dist/ through the package's own exports: the
 * library is timed as users run it, not through a loader that re-transforms
 * it on the fly.
 */
import { dedupBench } from './dedup.js';
import { ledgerBench } from './ledger.js';
import { rangesBench } from './ranges.js';
import { sharedBench } from './shared.js';

const suites: [string, () => boolean | Promise<boolean>][] = [
  ['ranges: range algebra and fingerprint', rangesBench],
  ['ledger: session ledger', ledgerBench],
  ['dedup: planner', dedupBench],
  ['shared: shared store on Redis', sharedBench],
  [
    'tokens: token estimate against o200k and tokenx',
    async () => (await import('./tokens.js')).tokensBench(),
  ],
  ['daemon: the MCP example under load', async () => (await import('./daemon.js')).daemonBench()],
  [
    'faults: the MCP example against hostile local clients',
    // More words after `faults` pick probes by name: `npm run bench -- faults Origin`.
    async () => (await import('./faults.js')).faultsBench(wanted.filter((w) => w !== 'faults')),
  ],
];

// `--check`: exit 1 when a suite missed a target (CI); without it the run only reports.
const check = process.argv.includes('--check');
const wanted = process.argv.slice(2).filter((word) => word !== '--check');
const chosen = suites.filter(
  ([name]) => wanted.length === 0 || wanted.some((w) => name.includes(w)),
);
if (chosen.length === 0) {
  console.error(`no benchmark matches ${wanted.join(', ')}: ${suites.map(([n]) => n).join('; ')}`);
  process.exit(2);
}
const missed: string[] = [];
for (const [name, run] of chosen) {
  console.log(`\n# ${name}`);
  if (!(await run())) missed.push(name.split(':')[0]!);
}
console.log(
  `\n${missed.length === 0 ? 'All targets met.' : `targets missed: ${missed.join(', ')} (each suite's table above says which)`}`,
);
if (check && missed.length > 0) process.exitCode = 1;
