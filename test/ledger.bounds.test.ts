/**
 * The ledger's bounds at their edges: every call and entry bound one below, at
 * and one above its limit, the order eviction follows, the counters kept for
 * evicted entries, freezing, and what the store returns at the bounds.
 * Expected values are written out by hand, never computed by the code under
 * test.
 */
import { describe, expect, it } from 'vitest';
import {
  createLedger,
  createSessionStore,
  type Ledger,
  ledgerReducer,
  sessionView,
} from '../src/index.js';
import { emission, record } from './_build.js';
import { shortLength } from './_short-length.js';

describe('maxProjects at its edge', () => {
  const roots = ['/p1', '/p2', '/p3', '/p4', '/p5'];

  it('keeps exactly maxProjects entries, evicting the oldest first', () => {
    let ledger = createLedger({ maxProjects: 3 });
    for (const root of roots.slice(0, 3)) ledger = record(ledger, emission({ projectRoot: root }));
    expect(ledger.entries.map((e) => e.key)).toEqual(['/p1', '/p2', '/p3']);
    ledger = record(ledger, emission({ projectRoot: '/p4' }));
    expect(ledger.entries.map((e) => e.key)).toEqual(['/p2', '/p3', '/p4']);
    ledger = record(ledger, emission({ projectRoot: '/p5' }));
    expect(ledger.entries.map((e) => e.key)).toEqual(['/p3', '/p4', '/p5']);
  });

  it('a recorded-into entry moves to the back without evicting anything', () => {
    let ledger = createLedger({ maxProjects: 3 });
    for (const root of roots.slice(0, 3)) ledger = record(ledger, emission({ projectRoot: root }));
    ledger = record(ledger, emission({ projectRoot: '/p1/' }));
    expect(ledger.entries.map((e) => e.key)).toEqual(['/p2', '/p3', '/p1']);
    expect(ledger.entries.map((e) => e.project.projectRoot)).toEqual(['/p2', '/p3', '/p1/']);
    expect(ledger.entries.map((e) => e.project.callCount)).toEqual([1, 1, 2]);
    ledger = record(ledger, emission({ projectRoot: '/p4' }));
    expect(ledger.entries.map((e) => e.key)).toEqual(['/p3', '/p1', '/p4']);
  });

  it('maxProjects 1 keeps only the newest; 0 keeps nothing but still answers a new ledger', () => {
    let one = record(createLedger({ maxProjects: 1 }), emission({ projectRoot: '/a' }));
    one = record(one, emission({ projectRoot: '/b' }));
    expect(one.entries.map((e) => e.key)).toEqual(['/b']);
    const zero = createLedger({ maxProjects: 0 });
    const after = record(zero, emission());
    expect(after.entries).toEqual([]);
    expect(sessionView(after)).toEqual({ version: 1, projects: [] });
  });

  it('an entry evicted and recorded again comes back with only its new record', () => {
    let ledger = createLedger({ maxProjects: 1 });
    ledger = record(ledger, emission({ projectRoot: '/a', query: 'first' }));
    ledger = record(ledger, emission({ projectRoot: '/a', query: 'second' }));
    ledger = record(ledger, emission({ projectRoot: '/b' }));
    ledger = record(ledger, emission({ projectRoot: '/a', query: 'back' }));
    expect(ledger.entries.map((e) => e.key)).toEqual(['/a']);
    expect(sessionView(ledger).projects[0]!.calls.map((c) => c.query)).toEqual(['back']);
  });
});

describe('maxCallsRetained at its edge', () => {
  function indexes(maxCallsRetained: number, calls: number): number[] {
    let ledger = createLedger({ maxCallsRetained, maxViewCalls: 100 });
    for (let i = 0; i < calls; i++) ledger = record(ledger);
    return ledger.entries[0]!.project.calls.map((c) => c.index);
  }

  it.each([
    [3, 2, [1, 2]],
    [3, 3, [1, 2, 3]],
    [3, 4, [2, 3, 4]],
    [3, 6, [4, 5, 6]],
    [1, 1, [1]],
    [1, 3, [3]],
    [0, 2, []],
  ])('keep %i of %i calls → indexes %j', (keep, calls, want) => {
    expect(indexes(keep, calls)).toEqual(want);
  });

  it('counts every call and every response char, whatever the window', () => {
    let ledger = createLedger({ maxCallsRetained: 0 });
    ledger = record(ledger, emission({ responseChars: 30 }));
    ledger = record(ledger, emission({ responseChars: 12 }));
    expect(ledger.entries[0]!.project).toEqual({
      projectRoot: '/repo',
      callCount: 2,
      responseChars: 42,
      calls: [],
    });
  });
});

