/**
 * Edge cases the main suites do not pin, one per rule: the portable hash when
 * the runtime has no native one, the platform a project key falls back to, a
 * limits object whose getters throw, counts held finite, malformed projects in
 * the selectors, results whose properties cannot be read in the carriers, and
 * the renderer's fence languages and quoting.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createLedger,
  EMISSION_KEY,
  intersectRanges,
  ledgerReducer,
  projectKey,
  rangesCover,
  servedRangesForFile,
  takeEmission,
  VIEW_KEY,
  withSessionView,
} from '../src/index.js';
import { DEFAULT_LIMITS, readLimits } from '../src/ledger/limits.js';
import { SpanWriter } from '../src/ranges/_spans.js';

/** Published SHA-1 vectors (FIPS 180 examples). */
const ABC = 'a9993e364706816aba3e25717850c26c9cd0d89d';
const EMPTY = 'da39a3ee5e6b4b0d3255bfef95601890afd80709';

/** Replaces `process[key]` for the duration of `run`. */
function withProcessProperty<T>(key: string, descriptor: PropertyDescriptor, run: () => T): T {
  const saved = Object.getOwnPropertyDescriptor(process, key);
  Object.defineProperty(process, key, { configurable: true, ...descriptor });
  try {
    return run();
  } finally {
    if (saved) Object.defineProperty(process, key, saved);
    else delete (process as unknown as Record<string, unknown>)[key];
  }
}

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

describe('projectKey without a platform argument', () => {
  it('reads process.platform: darwin folds case', () => {
    withProcessProperty('platform', { value: 'darwin' }, () => {
      expect(projectKey('/Repo/')).toBe('/repo');
    });
  });

  it.each([
    [
      'throws',
      {
        get(): never {
          throw new Error('hostile platform');
        },
      },
    ],
    ['is empty', { value: '' }],
    ['is not a string', { value: 7 }],
  ])('falls back to linux (case kept) when process.platform %s', (_label, descriptor) => {
    withProcessProperty('platform', descriptor, () => {
      expect(projectKey('/Repo/')).toBe('/Repo');
    });
  });
});

describe('projectKey on win32', () => {
  it('keeps a drive-relative path relative: `..` is kept, never climbs past the drive', () => {
    expect(projectKey('C:foo\\..\\..\\bar', 'win32')).toBe('c:../bar');
    expect(projectKey('C:Work', 'win32')).toBe('c:work');
  });
});

describe('the ledger on unreadable input', () => {
  it('readLimits: a getter that throws reads as the default for that field', () => {
    const limits = Object.defineProperty({ maxProjects: 9 }, 'maxViewCalls', {
      enumerable: true,
      get(): never {
        throw new Error('hostile');
      },
    });
    expect(readLimits(limits)).toEqual({ ...DEFAULT_LIMITS, maxProjects: 9 });
  });

  it('a ledger whose entries are a revoked proxy comes back unchanged', () => {
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    const broken = { ...createLedger(), entries: proxy } as never;
    expect(ledgerReducer(broken, { type: 'cleared' })).toBe(broken);
  });

  it('char counts are held finite when two reports of a file add past the largest number', () => {
    const { emission } = takeEmission({
      [EMISSION_KEY]: {
        projectRoot: '/r',
        query: '',
        files: [
          { path: 'a.ts', ranges: [{ start: 1, end: 1 }], chars: Number.MAX_VALUE },
          { path: 'a.ts', ranges: [{ start: 2, end: 2 }], chars: Number.MAX_VALUE },
        ],
        sourceChars: 0,
        responseChars: 0,
      },
    });
    expect(emission?.files).toEqual([
      { path: 'a.ts', ranges: [{ start: 1, end: 2 }], chars: Number.MAX_VALUE },
    ]);
  });

  it('servedRangesForFile skips calls without a files list and files that are not objects', () => {
    const project = {
      projectRoot: '/r',
      callCount: 3,
      responseChars: 0,
      calls: [
        null,
        { files: 'not a list' },
        { files: [null, 7, { path: 'a.ts', fingerprint: 'fp', ranges: [{ start: 3, end: 4 }] }] },
        { files: [{ path: 'a.ts', fingerprint: 'fp', ranges: 'L9-12' }] },
      ],
    };
    expect(servedRangesForFile(project as never, 'a.ts', 'fp')).toEqual([{ start: 3, end: 4 }]);
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

  it('SpanWriter ignores an empty span and joins touching ones', () => {
    const w = new SpanWriter(4);
    w.push(5, 3);
    w.push(1, 2);
    w.push(3, 4);
    w.push(4, 4);
    w.push(8, 9);
    const out = w.done();
    expect([out.n, out.s.slice(0, out.n), out.e.slice(0, out.n)]).toEqual([2, [1, 8], [4, 9]]);
  });
});

describe('the carriers on results whose properties cannot be read', () => {
  const emission = {
    projectRoot: '/r',
    query: '',
    files: [{ path: 'a.ts', ranges: [{ start: 1, end: 2 }], chars: 4 }],
    sourceChars: 4,
    responseChars: 9,
  };

  it('takeEmission leaves an unreadable property out, and never lets the carrier through', () => {
    const result = Object.defineProperty({ text: 'ok', [EMISSION_KEY]: emission }, 'meta', {
      enumerable: true,
      get(): never {
        throw new Error('hostile meta');
      },
    });
    const taken = takeEmission(result);
    expect(taken.result).toEqual({ text: 'ok' });
    expect(Object.hasOwn(taken.result, EMISSION_KEY)).toBe(false);
    expect(taken.emission?.files).toEqual(emission.files);
  });

  it.each([
    ['getOwnPropertyDescriptor', 'a key cannot be checked'],
    ['ownKeys', 'keys cannot be listed'],
  ])('takeEmission returns a proxy whose %s throws as it is (%s)', (trap) => {
    const result = new Proxy(
      { [EMISSION_KEY]: emission },
      {
        [trap]: () => {
          throw new Error('hostile trap');
        },
      },
    );
    const taken = takeEmission(result);
    expect(taken.result).toBe(result);
    expect(taken.emission).toBeNull();
  });

  it('withSessionView forwards no args it cannot copy faithfully', () => {
    const args = Object.defineProperty({ q: 'auth' }, 'token', {
      enumerable: true,
      get(): never {
        throw new Error('hostile token');
      },
    });
    expect(withSessionView(args, null)).toEqual({});
    expect(Object.hasOwn(withSessionView(args, null), VIEW_KEY)).toBe(false);
  });
});
