/**
 * Proof from disk: what a root keeps between calls belongs to that root, so
 * two proxies in one process (or two tests in one worker) never share a
 * file; and a file is read as the core's POSIX lines.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRoot, readUnderRoot } from '../src/disk.js';
import { REPO } from './_bin.js';

const SAMPLE = join(REPO, 'fixtures/sample');

describe('the files a root keeps', () => {
  it('belong to the root that read them: another root of the same folder keeps none', async () => {
    const a = (await openRoot(SAMPLE))!;
    const b = (await openRoot(SAMPLE))!;
    const file = await readUnderRoot(a, 'src/cart.ts');
    const abs = join(SAMPLE, 'src/cart.ts');
    expect(file).not.toBeNull();
    expect(a.kept.get(abs)?.file).toBe(file);
    expect(b.kept.get(abs)).toBeUndefined();
    // Read again under the same root, unchanged on disk: the very file kept.
    expect(await readUnderRoot(a, 'src/cart.ts')).toBe(file);
  });

  it('reads a file as POSIX lines: a final newline ends the last line', async () => {
    const root = (await openRoot(SAMPLE))!;
    const file = (await readUnderRoot(root, 'src/cart.ts'))!;
    const lines = file.content.split('\n');
    expect(file.content.endsWith('\n')).toBe(true);
    expect(file.lineCount).toBe(lines.length - 1);
    expect(file.line(file.lineCount)).toBe(lines[lines.length - 2]);
    expect(file.chars(1, file.lineCount)).toBe(file.content.length);
  });
});
