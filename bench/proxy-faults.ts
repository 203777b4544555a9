/**
 * The fault probes of span-ledger-proxy's HTTP mode and shared store, for
 * `npm run bench -- faults ledger-proxy`: a client that hangs up mid-answer, a
 * refresh while Redis sleeps, `_meta` ids and cancellations another client
 * can send, token-less calls from one client, one principal's many
 * contexts, and a Redis Cluster. Each runs the proxy's own code in this
 * process (its HTTP front, its call path, its stores) against real sockets
 * and a real `redis-server`; the citation oracle runs on every answer:
 * every "Sent in response #N" names a response the asking context holds
 * (delivered whole, not named in a refresh since).
 *
 * The "before" column was measured with these probes on the code of commit
 * 9ef4e33 (the proxy before these fixes), on a 2-core machine.
 */
import type { Agent } from 'node:http';
import { connect } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createClient } from 'redis';
import { z } from 'zod';
import { answerCall, type CallSetup } from '../packages/proxy/src/call.js';
import { httpCallOf, serveMcpHttp } from '../packages/proxy/src/http/index.js';
import { PROXY_LIMITS } from '../packages/proxy/src/sectioned.js';
import { localStore, type ProxyStore, redisStore } from '../packages/proxy/src/store.js';
import { MCP, raw } from '../packages/proxy/test/_http.js';
import {
  hangUpWhileRecordHeld,
  redisHold,
  sharedCallSetup,
} from '../packages/proxy/test/_slow-record.js';
import { type Figure, REPO } from '../test/e2e/_faults.js';
import { startRedis, startRedisCluster } from '../test/e2e/_redis.js';
import { prng } from './_harness.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// -- the call path, in process ----------------------------------------------

const FILES = ['fixtures/sample/src/cart.ts', 'fixtures/sample/src/money.ts'];

/** The fixture upstream's answer format: numbered sections of whole files. */
async function sections(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const parts: string[] = [];
  for (const path of FILES) {
    const lines = (await readFile(`${REPO}/${path}`, 'utf8')).split('\n');
    const numbered = lines.map((line, i) => `${i + 1}\t${line}`).join('\n');
    parts.push(`**\`${path}\`**\n\n\`\`\`ts\n${numbered}\n\`\`\`\n`);
  }
  return `**Sections**\n\n${parts.join('\n')}`;
}

/**
 * One agent context as the oracle sees it: the responses it holds. `ask`
 * makes a call and counts each pointer at a response it does not hold.
 */
class Context {
  readonly held = new Set<number>();
  violations = 0;
  constructor(
    private readonly setup: CallSetup,
    private readonly meta: Record<string, unknown> | undefined,
    private readonly body: string,
    private readonly principal?: string,
  ) {}

  async ask(args: Record<string, unknown> = {}): Promise<string> {
    const refresh = args.refresh;
    if (Array.isArray(refresh)) for (const n of refresh) this.held.delete(n as number);
    const outcome = await answerCall(this.setup, {
      tool: 'show',
      args,
      meta: this.meta,
      signal: new AbortController().signal,
      principal: this.principal,
      forward: async () => ({ result: { content: [{ type: 'text', text: this.body }] } }),
    });
    const result = outcome !== null && 'result' in outcome.reply ? outcome.reply.result : null;
    const text = ((result as { content?: { text?: string }[] } | null)?.content?.[0]?.text ??
      '') as string;
    for (const m of text.matchAll(/Sent in response #(\d+)\//g)) {
      if (!this.held.has(Number(m[1]))) this.violations++;
    }
    const number = /^Response #(\d+)\//.exec(text);
    if (number !== null) this.held.add(Number(number[1]));
    return text;
  }
}

// -- the probes -------------------------------------------------------------

/** A client reads 64 KiB of an answer of `mb` MB and hangs up: is its record undone? */
export async function probeHangUps(sizes = [1, 5, 30, 100]): Promise<Figure> {
  const kept: number[] = [];
  for (const mb of sizes) {
    let undone = false;
    const front = await serveMcpHttp({
      port: 0,
      stateful: false,
      limits: { refusalDelayMs: 0 },
      createServer: () => {
        const server = new McpServer({ name: 'big', version: '1.0.0' });
        server.registerTool(
          'big',
          { inputSchema: { mb: z.number() } },
          async ({ mb: size }, extra) => {
            httpCallOf(extra)?.onUndelivered(() => {
              undone = true;
            });
            return { content: [{ type: 'text', text: 'x'.repeat(size * 1024 * 1024) }] };
          },
        );
        return server;
      },
    });
    try {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'big', arguments: { mb } },
      });
      await new Promise<void>((done) => {
        const socket = connect(front.port, '127.0.0.1', () => {
          const head = Object.entries({ ...MCP, host: `127.0.0.1:${front.port}` })
            .map(([k, v]) => `${k}: ${v}\r\n`)
            .join('');
          socket.write(
            `POST /mcp HTTP/1.1\r\n${head}content-length: ${body.length}\r\n\r\n${body}`,
          );
        });
        let read = 0;
        socket.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= 64 * 1024) socket.destroy();
        });
        socket.on('close', () => done());
        socket.on('error', () => {});
      });
      for (let i = 0; i < 100 && !undone; i++) await sleep(20);
      if (!undone) kept.push(mb);
    } finally {
      await front.close();
    }
  }
  const figure =
    kept.length === 0
      ? `records undone at ${sizes.join(', ')} MB: 0 oracle violations`
      : `record kept (the next call would point at it) at ${kept.join(', ')} MB of ${sizes.join(', ')} MB`;
  return { figure, met: kept.length === 0 };
}

