/**
 * A `refresh` applies to its own call whatever the shared store did: when
 * the store stalls past its deadline on the prune (Redis under `DEBUG
 * SLEEP`, a failover), the call still plans without the responses the agent
 * said it lost, and the prune is applied once the store answers again — the
 * response never points at a response named in `refresh`, and neither does
 * the next one. The store is the shared store over the in-memory backend,
 * with a switch that holds one operation past the deadline.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LIMITS } from 'span-ledger';
import { createMemoryBackend, type SharedStoreBackend } from 'span-ledger/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerCall } from '../src/call.js';
import { sharedStore } from '../src/store.js';
import { sampleScratch, textOf } from './_proxy.js';
import { sharedCallSetup } from './_slow-record.js';

let scratch = '';
let root = '';

beforeAll(() => {
  ({ scratch, root } = sampleScratch('proxy-refresh-stall-'));
});
afterAll(() => {
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
});

/** The in-memory backend; `stallNext()` holds its next operation past the store's 250 ms deadline. */
function stalling() {
  const inner = createMemoryBackend();
  let stalls = 0;
  const held = <T>(op: () => Promise<T>): Promise<T> => {
    if (stalls === 0) return op();
    stalls--;
    // As a server asleep in DEBUG SLEEP: the operation runs, late, after the store gave up.
    return new Promise((done) => setTimeout(() => done(op()), 600));
  };
  const backend: SharedStoreBackend = {
    get: (key) => held(() => inner.get(key)),
    compareAndSet: (key, expected, next, ttlMs, deadline) =>
      held(() => inner.compareAndSet(key, expected, next, ttlMs, deadline)),
  };
  return {
    backend,
    stallNext: () => {
      stalls = 1;
    },
  };
}

/** The fixture upstream's format: numbered sections of files. */
function sections(files: readonly { path: string; end: number }[]): string {
  const body = files.map(({ path, end }) => {
    const lines = readFileSync(join(root, path), 'utf8').split('\n').slice(0, end);
    const numbered = lines.map((line, i) => `${i + 1}\t${line}`).join('\n');
    return `**\`${path}\`**\n\n\`\`\`ts\n${numbered}\n\`\`\`\n`;
  });
  return `**Sections**\n\n${body.join('\n')}`;
}

const FILES = [
  { path: 'cart.ts', end: 79 },
  { path: 'money.ts', end: 51 },
];

describe('a refresh while the shared store stalls', () => {
  it('plans without the refreshed response, and the next call cites it no more', async () => {
    const { backend, stallNext } = stalling();
    const setup = await sharedCallSetup(sharedStore(backend, DEFAULT_LIMITS), root);
    const meta = { conversationId: 'a-refresh-in-a-redis-stall-0001' };
    const call = async (args: Record<string, unknown>) => {
      const outcome = await answerCall(setup, {
        tool: 'show',
        args,
        meta,
        signal: new AbortController().signal,
        forward: async () => ({ result: { content: [{ type: 'text', text: sections(FILES) }] } }),
      });
      return textOf(outcome && 'result' in outcome.reply ? outcome.reply.result : null);
    };
    expect(await call({})).toMatch(/^Response #1\//);
    expect(await call({})).toMatch(/Sent in response #1\//);

    stallNext();
    const refreshed = await call({ refresh: [1] });
    expect(refreshed).toMatch(/^Response #3\//);
    expect(refreshed).not.toMatch(/response #1\//);

    const next = await call({});
    expect(next).toMatch(/^Response #4\//);
    expect(next).not.toMatch(/response #1\//);
    expect(next).toMatch(/Sent in response #3\//);
  });
});
