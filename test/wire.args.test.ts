/**
 * The tool arguments a client sends for span-ledger's sake: `refresh`,
 * `context`, and a conversation id in `_meta`. They come from the client, so
 * junk reads as absent (`null`), never as a throw, and nothing a prototype
 * carries counts as an argument.
 */
import { describe, expect, it } from 'vitest';
import {
  CONTEXT_INPUT_SCHEMA,
  contextIdFromMeta,
  mintContextToken,
  REFRESH_INPUT_SCHEMA,
  readContextToken,
  readRefresh,
} from '../src/index.js';
import { MAX_REFRESH_CALLS } from '../src/wire/args.js';

function throwingProxy(array: boolean): object {
  const boom = (): never => {
    throw new Error('hostile read');
  };
  return new Proxy(array ? [] : {}, { get: boom, has: boom, getOwnPropertyDescriptor: boom });
}

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable([], {});
  revoke();
  return proxy;
}

// biome-ignore lint/suspicious/noSparseArray: the hole is the point
const SPARSE = [1, , 3];

describe('readRefresh', () => {
  it('reads true as everything', () => {
    expect(readRefresh({ refresh: true })).toEqual({});
  });

  it('meets a client that sends every argument as a string halfway: "true", "3", "3,5", "[3, 5]"', () => {
    expect(readRefresh({ refresh: 'true' })).toEqual({});
    expect(readRefresh({ refresh: ' TRUE ' })).toEqual({});
    expect(readRefresh({ refresh: '3' })).toEqual({ calls: [3] });
    expect(readRefresh({ refresh: '5,3' })).toEqual({ calls: [3, 5] });
    expect(readRefresh({ refresh: '[3, 5, 3]' })).toEqual({ calls: [3, 5] });
    expect(readRefresh({ refresh: 'false' })).toBeNull();
    expect(readRefresh({ refresh: '' })).toBeNull();
    expect(readRefresh({ refresh: `[${'1,'.repeat(1024)}1]` })).toBeNull();
  });

  it('reads positive safe integers as those calls, ascending and each once', () => {
    expect(readRefresh({ refresh: [3] })).toEqual({ calls: [3] });
    expect(readRefresh({ refresh: [5, 3, 5, 1] })).toEqual({ calls: [1, 3, 5] });
    expect(readRefresh({ refresh: [] })).toEqual({ calls: [] });
    expect(readRefresh({ refresh: [2 ** 53 - 1] })).toEqual({ calls: [2 ** 53 - 1] });
  });

  it.each([
    ['absent', {}],
    ['false', { refresh: false }],
    ["'yes'", { refresh: 'yes' }],
    ["'3.5'", { refresh: '3.5' }],
    ["'[0]'", { refresh: '[0]' }],
    ["'3,'", { refresh: '3,' }],
    ["'[]'", { refresh: '[]' }],
    ['1', { refresh: 1 }],
    ['null', { refresh: null }],
    ['[0]', { refresh: [0] }],
    ['[1.5]', { refresh: [1.5] }],
    ['[-1]', { refresh: [-1] }],
    ['[2^53]', { refresh: [2 ** 53] }],
    ["['3']", { refresh: ['3'] }],
    ['[NaN]', { refresh: [Number.NaN] }],
    ['[1, null]', { refresh: [1, null] }],
    ['a sparse array', { refresh: SPARSE }],
    ["['__proto__']", { refresh: ['__proto__'] }],
    ['an object', { refresh: { calls: [1] } }],
  ])('reads %s as absent', (_label, args) => {
    expect(readRefresh(args)).toBeNull();
  });

  it('reads a list longer than MAX_REFRESH_CALLS as absent, and one at the bound in full', () => {
    const million = Array.from({ length: 1_000_000 }, (_, i) => i + 1);
    expect(readRefresh({ refresh: million })).toBeNull();
    const most = million.slice(0, MAX_REFRESH_CALLS);
    expect(readRefresh({ refresh: most })?.calls).toHaveLength(1024);
    expect(readRefresh({ refresh: [...most, 1] })).toBeNull();
  });

  it('never throws on a proxy that throws, a revoked one, or args that are not objects', () => {
    for (const args of [
      throwingProxy(false),
      { refresh: throwingProxy(true) },
      { refresh: revoked() },
      revoked(),
      null,
      undefined,
      'refresh',
      42,
    ]) {
      expect(readRefresh(args)).toBeNull();
    }
  });

  it('reads an array whose length is not a count as absent', () => {
    for (const length of [-1, 1.5, 'x']) {
      const odd = new Proxy([1], { get: (t, k) => (k === 'length' ? length : Reflect.get(t, k)) });
      expect(readRefresh({ refresh: odd })).toBeNull();
    }
  });

  it('takes only an own property: an inherited refresh, or one under __proto__, is absent', () => {
    expect(readRefresh(Object.create({ refresh: true }))).toBeNull();
    expect(readRefresh(JSON.parse('{"__proto__": {"refresh": true}}'))).toBeNull();
    expect(readRefresh(JSON.parse('{"__proto__": {"x": 1}, "refresh": [2]}'))).toEqual({
      calls: [2],
    });
  });

  it('answers frozen values', () => {
    const read = readRefresh({ refresh: [2, 1] })!;
    expect(Object.isFrozen(read)).toBe(true);
    expect(Object.isFrozen(read.calls)).toBe(true);
    expect(Object.isFrozen(readRefresh({ refresh: true }))).toBe(true);
  });
});

