/**
 * `npm run bench`: every benchmark, one process, peers side by side.
 * Each suite prints its ratios and returns whether it met its targets.
 */
import { dedupBench } from './dedup.js';
import { ledgerBench } from './ledger.js';
import { rangesBench } from './ranges.js';

const suites: [string, () => boolean | Promise<boolean>][] = [
  ['range algebra and fingerprint', rangesBench],
  ['session ledger', ledgerBench],
  ['dedup planner', dedupBench],
];

let missed = 0;
for (const [name, run] of suites) {
  console.log(`\n# ${name}`);
  if (!(await run())) missed++;
}
console.log(`\n${missed === 0 ? 'All targets met.' : `${missed} suite(s) missed a target.`}`);
