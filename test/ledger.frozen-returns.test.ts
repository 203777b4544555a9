/**
 * Check at the edge, trust inside: what the ledger, the store and the
 * selectors return is deep-frozen, so no caller can make a later call
 * over-report by writing to it; a ledger or view that did not come from the
 * library (JSON, a structured clone, written by hand) is read through the
 * boundary, never trusted as it is.
 */
import { describe, expect, it } from 'vitest';
import {
  createLedger,
  createSessionStore,
  type Ledger,
  ledgerReducer,
  projectFromView,
  servedRangesForFile,
  sessionView,
} from '../src/index.js';
import { EMISSION_KEY, readSessionView, takeEmission, VIEW_KEY } from '../src/wire/index.js';
import { emission, fileEmission, ranges } from './_build.js';

/** Every object reachable from `value` is frozen. */
function deepFrozen(value: unknown, seen = new Set<unknown>()): boolean {
  if (typeof value !== 'object' || value === null || seen.has(value)) return true;
  seen.add(value);
  return Object.isFrozen(value) && Object.values(value).every((v) => deepFrozen(v, seen));
}

function recorded(times = 2): Ledger {
  let ledger = createLedger();
  for (let i = 0; i < times; i++)
    ledger = ledgerReducer(ledger, { type: 'recorded', emission: emission() });
  return ledger;
}

describe('what the library returns is frozen all the way down', () => {
  it('the ledger after every kind of event, and every view of it', () => {
    const ledger = recorded();
    for (const next of [
      ledger,
      createLedger(),
      ledgerReducer(ledger, { type: 'pruned', calls: [1] }),
      ledgerReducer(ledger, { type: 'cleared' }),
      ledgerReducer(
        ledgerReducer(ledger, { type: 'recorded', emission: emission(), sessionId: 's' }),
        {
          type: 'forgotten',
          sessionId: 's',
        },
      ),
    ]) {
      expect(deepFrozen(next)).toBe(true);
      expect(deepFrozen(sessionView(next))).toBe(true);
    }
  });

  it('the store: records, views, projects and the ledger', () => {
    const store = createSessionStore({ maxViewCalls: 1 });
    const record = store.record(emission());
    store.record(emission());
    expect(deepFrozen(record)).toBe(true);
    expect(deepFrozen(store.view())).toBe(true);
    expect(deepFrozen(store.project('/repo'))).toBe(true);
    expect(deepFrozen(store.project('/elsewhere'))).toBe(true);
    expect(deepFrozen(store.ledger())).toBe(true);
  });

  it('the selectors and the carriers', () => {
    const view = sessionView(recorded());
    const project = projectFromView(view, '/repo');
    expect(deepFrozen(project)).toBe(true);
    expect(deepFrozen(servedRangesForFile(project, 'a.ts', 'fp'))).toBe(true);
    expect(deepFrozen(servedRangesForFile(null, 'a.ts', 'fp'))).toBe(true);
    const read = readSessionView({ [VIEW_KEY]: structuredClone(view) });
    expect(deepFrozen(read)).toBe(true);
    expect(deepFrozen(takeEmission({ [EMISSION_KEY]: emission() }).emission)).toBe(true);
  });

  it('a caller writing to what it was handed cannot widen what a later call may withhold', () => {
    const store = createSessionStore();
    store.record(emission());
    const served = servedRangesForFile(store.project('/repo'), 'a.ts', 'fp');
    expect(() => {
      (served as { start: number; end: number }[])[0]!.end = 1000;
    }).toThrow(TypeError);
    expect(() => (served as unknown[]).push({ start: 11, end: 500 })).toThrow(TypeError);
    const calls = store.project('/repo')!.calls as unknown[];
    expect(() => calls.push({ index: 9, files: [] })).toThrow(TypeError);
    expect(servedRangesForFile(store.project('/repo'), 'a.ts', 'fp')).toEqual(ranges('1-10'));
  });
});

