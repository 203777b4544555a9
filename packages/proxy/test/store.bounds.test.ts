/**
 * The proxy's ledger in this process is bounded per principal: one
 * principal's many contexts evict its own least recently used ones, never
 * another principal's.
 */
import { describe, expect, it } from 'vitest';
import { tokenKey } from '../src/context.js';
import { PROXY_LIMITS } from '../src/sectioned.js';
import { localStore, type ProxyStore } from '../src/store.js';

const ROOT = '/repo';

/** One call of `context`: its number taken and its record written. */
async function call(store: ProxyStore, context: string): Promise<number> {
  const reserved = await store.reserve(ROOT, context);
  await reserved!.record({
    projectRoot: ROOT,
    query: 'show',
    files: [{ path: 'a.ts', ranges: [{ start: 1, end: 10 }], chars: 100, fingerprint: 'f' }],
    sourceChars: 100,
    responseChars: 10,
  });
  return reserved!.prior.calls.length;
}

describe('localStore', () => {
  it("keeps a principal's ledger while another principal opens 100 contexts", async () => {
    const store = localStore(PROXY_LIMITS);
    const mine = tokenKey('Qm9yP1c3eXhKzT2vLw8sNA', 'principal-a');
    expect(await call(store, mine)).toBe(0);
    for (let i = 0; i < 100; i++) {
      await call(store, tokenKey(`context-${String(i).padStart(16, '0')}`, 'principal-b'));
    }
    // A's second call still plans on its first.
    expect(await call(store, mine)).toBe(1);
    // B's own bound still holds: its oldest context went.
    expect(
      await call(store, tokenKey(`context-${String(0).padStart(16, '0')}`, 'principal-b')),
    ).toBe(0);
  });
});
