/**
 * describeSession and formatSessionBlock on junk and on edge counts, with the
 * exact result: malformed calls and files are skipped (never counted, never
 * named), bad counts read as 0, and the block's wording at 1, 8 and 9.
 */
import { describe, expect, it } from 'vitest';
import { describeSession, formatSessionBlock, type SessionDiagnostics } from '../src/index.js';
import { callRecord as call, fileEmission, projectState as project } from './_build.js';

describe('describeSession on junk', () => {
  it.each([null, undefined, 'p', 3])('has nothing to describe for %s', (p) => {
    expect(describeSession(p as never)).toBeUndefined();
  });

  it('skips calls and files it cannot read, and never names what is not there', () => {
    const d = describeSession(
      project(
        [
          null,
          'call',
          call('files'),
          call([
            null,
            'file',
            fileEmission('', '1-2', 5),
            fileEmission(7, '1-2', 5),
            { ...fileEmission('a.ts', '', Number.NaN), ranges: 'L1-3' },
            fileEmission('a.ts', '4-6', -2),
            fileEmission('b.ts', '2-3', Number.POSITIVE_INFINITY),
          ]),
        ],
        { callCount: 'x', responseChars: -5 },
      ),
    );
    expect(d).toEqual({
      callIndex: 5,
      priorCalls: 4,
      priorChars: 0,
      priorFiles: [fileEmission('a.ts', '4-6', 0), fileEmission('b.ts', '2-3', 0)],
    });
  });

  it('takes calls that are not an array as none, and a larger callCount as evicted calls', () => {
    expect(describeSession(project('calls', { callCount: 2.7, responseChars: 900 }))).toEqual({
      callIndex: 3,
      priorCalls: 2,
      priorChars: 900,
      priorFiles: [],
    });
  });

  it('describes nothing when reading the project throws', () => {
    const hostile = Object.defineProperty({}, 'calls', {
      get: () => {
        throw new Error('hostile');
      },
    });
    expect(describeSession(hostile as never)).toEqual({
      callIndex: 1,
      priorCalls: 0,
      priorChars: 0,
      priorFiles: [],
    });
  });
});

describe('formatSessionBlock', () => {
  const base: SessionDiagnostics = {
    callIndex: 2,
    priorCalls: 1,
    priorChars: 1234567,
    priorFiles: [],
  };

  it.each([null, undefined, 'd', 5])('renders nothing for %s', (d) => {
    expect(formatSessionBlock(d as never)).toBe('');
  });

  it('renders nothing when reading the diagnostics throws', () => {
    const hostile = Object.defineProperty({}, 'priorCalls', {
      get: () => {
        throw new Error('hostile');
      },
    });
    expect(formatSessionBlock(hostile as never)).toBe('');
  });

  it('says "call" for one earlier call and groups thousands', () => {
    expect(formatSessionBlock(base)).toBe(
      'session: call #2 for this project · 1 earlier call · 1,234,567 chars sent so far',
    );
    expect(formatSessionBlock({ ...base, priorCalls: 2, priorChars: 999 })).toBe(
      'session: call #2 for this project · 2 earlier calls · 999 chars sent so far',
    );
    expect(formatSessionBlock({ ...base, priorChars: 1000 })).toContain(' 1,000 chars');
    expect(formatSessionBlock({ ...base, priorChars: 100000 })).toContain(' 100,000 chars');
  });

  it('reads junk counts as 0', () => {
    expect(
      formatSessionBlock({
        callIndex: 1,
        priorCalls: -1,
        priorChars: Number.NaN,
        priorFiles: 'x' as never,
      }),
    ).toBe('session: call #1 for this project · no earlier calls');
  });

  it.each([Number.NaN, 0, -1, 1.5, '2'])(
    'renders nothing without a call number (%s)',
    (callIndex) => {
      const d = { callIndex, priorCalls: 1, priorChars: 0, priorFiles: [] };
      expect(formatSessionBlock(d as never)).toBe('');
    },
  );

  it('names at most 8 files, then counts the rest', () => {
    const file = (i: number) => fileEmission(`f${i}.ts`, [{ start: i, end: i + 1 }], 10);
    const eight = formatSessionBlock({
      ...base,
      priorFiles: Array.from({ length: 8 }, (_, i) => file(i + 1)),
    });
    expect(eight.split('\n')).toHaveLength(9);
    expect(eight).not.toContain('more');
    const nine = formatSessionBlock({
      ...base,
      priorFiles: Array.from({ length: 9 }, (_, i) => file(i + 1)),
    });
    expect(nine.split('\n').at(-1)).toBe('  +1 more file');
    const ten = formatSessionBlock({
      ...base,
      priorFiles: Array.from({ length: 10 }, (_, i) => file(i + 1)),
    });
    expect(ten.split('\n').at(-1)).toBe('  +2 more files');
    expect(nine.split('\n')[1]).toBe('  sent before: f1.ts · 10 chars · L1-2');
  });

  it('leaves out the spans of a file that has none', () => {
    expect(
      formatSessionBlock({
        ...base,
        priorFiles: [{ ...fileEmission('a.ts', '', 3), ranges: 'x' as never }],
      }).split('\n')[1],
    ).toBe('  sent before: a.ts · 3 chars');
  });
});
