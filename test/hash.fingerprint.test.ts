import { describe, expect, it } from 'vitest';
import { sha1OfUtf8 } from '../src/hash/fingerprint.js';
import { fingerprint } from '../src/index.js';
import { fingerprintBackend } from '../src/testing/index.js';

/**
 * SHA-1 vectors from FIPS 180 examples and from independent tools (coreutils
 * `sha1sum` over the UTF-8 bytes written out by hand), never from this implementation.
 */
const VECTORS: [name: string, content: string, sha1: string][] = [
  ['empty', '', 'da39a3ee5e6b4b0d3255bfef95601890afd80709'],
  ['abc (FIPS 180)', 'abc', 'a9993e364706816aba3e25717850c26c9cd0d89d'],
  [
    '448-bit message (FIPS 180)',
    'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
    '84983e441c3bd26ebaae4aa1f95129e5e54670f1',
  ],
  [
    'pangram',
    'The quick brown fox jumps over the lazy dog',
    '2fd4e1c67a2d28fced849ee1bb76e7391b93eb12',
  ],
  // "é" is C3 A9 in UTF-8: sha1sum <<< printf '\xc3\xa9'
  ['non-ASCII', 'é', 'bf15be717ac1b080b4f1c456692825891ff5073d'],
  // U+1F600 is F0 9F 98 80 in UTF-8
  ['astral', '😀', '9c533688a979a858cbd6a43c9f91aba624651f18'],
  // a lone high surrogate encodes as U+FFFD: EF BF BD
  ['lone surrogate', '\ud800', '9bdb77276c1852e1fb067820472812fcf6084024'],
];

describe('fingerprint', () => {
  it.each(VECTORS)(
    '%s: length prefix and the first 16 hex digits of SHA-1',
    (_n, content, sha1) => {
      expect(fingerprint(content)).toBe(`${content.length}:${sha1.slice(0, 16)}`);
    },
  );

  it.each(VECTORS)('%s: the portable SHA-1 agrees with the vector', (_n, content, sha1) => {
    expect(sha1OfUtf8(content, 'portable')).toBe(sha1);
  });

  it('uses the native hash on Node', () => {
    expect(fingerprintBackend()).toBe('native');
  });

  it('counts length in UTF-16 code units', () => {
    expect(fingerprint('😀').startsWith('2:')).toBe(true);
  });

  it('tells apart contents that differ in one character', () => {
    expect(fingerprint('const a = 1;\n')).not.toBe(fingerprint('const a = 2;\n'));
  });

  it('agrees between backends on messages around the block boundaries', () => {
    for (const n of [55, 56, 63, 64, 65, 119, 120, 1000]) {
      const s = `${'x'.repeat(n - 1)}é`;
      expect(sha1OfUtf8(s, 'portable')).toBe(sha1OfUtf8(s, 'native'));
    }
  });

  it.each([
    [undefined, 'undefined'],
    [null, 'null'],
    [42, 'number'],
    [['a'], 'an array'],
  ])('throws a TypeError naming the argument for %s', (value, kind) => {
    expect(() => fingerprint(value as never)).toThrow(TypeError);
    expect(() => fingerprint(value as never)).toThrow(`content must be a string, got ${kind}`);
  });
});