describe('a ledger or view that did not come from the library is read, not trusted', () => {
  it('a ledger that went through JSON reduces as the original does', () => {
    const ledger = recorded();
    const parsed = JSON.parse(JSON.stringify(ledger)) as Ledger;
    const a = ledgerReducer(ledger, { type: 'recorded', emission: emission() });
    const b = ledgerReducer(parsed, { type: 'recorded', emission: emission() });
    expect(b).toEqual(a);
    expect(deepFrozen(b)).toBe(true);
    expect(sessionView(parsed)).toEqual(sessionView(ledger));
  });

  it('an event that changes nothing answers the very object it was given, foreign or not', () => {
    const parsed = JSON.parse(JSON.stringify(recorded())) as Ledger;
    expect(ledgerReducer(parsed, { type: 'pruned', calls: [7] })).toBe(parsed);
    expect(ledgerReducer(parsed, { type: 'forgotten', sessionId: 'nobody' })).toBe(parsed);
  });

  it('a foreign ledger claiming lines its records cannot carry keeps only valid spans', () => {
    const forged = JSON.parse(JSON.stringify(recorded(1)));
    forged.entries[0].project.calls[0].files[0].ranges = [
      { start: 0, end: 1e9 },
      { start: 3, end: 4 },
    ];
    forged.entries[0].project.calls[0].files.push({ path: '', ranges: ranges('1-2') });
    const view = sessionView(forged as Ledger);
    expect(view.projects[0]!.calls[0]!.files).toEqual([fileEmission('a.ts', '3-4', 100, 'fp')]);
  });

  it('a foreign ledger past its own maxProjects evicts the oldest entries, keeping their counters', () => {
    let ledger = createLedger({ maxProjects: 3 });
    for (const root of ['/a', '/b', '/c']) {
      ledger = ledgerReducer(ledger, {
        type: 'recorded',
        emission: emission({ projectRoot: root }),
      });
    }
    const shrunk = { ...ledger, limits: { ...ledger.limits, maxProjects: 1 } } as Ledger;
    expect(sessionView(shrunk).projects.map((p) => p.projectRoot)).toEqual(['/c']);
    const back = ledgerReducer(shrunk, {
      type: 'recorded',
      emission: emission({ projectRoot: '/a' }),
    });
    expect(sessionView(back).projects.map((p) => [p.projectRoot, p.callCount])).toEqual([
      ['/a', 2],
    ]);
  });

  it('keeps entries whose session is the default bucket or a normalized id, and drops the rest', () => {
    let ledger = createLedger();
    for (const sessionId of [undefined, 'conn-1']) {
      ledger = ledgerReducer(ledger, { type: 'recorded', emission: emission(), sessionId });
    }
    const forged = JSON.parse(JSON.stringify(ledger));
    const copy = (session: unknown) => ({ ...structuredClone(forged.entries[1]), session });
    forged.entries.push(copy(' conn-2 '), copy(42), copy(''), { session: 'conn-3', project: null });
    const next = ledgerReducer(forged as Ledger, { type: 'cleared' });
    expect(next.entries).toEqual([]);
    const read = ledgerReducer(forged as Ledger, {
      type: 'recorded',
      emission: emission({ projectRoot: '/x' }),
    });
    expect(read.entries.map((e) => e.session)).toEqual([null, 'conn-1', null]);
  });

  it('re-keys entries from their roots and keeps one entry per (session, key)', () => {
    const forged = JSON.parse(JSON.stringify(recorded(1)));
    forged.entries[0].key = '/somewhere-else';
    forged.entries.push(structuredClone(forged.entries[0]));
    const next = ledgerReducer(forged as Ledger, { type: 'recorded', emission: emission() });
    expect(next.entries.map((e) => [e.key, e.project.callCount])).toEqual([['/repo', 2]]);
  });

  it.each([
    ['another version', (l: Record<string, unknown>) => ({ ...l, version: 2 })],
    ['entries that are not a list', (l: Record<string, unknown>) => ({ ...l, entries: {} })],
  ])('a ledger with %s is not a ledger: unchanged by events, an empty view', (_label, edit) => {
    const junk = edit(JSON.parse(JSON.stringify(recorded()))) as unknown as Ledger;
    expect(ledgerReducer(junk, { type: 'recorded', emission: emission() })).toBe(junk);
    expect(sessionView(junk)).toEqual({ version: 1, projects: [] });
  });

  it('a hand-written view is copied: editing it afterwards changes nothing read from it', () => {
    const call = { ...emission(), index: 1 };
    const view = {
      version: 1 as const,
      projects: [{ projectRoot: '/repo', callCount: 1, responseChars: 0, calls: [call] }],
    };
    const project = projectFromView(view, '/repo');
    (call.files as unknown as { ranges: unknown }[])[0]!.ranges = ranges('1-1000000');
    expect(servedRangesForFile(project, 'a.ts', 'fp')).toEqual(ranges('1-10'));
  });
});
