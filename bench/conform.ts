/**
 * What the conformance runner costs: 10,000 random algebra cases through the
 * Python adapter over python3-intervals, the same through the TypeScript
 * adapter, and the protocol's own overhead per case (the pipe round trip and
 * JSON both ways): the TypeScript adapter's time less what the same cases cost
 * answered in-process, twice (the runner's reference, the adapter's answer).
 *
 *   npm run bench:conform
 */
import * as fc from 'fast-check';
import { type Case, caseArb } from '../src/cli/conform/cases.js';
import { conform } from '../src/cli/conform/command.js';
import { answerReference } from '../src/cli/conform/reference.js';
import { expectedOf } from '../src/cli/conform/vectors.js';

const RUNS = 10_000;
const SEED = 20_261_205;
const silent = { out: () => {}, err: () => {} };

async function run(command: string[], runs: number): Promise<number> {
  const start = performance.now();
  const code = await conform(
    { command, suites: ['algebra'], runs, seed: SEED, timeoutMs: 5000, fc },
    silent,
  );
  if (code !== 0) throw new Error(`${command.join(' ')} exited ${code}`);
  return (performance.now() - start) / 1000;
}

/** Seconds for the random cases alone: a run of them less a run without (start, handshake, vectors). */
async function timed(command: string[]): Promise<number> {
  return (await run(command, RUNS)) - (await run(command, 0));
}

const python = await timed(['/usr/bin/python3', 'examples/conform/python/intervals_adapter.py']);
const typescript = await timed([
  process.execPath,
  '--import',
  './scripts/from-source.mjs',
  'examples/conform/typescript/adapter.ts',
]);
const cases: Case[] = fc.sample(caseArb(fc, 'algebra'), { seed: SEED, numRuns: RUNS });
const start = performance.now();
for (const x of cases) {
  expectedOf('algebra', x);
  JSON.stringify(answerReference('algebra', x.op, JSON.parse(JSON.stringify(x.input))));
}
const local = (performance.now() - start) / 1000;
const perCase = (s: number) => `${((s / RUNS) * 1e6).toFixed(0)} µs a case`;
console.log(`${RUNS} random algebra cases (seed ${SEED}), start-up and vectors left out:`);
console.log(`  Python over python3-intervals: ${python.toFixed(1)} s (${perCase(python)})`);
console.log(`  TypeScript adapter:            ${typescript.toFixed(1)} s (${perCase(typescript)})`);
console.log(`  the same cases in-process:     ${local.toFixed(2)} s (${perCase(local)})`);
console.log(
  `  protocol overhead: ${perCase(typescript - local)} (TypeScript adapter less in-process), ${(typescript / local).toFixed(0)}× in-process`,
);
