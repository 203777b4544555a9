/**
 * Golden pass-through: what the proxy does not re-render reaches the client
 * byte for byte as the upstream wrote it — results, JSON-RPC errors and tool
 * errors of the real Codegraph and filesystem servers, and the notifications,
 * progress and cancellations of the fixture upstream (neither real server
 * sends progress or logs on its own). Compared on the wire: each response's
 * `result` or `error` member serialized, and the client's own ids.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, PACKAGE, REPO } from './_bin.js';
import { sampleScratch, testEnv } from './_proxy.js';
import { type Line, payloadOf, startWire, type WirePeer } from './_wire.js';

const require = createRequire(import.meta.url);
const CODEGRAPH = join(REPO, 'node_modules/.bin/codegraph');
const FS_MANIFEST = require('@modelcontextprotocol/server-filesystem/package.json') as {
  bin: Record<string, string>;
};
const FS_SERVER = require.resolve(
  `@modelcontextprotocol/server-filesystem/${FS_MANIFEST.bin['mcp-server-filesystem']}`,
);
const FIXTURE = join(PACKAGE, 'test/fixtures/upstream.mjs');

/** One exchange: an id the client picks (numbers and strings both), a method, its params. */
type Ask = readonly [id: string | number, method: string, params?: unknown];

/** The payload of every ask, in order, from `peer`. */
async function answers(peer: WirePeer, asks: readonly Ask[]): Promise<string[]> {
  const got: string[] = [];
  for (const [id, method, params] of asks) {
    const line = await peer.request(id, method, params);
    expect(line.message.id).toEqual(id);
    got.push(payloadOf(line));
  }
  return got;
}

/** The same asks sent to the upstream alone, then through the proxy, one at a time (Codegraph serves one project once). */
async function compare(
  upstream: readonly string[],
  cwd: string,
  env: Record<string, string>,
  asks: readonly Ask[],
): Promise<{ own: string[]; proxied: string[] }> {
  const direct = await startWire(upstream[0]!, upstream.slice(1), { cwd, env });
  const own = await answers(direct, asks).finally(() => direct.close());
  const proxy = await startWire(process.execPath, [BIN, '--', ...upstream], { cwd, env });
  const proxied = await answers(proxy, asks).finally(() => proxy.close());
  return { own, proxied };
}

describe('through the proxy, the real Codegraph', () => {
  let project = '';
  const env = testEnv({ CODEGRAPH_MCP_TOOLS: 'explore,node,search' });
  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'proxy-golden-cg-'));
    cpSync(join(REPO, 'fixtures/sample'), project, { recursive: true });
    execFileSync(CODEGRAPH, ['init', '.'], { cwd: project, env, stdio: 'ignore', timeout: 60_000 });
  });
  afterAll(() => {
    if (project !== '') rmSync(project, { recursive: true, force: true });
  });

  it('passes results, tool errors and JSON-RPC errors of tools it does not re-render byte for byte', async () => {
    const asks: Ask[] = [
      [1, 'tools/call', { name: 'codegraph_search', arguments: { query: 'Cart' } }],
      ['s-2', 'tools/call', { name: 'codegraph_search', arguments: { query: 'scaleMoney' } }],
      [3, 'tools/call', { name: 'codegraph_search', arguments: {} }],
      [4, 'tools/call', { name: 'no_such_tool', arguments: {} }],
      [5, 'no/such/method', {}],
      [6, 'prompts/list', {}],
    ];
    const { own, proxied } = await compare([CODEGRAPH, 'serve', '--mcp'], project, env, asks);
    expect(proxied).toEqual(own);
  });
});

describe('through the proxy, the real filesystem server', () => {
  let scratch = '';
  let root = '';
  const env = testEnv();
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'proxy-golden-fs-'));
    root = join(scratch, 'root');
    mkdirSync(join(root, 'sub'), { recursive: true });
    writeFileSync(join(root, 'a.txt'), 'alpha\n');
    writeFileSync(join(root, 'sub/é ü.ts'), 'export const x = "\u2603";\n');
  });
  afterAll(() => {
    if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
  });

  it('passes results, tool errors and JSON-RPC errors of tools it does not re-render byte for byte', async () => {
    const asks: Ask[] = [
      [1, 'tools/call', { name: 'list_directory', arguments: { path: root } }],
      ['two', 'tools/call', { name: 'list_allowed_directories', arguments: {} }],
      [3, 'tools/call', { name: 'directory_tree', arguments: { path: root } }],
      [4, 'tools/call', { name: 'search_files', arguments: { path: root, pattern: '*.ts' } }],
      [5, 'tools/call', { name: 'list_directory', arguments: { path: scratch } }],
      [6, 'tools/call', { name: 'list_directory', arguments: {} }],
      [7, 'tools/call', { name: 'no_such_tool', arguments: {} }],
      [8, 'prompts/list', {}],
      [9, 'no/such/method'],
    ];
    const { own, proxied } = await compare([process.execPath, FS_SERVER, root], root, env, asks);
    expect(proxied).toEqual(own);
  });
});

