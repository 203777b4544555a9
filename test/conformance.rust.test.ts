/**
 * The Rust adapter (standard library only) through the runner: built with
 * `cargo --offline` into a temporary target directory, it agrees with every
 * algebra vector and with random cases.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConform } from './_conform.js';

const cargo = spawnSync('cargo', ['--version'], { encoding: 'utf8' });
const missing = cargo.status === 0 ? null : 'cargo is not on PATH';
if (missing !== null && process.env.SPAN_LEDGER_CONFORM_REQUIRED === '1') {
  throw new Error(`SPAN_LEDGER_CONFORM_REQUIRED is set: ${missing}`);
}
if (missing !== null) console.warn(`skipping the Rust conformance suite: ${missing}`);

const target = mkdtempSync(join(tmpdir(), 'conform-rust-'));
afterAll(() => rmSync(target, { recursive: true, force: true }));

describe.skipIf(missing !== null)('the Rust adapter', () => {
  it('builds offline and agrees with every algebra vector and 300 random cases', {
    timeout: 120_000,
  }, async () => {
    const build = spawnSync(
      'cargo',
      [
        'build',
        '--offline',
        '-q',
        '--manifest-path',
        'examples/conform/rust/Cargo.toml',
        '--target-dir',
        target,
      ],
      { encoding: 'utf8' },
    );
    expect(build.stderr).toBe('');
    expect(build.status).toBe(0);
    const run = await runConform([join(target, 'debug', 'span-ledger-conform-algebra')], {
      runs: 300,
      seed: 20_261_204,
    });
    expect(run.err).toBe('');
    expect(run.out).toContain('algebra: 75/75 vectors agree');
    expect(run.out).toContain('algebra: 300 random cases agree');
    expect(run.code).toBe(0);
  });
});
