/**
 * The shared store on a Redis Cluster: `--redis` pointing at one master of a
 * cluster of three (started here on loopback ports, no persistence, stopped
 * after) finds the cluster and reaches every master through the cluster
 * client — every context dedups on its second call, and the keys spread
 * over all three masters. A server the proxy cannot use (a cluster that is
 * not serving all its slots) is refused at start-up in one line.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisCluster, type TestRedisCluster } from '../../../test/e2e/_redis.js';
import { ProxyStartError, type RunningProxy, startProxy } from '../src/proxy.js';
import { PACKAGE } from './_bin.js';
import { sampleScratch, textOf } from './_proxy.js';

const FIXTURE = join(PACKAGE, 'test/fixtures/upstream.mjs');
const FILES = [
  { path: 'cart.ts', start: 1, end: 79 },
  { path: 'money.ts', start: 1, end: 51 },
];
let cluster: TestRedisCluster;
let scratch = '';
let root = '';
const proxies: RunningProxy[] = [];

beforeAll(async () => {
  ({ scratch, root } = sampleScratch('proxy-cluster-'));
  cluster = await startRedisCluster();
});

afterAll(async () => {
  await Promise.allSettled(proxies.map((p) => p.close()));
  await cluster?.stop();
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
});

async function call(p: RunningProxy, conversationId: string): Promise<string> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = p.createServer();
  await server.connect(serverSide);
  const client = new Client({ name: 'cluster-test', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    const result = await client.callTool({
      name: 'show',
      arguments: { files: FILES },
      _meta: { conversationId },
    });
    return textOf(result);
  } finally {
    await client.close();
    await server.close();
  }
}

describe('the proxy on a Redis Cluster', () => {
  it('dedups 30 of 30 contexts on their second call, with keys on all three masters', async () => {
    const lines: string[] = [];
    const proxy = await startProxy({
      command: process.execPath,
      args: [FIXTURE, root],
      root,
      redis: cluster.url,
      log: (line) => lines.push(line),
    });
    proxies.push(proxy);
    const ids = Array.from(
      { length: 30 },
      (_, i) => `cluster-context-${String(i).padStart(8, '0')}`,
    );
    for (const id of ids) expect(await call(proxy, id)).toMatch(/^Response #1\//);
    let deduped = 0;
    for (const id of ids) if (/Sent in response #1\//.test(await call(proxy, id))) deduped++;
    expect(deduped).toBe(30);
    const perMaster: number[] = [];
    for (const port of cluster.ports) {
      const node = createClient({ url: `redis://127.0.0.1:${port}` });
      await node.connect();
      perMaster.push((await node.keys('span-ledger-proxy:*')).length);
      await node.close();
    }
    expect(perMaster.every((n) => n > 0)).toBe(true);
    expect(perMaster.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(30);
    // No fault was swallowed on the way: nothing on stderr.
    expect(lines).toEqual([]);
  });

  it('refuses at start-up, in one line, a cluster that does not serve all its slots', async () => {
    // Take one master's slots away: the cluster is no longer in cluster_state:ok.
    const port = String(cluster.ports[2]);
    const cli = (...args: string[]) =>
      spawnSync(process.env.REDIS_CLI ?? 'redis-cli', ['-p', port, ...args], {
        encoding: 'utf8',
      }).stdout.trim();
    expect(cli('flushall')).toBe('OK');
    expect(cli('cluster', 'flushslots')).toBe('OK');
    for (let i = 0; i < 100 && !cli('cluster', 'info').includes('cluster_state:fail'); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const start = startProxy({
      command: process.execPath,
      args: [FIXTURE, root],
      root,
      redis: `redis://127.0.0.1:${port}`,
      log: () => {},
    });
    // Should it start after all, it is stopped with the others.
    void start.then(
      (p) => proxies.push(p),
      () => {},
    );
    await expect(start).rejects.toBeInstanceOf(ProxyStartError);
    await expect(start).rejects.toThrow(
      /^cannot use the Redis of --redis: the cluster is not in cluster_state:ok$/,
    );
  });
});