/** `refresh: [1]` while Redis sleeps 0.2–0.5 s (`DEBUG SLEEP`), `trials` times. */
export async function probeRefreshInStall(trials = 50): Promise<Figure> {
  const redis = await startRedis({ debug: true });
  const admin = createClient({ url: redis.url });
  await admin.connect();
  const store = await redisStore(redis.url, PROXY_LIMITS, () => {});
  try {
    const setup = await sharedCallSetup(store);
    const body = await sections();
    const random = prng(31);
    let bad = 0;
    let violations = 0;
    for (let t = 0; t < trials; t++) {
      const context = new Context(
        setup,
        { conversationId: `refresh-in-a-stall-${t}-0123456789` },
        body,
      );
      await context.ask();
      const seconds = 0.2 + 0.3 * random();
      const awake = admin.sendCommand(['DEBUG', 'SLEEP', seconds.toFixed(2)]);
      await sleep(20);
      const refreshed = await context.ask({ refresh: [1] });
      await awake;
      const next = await context.ask();
      if (/response #1\//.test(refreshed) || /response #1\//.test(next)) bad++;
      violations += context.violations;
    }
    return {
      figure: `${bad} of ${trials} trials cite the refreshed response; ${violations} oracle violation(s)`,
      met: bad === 0 && violations === 0,
    };
  } finally {
    await store.close();
    await admin.quit().catch(() => {});
    await redis.stop();
  }
}

/**
 * The client hangs up while Redis holds its call's record (writes paused on
 * cue) and, once the proxy has seen it, calls again in the same context
 * before Redis answers: does the next answer point at the undelivered one?
 */
export async function probeHangUpWhileRecordHeld(): Promise<Figure> {
  const redis = await startRedis();
  try {
    const store = await redisStore(redis.url, PROXY_LIMITS, () => {});
    const hold = await redisHold(redis.url);
    const pointers = await hangUpWhileRecordHeld(store, hold).finally(() => hold.release());
    const bad = pointers.filter((n) => n !== 1).length;
    return {
      figure: `next call: ${bad} pointer(s) to the response not delivered; ${pointers.length} pointer(s) in all`,
      met: bad === 0,
    };
  } finally {
    await redis.stop();
  }
}

/** Client B sends the `_meta` id client A used (`"1"`, VS Code's `"x"`). */
export async function probeChosenMetaIds(): Promise<Figure> {
  const setup = await sharedCallSetup(localStore(PROXY_LIMITS));
  const body = await sections();
  let pointed = 0;
  let violations = 0;
  for (const meta of [{ conversationId: '1' }, { 'vscode.conversationId': 'x' }]) {
    const a = new Context(setup, meta, body);
    await a.ask();
    const b = new Context(setup, meta, body);
    if (/Sent in response/.test(await b.ask())) pointed++;
    violations += a.violations + b.violations;
  }
  return {
    figure: `${pointed} of 2 other clients pointed at the owner's responses; ${violations} oracle violation(s)`,
    met: pointed === 0 && violations === 0,
  };
}

async function post(url: string, body: string, agent?: Agent): Promise<string> {
  return (await raw(url, 'POST', MCP, body, agent)).text;
}

function probeFront(onCall: (tag: string, aborted: boolean) => void) {
  return serveMcpHttp({
    port: 0,
    stateful: false,
    limits: { refusalDelayMs: 0 },
    createServer: () => {
      const server = new McpServer({ name: 'probe', version: '1.0.0' });
      server.registerTool(
        'probe',
        { inputSchema: { tag: z.string(), wait: z.number() } },
        async ({ tag, wait }, extra) => {
          const call = httpCallOf(extra);
          let aborted = false;
          await new Promise<void>((done) => {
            const timer = setTimeout(done, wait);
            call?.signal.addEventListener('abort', () => {
              aborted = true;
              clearTimeout(timer);
              done();
            });
          });
          onCall(tag, aborted);
          return { content: [{ type: 'text', text: tag }] };
        },
      );
      return server;
    },
  });
}

const callOf = (id: number, tag: string, wait: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'probe', arguments: { tag, wait } },
  });

