/**
 * "A number names one response, ever": a call takes its number when it is
 * planned (`reserve`), the record goes under the number the response
 * printed or nowhere, and a bucket created from nothing numbers in a fresh
 * tag. Each over-report the load-and-fault review found, at the ledger's
 * level: parallel calls of one context printing one number, records moved to
 * another number, a lost ledger numbering from 1 again, an eviction that
 * restarted the count, a late or undone record landing anyway.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  createLedger,
  createSessionStore,
  describeSession,
  type Emission,
  formatSessionBlock,
  ledgerReducer,
  planCall,
  projectFromView,
  sessionView,
} from '../src/index.js';
import { readSessionView, withSessionView } from '../src/wire/index.js';
import { emission as built, fileEmission } from './_build.js';

/** A call's emission of `path`, with the number (and tag) its response printed when given. */
function emission(path = 'a.ts', printed?: { index: number; generation?: string }): Emission {
  return built({ files: [fileEmission(path, '1-10', 300, 'fp')], ...(printed ?? {}) });
}

describe('reserve', () => {
  it('gives calls of one context that overlap a number each, in a numbering with a tag', () => {
    const store = createSessionStore();
    const first = store.reserve('/repo', 'ctx')!;
    const second = store.reserve('/repo', 'ctx')!;
    const third = store.reserve('/repo', 'ctx')!;
    expect([first.callIndex, second.callIndex, third.callIndex]).toEqual([1, 2, 3]);
    expect(first.generation).toMatch(/^[a-z]{4}$/);
    expect(second.generation).toBe(first.generation);
    // What to plan with carries the number: planCall prints it.
    expect(second.prior.callIndex).toBe(2);
    expect(planCall({ files: [], prior: second.prior }).callIndex).toBe(2);
    expect(planCall({ files: [], prior: second.prior }).generation).toBe(first.generation);
    expect(describeSession(third.prior)?.callIndex).toBe(3);
    expect(projectFromView(second.view, '/repo')?.callIndex).toBe(2);
  });

  it('draws a new tag from crypto, or with Math.random on a runtime without crypto', () => {
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'crypto')!;
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.999);
    const bytes = vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation((b) => {
      new Uint8Array(b.buffer, b.byteOffset, b.byteLength).fill(0);
      return b;
    });
    try {
      expect(createSessionStore().reserve('/repo', 'ctx')!.generation).toBe('aaaa');
      bytes.mockRestore();
      Object.defineProperty(globalThis, 'crypto', { configurable: true, value: undefined });
      expect(createSessionStore().reserve('/repo', 'ctx')!.generation).toBe('zzzz');
    } finally {
      Object.defineProperty(globalThis, 'crypto', saved);
      bytes.mockRestore();
      random.mockRestore();
    }
  });

  it('records each under the number it printed, whatever order they finish in', () => {
    const store = createSessionStore();
    const [a, b, c] = [1, 2, 3].map(() => store.reserve('/repo', 'ctx')!);
    const tag = a!.generation!;
    expect(store.record(emission('c.ts', { index: 3, generation: tag }), 'ctx')?.index).toBe(3);
    expect(store.record(emission('a.ts', { index: 1, generation: tag }), 'ctx')?.index).toBe(1);
    expect(store.record(emission('b.ts', { index: 2, generation: tag }), 'ctx')?.index).toBe(2);
    const calls = store.project('/repo', 'ctx')!.calls;
    expect(calls.map((r) => [r.index, r.files[0]!.path])).toEqual([
      [3, 'c.ts'],
      [1, 'a.ts'],
      [2, 'b.ts'],
    ]);
    expect(store.project('/repo', 'ctx')!.callCount).toBe(3);
    void b;
    void c;
  });

  it('drops a record whose number is not reserved for it: twice, never taken, or of another numbering', () => {
    const store = createSessionStore();
    const { generation } = store.reserve('/repo', 'ctx')!;
    const tag = generation!;
    expect(store.record(emission('a.ts', { index: 1, generation: tag }), 'ctx')).not.toBeNull();
    const before = store.ledger();
    expect(store.record(emission('b.ts', { index: 1, generation: tag }), 'ctx')).toBeNull();
    expect(store.record(emission('b.ts', { index: 7, generation: tag }), 'ctx')).toBeNull();
    expect(store.record(emission('b.ts', { index: 2, generation: 'zzzz' }), 'ctx')).toBeNull();
    expect(store.ledger()).toBe(before);
  });

  it('keeps numbering across an eviction by other contexts, in the same tag', () => {
    const store = createSessionStore({ maxProjects: 2 });
    const first = store.reserve('/repo', 'main')!;
    store.record(emission('a.ts', { index: 1, generation: first.generation! }), 'main');
    for (const other of ['x', 'y', 'z']) store.reserve('/repo', other);
    expect(store.view('main').projects).toEqual([]);
    const back = store.reserve('/repo', 'main')!;
    expect(back.callIndex).toBe(2);
    expect(back.generation).toBe(first.generation);
  });

  it('numbers a bucket created from nothing in a fresh tag, so no label repeats after a loss', () => {
    const store = createSessionStore();
    const before = store.reserve('/repo', 'ctx')!;
    store.forget('ctx');
    const after = store.reserve('/repo', 'ctx')!;
    expect(after.callIndex).toBe(1);
    expect(after.generation).not.toBe(before.generation);
    // The old numbering's late record finds no reservation of its own.
    const late = emission('a.ts', { index: 1, generation: before.generation! });
    expect(store.record(late, 'ctx')).toBeNull();
  });

  it('releases a number a prune names before its call recorded: the undone call records nothing', () => {
    const store = createSessionStore();
    const { callIndex, generation } = store.reserve('/repo', 'ctx')!;
    store.prune({ sessionId: 'ctx', projectRoot: '/repo', calls: [callIndex] });
    expect(
      store.record(emission('a.ts', { index: callIndex, generation: generation! }), 'ctx'),
    ).toBeNull();
    // A prune of everything held (refresh: true) leaves calls in flight their numbers.
    const next = store.reserve('/repo', 'ctx')!;
    store.prune({ sessionId: 'ctx' });
    expect(
      store.record(emission('a.ts', { index: next.callIndex, generation: generation! }), 'ctx')
        ?.index,
    ).toBe(2);
  });

  it('returns null for a root it cannot track, and with maxProjects 0', () => {
    expect(createSessionStore().reserve('', 'ctx')).toBeNull();
    expect(createSessionStore().reserve(7 as never)).toBeNull();
    expect(createSessionStore({ maxProjects: 0 }).reserve('/repo')).toBeNull();
  });

  it('forgets the oldest reservations past 64 in flight: their calls record nothing', () => {
    const store = createSessionStore();
    const taken = Array.from({ length: 70 }, () => store.reserve('/repo', 'ctx')!);
    const tag = taken[0]!.generation!;
    expect(store.record(emission('a.ts', { index: 1, generation: tag }), 'ctx')).toBeNull();
    expect(store.record(emission('a.ts', { index: 70, generation: tag }), 'ctx')?.index).toBe(70);
  });
});