describe('through the proxy, the fixture upstream', () => {
  let scratch = '';
  let root = '';
  let events = '';
  beforeAll(() => {
    ({ scratch, root, events } = sampleScratch('proxy-golden-fx-'));
  });
  afterAll(() => {
    if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
  });
  const upstream = () => [process.execPath, FIXTURE, root];

  it('passes results and errors byte for byte, unicode and numbers included', async () => {
    const value = {
      é: 'ü\u2603',
      n: [1.5, -0.25, 1e21, 12345678901234],
      deep: { a: [null, true] },
    };
    const asks: Ask[] = [
      [1, 'tools/call', { name: 'echo', arguments: { value } }],
      ['str-id', 'resources/read', { uri: 'test://notes' }],
      [3, 'prompts/get', { name: 'review', arguments: { path: 'cart.ts' } }],
      [4, 'prompts/list', {}],
      [5, 'no/such/method', { x: 1 }],
    ];
    const { own, proxied } = await compare(upstream(), root, testEnv(), asks);
    expect(proxied).toEqual(own);
  });

  it("passes the upstream's notifications and progress with every field, under the client's token", async () => {
    const proxy = await startWire(process.execPath, [BIN, '--', ...upstream()], {
      cwd: root,
      env: testEnv(),
    });
    try {
      const file = { path: 'cart.ts', start: 1, end: 3 };
      const asked = { name: 'show', arguments: { files: [file], mode: 'log' } };
      await proxy.request(1, 'tools/call', { ...asked, _meta: { progressToken: 'tok-é' } });
      const progress = proxy.lines.find((l) => l.message.method === 'notifications/progress');
      const log = proxy.lines.find((l) => l.message.method === 'notifications/message');
      // What the fixture wrote, under the token the client chose.
      expect(sorted(progress)).toEqual(
        sorted({
          method: 'notifications/progress',
          params: { progressToken: 'tok-é', progress: 1, total: 2 },
        }),
      );
      expect(log?.raw).toBe(
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'notifications/message',
          params: { level: 'info', data: 'a log line' },
        }),
      );
      // A numeric token comes back as the number it was.
      await proxy.request(2, 'tools/call', { ...asked, _meta: { progressToken: 7 } });
      const second = proxy.lines.filter((l) => l.message.method === 'notifications/progress')[1];
      expect(second?.message.params).toMatchObject({ progressToken: 7 });
    } finally {
      await proxy.close();
    }
  });

  it('passes a cancellation upstream under its own id, and answers nothing for the cancelled call', async () => {
    const proxy = await startWire(process.execPath, [BIN, '--', ...upstream()], {
      cwd: root,
      env: testEnv({ UPSTREAM_EVENTS: events }),
    });
    try {
      proxy.notify('notifications/cancelled', { requestId: 'never-sent' });
      const asked = { name: 'show', arguments: { files: [], mode: 'hang' } };
      const answer = proxy.request('hung', 'tools/call', asked, 60_000);
      const started = await waitForEvent(events, (e) => e.mode === 'hang');
      proxy.notify('notifications/cancelled', { requestId: 'hung', reason: 'the user stopped it' });
      await waitForEvent(events, (e) => e.cancelled === started.started);
      // Answered after the cancellation: the proxy still serves, and said nothing about the cancelled call.
      const after = await proxy.request(9, 'tools/call', { name: 'echo', arguments: { value: 1 } });
      expect(payloadOf(after)).toContain('"value":1');
      expect(proxy.lines.some((l) => l.message.id === 'hung')).toBe(false);
      void answer.catch(() => {});
    } finally {
      await proxy.close();
    }
  });
});

/** A message's JSON with its keys in one order, to compare what a test cannot order the same. */
function sorted(line: Line | Record<string, unknown> | undefined): string {
  const message = line === undefined ? {} : 'raw' in line ? (line as Line).message : line;
  const { jsonrpc: _jsonrpc, ...rest } = message as Record<string, unknown>;
  return JSON.stringify(rest, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)))
      : value,
  );
}

/** Waits until the fixture's event log has a line satisfying `test` (bounded). */
async function waitForEvent(
  path: string,
  test: (event: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  for (let tries = 0; tries < 250; tries++) {
    let seen: Record<string, unknown>[] = [];
    try {
      seen = readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    } catch {}
    const found = seen.find(test);
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('timed out waiting for an upstream event');
}
