/**
 * The exit line's figures: what numbering added and what dedup saved, side by
 * side, and never a negative "saved".
 */
import { describe, expect, it } from 'vitest';
import { createStats } from '../src/stats.js';

const call = (upstreamChars: number, deliveredChars: number, pointers = 0) => ({
  tool: 'read_text_file',
  upstreamChars,
  deliveredChars,
  upstreamTokens: Math.round(upstreamChars / 4),
  deliveredTokens: Math.round(deliveredChars / 4),
  pointers,
  refreshed: false,
  unproven: 0,
  upstreamMs: 1,
  ownMs: 1,
  cpuMs: 1,
});

describe('the exit line', () => {
  it('says what numbering added beside what dedup saved, and a net growth as "more", never a negative saving', () => {
    const stats = createStats();
    stats.add('t:a', call(1564, 2085));
    expect(stats.summary()).toBe(
      '1 call: 1,564 chars from the upstream, 2,085 delivered (33% more, ~130 tokens more; numbering added 521 chars, dedup saved 0), 0 pointers, 0 refreshes, 0 unproven sections',
    );
    expect(stats.summary()).not.toMatch(/-\d/);
    stats.add('t:a', call(2000, 300, 1));
    expect(stats.summary()).toBe(
      '2 calls: 3,564 chars from the upstream, 2,385 delivered (33% fewer, ~295 tokens saved; numbering added 521 chars, dedup saved 1,700), 1 pointer, 0 refreshes, 0 unproven sections',
    );
    expect(stats.report().total).toMatchObject({ addedChars: 521, withheldChars: 1700 });
  });
});

describe('the stats resource', () => {
  it('labels contexts in the order they first called, counts those past 256 into the total only, and gives p50 and p95 by nearest rank', () => {
    const stats = createStats();
    for (let i = 1; i <= 257; i++) stats.add(`t:${i}`, { ...call(10, 5), ownMs: i / 3 });
    stats.add('t:1', call(10, 5));
    const report = stats.report();
    expect(report.total.calls).toBe(258);
    expect(report.contexts).toHaveLength(256);
    expect(report.contexts[0]).toMatchObject({ context: 'context 1', calls: 2 });
    expect(report.contexts[255]).toMatchObject({ context: 'context 256', calls: 1 });
    expect(report.recent.map((r) => r.context).slice(-2)).toEqual(['another context', 'context 1']);
    expect(report.ownMs).toEqual({ p50: 42.67, p95: 81.67, samples: 258 });
    expect(report.cpuMs).toEqual({ p50: 1, p95: 1 });
    expect(createStats().report().ownMs).toEqual({ p50: 0, p95: 0, samples: 0 });
  });
});
