/**
 * Edge cases the main suites do not pin, one per rule: the portable hash when
 * the runtime has no native one, the algebra's internals, and the renderer's
 * fence languages and quoting.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmissionRecorder, renderMarkdown } from '../src/adapter/index.js';
import { intersectRanges, rangesCover } from '../src/index.js';

/** Published SHA-1 vectors (FIPS 180 examples). */
const ABC = 'a9993e364706816aba3e25717850c26c9cd0d89d';
const EMPTY = 'da39a3ee5e6b4b0d3255bfef95601890afd80709';

describe('fingerprint without a native hash', () => {
  afterEach(() => {
    vi.resetModules();
  });

  /** The fingerprint module loaded fresh while `process.getBuiltinModule` is `value`. */
  async function loadWith(value: unknown) {
    vi.resetModules();
    const saved = Object.getOwnPropertyDescriptor(process, 'getBuiltinModule');
    Object.defineProperty(process, 'getBuiltinModule', {
      configurable: true,
      writable: true,
      value,
    });
    try {
      return await import('../src/fingerprint/fingerprint.js');
    } finally {
      if (saved) Object.defineProperty(process, 'getBuiltinModule', saved);
      else delete (process as unknown as Record<string, unknown>).getBuiltinModule;
    }
  }

  it.each([
    ['missing', undefined],
    [
      'throwing',
      () => {
        throw new Error('no builtins here');
      },
    ],
    ['without createHash', () => ({})],
  ])('getBuiltinModule %s: the portable SHA-1, same fingerprints', async (_label, value) => {
    const fresh = await loadWith(value);
    expect(fresh.fingerprintBackend()).toBe('portable');
    expect(fresh.fingerprint('abc')).toBe(`3:${ABC.slice(0, 16)}`);
    expect(fresh.fingerprint('')).toBe(`0:${EMPTY.slice(0, 16)}`);
    // Asking for the native backend where there is none still hashes, portably.
    expect(fresh.sha1OfUtf8('abc', 'native')).toBe(ABC);
  });

  it('with a native hash, both backends agree on the vectors', async () => {
    const fresh = await import('../src/fingerprint/fingerprint.js');
    expect(fresh.fingerprintBackend()).toBe('native');
    expect(fresh.sha1OfUtf8('abc', 'native')).toBe(ABC);
    expect(fresh.sha1OfUtf8('abc', 'portable')).toBe(ABC);
  });
});

describe('the algebra internals', () => {
  it('rangesCover skips a member whose index getter throws', () => {
    const set = [
      { start: 1, end: 5 },
      { start: 7, end: 9 },
    ];
    Object.defineProperty(set, 0, {
      get(): never {
        throw new Error('hostile index');
      },
    });
    expect(rangesCover(set, 3)).toBe(false);
    expect(rangesCover(set, 8)).toBe(true);
  });

  it('a normalized-looking prefix with a bad member after the walk ends: that member is dropped', () => {
    // The direct walk over `b` stops at 1-5 (a is exhausted); 8-6 is checked afterwards.
    expect(
      intersectRanges(
        [{ start: 1, end: 1 }],
        [
          { start: 1, end: 5 },
          { start: 8, end: 6 },
        ],
      ),
    ).toEqual([{ start: 1, end: 1 }]);
  });
});

describe('renderMarkdown details', () => {
  const content = 'one\ntwo\nthree';

  it.each([
    ['src/a.ts', 'ts'],
    ['lib/b.PY', 'python'],
    ['notes.txt', ''],
    ['Makefile', ''],
  ])('fences %s as "%s"', (path, lang) => {
    const { text } = renderMarkdown({
      plan: {
        files: [
          { path, fingerprint: 'fp', render: 'full', emit: [{ start: 1, end: 1 }], covered: [] },
        ],
      },
      sources: [{ path, content }],
      recorder: createEmissionRecorder({ projectRoot: '/r' }),
    });
    expect(text).toBe(`**\`${path}\`**\n\`\`\`${lang}\n1\tone\n\`\`\`\n`);
  });

  it('quotes every pointer line: already-quoted lines kept, blank lines as ">"', () => {
    const { text } = renderMarkdown({
      plan: {
        files: [
          {
            path: 'a.ts',
            fingerprint: 'fp',
            render: 'backref',
            emit: [],
            covered: [{ start: 1, end: 3 }],
          },
        ],
      },
      sources: [{ path: 'a.ts', content }],
      recorder: createEmissionRecorder({ projectRoot: '/r' }),
      pointer: () => 'Sent earlier.\n\n> kept as is\nlast',
    });
    expect(text).toBe('**`a.ts`**\n> Sent earlier.\n>\n> kept as is\n> last\n');
  });
});