describe('readContextToken', () => {
  it('reads 6 to 64 chars of A-Za-z0-9_-', () => {
    expect(readContextToken({ context: 'k7f3q2ab' })).toBe('k7f3q2ab');
    expect(readContextToken({ context: 'Ab-_09' })).toBe('Ab-_09');
    expect(readContextToken({ context: 'x'.repeat(64) })).toBe('x'.repeat(64));
  });

  it.each([
    ['empty', ''],
    ['5 chars', 'abcde'],
    ['65 chars', 'x'.repeat(65)],
    ['a path', '../x'],
    ['a slash', 'abc/def'],
    ['a space', 'abc def'],
    ['a newline at the end', 'abcdef\n'],
    ['a number', 12345678],
    ['null', null],
    ['an array', ['k7f3q2ab']],
    ['non-ASCII letters', 'kéf3q2ab'],
  ])('reads %s as absent', (_label, context) => {
    expect(readContextToken({ context })).toBeNull();
  });

  it('never throws on a proxy, and takes only an own property', () => {
    expect(readContextToken(throwingProxy(false))).toBeNull();
    expect(readContextToken(revoked())).toBeNull();
    expect(readContextToken(Object.create({ context: 'k7f3q2ab' }))).toBeNull();
    expect(readContextToken(undefined)).toBeNull();
  });
});

describe('mintContextToken', () => {
  it('mints 8 chars of a-z0-9 that readContextToken accepts back', () => {
    for (let i = 0; i < 50; i++) {
      const token = mintContextToken();
      expect(token).toMatch(/^[a-z0-9]{8}$/);
      expect(readContextToken({ context: token })).toBe(token);
    }
  });

  it('draws from the platform crypto: 200 tokens are 200 distinct ones', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => mintContextToken()));
    expect(tokens.size).toBe(200);
  });

  it('reads the bytes crypto.getRandomValues fills, rejecting the biased top ones', () => {
    const real = globalThis.crypto.getRandomValues.bind(globalThis.crypto);
    const fills: number[][] = [
      // 252..255 would bias the alphabet: skipped. 0 → 'a', 35 → '9', 36 → 'a', 251 → '9'.
      [252, 0, 255, 35, 36, 251, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    ];
    const spy = (bytes: Uint8Array) => {
      bytes.set(fills.shift() ?? []);
      return bytes;
    };
    Object.defineProperty(globalThis.crypto, 'getRandomValues', {
      value: spy,
      configurable: true,
    });
    try {
      expect(mintContextToken()).toBe('a9a9bcde');
    } finally {
      Object.defineProperty(globalThis.crypto, 'getRandomValues', {
        value: real,
        configurable: true,
        writable: true,
      });
    }
  });
});

describe('mintContextToken without a platform crypto', () => {
  it('throws an Error naming what is missing rather than mint a weak token', () => {
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'crypto')!;
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
    try {
      expect(() => mintContextToken()).toThrow(
        'mintContextToken(): this runtime has no crypto.getRandomValues',
      );
    } finally {
      Object.defineProperty(globalThis, 'crypto', saved);
    }
  });
});

