/**
 * Record only what goes out: a call the client cancelled records nothing,
 * because its answer was never sent. `recordSafely` checks the call's abort
 * signal at the moment it would record; the result is stripped either way.
 */
import { describe, expect, it } from 'vitest';
import {
  createSessionStore,
  type Emission,
  fingerprint,
  planCall,
  recordSafely,
} from '../src/index.js';
import { attachEmission, withSessionView } from '../src/wire/index.js';
import { emission as emissionWith, fileEmission, ranges } from './_build.js';

const content = Array.from({ length: 102 }, (_, i) => `const line${i + 1} = ${i + 1};`).join('\n');
const FP = fingerprint(content);

function emission(): Emission {
  return emissionWith({
    query: 'checkout',
    files: [fileEmission('src/checkout.ts', '1-102', 2000, FP)],
    sourceChars: 2000,
    responseChars: 2400,
  });
}

/** A tool call as a pool would answer it: the result carries its emission. */
function answer(): object {
  return attachEmission({ content: [{ type: 'text', text: 'the source' }] }, emission());
}

describe('recordSafely with a signal', () => {
  it('records a call whose signal has not fired', () => {
    const store = createSessionStore();
    const signal = new AbortController().signal;
    expect(recordSafely(store, answer(), { signal })).toEqual({
      content: [{ type: 'text', text: 'the source' }],
    });
    expect(store.project('/repo')?.callCount).toBe(1);
  });

  it('records nothing once the signal has fired, and still strips the carrier', () => {
    const store = createSessionStore();
    const before = store.ledger();
    const controller = new AbortController();
    controller.abort();
    const result = recordSafely(store, answer(), { signal: controller.signal, sessionId: 's' });
    expect(result).toEqual({ content: [{ type: 'text', text: 'the source' }] });
    expect(store.ledger()).toBe(before);
  });

  it('checks at the moment it records: a call cancelled while it was queued records nothing', async () => {
    const store = createSessionStore();
    const controller = new AbortController();
    // The call waits behind a busy pool; the client cancels it meanwhile, and
    // the pool answers after that (an order, not two timers that a busy
    // machine can fire the other way round).
    const queued = new Promise<object>((resolve) =>
      controller.signal.addEventListener('abort', () => resolve(answer()), { once: true }),
    );
    expect(controller.signal.aborted).toBe(false);
    setTimeout(() => controller.abort(), 1);
    recordSafely(store, await queued, { signal: controller.signal });
    expect(store.project('/repo')).toEqual({
      projectRoot: '/repo',
      callCount: 0,
      responseChars: 0,
      calls: [],
    });

    // The next identical call then sends everything a first call sends.
    const files = [{ path: 'src/checkout.ts', content, intended: ranges('1-102') }];
    const next = planCall({ files, prior: store.project('/repo') });
    expect(next.files[0]!.render).toBe('full');
    expect(next.coveredChars).toBe(0);
  });

  it('a signal whose state cannot be read counts as fired (under-report)', () => {
    const store = createSessionStore();
    const unreadable = {
      get aborted(): never {
        throw new Error('gone');
      },
    };
    recordSafely(store, answer(), { signal: unreadable as never });
    recordSafely(store, answer(), { signal: { aborted: 'no' } as never });
    expect(store.ledger().entries).toEqual([]);
    recordSafely(store, answer(), { signal: null });
    recordSafely(store, answer(), { signal: { aborted: false } });
    expect(store.project('/repo')?.callCount).toBe(2);
  });

  it('records under the sessionId and within the limits of the options', () => {
    const store = createSessionStore();
    const wide = attachEmission(
      {},
      { ...emission(), files: [emission().files[0]!, fileEmission('b.ts')] },
    );
    recordSafely(store, wide, { sessionId: 'conn-2', limits: { maxFilesPerCall: 1 } });
    expect(store.project('/repo', 'conn-2')?.calls[0]?.files.map((f) => f.path)).toEqual([
      'src/checkout.ts',
    ]);
    expect(store.project('/repo')?.callCount).toBe(0);
  });

  it('bounds the copy it records by the limits in its options', () => {
    const wide = () =>
      attachEmission({}, { ...emission(), files: [emission().files[0]!, fileEmission('b.ts')] });
    const store = createSessionStore();
    recordSafely(store, wide(), { sessionId: 'a', limits: { maxFilesPerCall: 1 } });
    recordSafely(store, wide(), { sessionId: 'b', limits: { maxFilesPerCall: 2 } });
    recordSafely(store, wide(), { sessionId: 'c' });
    const paths = (id: string) => store.project('/repo', id)?.calls[0]?.files.map((f) => f.path);
    expect(paths('a')).toEqual(['src/checkout.ts']);
    expect(paths('b')).toEqual(['src/checkout.ts', 'b.ts']);
    expect(paths('c')).toEqual(['src/checkout.ts', 'b.ts']);
  });

  it('a view carried in, a cancelled answer out: the ledger is as before the call', () => {
    const store = createSessionStore();
    const args = withSessionView({ query: 'checkout' }, store.view());
    const controller = new AbortController();
    controller.abort();
    recordSafely(store, answer(), { signal: controller.signal });
    expect(store.view()).toEqual({ version: 1, projects: [] });
    expect(args).toHaveProperty('query', 'checkout');
  });
});
