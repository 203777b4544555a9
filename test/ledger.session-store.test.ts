import { describe, expect, it } from 'vitest';
import { createSessionStore, ledgerReducer } from '../src/index.js';
import { emission } from './_build.js';

describe('createSessionStore', () => {
  it('returns the record as stored, with its index', () => {
    const store = createSessionStore();
    expect(store.record(emission())).toEqual({ ...emission(), index: 1 });
    expect(store.record(emission())!.index).toBe(2);
    expect(store.view().projects[0]!.callCount).toBe(2);
  });

  it('returns null and records nothing for a malformed emission, never throwing', () => {
    const store = createSessionStore();
    const before = store.ledger();
    for (const junk of [null, undefined, 'x', {}, { projectRoot: '' }, { projectRoot: 1 }]) {
      expect(store.record(junk as never)).toBeNull();
    }
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(store.record(proxy as never)).toBeNull();
    expect(store.ledger()).toBe(before);
  });

  it('returns null when the limits keep nothing', () => {
    expect(createSessionStore({ maxProjects: 0 }).record(emission())).toBeNull();
    const noCalls = createSessionStore({ maxCallsRetained: 0 });
    expect(noCalls.record(emission())).toBeNull();
    expect(noCalls.view().projects[0]!.callCount).toBe(1);
  });

  it('keeps sessions apart and forgets one without touching the others', () => {
    const store = createSessionStore();
    store.record(emission(), 'a');
    store.record(emission(), 'b');
    store.record(emission());
    store.forget('a');
    expect(store.view('a').projects).toEqual([]);
    expect(store.view('b').projects).toHaveLength(1);
    store.forget('  ');
    expect(store.view().projects).toHaveLength(1);
  });

  it('hands out ledger values that later records never change', () => {
    const store = createSessionStore();
    store.record(emission());
    const earlier = store.ledger();
    const snapshot = structuredClone(earlier);
    store.record(emission({ projectRoot: '/other' }));
    expect(earlier).toEqual(snapshot);
    expect(store.ledger()).not.toBe(earlier);
    expect(ledgerReducer(earlier, { type: 'cleared' }).entries).toEqual([]);
  });

  it('rejects malformed limits like createLedger', () => {
    expect(() => createSessionStore({ maxViewCalls: -2 })).toThrow(
      'createLedger(limits): limits.maxViewCalls must be a non-negative safe integer',
    );
  });
});