/** B sends `notifications/cancelled { requestId: 0 }` while A's call 0 runs. */
export async function probeForeignCancel(): Promise<Figure> {
  const stopped: string[] = [];
  const front = await probeFront((tag, aborted) => {
    if (aborted) stopped.push(tag);
  });
  try {
    const a = post(front.url, callOf(0, 'a', 1000));
    for (let i = 0; i < 100 && front.stats().calls === 0; i++) await sleep(10);
    await post(
      front.url,
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 0 },
      }),
    );
    const answer = await a;
    const answered = answer.includes('"text":"a"');
    return {
      figure: `A's call ${stopped.length > 0 ? 'stopped' : 'not stopped'}, ${answered ? 'answered' : 'not answered'}`,
      met: stopped.length === 0 && answered,
    };
  } finally {
    await front.close();
  }
}

/** 64 slow token-less calls from one client; then another client's first call. */
export async function probeTokenlessLanes(width = 64): Promise<Figure> {
  const front = await probeFront(() => {});
  try {
    const timed = async () => {
      const started = performance.now();
      const text = await post(front.url, callOf(1, 'other', 0));
      return { ms: performance.now() - started, busy: text.includes('The server is busy') };
    };
    const rest: number[] = [];
    for (let i = 0; i < 10; i++) rest.push((await timed()).ms);
    rest.sort((x, y) => x - y);
    let refused = 0;
    const slow = Array.from({ length: width }, (_, i) =>
      post(front.url, callOf(100 + i, 'slow', 3000)).then((text) => {
        if (text.includes('The server is busy')) refused++;
      }),
    );
    // Every one of them in flight, or answered "busy".
    for (let i = 0; i < 300 && front.stats().calls + refused < width; i++) await sleep(10);
    const other = await timed();
    await Promise.all(slow);
    const atRest = rest[5]!;
    const ratio = other.ms / atRest;
    return {
      figure: `${refused} of ${width} answered "busy"; another client's first call ${other.busy ? 'answered "busy"' : 'served'} in ${other.ms.toFixed(0)} ms vs ${atRest.toFixed(0)} ms at rest (${ratio.toFixed(1)}×)`,
      met: !other.busy && ratio < 2,
    };
  } finally {
    await front.close();
  }
}

/** One principal's 100 contexts, then another principal's second call. */
export async function probePrincipalBound(): Promise<Figure> {
  const setup = await sharedCallSetup(localStore(PROXY_LIMITS));
  const body = await sections();
  const a = new Context(setup, { conversationId: 'principal-a-context-0123456789' }, body, 'a');
  await a.ask();
  for (let i = 0; i < 100; i++) {
    await new Context(
      setup,
      { conversationId: `principal-b-context-${i}-0123456789` },
      body,
      'b',
    ).ask();
  }
  const intact = /Sent in response #1\//.test(await a.ask());
  return {
    figure: `after 100 contexts of principal b, a's ledger ${intact ? 'intact' : 'evicted'}; ${a.violations} oracle violation(s)`,
    met: intact && a.violations === 0,
  };
}

