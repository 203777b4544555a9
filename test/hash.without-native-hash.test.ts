/**
 * The fingerprint on a runtime without a native hash: the portable SHA-1 takes
 * over and gives the same digests (published FIPS 180 vectors).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadWithBuiltinModule } from './_builtin-module.js';

/** Published SHA-1 vectors (FIPS 180 examples). */
const ABC = 'a9993e364706816aba3e25717850c26c9cd0d89d';
const EMPTY = 'da39a3ee5e6b4b0d3255bfef95601890afd80709';

describe('fingerprint without a native hash', () => {
  afterEach(() => {
    vi.resetModules();
  });

  /** The fingerprint module loaded fresh while `process.getBuiltinModule` is `value`. */
  const loadWith = (value: unknown) =>
    loadWithBuiltinModule(value, () => import('../src/hash/fingerprint.js'));

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
    const fresh = await import('../src/hash/fingerprint.js');
    expect(fresh.fingerprintBackend()).toBe('native');
    expect(fresh.sha1OfUtf8('abc', 'native')).toBe(ABC);
    expect(fresh.sha1OfUtf8('abc', 'portable')).toBe(ABC);
  });
});
