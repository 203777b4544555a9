/**
 * The seam the HTTP front builds on: `startProxy` in a host's own process,
 * one `createServer()` per client transport (a stateless front makes one per
 * request), and the store shared over a real Redis (`redis-server` started
 * on a free loopback port). Two proxy processes sharing Redis are one ledger:
 * a context's next call may land on either, and its token is all it needs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../../../test/e2e/_redis.js';
import { mintSharedToken, ProxyStartError, type RunningProxy, startProxy } from '../src/proxy.js';
import { readResponse, textOf } from './_proxy.js';

const require = createRequire(import.meta.url);
const manifest = require('@modelcontextprotocol/server-filesystem/package.json') as {
  bin: Record<string, string>;
};
const SERVER = require.resolve(
  `@modelcontextprotocol/server-filesystem/${manifest.bin['mcp-server-filesystem']}`,
);

let redis: TestRedis;
let root = '';
const proxies: RunningProxy[] = [];
const quiet = () => {};

beforeAll(async () => {
  redis = await startRedis();
  root = mkdtempSync(join(tmpdir(), 'proxy-shared-'));
  mkdirSync(join(root, 'src'));
  const lines = Array.from({ length: 60 }, (_, i) => `export const line${i + 1} = ${i + 1};`);
  writeFileSync(join(root, 'src/a.ts'), `${lines.join('\n')}\n`);
});

afterAll(async () => {
  await Promise.allSettled(proxies.map((p) => p.close()));
  await redis?.stop();
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

async function proxyOnRedis(): Promise<RunningProxy> {
  const proxy = await startProxy({
    command: process.execPath,
    args: [SERVER, root],
    root,
    redis: redis.url,
    mintToken: mintSharedToken,
    log: quiet,
  });
  proxies.push(proxy);
  return proxy;
}

/** One exchange, as a stateless front serves a request: a fresh server and client, closed after. */
async function once(proxy: RunningProxy, args: Record<string, unknown>): Promise<string> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = proxy.createServer();
  await server.connect(serverSide);
  const client = new Client({ name: 'shared-test', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    return textOf(await client.callTool({ name: 'read_text_file', arguments: args }));
  } finally {
    await client.close();
    await server.close();
  }
}

