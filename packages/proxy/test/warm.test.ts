/**
 * The warm-up before the first client runs the proxy's real call path — not
 * a pass-through that would warm nothing — and leaves nothing a client or
 * the proxy's figures can see.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startProxy } from '../src/proxy.js';
import { warmUp } from '../src/warm.js';
import { REPO } from './_bin.js';

const FIXTURE = join(REPO, 'packages/proxy/test/fixtures/upstream.mjs');

describe('the warm-up', () => {
  it('re-renders every made-up call, and a call asked again points', async () => {
    const done = await warmUp();
    // 8 rounds of 5 calls: two explorations, a node, two reads.
    expect(done.calls).toBe(40);
    // Each round's second exploration and second read point at least once.
    expect(done.pointers).toBeGreaterThanOrEqual(16);
  });

  it('leaves the proxy it warms with no call counted', async () => {
    const proxy = await startProxy({
      command: process.execPath,
      args: [FIXTURE],
      root: REPO,
      log: () => {},
    });
    try {
      expect(proxy.stats().total.calls).toBe(0);
      expect(proxy.stats().contexts).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});