describe('a record without a reservation', () => {
  it('goes under the next number, as before, when it prints none or exactly that one', () => {
    const store = createSessionStore();
    expect(store.record(emission())?.index).toBe(1);
    expect(store.record(emission('b.ts', { index: 2 }))?.index).toBe(2);
    expect(store.view().projects[0]!.generation).toBeUndefined();
  });

  it('is dropped when it printed a number another call took meanwhile: never renumbered', () => {
    const store = createSessionStore();
    // Two calls planned from one view both printed #1; the second records nothing.
    expect(store.record(emission('a.ts', { index: 1 }))?.index).toBe(1);
    expect(store.record(emission('b.ts', { index: 1 }))).toBeNull();
    expect(store.record(emission('b.ts', { index: 5 }))).toBeNull();
  });
});

describe('the reducer, pure', () => {
  it('takes the tag from the event only when it creates the entry', () => {
    let ledger = createLedger();
    ledger = ledgerReducer(ledger, { type: 'reserved', projectRoot: '/repo', generation: 'abcd' });
    ledger = ledgerReducer(ledger, { type: 'reserved', projectRoot: '/repo', generation: 'wxyz' });
    const [project] = sessionView(ledger).projects;
    expect(project).toMatchObject({ callCount: 2, generation: 'abcd', calls: [] });
  });

  it('reads a tag that is not 1 to 8 lower-case letters as none, and a reserved without a root as nothing', () => {
    const ledger = createLedger();
    for (const generation of ['ABCD', 'ab1', '', 'abcdefghi', 7]) {
      const next = ledgerReducer(ledger, {
        type: 'reserved',
        projectRoot: '/repo',
        generation: generation as never,
      });
      expect(sessionView(next).projects[0]!.generation).toBeUndefined();
    }
    expect(ledgerReducer(ledger, { type: 'reserved', projectRoot: '' })).toBe(ledger);
  });

  it('keeps reservations and tags through JSON, as a shared store stores them', () => {
    let ledger = createLedger({ maxProjects: 1 });
    ledger = ledgerReducer(ledger, {
      type: 'reserved',
      sessionId: 's',
      projectRoot: '/repo',
      generation: 'abcd',
    });
    ledger = ledgerReducer(ledger, {
      type: 'reserved',
      sessionId: 's',
      projectRoot: '/repo',
      generation: 'abcd',
    });
    const back = JSON.parse(JSON.stringify(ledger));
    const recorded = ledgerReducer(back, {
      type: 'recorded',
      sessionId: 's',
      emission: emission('a.ts', { index: 2, generation: 'abcd' }),
    });
    expect(sessionView(recorded, 's').projects[0]!.calls.map((c) => c.index)).toEqual([2]);
    // Evicted (maxProjects 1), it keeps its counters and its tag.
    const evicted = ledgerReducer(recorded, {
      type: 'reserved',
      sessionId: 't',
      projectRoot: '/repo',
      generation: 'qqqq',
    });
    const again = ledgerReducer(JSON.parse(JSON.stringify(evicted)), {
      type: 'reserved',
      sessionId: 's',
      projectRoot: '/repo',
      generation: 'zzzz',
    });
    expect(sessionView(again, 's').projects[0]).toMatchObject({ callCount: 3, generation: 'abcd' });
  });

  it('reads stored reservations defensively: numbers past the count, and lists that are not ones', () => {
    const stored = {
      version: 1,
      limits: {},
      entries: [
        {
          session: null,
          key: '/repo',
          project: {
            projectRoot: '/repo',
            callCount: 3,
            responseChars: 0,
            calls: [],
            callIndex: 3,
          },
          pending: [1, 3, 9],
        },
      ],
      evicted: [],
    };
    const tagless = (index: number) =>
      ledgerReducer(stored as never, { type: 'recorded', emission: emission('a.ts', { index }) });
    expect(sessionView(tagless(1)).projects[0]!.calls.map((c) => c.index)).toEqual([1]);
    expect(sessionView(tagless(3)).projects[0]!.calls.map((c) => c.index)).toEqual([3]);
    // 9 is past the count: never reserved. A stored project never carries a call's number.
    expect(tagless(9)).toBe(stored);
    expect(sessionView(tagless(1)).projects[0]!.callIndex).toBeUndefined();
    expect(sessionView(stored as never).projects[0]!.callIndex).toBeUndefined();
    // A list that is not one of positive integers, or longer than 64, holds no reservation.
    for (const pending of [[1, 'x'], Array.from({ length: 65 }, (_, i) => i + 1), 'nope']) {
      const junk = {
        ...stored,
        entries: [
          {
            ...stored.entries[0]!,
            project: { ...stored.entries[0]!.project, callCount: 70 },
            pending,
          },
        ],
      };
      expect(
        ledgerReducer(junk as never, {
          type: 'recorded',
          emission: emission('a.ts', { index: 1 }),
        }),
      ).toBe(junk);
    }
  });

  it('keeps a stored numbering tag through eviction: of evicted counters, and of entries past maxProjects', () => {
    const project = (root: string) => ({
      projectRoot: root,
      callCount: 2,
      responseChars: 0,
      calls: [],
    });
    const stored = {
      version: 1,
      limits: { maxProjects: 1 },
      entries: [
        {
          session: 'a',
          key: '/one',
          project: { ...project('/one'), generation: 'oneone' },
          pending: [],
        },
        {
          session: 'a',
          key: '/two',
          project: { ...project('/two'), generation: 'twotwo' },
          pending: [],
        },
      ],
      evicted: [
        { session: 'a', key: '/three', callCount: 5, responseChars: 0, generation: 'three' },
      ],
    };
    const back = (root: string) =>
      sessionView(
        ledgerReducer(stored as never, {
          type: 'reserved',
          sessionId: 'a',
          projectRoot: root,
          generation: 'zzzz',
        }),
        'a',
      ).projects.find((p) => p.projectRoot === root);
    expect(back('/one')).toMatchObject({ callCount: 3, generation: 'oneone' });
    expect(back('/three')).toMatchObject({ callCount: 6, generation: 'three' });
    expect(back('/four')).toMatchObject({ callCount: 1, generation: 'zzzz' });
  });
});

