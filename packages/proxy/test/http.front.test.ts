/**
 * The HTTP front against real SDK clients and raw HTTP, in front of a small
 * MCP server whose one tool reports what the front told it of the call
 * (`httpCallOf`) and can be told to wait: the security rules, the bounds,
 * and each call's delivery and cancellation, stateful and stateless.
 */
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type CancelRelay,
  FrontStartError,
  httpCallOf,
  type McpHttpFront,
  type McpHttpOptions,
  serveMcpHttp,
  tokenSet,
} from '../src/http/index.js';
import { INITIALIZE, MCP, raw, readPartOfAnswer } from './_http.js';

/** What the probe tool saw: its calls' tags whose answers turned out undelivered, and servers built. */
interface Seen {
  undelivered: string[];
  aborted: string[];
  servers: number;
}

function probeServer(seen: Seen): McpServer {
  seen.servers++;
  const server = new McpServer({ name: 'probe', version: '1.0.0' });
  server.registerTool(
    'probe',
    {
      inputSchema: {
        tag: z.string().optional(),
        wait: z.number().optional(),
        bytes: z.number().optional(),
      },
    },
    async ({ tag = '', wait = 0, bytes = 0 }, extra) => {
      const call = httpCallOf(extra);
      if (wait > 0 && call !== null) {
        await new Promise<void>((done) => {
          const timer = setTimeout(done, wait);
          call.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            seen.aborted.push(tag);
            done();
          });
        });
      }
      call?.onUndelivered(() => seen.undelivered.push(tag));
      const text = JSON.stringify({ principal: call?.principal ?? null, lane: call?.lane ?? null });
      const filler = bytes > 0 ? [{ type: 'text' as const, text: 'x'.repeat(bytes) }] : [];
      return { content: [{ type: 'text', text }, ...filler] };
    },
  );
  return server;
}

const fronts: McpHttpFront[] = [];
const clients: Client[] = [];

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await Promise.all(fronts.splice(0).map((f) => f.close()));
});

async function start(
  options: Partial<McpHttpOptions> = {},
): Promise<{ front: McpHttpFront; seen: Seen }> {
  const seen: Seen = { undelivered: [], aborted: [], servers: 0 };
  const front = await serveMcpHttp({
    port: 0,
    stateful: true,
    createServer: () => probeServer(seen),
    ...options,
    limits: { refusalDelayMs: 0, ...(options.limits ?? {}) },
  });
  fronts.push(front);
  return { front, seen };
}

async function client(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const c = new Client({ name: 'front-test', version: '1.0.0' });
  clients.push(c);
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return c;
}

async function probe(c: Client, args: Record<string, unknown> = {}) {
  const result = await c.callTool({ name: 'probe', arguments: args });
  const text = (result.content as { text: string }[])[0]!.text;
  return { isError: result.isError === true, text };
}

function callMessage(id: number, args: Record<string, unknown>, meta?: Record<string, unknown>) {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'probe', arguments: args, ...(meta === undefined ? {} : { _meta: meta }) },
  });
}

function cancelMessage(id: number) {
  return JSON.stringify({
    jsonrpc: '2.0',
    method: 'notifications/cancelled',
    params: { requestId: id },
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, ms = 3000): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > ms) throw new Error('timed out');
    await sleep(20);
  }
}

const TOKEN_A = 'token-of-principal-a-0123456789';
const TOKEN_B = 'token-of-principal-b-0123456789';

