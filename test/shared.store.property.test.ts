/**
 * The shared store is the in-process store's twin: for any sequence of
 * records (well formed or hostile), prunes and forgets across sessions, each
 * session's view through the shared store, after its value went through JSON
 * in the backend, equals the view an in-process store of that session alone
 * gives, and so does every record it returns; prunes included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSessionStore, type SessionStore } from '../src/index.js';
import {
  createMemoryBackend,
  createSharedSessionStore,
  type SharedSessionStoreOptions,
  type SharedStoreBackend,
} from '../src/shared/index.js';
import { emissionArb, hostileEmissionArb } from '../src/testing/index.js';

/** A store that waits on its backend as long as a loaded machine needs: time is not what these tests check. */
function patient(backend: SharedStoreBackend, options: SharedSessionStoreOptions = {}) {
  return createSharedSessionStore(backend, { timeoutMs: 60_000, ...options });
}

const SEED = 160_016;
const SESSIONS = ['alice', 'bob', '__proto__', 'x'.repeat(200)];

const step = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('record' as const),
      session: fc.nat({ max: SESSIONS.length - 1 }),
      emission: fc.oneof(
        { weight: 4, arbitrary: emissionArb() },
        { weight: 1, arbitrary: hostileEmissionArb() },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        kind: fc.constant('prune' as const),
        session: fc.nat({ max: SESSIONS.length - 1 }),
        projectRoot: fc.constantFrom('/repo', '/other', '/nowhere'),
        calls: fc.array(fc.integer({ min: -1, max: 6 }), { maxLength: 3 }),
      },
      { requiredKeys: ['kind', 'session'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('forget' as const),
      session: fc.nat({ max: SESSIONS.length - 1 }),
    }),
  },
);

/** A record as the shared store keeps it: without its query text (the in-process store keeps it). */
function withoutQuery<T extends { query: string }>(record: T): T {
  return { ...record, query: '' };
}

describe('createSharedSessionStore: the twin of createSessionStore', () => {
  it(`gives each session the records and view an in-process store of that session gives (seed ${SEED})`, async () => {
    let recorded = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 24 }), async (steps) => {
        const limits = { maxProjects: 2, maxCallsRetained: 3, maxViewCalls: 2 };
        const shared = patient(createMemoryBackend(), { limits });
        const local: SessionStore[] = SESSIONS.map(() => createSessionStore(limits));
        for (const s of steps) {
          const id = SESSIONS[s.session]!;
          if (s.kind === 'prune') {
            const request = { sessionId: id, projectRoot: s.projectRoot, calls: s.calls };
            await shared.prune(request);
            local[s.session]!.prune(request);
            continue;
          }
          if (s.kind === 'forget') {
            await shared.forget(id);
            local[s.session]!.forget(id);
            continue;
          }
          const mine = await shared.record(s.emission as never, id);
          const theirs = local[s.session]!.record(s.emission as never, id);
          expect(mine).toEqual(theirs === null ? null : withoutQuery(theirs));
          if (mine !== null) recorded++;
        }
        for (let i = 0; i < SESSIONS.length; i++) {
          const theirs = local[i]!.view(SESSIONS[i]);
          const projects = theirs.projects.map((p) => ({ ...p, calls: p.calls.map(withoutQuery) }));
          expect(await shared.view(SESSIONS[i])).toEqual({ ...theirs, projects });
        }
      }),
      { seed: SEED, numRuns: 150 },
    );
    // Not vacuous: on any seed most drawn emissions are well formed and recorded.
    expect(recorded).toBeGreaterThan(100);
  });
});
