/**
 * The Python adapters through the runner: the algebra over python3-intervals
 * and the standard-library reference of the decisions agree with every vector
 * and with random cases; each planted bug (a bug a real harness shipped) is
 * caught within 200 random cases and shrunk to at most 3 spans or 4 steps,
 * and the shrunk counterexample is printed.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runConform } from './_conform.js';

const PYTHON = '/usr/bin/python3';
const probe = spawnSync(PYTHON, ['-c', 'import intervals'], { encoding: 'utf8' });
const missing =
  probe.status === 0
    ? null
    : `${PYTHON} cannot import intervals (apt-get install python3 python3-intervals): ${(probe.error?.message ?? probe.stderr).trim().split('\n').at(-1)}`;
if (missing !== null && process.env.SPAN_LEDGER_CONFORM_REQUIRED === '1') {
  throw new Error(`SPAN_LEDGER_CONFORM_REQUIRED is set: ${missing}`);
}
if (missing !== null) console.warn(`skipping the Python conformance suites: ${missing}`);

const SEED = 20_261_203;
const py = (script: string, ...args: string[]) => [
  PYTHON,
  `examples/conform/python/${script}`,
  ...args,
];

describe.skipIf(missing !== null)('Python adapters', () => {
  it('the algebra over python3-intervals agrees with every vector and 300 random cases', async () => {
    const run = await runConform(py('intervals_adapter.py'), { runs: 300, seed: SEED });
    expect(run.err).toBe('');
    expect(run.out).toContain('algebra: 75/75 vectors agree');
    expect(run.out).toContain('algebra: 300 random cases agree');
    expect(run.code).toBe(0);
  });

  it('a long random phase says how far it got, on stderr', async () => {
    const run = await runConform(py('intervals_adapter.py'), {
      runs: 5,
      seed: SEED,
      progressMs: 0,
    });
    expect(run.err).toContain('algebra: 5 random cases…');
    expect(run.code).toBe(0);
  });

  it('the standard-library reference agrees on lines, fingerprint, plan and scenario', async () => {
    const run = await runConform(py('reference_adapter.py'), { runs: 150, seed: SEED });
    expect(run.err).toBe('');
    for (const suite of ['lines', 'fingerprint', 'plan', 'scenario']) {
      expect(run.out).toMatch(new RegExp(`${suite}: (\\d+)/\\1 vectors agree`));
      expect(run.out).toContain(`${suite}: 150 random cases agree`);
    }
    expect(run.code).toBe(0);
  });
});

/** The bug, the suite that must catch it, and how the shrunk case is sized. */
const PLANTED: [string, 'scenario' | 'fingerprint' | 'algebra'][] = [
  ['stub-by-path', 'scenario'],
  ['compaction-keeps-map', 'scenario'],
  ['shared-scope', 'scenario'],
  ['fingerprint-no-length', 'fingerprint'],
  ['subtract-off-by-one', 'algebra'],
];

/** Spans in a shrunk input: every `{ start, end }` anywhere in it. */
function spansIn(input: unknown): number {
  return (JSON.stringify(input).match(/"start":/g) ?? []).length;
}

describe.skipIf(missing !== null)('planted bugs are caught and shrunk', () => {
  for (const [bug, suite] of PLANTED) {
    it(bug, async () => {
      const run = await runConform(py('planted.py', bug), {
        suites: [suite],
        runs: 200,
        seed: SEED,
      });
      const found = run.out.match(/disagreement at random case (\d+) .*shrunk (\d+) times/);
      const input = JSON.parse(run.out.match(/^ {2}input: {4}(.*)$/m)?.[1] ?? 'null') as {
        steps?: unknown[];
      } | null;
      const shrunk = run.out.slice(run.out.indexOf(`✗ ${suite}: disagreement`));
      console.log(`planted bug ${bug}: caught at random case ${found?.[1]}, shrunk to\n${shrunk}`);
      expect(run.code).toBe(1);
      expect(Number(found?.[1])).toBeLessThanOrEqual(200);
      const counter = JSON.parse(shrunk.match(/^ {2}input: {4}(.*)$/m)![1]!) as {
        steps?: unknown[];
      };
      if (suite === 'scenario') expect(counter.steps!.length).toBeLessThanOrEqual(4);
      else expect(spansIn(counter)).toBeLessThanOrEqual(3);
      expect(shrunk).toMatch(
        /replay: {3}span-ledger conform --suite \w+ --runs \d+ --seed 20261203/,
      );
      void input;
    });
  }
});
