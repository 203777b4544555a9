import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractSymbols } from '../src/adapter/index.js';
import { embeddedSampleModule, readFixtures } from '../src/cli/fixtures.js';
import { SAMPLE_FILES, SAMPLE_SEQUENCES } from '../src/cli/sample-data.js';
import { isLineRange } from '../src/index.js';

const root = join(import.meta.dirname, '..', 'fixtures');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

describe('fixtures', () => {
  it('the CLI serves exactly the files under fixtures/sample', () => {
    const onDisk = walk(join(root, 'sample'))
      .map((full) => ({
        path: relative(join(root, 'sample'), full).split('\\').join('/'),
        content: readFileSync(full, 'utf8'),
      }))
      .sort((a, b) => a.path.localeCompare(b.path));
    expect([...SAMPLE_FILES].sort((a, b) => a.path.localeCompare(b.path))).toEqual(onDisk);
  });

  it('the CLI serves exactly the sequences under fixtures/sequences', () => {
    const onDisk = readdirSync(join(root, 'sequences'))
      .filter((n) => n.endsWith('.json'))
      .map((n) => JSON.parse(readFileSync(join(root, 'sequences', n), 'utf8')));
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect([...SAMPLE_SEQUENCES].sort(byName)).toEqual(onDisk.sort(byName));
  });

  it('the module the build embeds holds the same files and sequences', async () => {
    const source = embeddedSampleModule(readFixtures(root));
    const embedded = await import(`data:text/javascript,${encodeURIComponent(source)}`);
    expect(embedded.SAMPLE_FILES).toEqual(SAMPLE_FILES);
    expect(embedded.SAMPLE_SEQUENCES).toEqual(SAMPLE_SEQUENCES);
    expect(SAMPLE_FILES.length).toBeGreaterThan(0);
  });

  it('is a small two-language project of a few hundred lines', () => {
    const lines = SAMPLE_FILES.reduce((n, f) => n + f.content.split('\n').length, 0);
    expect(lines).toBeGreaterThan(300);
    expect(lines).toBeLessThan(800);
    const exts = new Set(SAMPLE_FILES.map((f) => f.path.slice(f.path.lastIndexOf('.'))));
    expect(exts).toEqual(new Set(['.ts', '.py']));
  });

  it('every recorded call names existing files and valid spans inside them', () => {
    const files = new Map(SAMPLE_FILES.map((f) => [f.path, f.content.split('\n').length]));
    for (const sequence of SAMPLE_SEQUENCES) {
      expect(sequence.calls.length).toBeGreaterThanOrEqual(3);
      for (const call of sequence.calls) {
        for (const f of call.files) {
          const lineCount = files.get(f.path);
          expect(lineCount, `${sequence.name}: ${f.path}`).toBeDefined();
          for (const r of f.intended) {
            expect(isLineRange(r)).toBe(true);
            expect(r.end).toBeLessThanOrEqual(lineCount!);
          }
        }
      }
    }
  });

  it('recorded spans start at a symbol the extractor finds (the index and the sequences agree)', () => {
    const starts = new Map(
      SAMPLE_FILES.map((f) => [
        f.path,
        new Set(extractSymbols(f.content, f.path).map((s) => s.start)),
      ]),
    );
    let checked = 0;
    for (const sequence of SAMPLE_SEQUENCES) {
      for (const call of sequence.calls) {
        for (const f of call.files) {
          for (const r of f.intended) {
            expect(starts.get(f.path)!.has(r.start), `${f.path} L${r.start}`).toBe(true);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});

describe('readFixtures', () => {
  const dir = mkdtempSync(join(tmpdir(), 'span-ledger-fixtures-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // Written out of name order, so an unsorted listing shows.
  for (const name of ['zeta.ts', 'alpha.ts', 'mid.ts', 'beta.ts']) {
    mkdirSync(join(dir, 'sample', 'src', 'deep'), { recursive: true });
    writeFileSync(join(dir, 'sample', 'src', name), `// ${name}\n`);
  }
  writeFileSync(join(dir, 'sample', 'src', 'deep', 'inner.py'), 'x = 1\n');
  mkdirSync(join(dir, 'sequences'));
  for (const name of ['z.json', 'a.json', 'm.json']) {
    writeFileSync(join(dir, 'sequences', name), JSON.stringify({ name, budget: {}, calls: [] }));
  }
  writeFileSync(join(dir, 'sequences', 'notes.txt'), 'not a sequence');

  it('reads every file below sample/, in name order, with /-separated relative paths', () => {
    expect(readFixtures(dir).files).toEqual([
      { path: 'src/alpha.ts', content: '// alpha.ts\n' },
      { path: 'src/beta.ts', content: '// beta.ts\n' },
      { path: 'src/deep/inner.py', content: 'x = 1\n' },
      { path: 'src/mid.ts', content: '// mid.ts\n' },
      { path: 'src/zeta.ts', content: '// zeta.ts\n' },
    ]);
  });

  it('reads the .json sequences only, in name order', () => {
    expect(readFixtures(dir).sequences.map((s) => s.name)).toEqual(['a.json', 'm.json', 'z.json']);
  });
});
