/**
 * Context tokens that key state other clients reach are secrets: 22 chars of
 * `A-Za-z0-9_-` (132 bits) when minted for it, and a shorter token a client
 * sends is not a key there. The 8-char token stays for a store in one
 * process, which only its own connection reaches.
 */
import { describe, expect, it } from 'vitest';
import { createSessionStore, mintContextToken, readContextToken } from '../src/index.js';

describe('mintContextToken({ shared: true })', () => {
  it('mints 22 chars of A-Za-z0-9_-, each draw its own', () => {
    const tokens = Array.from({ length: 200 }, () => mintContextToken({ shared: true }));
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(tokens).size).toBe(200);
    // Every symbol of the 64 shows up: the draw is not from a smaller alphabet.
    expect(new Set(tokens.join('')).size).toBe(64);
    expect(readContextToken({ context: tokens[0] }, { shared: true })).toBe(tokens[0]);
  });

  it('mints the 8-char local token otherwise', () => {
    expect(mintContextToken()).toMatch(/^[a-z0-9]{8}$/);
    expect(mintContextToken({ shared: false })).toMatch(/^[a-z0-9]{8}$/);
    expect(mintContextToken({ shared: 'yes' as never })).toMatch(/^[a-z0-9]{8}$/);
  });
});

describe('readContextToken(args, { shared: true })', () => {
  it('reads a guessable token as absent, so the call starts a context of its own', () => {
    expect(readContextToken({ context: 'k7f3q2ab' }, { shared: true })).toBeNull();
    expect(readContextToken({ context: 'a'.repeat(21) }, { shared: true })).toBeNull();
    expect(readContextToken({ context: 'a'.repeat(22) }, { shared: true })).toBe('a'.repeat(22));
    expect(readContextToken({ context: 'k7f3q2ab' })).toBe('k7f3q2ab');
  });

  it('reads options it cannot read as none', () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('no');
        },
      },
    );
    expect(readContextToken({ context: 'k7f3q2ab' }, hostile as never)).toBe('k7f3q2ab');
    expect(mintContextToken(hostile as never)).toMatch(/^[a-z0-9]{8}$/);
  });
});

describe('numbering tags without the platform crypto', () => {
  it('are still drawn, so taking a number never fails', () => {
    const crypto = globalThis.crypto;
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
    try {
      const tags = Array.from(
        { length: 20 },
        () => createSessionStore().reserve('/repo')!.generation,
      );
      for (const tag of tags) expect(tag).toMatch(/^[a-z]{4}$/);
      expect(new Set(tags).size).toBeGreaterThan(1);
      expect(new Set(tags.join('')).size).toBeGreaterThan(4);
    } finally {
      Object.defineProperty(globalThis, 'crypto', { value: crypto, configurable: true });
    }
  });
});
