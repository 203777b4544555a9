/**
 * The conformance runner run in-process against a command, for the
 * conformance suites: its exit code and what it printed. No progress lines
 * unless a test asks for them (`progressMs`): on a loaded machine a phase
 * outlasts the 2 s default, and stderr would depend on the clock.
 */
import * as fc from 'fast-check';
import { type ConformOptions, conform } from '../src/cli/conform/command.js';

export async function runConform(
  command: readonly string[],
  options: Partial<Omit<ConformOptions, 'command'>> = {},
): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await conform(
    {
      command,
      suites: null,
      runs: 0,
      seed: 1,
      timeoutMs: 5000,
      progressMs: Number.POSITIVE_INFINITY,
      fc,
      ...options,
    },
    { out: (t) => out.push(t), err: (t) => err.push(t) },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The TypeScript adapter, run from the sources. */
export const TS_ADAPTER = [
  process.execPath,
  '--import',
  './scripts/from-source.mjs',
  'examples/conform/typescript/adapter.ts',
];
