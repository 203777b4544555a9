/**
 * `span-ledger-proxy --http PORT` as a user starts it: the bin, in front of a
 * small upstream, behind the HTTP front — the transport's rules, contexts
 * keyed by 128-bit tokens (under the principal with a token file), a
 * cancellation on a fresh request reaching the upstream, and one line and
 * exit 2 for a port in use.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, PACKAGE, runBin } from './_bin.js';
import { INITIALIZE, MCP, raw, readPartOfAnswer } from './_http.js';
import { sampleScratch, testEnv, textOf } from './_proxy.js';

const FIXTURE = join(PACKAGE, 'test/fixtures/upstream.mjs');
const TOKEN = 'a-bearer-token-for-the-proxy-0123456789';
let scratch = '';
let root = '';
let events = '';
let tokens = '';

beforeAll(() => {
  ({ scratch, root, events } = sampleScratch('proxy-http-'));
  tokens = join(scratch, 'tokens');
  // An answer larger than one read of a socket (64 KiB), within the proxy's budget.
  const big = Array.from({ length: 2500 }, (_, i) => `export const value${i} = ${i} * 2;`);
  writeFileSync(join(root, 'big.ts'), `${big.join('\n')}\n`);
  writeFileSync(tokens, `${TOKEN}\n`, { mode: 0o600 });
});

const procs: ChildProcess[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await Promise.all(procs.splice(0).map(stop));
});
afterAll(() => {
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
});

function stop(proc: ChildProcess): Promise<number | null> {
  return new Promise((done) => {
    if (proc.exitCode !== null) return done(proc.exitCode);
    proc.once('exit', (code) => done(code));
    proc.kill('SIGTERM');
  });
}

/** The proxy over HTTP on a free port, once it listens. */
function serve(
  args: readonly string[] = [],
): Promise<{ url: string; proc: ChildProcess; log: () => string }> {
  const proc = spawn(
    process.execPath,
    [BIN, '--http', '0', '--root', root, ...args, '--', process.execPath, FIXTURE, root],
    { cwd: root, env: testEnv({ UPSTREAM_EVENTS: events }), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  procs.push(proc);
  let log = '';
  return new Promise((done, fail) => {
    proc.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(log);
      if (m) done({ url: m[1]!, proc, log: () => log });
    });
    proc.once('exit', (code) => fail(new Error(`the proxy exited (${code}): ${log}`)));
  });
}

async function client(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const c = new Client({ name: 'proxy-http-test', version: '1.0.0' });
  clients.push(c);
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return c;
}

const FILES = [
  { path: 'cart.ts', start: 1, end: 79 },
  { path: 'money.ts', start: 1, end: 51 },
];

const BIG = [{ path: 'big.ts', start: 1, end: 2500 }];