describe('contextIdFromMeta', () => {
  it("reads VS Code's vscode.conversationId first, then a generic conversationId", () => {
    expect(contextIdFromMeta({ 'vscode.conversationId': 'c-81f2' })).toBe('c-81f2');
    expect(contextIdFromMeta({ conversationId: 'conv-9' })).toBe('conv-9');
    expect(
      contextIdFromMeta({ conversationId: 'generic', 'vscode.conversationId': 'vscode' }),
    ).toBe('vscode');
    expect(contextIdFromMeta({ 'vscode.conversationId': 7, conversationId: 'generic' })).toBe(
      'generic',
    );
  });

  it("reads opencode's sessionID after VS Code's id and before the generic one", () => {
    expect(contextIdFromMeta({ sessionID: 'ses_7f2a' })).toBe('ses_7f2a');
    expect(contextIdFromMeta({ sessionID: 'ses_7f2a', conversationId: 'generic' })).toBe(
      'ses_7f2a',
    );
    expect(contextIdFromMeta({ sessionID: 'ses_7f2a', 'vscode.conversationId': 'vscode' })).toBe(
      'vscode',
    );
    expect(contextIdFromMeta({ sessionID: '  ', conversationId: 'generic' })).toBe('generic');
    expect(contextIdFromMeta({ sessionId: 'other-spelling' })).toBeNull();
  });

  it('trims, and reads a blank, overlong or non-string id as absent', () => {
    expect(contextIdFromMeta({ conversationId: '  c-1  ' })).toBe('c-1');
    expect(contextIdFromMeta({ conversationId: '   ' })).toBeNull();
    expect(contextIdFromMeta({ conversationId: 'x'.repeat(1024) })).toHaveLength(1024);
    expect(contextIdFromMeta({ conversationId: 'x'.repeat(1025) })).toBeNull();
    expect(contextIdFromMeta({ conversationId: 42 })).toBeNull();
    expect(contextIdFromMeta({ vscode: { conversationId: 'nested' } })).toBeNull();
  });

  it('reads an id shorter than 128 bits (22 chars) as absent where other clients reach', () => {
    const uuid = '3f1c9a52-8a1e-4c4b-9f0e-2b7d5c8e1a90';
    expect(contextIdFromMeta({ conversationId: uuid }, { shared: true })).toBe(uuid);
    expect(contextIdFromMeta({ conversationId: 'x'.repeat(22) }, { shared: true })).toHaveLength(
      22,
    );
    expect(contextIdFromMeta({ conversationId: 'x'.repeat(21) }, { shared: true })).toBeNull();
    expect(contextIdFromMeta({ 'vscode.conversationId': 'x' }, { shared: true })).toBeNull();
    expect(contextIdFromMeta({ conversationId: '1' }, { shared: false })).toBe('1');
  });

  it('never throws, and takes only own properties', () => {
    for (const meta of [undefined, null, 'c-1', 3, throwingProxy(false), revoked()]) {
      expect(contextIdFromMeta(meta)).toBeNull();
    }
    expect(contextIdFromMeta(Object.create({ conversationId: 'inherited' }))).toBeNull();
  });
});

describe('the input schemas', () => {
  it('REFRESH_INPUT_SCHEMA takes true or a bounded list of positive integers', () => {
    expect(REFRESH_INPUT_SCHEMA.anyOf).toEqual([
      { type: 'boolean' },
      { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 1024 },
    ]);
    expect(REFRESH_INPUT_SCHEMA.description).toMatch(/refresh|again in full/);
    expect(REFRESH_INPUT_SCHEMA.description).not.toMatch(/\b(read|open|fetch) the file/i);
  });

  it('CONTEXT_INPUT_SCHEMA states the token format readContextToken reads', () => {
    expect(CONTEXT_INPUT_SCHEMA).toMatchObject({
      type: 'string',
      minLength: 6,
      maxLength: 64,
      pattern: '^[A-Za-z0-9_-]{6,64}$',
    });
    const pattern = new RegExp(CONTEXT_INPUT_SCHEMA.pattern);
    expect(pattern.test('k7f3q2ab')).toBe(true);
    expect(pattern.test('../x')).toBe(false);
  });

  it('are frozen all the way down', () => {
    expect(Object.isFrozen(REFRESH_INPUT_SCHEMA)).toBe(true);
    expect(Object.isFrozen(REFRESH_INPUT_SCHEMA.anyOf[1])).toBe(true);
    expect(Object.isFrozen((REFRESH_INPUT_SCHEMA.anyOf[1] as { items: object }).items)).toBe(true);
    expect(Object.isFrozen(CONTEXT_INPUT_SCHEMA)).toBe(true);
  });
});