describe('numbers that came from outside', () => {
  it('plans with the number and tag a foreign prior carries, and reads junk in them as none', () => {
    const prior = { projectRoot: '/repo', callCount: 4, responseChars: 0, calls: [] };
    expect(
      planCall({ files: [], prior: { ...prior, callIndex: 3, generation: 'kqfz' } }),
    ).toMatchObject({
      callIndex: 3,
      generation: 'kqfz',
    });
    expect(
      planCall({ files: [], prior: { ...prior, callIndex: 'x', generation: 'KQ' } as never }),
    ).toMatchObject({
      callIndex: 5,
      generation: null,
    });
  });

  it('keeps the number and tag of a view through a clone into a worker, and drops junk', () => {
    const store = createSessionStore();
    const { view, callIndex, generation } = store.reserve('/repo', 'ctx')!;
    const cloned = readSessionView(withSessionView({}, structuredClone(view)));
    expect(projectFromView(cloned, '/repo')).toMatchObject({ callIndex, generation });
    const junk = {
      version: 1,
      projects: [{ ...view.projects[0], callIndex: 0, generation: 'A-B' }],
    };
    const read = projectFromView(readSessionView(withSessionView({}, junk as never)), '/repo');
    expect(read?.callIndex).toBeUndefined();
    expect(read?.generation).toBeUndefined();
  });

  it('prints the tag of a session block that went through JSON, and no junk', () => {
    const block = { callIndex: 2, priorCalls: 1, priorChars: 10, priorFiles: [] };
    expect(
      formatSessionBlock(JSON.parse(JSON.stringify({ ...block, generation: 'kqfz' }))),
    ).toMatch(/^session: call #2\/kqfz for this project/);
    expect(formatSessionBlock({ ...block, generation: 'K Q' } as never)).toMatch(
      /^session: call #2 for/,
    );
  });
});