describe('the proxy on a shared store', () => {
  it('keeps one ledger for a context whichever process and server takes its call', async () => {
    const [a, b] = await Promise.all([proxyOnRedis(), proxyOnRedis()]);
    const first = readResponse(await once(a, { path: 'src/a.ts', head: 30 }), 'src/a.ts');
    expect(first.number).toBe(1);
    // A token that keys a shared store carries 128 bits.
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const token = first.token!;
    const second = readResponse(
      await once(b, { path: 'src/a.ts', head: 50, context: token }),
      'src/a.ts',
    );
    expect(second.number).toBe(2);
    expect(second.pointers).toEqual([
      { path: 'src/a.ts', calls: [1], spans: [{ start: 1, end: 30 }] },
    ]);
    expect([...(second.lines.get('src/a.ts')?.keys() ?? [])]).toEqual(
      Array.from({ length: 20 }, (_, i) => 31 + i),
    );
    // Another context, on either process, was never sent it.
    const other = readResponse(
      await once(b, { path: 'src/a.ts', head: 50, context: 'another-context-0123456789' }),
      'src/a.ts',
    );
    expect(other.pointers).toEqual([]);
    expect(a.stats().total.calls + b.stats().total.calls).toBe(3);
  });

  it('never prints one number twice in a context: parallel calls on two processes, and after a flush', async () => {
    const [a, b] = await Promise.all([proxyOnRedis(), proxyOnRedis()]);
    const first = readResponse(await once(a, { path: 'src/a.ts', head: 10 }), 'src/a.ts');
    const token = first.token!;
    const label = (r: { number: number | null; tag: string | null }) => `${r.number}/${r.tag}`;
    const labels = [label(first)];
    const parallel = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        once(i % 2 === 0 ? a : b, { path: 'src/a.ts', head: 20 + i, context: token }),
      ),
    );
    for (const text of parallel) labels.push(label(readResponse(text, 'src/a.ts')));
    expect(new Set(labels).size).toBe(labels.length);
    // The ledger is lost; the context keeps its token, and its next response is a number it never saw.
    const admin = createClient({ url: redis.url });
    await admin.connect();
    await admin.flushAll();
    await admin.quit();
    const after = readResponse(
      await once(b, { path: 'src/a.ts', head: 10, context: token }),
      'src/a.ts',
    );
    expect(after.number).toBe(1);
    expect(labels).not.toContain(label(after));
    expect(after.pointers).toEqual([]);
  });

  it('keys a principal apart: the same token from another caller is another context', async () => {
    const proxy = await proxyOnRedis();
    const serve = async (principal: string, args: Record<string, unknown>) => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const server = proxy.createServer({ principal });
      await server.connect(serverSide);
      const client = new Client({ name: 'shared-test', version: '1.0.0' });
      await client.connect(clientSide);
      const text = textOf(await client.callTool({ name: 'read_text_file', arguments: args }));
      await client.close();
      return readResponse(text, 'src/a.ts');
    };
    await serve('alice', { path: 'src/a.ts', context: 'shared-token-0123456789abcdef' });
    expect(
      (await serve('alice', { path: 'src/a.ts', context: 'shared-token-0123456789abcdef' }))
        .pointers,
    ).toHaveLength(1);
    expect(
      (await serve('mallory', { path: 'src/a.ts', context: 'shared-token-0123456789abcdef' }))
        .pointers,
    ).toEqual([]);
  });

  it('serves a stateless HTTP exchange with one server per request, no MCP session needed', async () => {
    const proxy = await proxyOnRedis();
    // The bare seam the HTTP front builds on (its Origin, Host, token and fairness rules are the front's).
    const http = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      const server = proxy.createServer();
      const transport = new StreamableHTTPServerTransport({});
      res.once('close', () => void server.close());
      await server.connect(transport);
      await transport.handleRequest(req, res, body === '' ? undefined : JSON.parse(body));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const client = new Client({ name: 'shared-test', version: '1.0.0' });
    try {
      const { port } = http.address() as AddressInfo;
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)),
      );
      const read = async (args: Record<string, unknown>) =>
        readResponse(
          textOf(await client.callTool({ name: 'read_text_file', arguments: args })),
          'src/a.ts',
        );
      const first = await read({ path: 'src/a.ts', head: 20 });
      const second = await read({ path: 'src/a.ts', head: 30, context: first.token });
      expect(second.number).toBe(2);
      expect(second.pointers).toEqual([
        { path: 'src/a.ts', calls: [1], spans: [{ start: 1, end: 20 }] },
      ]);
    } finally {
      await client.close();
      http.close();
    }
  });

  it('says once that Redis went away and once that it is back, however many reconnects between', async () => {
    const lines: string[] = [];
    const proxy = await startProxy({
      command: process.execPath,
      args: [SERVER, root],
      root,
      redis: redis.url,
      log: (line) => lines.push(line),
    });
    proxies.push(proxy);
    const wait = async (done: () => boolean) => {
      for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 25));
    };
    await redis.halt();
    await wait(() => lines.length > 0);
    // Reconnect attempts back off from 50 ms: several fail meanwhile.
    await new Promise((r) => setTimeout(r, 1000));
    await redis.restart();
    await wait(() => lines.length > 1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^redis: .*; calls pass through untracked until it is back$/);
    expect(lines[1]).toBe('redis: connected again; calls are tracked again');
  });

  it('refuses to start with one line when Redis cannot be reached', async () => {
    const start = startProxy({
      command: process.execPath,
      args: [SERVER, root],
      root,
      redis: 'redis://127.0.0.1:1',
      log: quiet,
    });
    await expect(start).rejects.toBeInstanceOf(ProxyStartError);
    await expect(start).rejects.toThrow(
      /^span-ledger\/redis: cannot connect to redis:\/\/127\.0\.0\.1:1/,
    );
  });
});