/** 30 contexts, two calls each, on a Redis Cluster of three masters. */
export async function probeCluster(contexts = 30): Promise<Figure> {
  const cluster = await startRedisCluster();
  const lines: string[] = [];
  let store: ProxyStore | undefined;
  try {
    store = await redisStore(cluster.url, PROXY_LIMITS, (line) => lines.push(line));
    const setup = await sharedCallSetup(store);
    const body = await sections();
    let deduped = 0;
    let violations = 0;
    const all = Array.from(
      { length: contexts },
      (_, i) => new Context(setup, { conversationId: `cluster-context-${i}-0123456789` }, body),
    );
    for (const c of all) await c.ask();
    for (const c of all) if (/Sent in response #1\//.test(await c.ask())) deduped++;
    for (const c of all) violations += c.violations;
    const perMaster: number[] = [];
    for (const port of cluster.ports) {
      const node = createClient({ url: `redis://127.0.0.1:${port}` });
      await node.connect();
      perMaster.push(Number(await node.sendCommand(['DBSIZE'])));
      await node.quit();
    }
    return {
      figure: `${deduped} of ${contexts} contexts dedup on their second call; keys per master ${perMaster.join('/')}; ${lines.length} line(s) on stderr; ${violations} oracle violation(s)`,
      met: deduped === contexts && perMaster.every((n) => n > 0) && violations === 0,
    };
  } catch (error) {
    return { figure: `refused: ${error instanceof Error ? error.message : error}`, met: false };
  } finally {
    await store?.close();
    await cluster.stop();
  }
}

/** An upstream that, asked `flood`, writes `mb` MB of log notifications before it answers. */
const FLOOD_UPSTREAM = `
const send = (m) => new Promise((done) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n', () => done()));
let buffer = '';
process.stdin.on('data', async (chunk) => {
  buffer += chunk;
  for (let nl = buffer.indexOf('\\n'); nl !== -1; nl = buffer.indexOf('\\n')) {
    const message = JSON.parse(buffer.slice(0, nl));
    buffer = buffer.slice(nl + 1);
    if (message.method === 'initialize') {
      await send({ id: message.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {}, logging: {} }, serverInfo: { name: 'flood', version: '1' } } });
    } else if (message.method === 'tools/list') {
      await send({ id: message.id, result: { tools: [{ name: 'flood', inputSchema: { type: 'object' } }] } });
    } else if (message.method === 'tools/call') {
      const data = 'f'.repeat(100 * 1024);
      for (let i = 0; i < Number(process.env.FLOOD_MB) * 10; i++) await send({ method: 'notifications/message', params: { level: 'info', data } });
      await send({ id: message.id, result: { content: [{ type: 'text', text: 'done' }] } });
    } else if (message.id !== undefined) {
      await send({ id: message.id, result: {} });
    }
  }
});
`;

/** The proxy's RSS in MB, from /proc (Linux). */
async function rssOf(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** A client over stdio that stops reading while the upstream floods `mb` MB of notifications. */
export async function probeFlood(mb = 200, pausedMs = 5000): Promise<Figure> {
  const { spawn } = await import('node:child_process');
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'proxy-flood-'));
  const upstream = join(dir, 'flood.cjs');
  writeFileSync(upstream, FLOOD_UPSTREAM);
  const proc = spawn(
    process.execPath,
    [
      `${REPO}/packages/proxy/bin/span-ledger-proxy.js`,
      '--root',
      dir,
      '--tools',
      'none',
      '--',
      process.execPath,
      upstream,
    ],
    { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, FLOOD_MB: String(mb) } },
  );
  let stderr = '';
  proc.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  try {
    const send = (m: unknown) => proc.stdin.write(`${JSON.stringify(m)}\n`);
    let seen = '';
    const waitFor = async (text: string, ms: number) => {
      for (let i = 0; i < ms / 20 && !seen.includes(text); i++) await sleep(20);
    };
    const onData = (c: Buffer) => {
      seen = (seen + c.toString()).slice(-4096);
    };
    proc.stdout.on('data', onData);
    send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'flood', version: '1' },
      },
    });
    await waitFor('"id":0', 20_000);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // The client stops reading, then asks for the flood.
    proc.stdout.pause();
    proc.stdout.off('data', onData);
    send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'flood', arguments: {} } });
    let peak = 0;
    for (let t = 0; t < pausedMs; t += 100) {
      peak = Math.max(peak, await rssOf(proc.pid!));
      await sleep(100);
    }
    proc.stdout.on('data', onData);
    proc.stdout.resume();
    const started = Date.now();
    for (let i = 0; i < 3000 && !seen.includes('"text":"done"'); i++) {
      peak = Math.max(peak, await rssOf(proc.pid!));
      await sleep(20);
    }
    const answered = seen.includes('"text":"done"');
    const warned = /MaxListenersExceededWarning/.test(stderr);
    return {
      figure: `peak RSS ${peak.toFixed(0)} MB over a ${mb} MB flood with the client paused ${pausedMs / 1000} s; ${answered ? `answered ${((Date.now() - started) / 1000).toFixed(1)} s after it read again` : 'no answer'}; ${warned ? 'MaxListenersExceededWarning on stderr' : 'no warning'}`,
      met: peak <= 300 && answered && !warned,
    };
  } finally {
    proc.kill('SIGTERM');
    await new Promise((done) => proc.once('exit', done));
    rmSync(dir, { recursive: true, force: true });
  }
}
