/**
 * Proof from disk: what a root keeps between calls belongs to that root, so
 * two proxies in one process (or two tests in one worker) never share a
 * file; a file is read as the core's POSIX lines; and only UTF-8 text is
 * read at all.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

describe('the content a proof reads', () => {
  const bytesOf = {
    'an overlong encoding': [0x61, 0xc0, 0xaf, 0x0a],
    'a lone continuation byte': [0x61, 0x80, 0x0a],
    'a truncated sequence at the end': [0x61, 0x0a, 0xe2, 0x82],
    'an encoded surrogate': [0xed, 0xa0, 0x80, 0x0a],
  };

  it.each(Object.entries(bytesOf))(
    'is none when the file holds %s, though no NUL',
    async (_, bytes) => {
      const dir = mkdtempSync(join(tmpdir(), 'span-ledger-disk-'));
      try {
        writeFileSync(join(dir, 'bad.ts'), Buffer.from(bytes));
        expect(await readUnderRoot((await openRoot(dir))!, 'bad.ts')).toBeNull();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('keeps a byte-order mark and every other character exactly as on disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'span-ledger-disk-'));
    try {
      const text = '\uFEFFconst s = "naïve — 日本 😀";\n';
      writeFileSync(join(dir, 'bom.ts'), text, 'utf8');
      const file = (await readUnderRoot((await openRoot(dir))!, 'bom.ts'))!;
      expect(file.content).toBe(text);
      expect(file.line(1)).toBe(text.slice(0, -1));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
