/**
 * The proxy's command as a user runs it: the package's bin, on the built
 * `dist/` (`npm run build` first; `npm test` does). Helpers for tests that
 * start it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../../../test/_repo.js';

export { REPO };
/** The proxy package's directory. */
export const PACKAGE = join(REPO, 'packages/proxy');
/** The bin `npx span-ledger-proxy` runs. */
export const BIN = join(PACKAGE, 'bin/span-ledger-proxy.js');

if (!existsSync(join(PACKAGE, 'dist/cli.js'))) {
  throw new Error('packages/proxy/dist is missing: run `npm run build` before the proxy tests');
}

/** What one run of the bin printed. */
export interface BinRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the bin to its end with `args` (for runs that never start an upstream). */
export function runBin(args: readonly string[], cwd = REPO): BinRun {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
