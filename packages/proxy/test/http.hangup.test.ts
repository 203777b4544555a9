/**
 * "Recorded only if delivered", at the moment the store is slow: the proxy's
 * HTTP front and relay over its Redis store (and the ledger in this
 * process), in front of an upstream that answers at once. A client that hung
 * up while its call's record was on its way to the store, and calls again in
 * the same context before the store answers, must get an answer that cites
 * only what it received. The ledger in this process never makes a record
 * wait; held there on purpose, it checks the same order: a record the call's
 * client did not receive is undone before the next call of its context plans.
 *
 * No timing: each step waits on a state (Redis holding the record's write,
 * the front no longer counting the hung-up call, the next call queued on
 * the context's lock), so the order is the same on any machine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cue } from '../../../test/e2e/_faults.js';
import { startRedis, type TestRedis } from '../../../test/e2e/_redis.js';
import { PROXY_LIMITS } from '../src/sectioned.js';
import { localStore, redisStore } from '../src/store.js';
import { hangUpWhileRecordHeld, redisHold } from './_slow-record.js';

describe('recorded only if delivered, with the store slow', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  it('over Redis: a call after a hang-up cites nothing of the answer whose record was still on its way', async () => {
    const store = await redisStore(redis.url, PROXY_LIMITS, () => {});
    const hold = await redisHold(redis.url);
    const pointers = await hangUpWhileRecordHeld(store, hold).finally(() => hold.release());
    expect(pointers).not.toContain(2);
    expect(pointers).toContain(1);
  }, 20_000);

  it("over Redis: a cancellation that only undoes (stateless, no token file) is applied before the context's next call plans", async () => {
    const store = await redisStore(redis.url, PROXY_LIMITS, () => {});
    const hold = await redisHold(redis.url);
    const pointers = await hangUpWhileRecordHeld(store, hold, 'cancel').finally(() =>
      hold.release(),
    );
    expect(pointers).not.toContain(2);
    expect(pointers).toContain(1);
  }, 20_000);

  it('in this process: the same, with the record held on its way to the ledger', async () => {
    const released = cue();
    const held = cue();
    const pointers = await hangUpWhileRecordHeld(localStore(PROXY_LIMITS), {
      hold: () => {
        held.fire();
        return released.fired;
      },
      held: () => held.fired,
      release: async () => released.fire(),
    });
    expect(pointers).not.toContain(2);
    expect(pointers).toContain(1);
  }, 20_000);
});