describe('span-ledger-proxy --http', () => {
  it('refuses a page of another origin, and serves a context by its 128-bit token', async () => {
    const { url } = await serve();
    expect(
      (await raw(url, 'POST', { ...MCP, origin: 'http://evil.example' }, INITIALIZE)).status,
    ).toBe(403);
    const c = await client(url);
    const first = textOf(await c.callTool({ name: 'show', arguments: { files: FILES } }));
    const token = /context ([A-Za-z0-9_-]+)/.exec(first)?.[1] ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const again = textOf(
      await c.callTool({ name: 'show', arguments: { files: FILES, context: token } }),
    );
    expect(again).toMatch(/^Response #2\b/);
    expect(again).toMatch(/response #1\b/);
  });

  it('requires a bearer token of --token-file', async () => {
    const { url } = await serve(['--token-file', tokens]);
    expect((await raw(url, 'POST', MCP, INITIALIZE)).status).toBe(401);
    const c = await client(url, { authorization: `Bearer ${TOKEN}` });
    expect(textOf(await c.callTool({ name: 'show', arguments: { files: FILES } }))).toMatch(
      /^Response #1\b/,
    );
  });

  it("passes a principal's cancellation that arrives on a fresh request to the upstream", async () => {
    const { url } = await serve(['--token-file', tokens]);
    const c = await client(url, { authorization: `Bearer ${TOKEN}` });
    const stopCall = new AbortController();
    const pending = c
      .callTool({ name: 'show', arguments: { files: FILES, mode: 'slow' } }, undefined, {
        signal: stopCall.signal,
      })
      .catch(() => null);
    for (let i = 0; i < 100 && !readFileSync(events, 'utf8').includes('"slow"'); i++) {
      await new Promise((r) => setTimeout(r, 30));
    }
    stopCall.abort();
    await pending;
    for (let i = 0; i < 100 && !readFileSync(events, 'utf8').includes('"cancelled"'); i++) {
      await new Promise((r) => setTimeout(r, 30));
    }
    expect(readFileSync(events, 'utf8')).toContain('"cancelled"');
  });

  it('without a token file, records nothing for a call its client cancelled from another connection', async () => {
    const { url } = await serve();
    const c = await client(url);
    const meta = { conversationId: 'cancelled-by-the-sdk-client-0001' };
    const stopCall = new AbortController();
    const pending = c
      .callTool(
        { name: 'show', arguments: { files: FILES, mode: 'slow' }, _meta: meta },
        undefined,
        {
          signal: stopCall.signal,
        },
      )
      .catch(() => null);
    const started = () => existsSync(events) && readFileSync(events, 'utf8').includes('"slow"');
    for (let i = 0; i < 100 && !started(); i++) {
      await new Promise((r) => setTimeout(r, 30));
    }
    stopCall.abort();
    await pending;
    // Not stopped (another local client could have sent that cancellation), but not counted.
    const health = url.replace(/\/mcp$/, '/healthz');
    for (let i = 0; i < 200 && JSON.parse((await raw(health, 'GET', {})).text).calls > 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const next = textOf(
      await c.callTool({ name: 'show', arguments: { files: FILES }, _meta: meta }),
    );
    expect(next).not.toMatch(/Sent in response/);
    expect(next).toContain('\n1\t/**\n');
  });

  it('undoes a call whose cancellation arrives just after its answer went out', async () => {
    const { url } = await serve();
    const meta = { conversationId: 'cancelled-after-the-answer' };
    const post = (message: unknown) => raw(url, 'POST', MCP, JSON.stringify(message));
    const show = (id: number) =>
      post({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'show', arguments: { files: FILES }, _meta: meta },
      });
    const first = await show(41);
    expect(first.text).toMatch(/Response #1\b/);
    // The client cancelled while the answer was on its way, and drops it on arrival.
    const cancel = await post({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 41, reason: 'the user pressed stop' },
    });
    expect(cancel.status).toBe(202);
    const next = textOf(JSON.parse((await show(42)).text).result);
    expect(next).toMatch(/^Response #2\b/);
    expect(next).not.toMatch(/Sent in response/);
    expect(next).toContain('\n1\t/**\n');
  });

  it('records nothing for an answer its client hung up on mid-way: the next call sends it in full', async () => {
    const { url } = await serve();
    const meta = { conversationId: 'hung-up-mid-answer-0123456789' };
    const call = (id: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'show', arguments: { files: BIG }, _meta: meta },
      });
    // One byte read: the rest sits in the client's kernel when it goes.
    await readPartOfAnswer(url, call(51), 1);
    const next = textOf(JSON.parse((await raw(url, 'POST', MCP, call(52))).text).result);
    expect(next).toMatch(/^Response #2\b/);
    expect(next).not.toMatch(/Sent in response/);
    expect(next).toContain('\n1\texport const value0 = 0 * 2;\n');
  });

  it('takes a short _meta id for no key: another client sending it gets no pointer', async () => {
    const { url } = await serve();
    const show = (id: number, meta: Record<string, unknown>) =>
      raw(
        url,
        'POST',
        MCP,
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'show', arguments: { files: FILES }, _meta: meta },
        }),
      );
    for (const meta of [{ conversationId: '1' }, { 'vscode.conversationId': 'x' }]) {
      await show(61, meta);
      const other = textOf(JSON.parse((await show(62, meta)).text).result);
      expect(other).toMatch(/^Response #1\b/);
      expect(other).not.toMatch(/Sent in response/);
    }
  });

  it('takes a short token a client sends for no key: contexts over HTTP are keyed by 128 bits', async () => {
    const { url } = await serve();
    const c = await client(url);
    const call = async () =>
      textOf(await c.callTool({ name: 'show', arguments: { files: FILES, context: 'k7f3q2ab' } }));
    await call();
    const again = await call();
    expect(again).not.toMatch(/Sent in response/);
    expect(/context ([A-Za-z0-9_-]+)/.exec(again)?.[1]).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('stops on SIGTERM with exit 0', async () => {
    const { proc } = await serve();
    procs.splice(procs.indexOf(proc), 1);
    expect(await stop(proc)).toBe(0);
  });

  it('says a port in use in one line, before the upstream starts (and prints a banner), and exits 2', async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', () => done()));
    const { port } = taken.address() as AddressInfo;
    const banner = "process.stderr.write('upstream banner\\n'); setInterval(() => {}, 1000)";
    try {
      const run = runBin(['--http', String(port), process.execPath, '-e', banner], root);
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(
        `span-ledger-proxy: cannot listen on 127.0.0.1:${port}: the port is in use\n`,
      );
    } finally {
      taken.close();
    }
  });
});
