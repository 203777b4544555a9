/**
 * The MCP example's daemon bounds its sessions: a session nobody uses for the
 * idle timeout is closed and its ledger freed (1,000 abandoned sessions give
 * their heap back); at the maximum, a session that never made a call makes
 * room for a new one, and when every open session is in use a new one is
 * refused with a clear message until one closes.
 *
 * The heap figure comes from `/healthz` of a daemon started with
 * `--expose-gc`, which collects before it measures.
 */
import { describe, expect, it } from 'vitest';
import {
  connectHttp,
  endSession,
  explore,
  health,
  rawSession,
  sleep,
  startDaemon,
  useExample,
  WIDE,
} from './_mcp-explore.js';

useExample();

const ABANDONED = 1000;
const IDLE_MS = 3000;
const WARM_UP = 100;

/** Runs `task` for 0‥count-1, `width` at a time. */
async function inBatches(count: number, width: number, task: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

describe('idle sessions', () => {
  it(`closes ${ABANDONED} abandoned sessions after the idle timeout and gives their heap back`, async () => {
    const daemon = await startDaemon(
      { EXPLORE_IDLE_MS: String(IDLE_MS), EXPLORE_MAX_SESSIONS: String(ABANDONED + 10) },
      ['--expose-gc'],
    );
    /** Opens `count` sessions and abandons them; one in ten makes a call, so its ledger holds something. */
    const abandon = (count: number) =>
      inBatches(count, 16, async (i) => {
        const s = await rawSession(daemon.url, { announce: i % 10 === 0 });
        if (i % 10 === 0) await s.call({ query: WIDE });
      });
    /** Polls /healthz until no session is open. */
    const drained = async () => {
      let now = await health(daemon.origin);
      for (let i = 0; i < 80 && now.body.sessions > 0; i++) {
        await sleep(250);
        now = await health(daemon.origin);
      }
      return now;
    };
    // Warm up every path a session takes, expiry included (the SDK's code
    // compiled and optimized, the worker's first calls), before measuring.
    await abandon(WARM_UP);
    const start = await drained();
    expect(start.body.sessions).toBe(0);

    const began = Date.now();
    await abandon(ABANDONED);
    const full = await health(daemon.origin);
    console.log(
      `opened ${ABANDONED} sessions in ${Date.now() - began} ms; heap ${start.body.heapUsed} -> ${full.body.heapUsed}`,
    );
    // On a loaded machine the first ones may already have expired while the
    // last were opened; those still open must weigh what sessions weigh.
    expect(full.body.sessions).toBeGreaterThan(0);
    expect(full.body.heapUsed - start.body.heapUsed).toBeGreaterThan(full.body.sessions * 8 * 1024);

    const after = await drained();
    console.log(
      `after the idle timeout: ${after.body.sessions} sessions, heap ${after.body.heapUsed}`,
    );
    expect(after.body.sessions).toBe(0);
    expect(after.body.heapUsed).toBeLessThan(start.body.heapUsed * 1.1);
    // Every abandoned session was closed by the idle timeout, none by anything else.
    const expired = [...daemon.log().matchAll(/expired (\d+) idle session/g)];
    expect(expired.reduce((sum, m) => sum + Number(m[1]), 0)).toBe(WARM_UP + ABANDONED);
  }, 60_000);
});

describe('the session bound', () => {
  it('refuses a session past the maximum when every open one is in use, and accepts one again after a close', async () => {
    const daemon = await startDaemon({ EXPLORE_MAX_SESSIONS: '3' });
    const open = await Promise.all([1, 2, 3].map(() => connectHttp(daemon.url)));
    for (const client of open) await explore(client, { query: WIDE });
    await expect(connectHttp(daemon.url)).rejects.toThrow(/Too many open sessions/);
    // The open ones are served as usual.
    await explore(open[0]!, { query: WIDE });
    await endSession(open[2]!);
    await explore(await connectHttp(daemon.url), { query: WIDE });
  });

  it('makes room by closing the least recently seen session that never made a call', async () => {
    const daemon = await startDaemon({ EXPLORE_MAX_SESSIONS: '3' });
    const used = await connectHttp(daemon.url);
    await explore(used, { query: WIDE });
    const unused = [await rawSession(daemon.url), await rawSession(daemon.url)];
    // Full: the oldest unused session goes, the used one and the newer unused one stay.
    await explore(await connectHttp(daemon.url), { query: WIDE });
    expect((await unused[0]!.post('{"jsonrpc":"2.0","id":5,"method":"tools/list"}')).status).toBe(
      404,
    );
    expect((await unused[1]!.post('{"jsonrpc":"2.0","id":5,"method":"tools/list"}')).status).toBe(
      200,
    );
    await explore(used, { query: WIDE });
  });
});