describe('maxViewCalls at its edge', () => {
  function viewIndexes(maxViewCalls: number, calls: number): number[] {
    let ledger = createLedger({ maxViewCalls });
    for (let i = 0; i < calls; i++) ledger = record(ledger);
    return sessionView(ledger).projects[0]!.calls.map((c) => c.index);
  }

  it.each([
    [2, 1, [1]],
    [2, 2, [1, 2]],
    [2, 3, [2, 3]],
    [1, 3, [3]],
    [0, 2, []],
  ])('view %i of %i calls → indexes %j', (keep, calls, want) => {
    expect(viewIndexes(keep, calls)).toEqual(want);
  });

  it('hands out the stored project itself when it fits the window', () => {
    let ledger = createLedger({ maxViewCalls: 2 });
    ledger = record(ledger);
    ledger = record(ledger);
    expect(sessionView(ledger).projects[0]).toBe(ledger.entries[0]!.project);
    ledger = record(ledger);
    const trimmed = sessionView(ledger).projects[0]!;
    expect(trimmed).not.toBe(ledger.entries[0]!.project);
    expect(Object.isFrozen(trimmed)).toBe(true);
    expect(Object.isFrozen(trimmed.calls)).toBe(true);
    expect(trimmed.callCount).toBe(3);
  });

  it('shows a session its projects least recently used first', () => {
    let ledger = record(createLedger(), emission({ projectRoot: '/a' }), 's');
    ledger = record(ledger, emission({ projectRoot: '/b' }), 's');
    ledger = record(ledger, emission({ projectRoot: '/x' }), 'other');
    ledger = record(ledger, emission({ projectRoot: '/a' }), 's');
    expect(sessionView(ledger, 's').projects.map((p) => p.projectRoot)).toEqual(['/b', '/a']);
    expect(sessionView(ledger, '  s  ').projects.map((p) => p.projectRoot)).toEqual(['/b', '/a']);
  });

  it('reads past an unreadable entry instead of dropping the rest of the view', () => {
    const good = record(createLedger(), emission()).entries[0]!;
    const ledger = { ...createLedger(), entries: [null, good] } as unknown as Ledger;
    expect(sessionView(ledger).projects).toEqual([good.project]);
  });

  it('uses the default window when the ledger carries unusable limits', () => {
    let ledger = createLedger();
    for (let i = 0; i < 6; i++) ledger = record(ledger);
    const junk = { ...ledger, limits: { maxViewCalls: -1 } } as unknown as Ledger;
    expect(sessionView(junk).projects[0]!.calls.map((c) => c.index)).toEqual([3, 4, 5, 6]);
  });
});

describe('the ledger and its records are frozen', () => {
  it('freezes the ledger, its entries, projects and records', () => {
    const ledger = record(createLedger(), emission());
    const entry = ledger.entries[0]!;
    for (const value of [
      ledger,
      ledger.limits,
      ledger.entries,
      entry,
      entry.project,
      entry.project.calls,
      entry.project.calls[0],
      entry.project.calls[0]!.files,
      entry.project.calls[0]!.files[0],
    ]) {
      expect(Object.isFrozen(value)).toBe(true);
    }
    expect(Object.isFrozen(createLedger())).toBe(true);
    expect(Object.isFrozen(createLedger().entries)).toBe(true);
    expect(Object.isFrozen(createLedger({ maxProjects: 2 }).limits)).toBe(true);
  });

  it('freezes what forgotten, cleared and an empty window return', () => {
    let ledger = record(createLedger(), emission(), 'a');
    ledger = record(ledger, emission(), 'b');
    const forgot = ledgerReducer(ledger, { type: 'forgotten', sessionId: 'a' });
    expect(Object.isFrozen(forgot)).toBe(true);
    expect(Object.isFrozen(forgot.entries)).toBe(true);
    const cleared = ledgerReducer(ledger, { type: 'cleared' });
    expect(Object.isFrozen(cleared)).toBe(true);
    expect(Object.isFrozen(cleared.entries)).toBe(true);
    const none = record(createLedger({ maxCallsRetained: 0 }), emission());
    expect(Object.isFrozen(none.entries[0]!.project.calls)).toBe(true);
    expect(Object.isFrozen(sessionView(ledger))).toBe(true);
  });

  it('cleared of an empty ledger returns the same ledger', () => {
    const empty = createLedger();
    expect(ledgerReducer(empty, { type: 'cleared' })).toBe(empty);
  });

  it('forgotten keeps the other sessions’ entries in their order', () => {
    let ledger = record(createLedger(), emission({ projectRoot: '/1' }), 'a');
    ledger = record(ledger, emission({ projectRoot: '/2' }), 'b');
    ledger = record(ledger, emission({ projectRoot: '/3' }), 'a');
    ledger = record(ledger, emission({ projectRoot: '/4' }), 'c');
    const forgot = ledgerReducer(ledger, { type: 'forgotten', sessionId: 'a' });
    expect(forgot.entries.map((e) => [e.session, e.key])).toEqual([
      ['b', '/2'],
      ['c', '/4'],
    ]);
    expect(forgot.entries[0]).toBe(ledger.entries[1]);
  });
});