describe('the security rules', () => {
  it('refuses a page of another origin and a foreign Host with 403, and answers [::1]', async () => {
    const { front, seen } = await start();
    expect(
      (await raw(front.url, 'POST', { ...MCP, origin: 'http://evil.example' }, INITIALIZE)).status,
    ).toBe(403);
    expect((await raw(front.url, 'POST', { ...MCP, origin: 'null' }, INITIALIZE)).status).toBe(403);
    expect(
      (await raw(front.url, 'POST', { ...MCP, host: `evil.example:${front.port}` }, INITIALIZE))
        .status,
    ).toBe(403);
    expect(seen.servers).toBe(0);
    const v6 = await raw(front.url, 'POST', { ...MCP, host: `[::1]:${front.port}` }, INITIALIZE);
    expect(v6.status).toBe(200);
    const local = await raw(
      front.url,
      'POST',
      { ...MCP, origin: 'http://localhost:6274' },
      INITIALIZE,
    );
    expect(local.status).toBe(200);
  });

  it('requires a bearer token of the file, and hands its principal to each call', async () => {
    const { front } = await start({ tokens: tokenSet([TOKEN_A, TOKEN_B]) });
    const none = await raw(front.url, 'POST', MCP, INITIALIZE);
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="mcp"');
    const wrong = await raw(
      front.url,
      'POST',
      { ...MCP, authorization: 'Bearer nope' },
      INITIALIZE,
    );
    expect(wrong.status).toBe(401);

    const a = await client(front.url, { authorization: `Bearer ${TOKEN_A}` });
    const b = await client(front.url, { authorization: `Bearer ${TOKEN_B}` });
    const seenByA = JSON.parse((await probe(a)).text);
    const seenByB = JSON.parse((await probe(b)).text);
    expect(seenByA.principal).toMatch(/^p:/);
    expect(seenByB.principal).toMatch(/^p:/);
    expect(seenByA.principal).not.toBe(seenByB.principal);
  });

  it("answers another principal's session id as unknown", async () => {
    const { front } = await start({ tokens: tokenSet([TOKEN_A, TOKEN_B]) });
    const init = await raw(
      front.url,
      'POST',
      { ...MCP, authorization: `Bearer ${TOKEN_A}` },
      INITIALIZE,
    );
    const sid = init.headers['mcp-session-id'] as string;
    const headers = { ...MCP, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(
      (await raw(front.url, 'POST', { ...headers, authorization: `Bearer ${TOKEN_B}` }, list))
        .status,
    ).toBe(404);
    expect(
      (await raw(front.url, 'POST', { ...headers, authorization: `Bearer ${TOKEN_A}` }, list))
        .status,
    ).toBe(200);
  });
});

describe('what a request may be', () => {
  it('refuses JSON-RPC batches and bodies that are not one JSON-RPC message', async () => {
    const { front } = await start();
    const batch = await raw(front.url, 'POST', MCP, `[${INITIALIZE}]`);
    expect(batch.status).toBe(400);
    expect(batch.text).toMatch(/batches are not supported/);
    expect((await raw(front.url, 'POST', MCP, '{not json')).status).toBe(400);
    expect((await raw(front.url, 'POST', MCP, '"a string"')).status).toBe(400);
    const big = await raw(front.url, 'POST', MCP, 'x'.repeat(2 * 1024 * 1024));
    expect(big.status).toBe(413);
  });

  it('answers /healthz from counters, GET only, and builds no server for it', async () => {
    const { front, seen } = await start({ health: () => ({ queued: 3 }) });
    const origin = front.url.replace(/\/mcp$/, '');
    const health = await raw(`${origin}/healthz`, 'GET', {});
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toEqual({ ok: true, sessions: 0, calls: 0, queued: 3 });
    expect((await raw(`${origin}/healthz`, 'POST', {}, '{}')).status).toBe(405);
    expect((await raw(`${origin}/other`, 'GET', {})).status).toBe(404);
    expect(seen.servers).toBe(0);
  });
});

describe('bounds per client', () => {
  it('answers busy past the calls in flight of one session, and serves another session meanwhile', async () => {
    const { front } = await start({ limits: { maxCallsPerContext: 2 } });
    const flooder = await client(front.url);
    const other = await client(front.url);
    const slow = [probe(flooder, { wait: 2000 }), probe(flooder, { wait: 2000 })];
    // Both are in flight (admitted by the front), however slow the machine is to send them.
    await until(() => front.stats().calls === 2);
    const refused = await probe(flooder, {});
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/busy: this context already has 2 calls in flight/);
    expect((await probe(other, {})).isError).toBe(false);
    expect((await Promise.all(slow)).every((r) => !r.isError)).toBe(true);
  });

  it('answers busy past the calls in flight of one principal, across its sessions', async () => {
    const { front } = await start({
      tokens: tokenSet([TOKEN_A, TOKEN_B]),
      limits: { maxCallsPerClient: 2 },
    });
    const a1 = await client(front.url, { authorization: `Bearer ${TOKEN_A}` });
    const a2 = await client(front.url, { authorization: `Bearer ${TOKEN_A}` });
    const b = await client(front.url, { authorization: `Bearer ${TOKEN_B}` });
    const slow = [probe(a1, { wait: 2000 }), probe(a2, { wait: 2000 })];
    await until(() => front.stats().calls === 2);
    expect((await probe(a1, {})).text).toMatch(/this client already has 2 calls in flight/);
    expect((await probe(b, {})).isError).toBe(false);
    await Promise.all(slow);
  });

  it('makes room for a new session by closing an unused one, and refuses when all are in use', async () => {
    const { front } = await start({ limits: { maxSessions: 2 } });
    const first = await raw(front.url, 'POST', MCP, INITIALIZE);
    const used = await client(front.url);
    await probe(used);
    // Full: the unused session makes room.
    const second = await client(front.url);
    await probe(second);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const stale = {
      ...MCP,
      'mcp-session-id': first.headers['mcp-session-id'] as string,
      'mcp-protocol-version': '2025-06-18',
    };
    expect((await raw(front.url, 'POST', stale, list)).status).toBe(404);
    // Both open sessions are in use: a third is refused.
    const refused = await raw(front.url, 'POST', MCP, INITIALIZE);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('30');
  });

  it('closes a session that never made a call after the short idle timeout, and keeps a used one', async () => {
    const { front } = await start({ limits: { unusedIdleMs: 200, idleMs: 60_000 } });
    await raw(front.url, 'POST', MCP, INITIALIZE);
    const used = await client(front.url);
    await probe(used);
    expect(front.stats().sessions).toBe(2);
    await until(() => front.stats().sessions === 1);
    expect((await probe(used)).isError).toBe(false);
  });

  it('cuts a client that dribbles its headers', async () => {
    const { front } = await start({ limits: { headersTimeoutMs: 300 } });
    const socket = connect(front.port, '127.0.0.1');
    socket.on('error', () => {});
    let closed = false;
    socket.on('close', () => {
      closed = true;
    });
    socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const dribble = setInterval(() => socket.write('X'), 100);
    try {
      await until(() => closed, 3000);
    } finally {
      clearInterval(dribble);
      socket.destroy();
    }
  });
});

