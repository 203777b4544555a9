/**
 * The daemon against a hostile local client: the fault probes of
 * `_faults.ts` (the ones `npm run bench -- faults` prints), asserted on —
 * the transport's security rules, the bounds that keep one client from
 * taking the server, the read proxy's files, and start-up and shutdown.
 * Counts only: latency under a flood is the benchmark's to measure, never a
 * test's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  probeBatch,
  probeBatchFlood,
  probeBearer,
  probeCallFlood,
  probeHealthFlood,
  probeKilledNpm,
  probeOriginAndHost,
  probeReadProxy,
  probeSessionFlood,
  probeSigterm,
  probeSlowClients,
  probeStartupFailures,
  stopAll,
  tokenFile,
} from './_faults.js';
import { useExample } from './_mcp-explore.js';

useExample();
afterAll(stopAll);

const TOKEN = 'a-bearer-token-of-the-probe-0123456789';
let tokens: ReturnType<typeof tokenFile>;
beforeAll(() => {
  tokens = tokenFile([TOKEN]);
});
afterAll(() => tokens.remove());

describe('the security rules', () => {
  it('refuses a page of another origin and a foreign Host with 403, and answers [::1]', async () => {
    const { figure, met } = await probeOriginAndHost();
    expect(met, figure).toBe(true);
  });

  it('requires a bearer token with --token-file: 401 and WWW-Authenticate without it', async () => {
    const { figure, met } = await probeBearer(tokens.path, TOKEN);
    expect(met, figure).toBe(true);
  });
});

describe('one client does not take the server from the others', () => {
  it('lets another client in after one opened 300 sessions and left them open', async () => {
    const { figure, met } = await probeSessionFlood(300);
    expect(met, figure).toBe(true);
  });

  it('refuses a JSON-RPC batch whole, running none of its calls', async () => {
    const { figure, met } = await probeBatch();
    expect(met, figure).toBe(true);
  });

  // The floods' figures carry p95 latencies too; only their counts are asserted here. Each
  // probe makes 10 warm-up calls, then CALLS at rest and CALLS under the flood, one at a time:
  // with both cores busy a call under a flood takes a second or more, and 20 of each ran past
  // a minute. Each of the ten still arrives while the flood is at full strength.
  const CALLS = 10;
  // Each also starts two Node processes (the daemon, the flooder), about 15 s apiece at load 20:
  // the call flood took 16 s at load 15 and 43 s to over 60 s at load 20 with both cores burnt.
  // No figure here is a time, so this bound only stops a hang.
  const FLOOD_TIMEOUT_MS = 150_000;
  const FLOODS = {
    'while another keeps 200 calls in flight': () => probeCallFlood(200, CALLS),
    'under a flood of cross-origin /healthz': () => probeHealthFlood(100, CALLS),
    'under a flood of JSON-RPC batches': () => probeBatchFlood(4, CALLS),
  };
  it.each(Object.entries(FLOODS))(
    'gives a well-behaved client no "busy" %s',
    async (_, probe) => {
      const { figure, busy } = await probe();
      expect(busy, figure).toBe(0);
    },
    FLOOD_TIMEOUT_MS,
  );

  it('cuts 100 connections that dribble their headers within seconds, serving others meanwhile', async () => {
    const { figure, met } = await probeSlowClients(100, 20_000, 500);
    expect(met, figure).toBe(true);
  });
});

describe('the read proxy', () => {
  it('answers head: 1 of 6 and 100 MiB files, refuses a FIFO, keeps working, and says a missing root in one line', async () => {
    const { figure, met } = await probeReadProxy();
    expect(met, figure).toBe(true);
  });
});

describe('start-up and shutdown', () => {
  it('says a port in use and a missing EXPLORE_ROOT in one line, and exits 2', async () => {
    const { figure, met } = await probeStartupFailures();
    expect(met, figure).toBe(true);
  });

  it('stops quietly on SIGTERM', async () => {
    const { figure, met } = await probeSigterm();
    expect(met, figure).toBe(true);
  });

  it('leaves nothing running when npm run example:mcp is stopped', async () => {
    const { figure, met } = await probeKilledNpm();
    expect(met, figure).toBe(true);
  }, 90_000);
});
