/**
 * Ledger keys at their edges: session ids at 128 and 129 chars (trimmed
 * first), both SHA-256 backends, and project keys per platform.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sha256OfUtf8 } from '../src/hash/sha256.js';
import { createLedger, normalizeSessionId, projectKey } from '../src/index.js';
import { emission, record } from './_build.js';
import { loadWithBuiltinModule } from './_builtin-module.js';

describe('normalizeSessionId at its edges', () => {
  it('trims before measuring: 128 chars inside spaces stay plain', () => {
    const id = 'i'.repeat(128);
    expect(normalizeSessionId(`  ${id}\t`)).toBe(id);
  });

  it('hashes 129 chars to the SHA-256 of the trimmed id', () => {
    // SHA-256 of 129 × 'a', computed independently (`printf 'a%.0s' {1..129} | sha256sum`).
    const id = 'a'.repeat(129);
    const hex = 'c12cb024a2e5551cca0e08fce8f1c5e314555cc3fef6329ee994a3db752166ae';
    expect(normalizeSessionId(` ${id} `)).toBe(hex);
    expect(sha256OfUtf8(id, 'portable')).toBe(hex);
    expect(normalizeSessionId(id)).not.toBe(id);
  });

  it('keeps one char, and inner spaces', () => {
    expect(normalizeSessionId('x')).toBe('x');
    expect(normalizeSessionId(' a b ')).toBe('a b');
  });

  it('a recorded call under a padded id lands in the trimmed id’s bucket', () => {
    const ledger = record(createLedger(), emission(), '  conn  ');
    expect(ledger.entries[0]!.session).toBe('conn');
    const fallback = record(createLedger(), emission(), '   ');
    expect(fallback.entries[0]!.session).toBeNull();
  });
});

describe('projectKey per platform', () => {
  it.each([
    ['linux', '/A/B/../C/', '/A/C'],
    ['linux', 'a/b/../../..', '..'],
    ['linux', '../..', '../..'],
    ['linux', 'a/../b', 'b'],
    ['linux', './', '.'],
    ['linux', '/..', '/'],
    ['linux', '//server/share', '/server/share'],
    ['linux', 'C:\\Repo', 'C:\\Repo'],
    ['linux', 'C:/..', '.'],
    ['linux', 'z:/a/../../..', '..'],
    ['darwin', '/A/B/', '/a/b'],
    ['win32', 'c:\\Repo\\', 'c:/repo'],
    ['win32', 'C:/', 'c:/'],
    ['win32', 'C:\\..\\..', 'c:/'],
    ['win32', 'c:\\..', 'c:/'],
    ['win32', 'C:\\a', 'c:/a'],
    ['win32', 'foo\\C:\\bar', 'foo/c:/bar'],
    // A drive is one letter at the very start: `ab:` and a later `c:` are plain segments.
    ['win32', 'ab:\\..', '.'],
    ['win32', 'x\\c:\\..\\..', '.'],
    ['win32', '\\Repo\\x', '/repo/x'],
    ['win32', '//Server/Share/Deep/Path', '//server/share/deep/path'],
    ['win32', '\\\\server\\share\\', '//server/share'],
    ['win32', '\\\\server\\share\\..\\up', '//server/share/up'],
    ['win32', '//server', '/server'],
    ['win32', 'a//server/share', 'a/server/share'],
    ['win32', '..\\x', '../x'],
  ])('%s: %j → %j', (platform, root, key) => {
    expect(projectKey(root, platform)).toBe(key);
  });

  it('an empty platform argument means the running platform', () => {
    expect(projectKey('/Repo', '')).toBe(projectKey('/Repo'));
    const saved = Object.getOwnPropertyDescriptor(process, 'platform')!;
    Object.defineProperty(process, 'platform', { configurable: true, value: 'darwin' });
    try {
      expect(projectKey('/Repo', '')).toBe('/repo');
      expect(projectKey('/Repo', 'linux')).toBe('/Repo');
    } finally {
      Object.defineProperty(process, 'platform', saved);
    }
  });
});

describe('sha256OfUtf8 backends', () => {
  /** SHA-256 of 'abc' (FIPS 180-2 example). */
  const ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

  afterEach(() => {
    vi.resetModules();
  });

  /** The hash and session-id modules loaded fresh while `process.getBuiltinModule` is `value`. */
  const loadWith = (value: unknown) =>
    loadWithBuiltinModule(value, async () => ({
      ...(await import('../src/hash/sha256.js')),
      ...(await import('../src/ledger/session-id.js')),
    }));

  it('the native backend asks the runtime hash; the portable one never does', async () => {
    const crypto = process.getBuiltinModule('crypto');
    const asked: string[] = [];
    const fresh = await loadWith(() => ({
      createHash: (algorithm: string) => {
        asked.push(algorithm);
        return crypto.createHash(algorithm);
      },
    }));
    expect(fresh.sha256OfUtf8('abc', 'portable')).toBe(ABC);
    expect(asked).toEqual([]);
    expect(fresh.sha256OfUtf8('abc')).toBe(ABC);
    expect(fresh.sha256OfUtf8('abc', 'native')).toBe(ABC);
    expect(asked).toEqual(['sha256', 'sha256']);
  });

  it('without a runtime hash, asking for the native backend hashes portably', async () => {
    const fresh = await loadWith(undefined);
    expect(fresh.sha256OfUtf8('abc', 'native')).toBe(ABC);
    expect(fresh.normalizeSessionId(` ${'a'.repeat(129)}`)).toBe(
      'c12cb024a2e5551cca0e08fce8f1c5e314555cc3fef6329ee994a3db752166ae',
    );
  });
});

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