/** What a raw socket that sends `request` and then nothing more reads until the front closes it. */
async function answerTo(port: number, request: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  let read = '';
  socket.on('data', (chunk: Buffer) => {
    read += chunk.toString('utf8');
  });
  const closed = new Promise((done) => socket.once('close', done));
  socket.write(request);
  await closed;
  return read;
}

describe('a request the HTTP parser refuses', () => {
  it('is answered with its status and a message saying why, never an empty 400', async () => {
    const { front } = await start({ limits: { headersTimeoutMs: 300 } });
    // Connected, then too slow to send its headers (as a client on a starved machine can be).
    const slow = await answerTo(front.port, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(slow.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
    expect(JSON.parse(slow.slice(slow.indexOf('\r\n\r\n') + 4)).error.message).toMatch(
      /^Request timeout: a request's headers must arrive within 300 ms/,
    );
    const malformed = await answerTo(front.port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(malformed.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(malformed.slice(malformed.indexOf('\r\n\r\n') + 4)).error.message).toMatch(
      /^Bad request: not HTTP\/1\.1 this server can read \(HPE_/,
    );
  });
});

describe('delivery and cancellation', () => {
  // Seed-free: the sizes are fixed. 256 KiB fits in the kernel's buffers on
  // loopback (handed over whole, then reset unread); 4 MiB does not (the
  // socket is reset under the body, and Node still says 'finish').
  it.each([
    ['taken whole by the kernel', 256 * 1024],
    ['larger than the kernel takes', 4 * 1024 * 1024],
  ])('undoes an answer whose client read 64 KiB of it and hung up (%s)', async (_, bytes) => {
    const { front, seen } = await start({ stateful: false });
    const read = await readPartOfAnswer(
      front.url,
      callMessage(21, { tag: 'hung-up-mid-answer', bytes }),
      64 * 1024,
    );
    expect(read).toBeLessThan(bytes);
    await until(() => seen.undelivered.length === 1);
    expect(seen.undelivered).toEqual(['hung-up-mid-answer']);
  });

  it('keeps an answer its client read whole, on a connection it then closed', async () => {
    const { front, seen } = await start({ stateful: false });
    const bytes = 256 * 1024;
    const read = await readPartOfAnswer(
      front.url,
      callMessage(22, { tag: 'read-whole', bytes }),
      bytes + 200,
    );
    expect(read).toBeGreaterThan(bytes);
    await raw(front.url, 'POST', MCP, callMessage(23, { tag: 'after' }));
    expect(seen.undelivered).toEqual([]);
  });

  it('aborts a stateless call when its principal cancels it on a fresh request, and undoes it', async () => {
    const { front, seen } = await start({ stateful: false, tokens: tokenSet([TOKEN_A, TOKEN_B]) });
    const as = (token: string) => ({ ...MCP, authorization: `Bearer ${token}` });
    const answer = raw(
      front.url,
      'POST',
      as(TOKEN_A),
      callMessage(7, { tag: 'cancelled', wait: 2000 }),
    );
    await until(() => front.stats().calls === 1);
    // Another principal's cancellation of the same id affects nothing.
    expect((await raw(front.url, 'POST', as(TOKEN_B), cancelMessage(7))).status).toBe(202);
    expect(seen.aborted).toEqual([]);
    const cancel = await raw(front.url, 'POST', as(TOKEN_A), cancelMessage(7));
    expect(cancel.status).toBe(202);
    await answer;
    expect(seen.aborted).toEqual(['cancelled']);
    expect(seen.undelivered).toEqual(['cancelled']);
  });

  it('without a token file, stops a call only on a cancellation from its own connection', async () => {
    const { front, seen } = await start({ stateful: false });
    // Another local client numbers its requests the same way, from 0: its
    // cancellation, on another connection, never stops this call; it can
    // only make it count as not delivered (as the SDK client's own
    // cancellation, sent on a fresh request, must).
    const answer = raw(front.url, 'POST', MCP, callMessage(0, { tag: 'mine', wait: 300 }));
    await until(() => front.stats().calls === 1);
    expect((await raw(front.url, 'POST', MCP, cancelMessage(0))).status).toBe(202);
    const text = JSON.parse((await answer).text).result.content[0].text;
    expect(JSON.parse(text).principal).toBeNull();
    expect(seen.aborted).toEqual([]);
    expect(seen.undelivered).toEqual(['mine']);

    // On its own connection, a cancellation stops it.
    const own = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const post = async (body: string) => (await raw(front.url, 'POST', MCP, body, own)).text;
      // HTTP/1.1: the cancellation waits behind the call on the one connection, so it names an answered call.
      await post(callMessage(1, { tag: 'own' }));
      await post(cancelMessage(1));
      expect(seen.undelivered).toEqual(['mine', 'own']);
    } finally {
      own.destroy();
    }
  });

  it('queues token-less calls per connection: nine slow ones leave the tenth client served', async () => {
    const { front, seen } = await start({ stateful: false });
    const slow = Array.from({ length: 9 }, (_, i) =>
      raw(front.url, 'POST', MCP, callMessage(100 + i, { tag: `slow-${i}`, wait: 1000 })),
    );
    await until(() => front.stats().calls === 9);
    const answer = await raw(front.url, 'POST', MCP, callMessage(200, { tag: 'other' }));
    expect(JSON.parse(answer.text).result.isError).not.toBe(true);
    await Promise.all(slow);
    expect(seen.undelivered).toEqual([]);
  });

  it('undoes a call whose cancellation arrives just after its answer went out', async () => {
    const { front, seen } = await start({ stateful: false });
    await raw(front.url, 'POST', MCP, callMessage(8, { tag: 'late' }));
    expect(seen.undelivered).toEqual([]);
    await raw(front.url, 'POST', MCP, cancelMessage(8));
    expect(seen.undelivered).toEqual(['late']);
  });

  it('undoes a call whose client hung up before the answer went out', async () => {
    const { front, seen } = await start();
    const c = await client(front.url);
    await probe(c);
    const sid = (c.transport as StreamableHTTPClientTransport).sessionId!;
    const req = request(front.url, {
      method: 'POST',
      headers: { ...MCP, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
    });
    req.on('error', () => {});
    req.end(callMessage(9, { tag: 'hung-up', wait: 2000 }));
    await until(() => front.stats().calls === 1);
    req.destroy();
    await until(() => seen.undelivered.length === 1);
    expect(seen.aborted).toEqual(['hung-up']);
    expect(seen.undelivered).toEqual(['hung-up']);
  });

  it('cancels a stateful call through the SDK client, and undoes it', async () => {
    const { front, seen } = await start();
    const c = await client(front.url);
    const stop = new AbortController();
    const pending = c
      .callTool({ name: 'probe', arguments: { tag: 'sdk', wait: 2000 } }, undefined, {
        signal: stop.signal,
      })
      .catch(() => null);
    await until(() => front.stats().calls === 1);
    stop.abort();
    await pending;
    await until(() => seen.undelivered.length === 1);
    expect(seen.aborted).toEqual(['sdk']);
  });

  it('passes a cancellation for a call it does not run to the relay, where its process aborts it', async () => {
    const listeners: ((m: string) => void)[] = [];
    const relay = (): CancelRelay => ({
      async send(message) {
        for (const l of listeners) l(message);
      },
      async listen(receive) {
        listeners.push(receive);
      },
      async close() {},
    });
    const tokens = tokenSet([TOKEN_A]);
    const headers = { ...MCP, authorization: `Bearer ${TOKEN_A}` };
    const a = await start({ stateful: false, relay: relay(), tokens });
    const b = await start({ stateful: false, relay: relay(), tokens });
    const answer = raw(
      a.front.url,
      'POST',
      headers,
      callMessage(11, { tag: 'elsewhere', wait: 2000 }),
    );
    await until(() => a.front.stats().calls === 1);
    expect((await raw(b.front.url, 'POST', headers, cancelMessage(11))).status).toBe(202);
    await answer;
    expect(a.seen.aborted).toEqual(['elsewhere']);
    expect(a.seen.undelivered).toEqual(['elsewhere']);
    expect(b.seen.servers).toBe(0);
  });

  it('queues stateless calls by context: the lane names the conversation, not the request', async () => {
    const { front } = await start({ stateful: false });
    const answer = await raw(
      front.url,
      'POST',
      MCP,
      callMessage(12, {}, { conversationId: 'c-1' }),
    );
    const text = JSON.parse(answer.text).result.content[0].text;
    expect(JSON.parse(text).lane).toMatch(/^local\/\d+\0meta:c-1$/);
  });
});

describe('start-up and shutdown', () => {
  it('refuses a port in use with one line', async () => {
    const { front } = await start();
    const taken = serveMcpHttp({
      port: front.port,
      stateful: true,
      createServer: () => probeServer({ undelivered: [], aborted: [], servers: 0 }),
    });
    await expect(taken).rejects.toThrow(FrontStartError);
    await expect(taken).rejects.toThrow(
      `cannot listen on 127.0.0.1:${front.port}: the port is in use`,
    );
  });

  it('closes every session and stops listening', async () => {
    const { front } = await start();
    await probe(await client(front.url));
    await front.close();
    expect(front.stats().sessions).toBe(0);
    await expect(raw(front.url, 'POST', MCP, INITIALIZE)).rejects.toThrow(/ECONNREFUSED/);
  });
});

afterAll(async () => {
  await Promise.all(fronts.map((f) => f.close()));
});
