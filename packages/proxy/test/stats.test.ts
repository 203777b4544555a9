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
