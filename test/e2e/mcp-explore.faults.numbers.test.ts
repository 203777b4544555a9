/**
 * "A number names one response, ever" and "recorded only if delivered", as
 * the fault probes of `_faults.ts` find them on the daemon: a real Redis
 * stalled with DEBUG SLEEP, real SDK clients, two daemon processes on one
 * store. Each test reproduces one over-report of the load-and-fault review:
 * a label printed twice in one context, or a pointer citing a response the
 * context was not delivered (or that did not carry the lines).
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  probeHangUpWhileRedisSlow,
  probeLostLedger,
  probeParallelCalls,
  probeSharedKeySpace,
  probeSlowRedisRecord,
  probeStatelessCancel,
  probeTokenlessKeys,
  stopAll,
  tokenFile,
} from './_faults.js';
import { useExample } from './_mcp-explore.js';

useExample();
afterAll(stopAll);

describe('recorded under the number it printed, or not at all', () => {
  it('records nothing under another number when Redis is slower than the store timeout', async () => {
    const { figure, met } = await probeSlowRedisRecord();
    expect(met, figure).toBe(true);
  });

  it('points at nothing a client hung up on while Redis was slow', async () => {
    const { figure, met } = await probeHangUpWhileRedisSlow();
    expect(met, figure).toBe(true);
  });

  it('points at nothing cancelled on a stateless daemon, on the same process or another', async () => {
    const { figure, met } = await probeStatelessCancel();
    expect(met, figure).toBe(true);
  });
});

describe('no label twice in one context', () => {
  it('after the ledger was flushed, expired, or the daemon restarted', async () => {
    const { figure, met } = await probeLostLedger();
    expect(met, figure).toBe(true);
  });

  it('across 100 parallel calls over two daemons, 3 in one session, and an eviction', async () => {
    const { figure, met } = await probeParallelCalls(100);
    expect(met, figure).toBe(true);
  });
});

describe('the shared store', () => {
  it('keys contexts by 128-bit tokens, apart from _meta ids', async () => {
    const { figure, met } = await probeSharedKeySpace();
    expect(met, figure).toBe(true);
  });

  it("keeps one principal out of another's context with --token-file", async () => {
    const tokens = [
      'first-principal-0123456789abcdef',
      'second-principal-0123456789abcdef',
    ] as const;
    const file = tokenFile(tokens);
    try {
      const { figure, met } = await probeSharedKeySpace({ path: file.path, tokens });
      expect(met, figure).toBe(true);
    } finally {
      file.remove();
    }
  });

  it('lets keys of token-less calls expire within 5 minutes and stores no query text', async () => {
    const { figure, met } = await probeTokenlessKeys(300);
    expect(met, figure).toBe(true);
  });
});
