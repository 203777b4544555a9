/**
 * A reduced A/B replay (3 calls per drill-down) on the TypeScript declaration
 * files, so CI guards what `npm run bench:replay` reports in full.
 */
import { describe, expect, it } from 'vitest';
import { type ReplayRow, runReplay, shareCut } from '../bench/replay/run.js';
import { TOPICS } from '../bench/replay/sequences.js';
import { DEDUP_THRESHOLDS } from '../src/index.js';

const rows: ReplayRow[] = runReplay(TOPICS.map((t) => ({ ...t, calls: 3 as const })));

describe('A/B replay on node_modules/typescript/lib', () => {
  it('gives every call more ranked candidates than its budget', () => {
    for (const row of rows) {
      for (const chars of row.candidateChars) expect(chars).toBeGreaterThan(10_000);
    }
  });

  it.each(TOPICS.map((t) => t.name))('%s: withholds no line the agent never received', (name) => {
    expect(rows.find((r) => r.sequence === name)!.withheldUnseen).toBe(0);
  });

  it.each(TOPICS.map((t) => t.name))(
    '%s: unique source chars ≥ baseline, > when it duplicates >10%',
    (name) => {
      const row = rows.find((r) => r.sequence === name)!;
      expect(row.dedup.uniqueChars).toBeGreaterThanOrEqual(row.baseline.uniqueChars);
      if (row.baseline.duplicateShare > 0.1) {
        expect(row.dedup.uniqueChars).toBeGreaterThan(row.baseline.uniqueChars);
      }
    },
  );

  it.each(TOPICS.map((t) => t.name))(
    '%s: leaves only duplicate runs the size gate keeps',
    (name) => {
      const row = rows.find((r) => r.sequence === name)!;
      expect(row.longestDuplicateRun).toBeLessThan(DEDUP_THRESHOLDS.minCoveredLines);
    },
  );

  it('cuts the duplicate share by ≥ 90% on every sequence that duplicates ≥ 25% without dedup', () => {
    const heavy = rows.filter((r) => r.baseline.duplicateShare >= 0.25);
    expect(heavy.length).toBeGreaterThanOrEqual(4);
    for (const row of heavy) expect(shareCut(row), row.sequence).toBeGreaterThanOrEqual(0.9);
  });

  it('cuts duplicate source chars by ≥ 90% over all sequences together', () => {
    const base = rows.reduce((s, r) => s + r.baseline.duplicateChars, 0);
    const dedup = rows.reduce((s, r) => s + r.dedup.duplicateChars, 0);
    expect(base).toBeGreaterThan(0);
    expect(dedup / base).toBeLessThanOrEqual(0.1);
  });
});
