/**
 * The context simulator of `bench:contexts` on a small run (two of the
 * TypeScript lib drill-downs): the script is the one the issue fixes, and
 * the arms keep the promises their hosts make — with host signals no pointer
 * cites a line the asking context does not hold, with context tokens a
 * subagent is never pointed at its parent's responses, with numbers and
 * `refresh` a lost response costs one call and never a file read, and
 * revision 1 shows the failure it is.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type ArmFigures, runContexts, totalOf } from '../bench/contexts/run.js';
import { contextScript } from '../bench/contexts/script.js';
import { loadDeclarationProject } from '../bench/replay/project.js';
import { drillDown, TOPICS } from '../bench/replay/sequences.js';
import type { RecordedSequence } from '../src/cli/replay.js';

const SMALL = ['array', 'compiler-program'];

type Totals = Record<'a' | 'b' | 'c' | 'd' | 'e', ArmFigures>;
let totals: Totals;

beforeAll(() => {
  const project = loadDeclarationProject();
  const sequences = TOPICS.filter((t) => SMALL.includes(t.name)).map((t) => drillDown(project, t));
  const rows = runContexts(sequences, project.files);
  const t = (arm: 'a' | 'b' | 'c' | 'd' | 'e') => totalOf(rows, arm);
  totals = { a: t('a'), b: t('b'), c: t('c'), d: t('d'), e: t('e') };
}, 60_000);

describe('the script', () => {
  it('spawns the subagent after the parent’s second call and compacts every third call', () => {
    const call = (query: string) => ({ query, files: [] });
    const sequence: RecordedSequence = {
      name: 'five',
      budget: {},
      calls: ['q1', 'q2', 'q3', 'q4', 'q5'].map(call),
    };
    const steps = contextScript(sequence).map((s) =>
      s.kind === 'compact' ? `compact ${s.context}` : `${s.context} ${s.call.query}`,
    );
    expect(steps).toEqual([
      'parent q1',
      'parent q2',
      'subagent q1',
      'subagent q2',
      'parent q3',
      'compact parent',
      'parent q4',
      'parent q5',
    ]);
  });

  it('re-sends source the contexts already hold when dedup is off (the run has something to save)', () => {
    expect(totals.a.stalePointers).toBe(0);
    expect(totals.a.duplicateChars).toBeGreaterThan(10_000);
  });
});

describe('the arms', () => {
  it('(b) revision 1 points the subagent at source it never saw, and it reads files whole', () => {
    expect(totals.b.subagentStalePointers).toBeGreaterThan(0);
    expect(totals.b.fileReads).toBeGreaterThan(0);
    expect(totals.b.deliveredChars).toBeGreaterThan(totals.a.deliveredChars);
  });

  it('(d) with host signals never writes a pointer to lines the asking context does not hold', () => {
    expect(totals.d.stalePointers).toBe(0);
    expect(totals.d.fileReads).toBe(0);
    expect(totals.d.extraCalls).toBe(0);
  });

  it('(e) with context tokens never points a subagent at its parent’s responses', () => {
    expect(totals.e.subagentStalePointers).toBe(0);
    expect(totals.e.fileReads).toBe(0);
    expect(totals.e.linesLost).toBe(0);
    expect(totals.e.duplicateChars).toBeLessThanOrEqual(totals.c.duplicateChars);
  });

  it('(c) with numbers and refresh never reads a file and halves the duplicates of dedup off', () => {
    expect(totals.c.staleResponses).toBeGreaterThan(0);
    expect(totals.c.refreshCalls).toBeGreaterThan(0);
    expect(totals.c.fileReads).toBe(0);
    expect(totals.c.duplicateChars).toBeLessThanOrEqual(0.5 * totals.a.duplicateChars);
  });

  it('(c) recovers every stale response with one refresh and leaves no hole', () => {
    expect(totals.c.recoveredByOneCall).toBe(totals.c.staleResponses);
    expect(totals.c.linesLost).toBe(0);
  });

  it('(c), (d) and (e) deliver at least the unique source of dedup off', () => {
    for (const arm of ['c', 'd', 'e'] as const) {
      expect(totals[arm].uniqueChars, arm).toBeGreaterThanOrEqual(totals.a.uniqueChars);
    }
  });
});
