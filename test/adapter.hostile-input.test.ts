/**
 * The adapter on junk: a recorder built from unreadable options, reports with
 * hostile ranges, a renderer handed a hostile plan, recorder, pointer or
 * symbols, and measureDuplicates on things that are not lists of responses.
 * Nothing throws, and nothing recorded is a line the input did not hold.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createEmissionRecorder,
  measureDuplicates,
  type RenderablePlan,
  renderMarkdown,
} from '../src/adapter/index.js';
import { hostileRangeSetArb, linesOf } from '../src/testing/index.js';
import { fileEmission, ranges, throwingRecorder } from './_build.js';

function revoked(array: boolean): object {
  const { proxy, revoke } = Proxy.revocable(array ? [] : {}, {});
  revoke();
  return proxy;
}

function throwingGetters(...keys: string[]): object {
  const o = {};
  for (const key of keys)
    Object.defineProperty(o, key, {
      enumerable: true,
      get(): never {
        throw new Error(`hostile ${key}`);
      },
    });
  return o;
}

const content = 'alpha\nbeta\ngamma\ndelta\nepsilon';

describe('createEmissionRecorder on junk options', () => {
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', '/repo'],
    ['an empty root', { projectRoot: '' }],
    ['a numeric root', { projectRoot: 7 }],
    ['a getter that throws', throwingGetters('projectRoot', 'query')],
    ['a revoked proxy', revoked(false)],
  ])('%s gives an inert recorder: it records nothing', (_label, options) => {
    const rec = createEmissionRecorder(options as never);
    rec.source('a.ts', { start: 1, end: 3 }, 30, 'fp');
    rec.pointer('b.ts', ranges('1-9'), 'fp');
    expect(rec.finish(50)).toEqual({
      projectRoot: '',
      query: '',
      files: [],
      sourceChars: 0,
      responseChars: 50,
    });
  });

  it('a query getter that throws reads as no query, the root still records', () => {
    const options = Object.defineProperty({ projectRoot: '/repo' }, 'query', {
      get(): never {
        throw new Error('hostile');
      },
    });
    const rec = createEmissionRecorder(options as never);
    rec.source('a.ts', { start: 1, end: 2 }, 10, 'fp');
    expect(rec.finish(10)).toMatchObject({ projectRoot: '/repo', query: '', sourceChars: 10 });
  });
});

describe('recorder methods on hostile ranges', () => {
  it('drops ranges it cannot read and keeps the readable ones', () => {
    const rec = createEmissionRecorder({ projectRoot: '/repo' });
    rec.source('a.ts', revoked(true) as never, 10, 'fp');
    rec.source('a.ts', revoked(false) as never, 10, 'fp');
    rec.source('a.ts', throwingGetters('start', 'end') as never, 10, 'fp');
    rec.source(
      'a.ts',
      [revoked(false), { start: 4, end: 5 }, throwingGetters('start')] as never,
      0,
      'fp',
    );
    // biome-ignore lint/suspicious/noSparseArray: a sparse list is the point
    rec.source('a.ts', [, { start: 1, end: 1 }] as never, 3, 'fp');
    expect(rec.finish(0).files).toEqual([fileEmission('a.ts', '1, 4-5', 3, 'fp')]);
  });

  it('reads each end once: a range whose getters change their answer records what was checked', () => {
    let reads = 0;
    const shifty = {
      start: 2,
      get end(): number {
        reads += 1;
        return reads === 1 ? 3 : 10_000;
      },
    };
    const rec = createEmissionRecorder({ projectRoot: '/repo' });
    rec.source('a.ts', shifty, 5, 'fp');
    expect(rec.finish(0).files[0]?.ranges).toEqual(ranges('2-3'));
  });

  it('merges a very long list of ranges without running out of stack', () => {
    const rec = createEmissionRecorder({ projectRoot: '/repo' });
    const many = Array.from({ length: 200_000 }, (_, i) => ({ start: 2 * i + 1, end: 2 * i + 1 }));
    rec.source('a.ts', many, 1, 'fp');
    expect(rec.finish(0).files[0]?.ranges).toHaveLength(200_000);
  });
});

describe('renderMarkdown on junk', () => {
  const file: RenderablePlan = {
    path: 'a.ts',
    fingerprint: 'fp',
    render: 'partial',
    covered: ranges('1-2'),
    emit: ranges('4'),
  };

  it.each([
    ['no recorder', undefined],
    ['a recorder without methods', {}],
    ['a revoked recorder', revoked(false)],
    ['a recorder whose methods throw on read', throwingGetters('source', 'pointer', 'drop')],
  ])('%s: renders nothing', (_label, recorder) => {
    const out = renderMarkdown({
      plan: { files: [file] },
      sources: [{ path: 'a.ts', content }],
      recorder: recorder as never,
    });
    expect(out).toEqual({ text: '', dropped: [] });
  });

  it('a recorder that throws when told about a span does not fail the render', () => {
    const out = renderMarkdown({
      plan: { files: [file] },
      sources: [{ path: 'a.ts', content }],
      recorder: throwingRecorder(),
      maxResponseChars: 10_000,
    });
    expect(out.text).toContain('4\tdelta');
  });

  it('a pointer writer that throws or returns no string gives way to the default wording', () => {
    for (const pointer of [
      () => {
        throw new Error('pointer down');
      },
      () => 42,
    ]) {
      const recorder = createEmissionRecorder({ projectRoot: '/r' });
      const { text } = renderMarkdown({
        plan: { files: [file] },
        sources: [{ path: 'a.ts', content }],
        recorder,
        pointer: pointer as never,
      });
      expect(text).toMatch(/^> .*L1-2/m);
      expect(recorder.finish(text.length).files[0]?.ranges).toEqual(ranges('4'));
    }
  });

  it('symbols that cannot be read name nothing; the source still renders', () => {
    const recorder = createEmissionRecorder({ projectRoot: '/r' });
    const { text } = renderMarkdown({
      plan: { files: [file] },
      sources: [{ path: 'a.ts', content, symbols: revoked(true) as never }],
      recorder,
    });
    expect(text.split('\n')[0]).toBe('**`a.ts`**');
    expect(text).toContain('4\tdelta');
  });

  it('skips files with no usable path or render kind, and sources that cannot be read', () => {
    const recorder = createEmissionRecorder({ projectRoot: '/r' });
    const { text } = renderMarkdown({
      plan: {
        files: [
          { ...file, render: 'everything' as never },
          { ...file, path: '' },
          throwingGetters('path') as never,
          { ...file, path: 'b.ts' },
          { ...file, path: 'c.ts' },
        ],
      },
      sources: [
        { path: 'a.ts', content },
        revoked(false) as never,
        { path: 'b.ts', content: 7 as never },
        throwingGetters('path', 'content') as never,
      ],
      recorder,
      title: Symbol('not a title') as never,
    });
    expect(text).toBe('');
    expect(recorder.finish(0).files).toEqual([]);
  });

  it('a file with no fingerprint is recorded without one', () => {
    const recorder = createEmissionRecorder({ projectRoot: '/r' });
    renderMarkdown({
      plan: { files: [{ ...file, fingerprint: undefined as never }] },
      sources: [{ path: 'a.ts', content }],
      recorder,
    });
    const [recorded] = recorder.finish(0).files;
    expect(recorded?.path).toBe('a.ts');
    expect(recorded && 'fingerprint' in recorded).toBe(false);
  });

  const SEED = 13_002;
  it(`records only lines that are both in the plan and in the content (seed ${SEED})`, () => {
    fc.assert(
      fc.property(
        hostileRangeSetArb({ maxLine: 12 }),
        hostileRangeSetArb({ maxLine: 12 }),
        fc.constantFrom('full', 'partial', 'pointer'),
        (emit, covered, render) => {
          const recorder = createEmissionRecorder({ projectRoot: '/r' });
          renderMarkdown({
            plan: { files: [{ path: 'a.ts', fingerprint: 'fp', render, emit, covered } as never] },
            sources: [{ path: 'a.ts', content }],
            recorder,
          });
          const planned = linesOf(render === 'full' ? emit : [...emit, ...covered]);
          for (const f of recorder.finish(0).files) {
            expect(f.path).toBe('a.ts');
            for (const line of linesOf(f.ranges)) {
              expect(planned.has(line), `line ${line} not planned`).toBe(true);
              expect(line).toBeLessThanOrEqual(5);
            }
          }
        },
      ),
      { seed: SEED, numRuns: 150 },
    );
  });
});

describe('measureDuplicates on junk', () => {
  const a = '**`a.ts`**\n```ts\n1\tx\n2\ty\n```';

  it.each([
    ['null', null],
    ['a number', 3],
    ['a string', a],
    ['a plain object', { 0: a, length: 1 }],
    ['a revoked array proxy', revoked(true)],
  ])('%s reads as no responses', (_label, texts) => {
    expect(measureDuplicates(texts as never)).toEqual({
      responses: 0,
      responseChars: 0,
      sourceChars: 0,
      uniqueChars: 0,
      duplicateChars: 0,
      duplicateShare: 0,
    });
  });

  it('skips entries that are not strings or cannot be read; they are not responses', () => {
    const list = [a, 7, null, a];
    Object.defineProperty(list, 1, {
      get(): never {
        throw new Error('hostile entry');
      },
    });
    // 1\tx + 2\ty: 4 source chars per response, the second one all duplicate
    expect(measureDuplicates(list as never)).toEqual({
      responses: 2,
      responseChars: 2 * a.length,
      sourceChars: 8,
      uniqueChars: 4,
      duplicateChars: 4,
      duplicateShare: 0.5,
    });
  });
});