describe('the entries of a ledger that went through JSON', () => {
  const roundTrip = (ledger: Ledger) => JSON.parse(JSON.stringify(ledger)) as Ledger;

  it('keeps an entry of the default session (null) and counts on from it', () => {
    const parsed = roundTrip(record(createLedger(), emission({ projectRoot: '/repo' })));
    const next = record(parsed, emission({ projectRoot: '/repo' }));
    expect(next.entries.map((e) => [e.session, e.key, e.project.callCount])).toEqual([
      [null, '/repo', 2],
    ]);
  });

  it('drops an entry whose session is neither null nor an id', () => {
    const parsed = roundTrip(record(createLedger(), emission({ projectRoot: '/repo' })));
    (parsed.entries[0] as { session: unknown }).session = 42;
    const next = record(parsed, emission({ projectRoot: '/repo' }));
    expect(next.entries.map((e) => [e.session, e.key, e.project.callCount])).toEqual([
      [null, '/repo', 1],
    ]);
  });
});

describe('kept counters of evicted entries', () => {
  const counters = (
    key: string,
    callCount: number,
    responseChars = 0,
    session: unknown = null,
  ) => ({
    session,
    key,
    callCount,
    responseChars,
  });
  /** A ledger holding exactly these kept counters and no entries. */
  const withEvicted = (evicted: unknown, limits = {}) =>
    ({ ...createLedger(limits), evicted }) as unknown as Ledger;

  it('resumes a returning entry from its counters, wherever they sit in the list', () => {
    const ledger = withEvicted([counters('/a', 3, 30), counters('/b', 5, 50), counters('/c', 1)]);
    const back = record(ledger, emission({ projectRoot: '/b', responseChars: 7 }));
    expect(back.entries[0]!.project).toMatchObject({ callCount: 6, responseChars: 57 });
    expect(back.entries[0]!.project.calls.map((c) => c.index)).toEqual([6]);
    expect(back.evicted.map((c) => c.key)).toEqual(['/a', '/c']);
    const first = record(ledger, emission({ projectRoot: '/a' }));
    expect(first.entries[0]!.project.callCount).toBe(4);
    expect(first.evicted.map((c) => c.key)).toEqual(['/b', '/c']);
  });

  it('reads a foreign ledger’s kept counters only as far as the length their list reports', () => {
    const ledger = withEvicted(shortLength([counters('/a', 3, 30), counters('/b', 5, 50)], 1));
    const next = record(ledger, emission({ projectRoot: '/c' }));
    expect(next.evicted).toEqual([counters('/a', 3, 30)]);
    expect(record(ledger, emission({ projectRoot: '/b' })).entries[0]!.project.callCount).toBe(1);
  });

  it('keeps at most 64 kept counters of a foreign ledger, the most recent', () => {
    const ledger = withEvicted(Array.from({ length: 65 }, (_, i) => counters(`/p${i}`, 1)));
    const next = record(ledger, emission({ projectRoot: '/new' }));
    expect(next.evicted.map((c) => c.key)).toEqual(
      Array.from({ length: 64 }, (_, i) => `/p${i + 1}`),
    );
  });

  it('resumes only the same session’s counters', () => {
    const ledger = withEvicted([counters('/a', 3, 0, 's1')]);
    const other = record(ledger, emission({ projectRoot: '/a' }), 's2');
    expect(other.entries[0]!.project.callCount).toBe(1);
    expect(other.evicted).toEqual([counters('/a', 3, 0, 's1')]);
    const same = record(ledger, emission({ projectRoot: '/a' }), 's1');
    expect(same.entries[0]!.project.callCount).toBe(4);
    expect(same.evicted).toEqual([]);
  });

  it('keeps the counters of everything evicted at once, oldest first', () => {
    let ledger = createLedger({ maxProjects: 3 });
    for (const root of ['/a', '/b', '/c']) ledger = record(ledger, emission({ projectRoot: root }));
    expect(ledger.evicted).toEqual([]);
    const shrunk = record(
      { ...ledger, limits: { ...ledger.limits, maxProjects: 1 } } as Ledger,
      emission({ projectRoot: '/d', responseChars: 1 }),
    );
    expect(shrunk.entries.map((e) => e.key)).toEqual(['/d']);
    expect(shrunk.evicted).toEqual([
      counters('/a', 1, 200),
      counters('/b', 1, 200),
      counters('/c', 1, 200),
    ]);
    expect(shrunk.evicted.every((c) => Object.isFrozen(c))).toBe(true);
    expect(Object.isFrozen(shrunk.evicted)).toBe(true);
  });

  it('shares the kept counters when a call evicts nothing', () => {
    let ledger = createLedger({ maxProjects: 1 });
    ledger = record(ledger, emission({ projectRoot: '/a' }));
    ledger = record(ledger, emission({ projectRoot: '/b' }));
    const again = record(ledger, emission({ projectRoot: '/b' }));
    expect(again.evicted).toBe(ledger.evicted);
    expect(again.evicted).toEqual([counters('/a', 1, 200)]);
  });

  it('counts with maxProjects 0: every call is evicted at once, its counters kept', () => {
    let ledger = createLedger({ maxProjects: 0 });
    ledger = record(ledger, emission({ responseChars: 4 }));
    ledger = record(ledger, emission({ responseChars: 5 }));
    expect(ledger.entries).toEqual([]);
    expect(ledger.evicted).toEqual([counters('/repo', 2, 9)]);
    const cleared = ledgerReducer(ledger, { type: 'cleared' });
    expect(cleared).not.toBe(ledger);
    expect(cleared.evicted).toEqual([]);
    const forgot = ledgerReducer(record(createLedger({ maxProjects: 0 }), emission(), 's'), {
      type: 'forgotten',
      sessionId: 's',
    });
    expect(forgot.evicted).toEqual([]);
  });

  it('a ledger from before kept counters, or with an unreadable list, remembers none', () => {
    for (const evicted of [undefined, 'x', { 0: counters('/repo', 4) }]) {
      const next = record(withEvicted(evicted), emission());
      expect(next.entries[0]!.project.callCount).toBe(1);
      expect(next.evicted).toEqual([]);
    }
  });

  it('drops malformed counters, keeps sound ones', () => {
    const fn = Object.assign(() => 0, counters('/f', 9));
    const sound = [counters('/zero', 0, 0), counters('/s', 2, 1.5, 'conn')];
    const malformed = [
      null,
      7,
      fn,
      { ...counters('/k', 1), key: 7 },
      { ...counters('/u', 1), session: undefined },
      { ...counters('/n', 1), session: 3 },
      counters('/frac', 1.5),
      counters('/neg', -1),
      counters('/nan', 1, Number.NaN),
      counters('/inf', 1, Number.POSITIVE_INFINITY),
      counters('/negchars', 1, -1),
      { ...counters('/str', 1), responseChars: '5' },
      { ...counters('/cstr', 1), callCount: '5' },
    ];
    const next = record(withEvicted([...malformed, ...sound]), emission({ projectRoot: '/x' }));
    expect(next.evicted).toEqual(sound);
    const fnBack = record(withEvicted([fn]), emission({ projectRoot: '/f' }));
    expect(fnBack.entries[0]!.project.callCount).toBe(1);
    const nullBack = record(withEvicted([null, counters('/repo', 4)]), emission());
    expect(nullBack.entries[0]!.project.callCount).toBe(5);
  });
});

describe('createSessionStore', () => {
  it('keeps no record and hands out an empty calls list when maxCallsRetained is 0', () => {
    const store = createSessionStore({ maxCallsRetained: 0 });
    expect(store.record(emission())).toBeNull();
    expect(store.view().projects).toEqual([
      { projectRoot: '/repo', callCount: 1, responseChars: 200, calls: [] },
    ]);
  });

  it('returns the record of the entry recorded into, not an older one', () => {
    const store = createSessionStore({ maxProjects: 2 });
    store.record(emission({ projectRoot: '/a' }), 's');
    store.record(emission({ projectRoot: '/b' }), 's');
    const third = store.record(emission({ projectRoot: '/a', query: 'again' }), 's');
    expect(third).toMatchObject({ projectRoot: '/a', query: 'again', index: 2 });
    expect(store.ledger().entries.map((e) => e.key)).toEqual(['/b', '/a']);
  });

  it('forget of a session with entries drops them, and records after it count from 1', () => {
    const store = createSessionStore();
    store.record(emission(), 'x');
    store.record(emission(), 'x');
    store.forget(' x ');
    expect(store.ledger().entries).toEqual([]);
    expect(store.record(emission(), 'x')?.index).toBe(1);
  });
});
