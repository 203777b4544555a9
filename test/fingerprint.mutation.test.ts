/**
 * Which SHA-1 the fingerprint reaches, tested at the seam: a stand-in for the
 * native hash factory shows when it is called and with what, and the lookup
 * of the native factory is tested against runtimes that lack one.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nativeCreateHash } from '../src/fingerprint/_native.js';

const NATIVE = '../src/fingerprint/_native.js';
/** SHA-1("abc"), FIPS 180. */
const ABC = 'a9993e364706816aba3e25717850c26c9cd0d89d';

afterEach(() => {
  vi.doUnmock(NATIVE);
  vi.resetModules();
});

/** A fresh fingerprint module whose native factory is `factory`. */
async function withNative(factory: unknown) {
  vi.resetModules();
  vi.doMock(NATIVE, () => ({ nativeCreateHash: () => factory }));
  return import('../src/fingerprint/fingerprint.js');
}

describe('the fingerprint backends', () => {
  it('the native backend hands the content to the native factory as UTF-8, asking for hex SHA-1', async () => {
    const calls: unknown[][] = [];
    const fake = (algorithm: string) => ({
      update: (data: string, encoding: string) => ({
        digest: (output: string) => {
          calls.push([algorithm, data, encoding, output]);
          return '0123456789abcdef'.repeat(3).slice(0, 40);
        },
      }),
    });
    const fp = await withNative(fake);
    expect(fp.fingerprintBackend()).toBe('native');
    expect(fp.sha1OfUtf8('abc')).toBe('0123456789abcdef0123456789abcdef01234567');
    expect(fp.fingerprint('é')).toBe('1:0123456789abcdef');
    expect(calls).toEqual([
      ['sha1', 'abc', 'utf8', 'hex'],
      ['sha1', 'é', 'utf8', 'hex'],
    ]);
    // Asked for the portable one, the native factory is left alone.
    expect(fp.sha1OfUtf8('abc', 'portable')).toBe(ABC);
    expect(calls).toHaveLength(2);
  });

  it('without a native factory everything goes through the portable SHA-1', async () => {
    const fp = await withNative(undefined);
    expect(fp.fingerprintBackend()).toBe('portable');
    expect(fp.sha1OfUtf8('abc', 'native')).toBe(ABC);
    expect(fp.fingerprint('abc')).toBe(`3:${ABC.slice(0, 16)}`);
  });
});

describe('nativeCreateHash', () => {
  type Proc = { getBuiltinModule?: unknown };
  function withBuiltin(getBuiltinModule: unknown, body: () => void): void {
    const proc = globalThis.process as unknown as Proc;
    const original = proc.getBuiltinModule;
    proc.getBuiltinModule = getBuiltinModule;
    try {
      body();
    } finally {
      proc.getBuiltinModule = original;
    }
  }

  it('is the runtime’s createHash on Node', () => {
    const createHash = nativeCreateHash();
    expect(typeof createHash).toBe('function');
    expect(createHash?.('sha1').update('abc', 'utf8').digest('hex')).toBe(ABC);
  });

  it.each([
    ['a crypto module without createHash', () => ({})],
    ['a crypto module whose createHash is not a function', () => ({ createHash: 'sha1' })],
    ['no crypto module', () => undefined],
    [
      'a lookup that throws',
      () => {
        throw new Error('no builtins here');
      },
    ],
    ['no getBuiltinModule at all', undefined],
  ])('is undefined with %s', (_label, lookup) => {
    withBuiltin(lookup, () => expect(nativeCreateHash()).toBeUndefined());
  });
});
