/**
 * The CLI run in-process for its own suites, apart from test/_build.ts so that
 * suites which never run the CLI do not load it.
 */
import { runCli } from '../src/cli/run.js';

/** The CLI run with `args`: its exit code, and what it wrote to stdout and to stderr (lines joined by newlines). */
export function runCliCaptured(...args: string[]): { code: number; out: string; err: string } {
  const out: string[] = [];
  const err: string[] = [];
  const code = runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
