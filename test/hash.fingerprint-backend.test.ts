/**
 * Which SHA-1 the fingerprint reaches: the runtime's native hash where the
 * runtime has one (Node, Bun), the portable SHA-1 everywhere else, with the
 * same answers. Runtimes without a native hash are stood in for by a module
 * whose lookup finds none, and by a `process` whose builtin lookup fails.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nativeCreateHash } from '../src/hash/_native.js';

const NATIVE = '../src/hash/_native.js';
/** SHA-1("abc"), FIPS 180. */
const ABC = 'a9993e364706816aba3e25717850c26c9cd0d89d';

afterEach(() => {
  vi.doUnmock(NATIVE);
  vi.resetModules();
});

/** A fresh fingerprint module on a runtime whose native factory lookup gives `factory`. */
async function withNative(factory: unknown) {
  vi.resetModules();
  vi.doMock(NATIVE, () => ({ nativeCreateHash: () => factory }));
  return import('../src/hash/fingerprint.js');
}

describe('on a runtime without a native hash', () => {
  it('everything goes through the portable SHA-1, with the native answers', async () => {
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
