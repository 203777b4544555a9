/**
 * The `pruned` event and the store's `prune` / `project`: the agent no longer
 * holds what some calls delivered, so their records go and later calls send
 * those lines again; the counters go on counting calls answered.
 */
import { describe, expect, it } from 'vitest';
import {
  createLedger,
  createSessionStore,
  type Emission,
  type Ledger,
  ledgerReducer,
  sessionView,
} from '../src/index.js';
import { fileEmission } from './_build.js';

function emission(root = '/repo', start = 1): Emission {
  return {
    projectRoot: root,
    query: 'q',
    files: [fileEmission('a.ts', [{ start, end: start + 9 }], 100, 'fp')],
    sourceChars: 100,
    responseChars: 250,
  };
}

function record(ledger: Ledger, times: number, root = '/repo', sessionId?: string): Ledger {
  let next = ledger;
  for (let i = 0; i < times; i++) {
    next = ledgerReducer(next, {
      type: 'recorded',
      emission: emission(root, i * 10 + 1),
      sessionId,
    });
  }
  return next;
}

const indexes = (ledger: Ledger, sessionId?: string, root = '/repo') =>
  sessionView(ledger, sessionId)
    .projects.find((p) => p.projectRoot === root)
    ?.calls.map((c) => c.index);

describe('pruned', () => {
  it('drops only the named records, keeping the counters', () => {
    const ledger = record(createLedger(), 3);
    const next = ledgerReducer(ledger, { type: 'pruned', calls: [2] });
    expect(indexes(next)).toEqual([1, 3]);
    const project = sessionView(next).projects[0]!;
    expect(project.callCount).toBe(3);
    expect(project.responseChars).toBe(750);
    // The next call goes on counting from the counter, not from what is held.
    const after = record(next, 1);
    expect(indexes(after)).toEqual([1, 3, 4]);
  });

  it('without calls drops every retained record of the bucket, and keeps the entry and its counters', () => {
    const ledger = record(record(createLedger(), 2), 1, '/other');
    const next = ledgerReducer(ledger, { type: 'pruned' });
    expect(sessionView(next).projects.map((p) => [p.projectRoot, p.callCount, p.calls])).toEqual([
      ['/repo', 2, []],
      ['/other', 1, []],
    ]);
  });

  it('works on the default bucket, which forgotten never clears', () => {
    const ledger = record(createLedger(), 2);
    expect(ledgerReducer(ledger, { type: 'forgotten', sessionId: '' })).toBe(ledger);
    expect(indexes(ledgerReducer(ledger, { type: 'pruned', sessionId: '  ' }))).toEqual([]);
  });

  it('with projectRoot prunes that project only, under any spelling of its root', () => {
    const ledger = record(record(createLedger(), 2), 2, '/other');
    const next = ledgerReducer(ledger, { type: 'pruned', projectRoot: '/other/./', calls: [1] });
    expect(indexes(next)).toEqual([1, 2]);
    expect(indexes(next, undefined, '/other')).toEqual([2]);
  });

  it('leaves other buckets alone, and the kept counters of evicted entries', () => {
    let ledger = record(createLedger({ maxProjects: 2 }), 2, '/gone', 'a');
    ledger = record(ledger, 2, '/repo', 'a');
    ledger = record(ledger, 2, '/repo', 'b'); // evicts a's /gone entry, keeping its counters
    const next = ledgerReducer(ledger, { type: 'pruned', sessionId: 'a' });
    expect(indexes(next, 'a')).toEqual([]);
    expect(indexes(next, 'b')).toEqual([1, 2]);
    expect(next.evicted).toBe(ledger.evicted);
    expect(next.entries.find((e) => e.session === 'b')).toBe(
      ledger.entries.find((e) => e.session === 'b'),
    );
    // The entries keep their order: pruning is not a use.
    expect(next.entries.map((e) => e.session)).toEqual(['a', 'b']);
  });

  it.each([
    ['calls naming no retained record', { calls: [9] }],
    ['an empty calls list', { calls: [] }],
    ['a session with no entries', { sessionId: 'nobody' }],
    ['a project the bucket has not seen', { projectRoot: '/nowhere' }],
    ['calls with a zero', { calls: [1, 0] }],
    ['calls with a fraction', { calls: [1.5] }],
    ['calls with a negative', { calls: [-1] }],
    ['calls past the safe integers', { calls: [2 ** 53] }],
    ['calls that is a number', { calls: 1 }],
    ['calls that is null', { calls: null }],
    ['a projectRoot that is not a string', { projectRoot: 7 }],
    ['an empty projectRoot', { projectRoot: '' }],
  ])('returns the same ledger for %s', (_label, fields) => {
    const ledger = record(createLedger(), 2);
    expect(ledgerReducer(ledger, { type: 'pruned', ...fields } as never)).toBe(ledger);
  });

  it('keeps the ledger frozen and plain', () => {
    const next = ledgerReducer(record(createLedger(), 2), { type: 'pruned', calls: [1] });
    expect(Object.isFrozen(next.entries[0]!.project.calls)).toBe(true);
    expect(Object.isFrozen(next.entries[0]!.project)).toBe(true);
    expect(JSON.parse(JSON.stringify(next))).toEqual(next);
  });
});

describe('the store: project and prune', () => {
  it('project is projectFromView of the session view, in one step', () => {
    const store = createSessionStore();
    expect(store.project('/repo')).toEqual({
      projectRoot: '/repo',
      callCount: 0,
      responseChars: 0,
      calls: [],
    });
    store.record(emission(), 'conn-1');
    expect(store.project('/repo/', 'conn-1')?.calls.map((c) => c.index)).toEqual([1]);
    expect(store.project('/repo')?.callCount).toBe(0);
  });

  it('prune dispatches pruned: the named calls of that bucket and project go', () => {
    const store = createSessionStore();
    store.record(emission(), 'conn-1');
    store.record(emission('/repo', 11), 'conn-1');
    store.record(emission('/other'), 'conn-1');
    store.prune({ sessionId: 'conn-1', projectRoot: '/repo', calls: [1] });
    expect(store.project('/repo', 'conn-1')?.calls.map((c) => c.index)).toEqual([2]);
    expect(store.project('/other', 'conn-1')?.calls.map((c) => c.index)).toEqual([1]);
    store.prune({ sessionId: 'conn-1' });
    expect(store.view('conn-1').projects.map((p) => [p.callCount, p.calls.length])).toEqual([
      [2, 0],
      [1, 0],
    ]);
  });

  it('prune with no request prunes the default bucket; a malformed one changes nothing', () => {
    const store = createSessionStore();
    store.record(emission());
    const before = store.ledger();
    store.prune({ calls: 'all' as never });
    expect(store.ledger()).toBe(before);
    store.prune();
    expect(store.project('/repo')).toMatchObject({ callCount: 1, calls: [] });
  });

  it('after a prune the next record counts on, and holds only its own lines', () => {
    const store = createSessionStore();
    store.record(emission());
    store.prune({ calls: [1] });
    expect(store.record(emission())?.index).toBe(2);
    expect(store.project('/repo')?.calls.map((c) => c.index)).toEqual([2]);
  });
});
