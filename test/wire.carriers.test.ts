/**
 * The carriers at their edges: args that are not objects, results that
 * cannot be copied or checked, the limits a copy is bounded by, and
 * `recordSafely` recording only a carried emission.
 */
import { describe, expect, it } from 'vitest';
import { type Emission, type FileEmission, recordSafely } from '../src/index.js';
import {
  attachEmission,
  EMISSION_KEY,
  takeEmission,
  VIEW_KEY,
  withSessionView,
} from '../src/wire/index.js';
import { emission, fileEmission } from './_build.js';

/** `n` files named f0…f(n-1), each with `chars` = its number + 1. */
function numberedFiles(n: number): FileEmission[] {
  return Array.from({ length: n }, (_, i) => fileEmission(`f${i}`, '', i + 1));
}

describe('the carriers', () => {
  it('withSessionView reads args that are not an object as {}', () => {
    const fn = Object.assign(() => 0, { q: 'auth' });
    expect(withSessionView(fn as never, null)).toEqual({});
    expect(withSessionView('args' as never, null)).toEqual({});
  });

  it('withSessionView sets no key for an undefined view', () => {
    const out = withSessionView({ q: 1, [VIEW_KEY]: 'forged' }, undefined as never);
    expect(Reflect.ownKeys(out)).toEqual(['q']);
  });

  it('attachEmission returns a result it cannot copy as it is', () => {
    const result = Object.defineProperty({ a: 1 }, 'bad', {
      enumerable: true,
      get(): never {
        throw new Error('hostile');
      },
    });
    expect(attachEmission(result, emission())).toBe(result);
  });

  it('attachEmission and takeEmission leave a revoked proxy as it is', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(attachEmission(proxy, emission())).toBe(proxy);
    const taken = takeEmission(proxy);
    expect(taken.result).toBe(proxy);
    expect(taken.emission).toBeNull();
  });

  it('attachEmission bounds the copy by the limits given', () => {
    const carried = attachEmission({}, emission({ files: numberedFiles(3) }), {
      maxFilesPerCall: 1,
    }) as Record<string, Emission>;
    expect(carried[EMISSION_KEY]!.files.map((f) => f.path)).toEqual(['f2']);
  });

  it('takeEmission answers a fresh copy and the sanitized emission, bounded by its limits', () => {
    const result = { a: 1, [EMISSION_KEY]: emission({ files: numberedFiles(3) }) };
    const taken = takeEmission(result, { maxFilesPerCall: 2 });
    expect(taken.result).not.toBe(result);
    expect(taken.result).toEqual({ a: 1 });
    expect(taken.emission!.files.map((f) => f.path)).toEqual(['f1', 'f2']);
    expect(Object.hasOwn(result, EMISSION_KEY)).toBe(true);
  });

  it('takeEmission on a result with a key check that throws answers the same result', () => {
    const result = new Proxy(
      { [EMISSION_KEY]: emission() },
      {
        getOwnPropertyDescriptor(): never {
          throw new Error('hostile');
        },
      },
    );
    const taken = takeEmission(result);
    expect(taken).toEqual({ result, emission: null });
    expect(taken.result).toBe(result);
  });

  it('recordSafely records only an emission that was carried, under the session and limits given', () => {
    const seen: unknown[][] = [];
    const sink = { record: (...args: unknown[]) => seen.push(args) };
    expect(recordSafely(sink, { a: 1 })).toEqual({ a: 1 });
    expect(recordSafely(sink, { a: 1, [EMISSION_KEY]: { projectRoot: '' } })).toEqual({ a: 1 });
    expect(seen).toEqual([]);
    const raw = { a: 1, [EMISSION_KEY]: emission({ files: numberedFiles(3) }) };
    expect(recordSafely(sink, raw, { sessionId: 'conn', limits: { maxFilesPerCall: 1 } })).toEqual({
      a: 1,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]![1]).toBe('conn');
    expect((seen[0]![0] as Emission).files.map((f) => f.path)).toEqual(['f2']);
  });
});

describe('the carriers on results whose properties cannot be read', () => {
  const emission = {
    projectRoot: '/r',
    query: '',
    files: [fileEmission('a.ts', '1-2', 4)],
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
