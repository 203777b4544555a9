/**
 * The MCP example's daemon bounds what a client can send and what it sends
 * back: a body over the limit is refused before it is parsed, a query over
 * 2,000 characters is a clear tool error, a response repeats at most a short
 * prefix of the query and never exceeds `maxResponseChars`, and `/healthz`
 * answers from counters and renders nothing, so a flood of it costs no render.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  connectHttp,
  type Daemon,
  explore,
  exploreError,
  FAULTY_WORKER,
  health,
  httpRequest,
  rawSession,
  sections,
  startDaemon,
  useExample,
  WIDE,
} from './_mcp-explore.js';

useExample();

const MAX_RESPONSE = 2500;
const TEN_MB = 10 * 1024 * 1024;
let daemon: Daemon;

beforeAll(async () => {
  daemon = await startDaemon({ EXPLORE_MAX_RESPONSE_CHARS: String(MAX_RESPONSE) });
});

function toolsCall(args: Record<string, unknown>): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 5,
    method: 'tools/call',
    params: { name: 'explore', arguments: args },
  });
}

describe('request bodies', () => {
  it('refuses a 10 MB query, and a 10 MB body of anything, with 413 and answers the next call', async () => {
    const raw = await rawSession(daemon.url);
    const query = await raw.post(toolsCall({ query: 'cart '.repeat(TEN_MB / 5) }));
    expect(query.status).toBe(413);
    expect(JSON.parse(query.text).error.message).toBe('Request body larger than 1048576 bytes');
    const padded = await raw.post(toolsCall({ query: WIDE, padding: 'x'.repeat(TEN_MB) }));
    expect(padded.status).toBe(413);
    // Nothing was parsed or recorded: the session's first real call renders in full.
    const answer = await raw.call({ query: WIDE });
    expect((answer.result as { isError?: boolean }).isError).not.toBe(true);
  });
});

describe('the query', () => {
  it('is refused past 2,000 characters with an error that does not repeat it', async () => {
    const client = await connectHttp(daemon.url);
    const long = `${'cart'.repeat(500)}X`;
    const message = await exploreError(client, { query: long });
    expect(message).toContain('query is longer than 2000 characters');
    expect(message).not.toContain('cartcart');
    expect(message.length).toBeLessThan(1000);
  });

  it('is echoed as a short prefix only, and the response keeps to maxResponseChars', async () => {
    const client = await connectHttp(daemon.url);
    // 2,000 characters that match definitions in four files.
    const query = `${WIDE} `.repeat(80).slice(0, 2000);
    expect(query).toHaveLength(2000);
    const text = await explore(client, { query });
    expect(sections(text).length).toBeGreaterThan(0);
    expect(text.length).toBeLessThanOrEqual(MAX_RESPONSE);
    expect(text).toContain(`${query.slice(0, 80)}…`);
    expect(text).not.toContain(query.slice(0, 81));
  });
});

describe('/healthz', () => {
  it("answers ok with the pool's counters", async () => {
    const { status, body } = await health(daemon.origin);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, queued: 0, running: 0, workers: 2 });
  });

  it('renders nothing: a daemon whose every render would end its worker answers it from counters', async () => {
    const broken = await startDaemon({
      EXPLORE_WORKER: FAULTY_WORKER,
      EXPLORE_TEST_BROKEN: '1',
      EXPLORE_WORKERS: '1',
    });
    for (let i = 0; i < 3; i++) {
      const { status, body } = await health(broken.origin);
      expect(status).toBe(200);
      expect(body).toMatchObject({ ok: true, queued: 0, running: 0, workers: 1 });
    }
    // No worker ever ran, so none was replaced.
    expect(broken.log()).not.toContain('worker exited');
  });

  it('is refused to a page of another origin', async () => {
    const res = await httpRequest(`${daemon.origin}/healthz`, 'GET', {
      origin: 'http://evil.example',
    });
    expect(res.status).toBe(403);
  });
});
