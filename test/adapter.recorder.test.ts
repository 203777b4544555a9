/**
 * The emission recorder: what a render loop reports becomes the `Emission`
 * (spans merged per file, chars summed, a fingerprint kept only when every
 * report agrees, dropped sections forgotten), and its edges: the inert
 * recorder, junk paths, counts, and lists read only as far as their length.
 */
import { describe, expect, it } from 'vitest';
import { createEmissionRecorder } from '../src/adapter/index.js';
import { fileEmission, ranges } from './_build.js';
import { shortLength } from './_short-length.js';

const root = { projectRoot: '/repo', query: 'cart totals' };

describe('createEmissionRecorder', () => {
  it('records source spans merged per file, chars summed, fingerprint kept', () => {
    const rec = createEmissionRecorder(root);
    rec.source('src/a.ts', { start: 10, end: 20 }, 300, 'fp-a');
    rec.source('src/a.ts', ranges('21-25'), 120, 'fp-a');
    rec.source('src/b.ts', { start: 1, end: 3 }, 40, 'fp-b');
    expect(rec.finish(999)).toEqual({
      projectRoot: '/repo',
      query: 'cart totals',
      files: [
        fileEmission('src/a.ts', '10-25', 420, 'fp-a'),
        fileEmission('src/b.ts', '1-3', 40, 'fp-b'),
      ],
      sourceChars: 460,
      responseChars: 999,
    });
  });

  it('records nothing for a pointer: only the lines a response sent are claimed', () => {
    const rec = createEmissionRecorder(root);
    rec.pointer('src/a.ts', ranges('1-40'), 'fp-a');
    rec.source('src/a.ts', { start: 41, end: 50 }, 200, 'fp-a');
    const e = rec.finish(500);
    expect(e.files).toEqual([fileEmission('src/a.ts', '41-50', 200, 'fp-a')]);
    const only = createEmissionRecorder(root);
    only.pointer('src/m.ts', ranges('3-30'), 'fp-m');
    expect(only.finish(80)).toMatchObject({ files: [], sourceChars: 0 });
  });

  it('never records a section dropped by the hard cap', () => {
    const rec = createEmissionRecorder(root);
    rec.source('src/a.ts', { start: 1, end: 5 }, 50, 'fp-a');
    rec.source('src/big.ts', { start: 1, end: 400 }, 15000, 'fp-big');
    rec.pointer('src/big.ts', ranges('500-600'), 'fp-big');
    rec.drop('src/big.ts');
    const e = rec.finish(100);
    expect(e.files.map((f) => f.path)).toEqual(['src/a.ts']);
    expect(e.sourceChars).toBe(50);
    expect(rec.dropped()).toEqual(['src/big.ts']);
  });

  it('keeps no fingerprint when the reports for a file disagree or one had none', () => {
    const a = createEmissionRecorder(root);
    a.source('x.ts', { start: 1, end: 2 }, 10, 'fp-1');
    a.source('x.ts', { start: 5, end: 6 }, 10, 'fp-2');
    const b = createEmissionRecorder(root);
    b.source('x.ts', { start: 1, end: 2 }, 10);
    b.pointer('x.ts', ranges('5-30'), 'fp-1');
    for (const rec of [a, b]) {
      const [file] = rec.finish(0).files;
      expect(file).toBeDefined();
      expect('fingerprint' in file!).toBe(false);
    }
  });

  it('ignores bad input instead of throwing or inventing spans', () => {
    const rec = createEmissionRecorder(root);
    rec.source('', { start: 1, end: 2 }, 10, 'fp');
    rec.source('a.ts', { start: 0, end: 2 }, 10, 'fp');
    rec.source(
      'a.ts',
      [
        { start: 3, end: 1 },
        { start: Number.NaN, end: 4 },
      ],
      10,
      'fp',
    );
    rec.source('b.ts', { start: 2.5, end: 4 }, 10, 'fp');
    rec.source('c.ts', { start: 1, end: 1 }, Number.NaN, 'fp');
    rec.source('d.ts', { start: 1, end: 1 }, -5, 'fp');
    rec.pointer('e.ts', null as never, 'fp');
    rec.drop(42 as never);
    const e = rec.finish(Number.POSITIVE_INFINITY);
    expect(e.files).toEqual([
      fileEmission('c.ts', '1', 0, 'fp'),
      fileEmission('d.ts', '1', 0, 'fp'),
    ]);
    expect(e.responseChars).toBe(0);
  });

  it('returns plain, JSON-safe data', () => {
    const rec = createEmissionRecorder({ projectRoot: '/r' });
    rec.source('a.ts', { start: 1, end: 4 }, 30, 'fp');
    const e = rec.finish(60);
    expect(JSON.parse(JSON.stringify(e))).toEqual(e);
    expect(structuredClone(e)).toEqual(e);
    expect(e.query).toBe('');
  });
});

describe('createEmissionRecorder at its edges', () => {
  it('an inert recorder (empty root) does not read the query', () => {
    const rec = createEmissionRecorder({ projectRoot: '', query: 'cart totals' });
    expect(rec.finish(0).query).toBe('');
  });

  it('drop ignores a path that is not a non-empty string', () => {
    const rec = createEmissionRecorder({ projectRoot: '/repo' });
    rec.drop('' as never);
    rec.drop(42 as never);
    rec.drop('a.ts');
    expect(rec.dropped()).toEqual(['a.ts']);
  });

  it('a negative zero response size is recorded as plain 0', () => {
    const rec = createEmissionRecorder({ projectRoot: '/repo' });
    expect(rec.finish(-0).responseChars).toBe(0);
  });

  it('reads a list of ranges only as far as its length', () => {
    const rec = createEmissionRecorder({ projectRoot: '/repo' });
    rec.source('a.ts', shortLength(ranges('1-2, 8-9'), 1), 10, 'fp');
    expect(rec.finish(0).files[0]?.ranges).toEqual(ranges('1-2'));
  });
});
