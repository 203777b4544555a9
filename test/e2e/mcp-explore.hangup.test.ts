/**
 * "Recorded only if delivered", at the moment the store is slow: the MCP
 * example's handler, with real workers, over a shared store whose backend
 * holds its writes on cue. A client that hung up while its call's record was
 * on its way to the store, and calls again in the same context before the
 * store answers, must get an answer that cites only what it received.
 *
 * No timing: each step waits on a state (the record's write held, the next
 * call's reservation queued behind it), so the order is the same on any
 * machine, loaded or not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SharedStoreBackend } from '../../src/shared/backend.js';
import { createMemoryBackend, createSharedSessionStore } from '../../src/shared/index.js';
import { Context, cue } from './_faults.js';
import {
  CONVERSATION,
  type ExampleHandler,
  type ExamplePool,
  type ExampleResult,
  exampleHandler,
  examplePool,
  STOCK,
  useExample,
  WIDE,
} from './_mcp-explore.js';

useExample();

let pool: ExamplePool;
beforeAll(async () => {
  pool = await examplePool();
});
afterAll(() => pool.close());

/** A memory backend whose compare-and-sets wait, from the `n`-th on, until `release()`. */
function heldBackend() {
  const inner = createMemoryBackend();
  let writes = 0;
  let holdFrom = Number.POSITIVE_INFINITY;
  const released = cue();
  const held = cue();
  const backend: SharedStoreBackend = {
    get: (key) => inner.get(key),
    async compareAndSet(key, expected, next, ttlMs, deadline) {
      if (++writes >= holdFrom) {
        held.fire();
        await released.fired;
      }
      return inner.compareAndSet(key, expected, next, ttlMs, deadline);
    },
  };
  return {
    backend,
    /** Holds the `n`-th write from now and every one after it; resolves once one waits. */
    holdWrite(n: number): Promise<void> {
      holdFrom = writes + n;
      return held.fired;
    },
    release: released.fire,
  };
}

/** What the HTTP front tells a call (`HttpCall`), with the front's hang-up as a method. */
function httpCall() {
  const controller = new AbortController();
  const undos: (() => void)[] = [];
  let gone = false;
  return {
    principal: null,
    lane: 'probe',
    signal: controller.signal,
    onUndelivered(undo: () => void) {
      if (gone) undo();
      else undos.push(undo);
    },
    /** The client hung up: the answer can no longer be delivered. */
    hangUp() {
      gone = true;
      controller.abort();
      for (const undo of undos.splice(0)) undo();
    },
  };
}

type Execute = (
  args: Record<string, unknown>,
  session: unknown,
  options: { meta: Record<string, unknown>; call: ReturnType<typeof httpCall> },
) => Promise<ExampleResult>;

describe('recorded only if delivered, with the store slow', () => {
  it('a call after a hang-up cites nothing of the answer whose record was still on its way', async () => {
    const { handler } = await exampleHandler(pool, () => {});
    const execute = (handler as ExampleHandler & { execute: Execute }).execute;
    const store = heldBackend();
    // The store waits as long as the test holds it: the record lands once released.
    const spans = createSharedSessionStore(store.backend, { timeoutMs: 60_000 });
    const session = { spans, shared: true };
    const context = new Context();
    const first = await execute({ query: STOCK }, session, {
      meta: CONVERSATION,
      call: httpCall(),
    });
    context.deliver(first.content[0]!.text);

    // The second call's reservation goes through; its record (the next write) waits on the store.
    const hungUp = httpCall();
    const held = store.holdWrite(2);
    const second = execute({ query: WIDE }, session, { meta: CONVERSATION, call: hungUp });
    await held;
    hungUp.hangUp();
    // The client calls again at once: this call's reservation queues behind the held record.
    const third = execute({ query: WIDE }, session, { meta: CONVERSATION, call: httpCall() });
    store.release();
    await second;
    context.deliver((await third).content[0]!.text);

    expect(context.labels()).toHaveLength(2);
    expect(context.badCitations).toEqual([]);
  }, 20_000);
});
