/**
 * The MCP example as a daemon under load: 50 sessions × 10 `explore` calls at
 * once over Streamable HTTP (the official SDK client against
 * `examples/mcp-explore/server.mjs --http 0`), next to the same calls made in
 * this process through the example's own handler and worker pool, without MCP
 * or HTTP. Their ratio is what the daemon costs. It also prints the heap one
 * open session holds (its transport, its MCP server and its ledger after ten
 * calls), read from `/healthz` of a daemon started with `--expose-gc`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { quantile } from './_harness.js';

const SESSIONS = 50;
const CALLS = 10;
const WORKERS = 2;
/**
 * An open session is an MCP server, a transport and a ledger bounded by
 * DEFAULT_LIMITS: what it holds must not grow with the calls it made, and
 * 1,000 open sessions (the default bound) should stay near 100 MB.
 */
const HEAP_PER_SESSION_MAX = 128 * 1024;
/** Queries that match definitions in the bundled fixture, so calls plan, point and render. */
const QUERIES = [
  'checkout cart money catalog',
  'money stock order',
  'stock catalog restock',
  'cart total',
  'checkout order',
];

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = join(REPO, 'examples/mcp-explore/server.mjs');

interface Run {
  readonly latencies: number[];
  readonly errors: number;
  readonly ms: number;
}

interface Summary {
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly callsPerSecond: number;
  readonly errors: number;
}

function summarize(run: Run): Summary {
  return {
    p50: quantile(run.latencies, 0.5),
    p95: quantile(run.latencies, 0.95),
    p99: quantile(run.latencies, 0.99),
    callsPerSecond: (run.latencies.length / run.ms) * 1000,
    errors: run.errors,
  };
}

/** `sessions` sessions at once, each making `calls` calls one after another through `call`. */
async function load(
  sessions: number,
  calls: number,
  open: () => Promise<(query: string) => Promise<boolean>>,
): Promise<Run> {
  const callers = await Promise.all(Array.from({ length: sessions }, open));
  const latencies: number[] = [];
  let errors = 0;
  const t0 = performance.now();
  await Promise.all(
    callers.map(async (call, s) => {
      for (let c = 0; c < calls; c++) {
        const started = performance.now();
        const ok = await call(QUERIES[(s + c) % QUERIES.length]!).catch(() => false);
        latencies.push(performance.now() - started);
        if (!ok) errors++;
      }
    }),
  );
  return { latencies, errors, ms: performance.now() - t0 };
}

function startDaemon(): Promise<{ proc: ChildProcess; origin: string }> {
  const proc = spawn(process.execPath, ['--expose-gc', SERVER, '--http', '0'], {
    cwd: REPO,
    env: { ...process.env, EXPLORE_WORKERS: String(WORKERS) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  return new Promise((done, fail) => {
    proc.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(log);
      if (m) done({ proc, origin: m[1]! });
    });
    proc.once('exit', (code) => fail(new Error(`daemon exited (${code}): ${log}`)));
  });
}

async function heapUsed(origin: string): Promise<number> {
  const res = await fetch(`${origin}/healthz`);
  return ((await res.json()) as { heapUsed: number }).heapUsed;
}

/** Over HTTP: one SDK client per session; the clients are closed after `then` has measured. */
async function overHttp(origin: string, sessions: number, calls: number) {
  const clients: Client[] = [];
  const run = await load(sessions, calls, async () => {
    const client = new Client({ name: 'bench-daemon', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)));
    clients.push(client);
    // Each session is one conversation, named in `_meta` as VS Code's client names it.
    const _meta = { conversationId: 'bench' };
    return async (query) => {
      const result = await client.callTool({ name: 'explore', arguments: { query }, _meta });
      return result.isError !== true;
    };
  });
  return { run, clients };
}

interface InProcess {
  handler: {
    execute(
      args: { query: string },
      session: unknown,
      options: { meta: Record<string, string> },
    ): Promise<{ isError?: boolean }>;
  };
  createSession(): unknown;
  pool: { close(): Promise<void> };
}

/** The example's handler and pool in this process, configured as the daemon configures them. */
async function inProcess(): Promise<InProcess> {
  const at = (name: string) => new URL(`../examples/mcp-explore/${name}`, import.meta.url).href;
  const { readConfig } = await import(at('config.mjs'));
  const { poolFromConfig } = await import(at('pool.mjs'));
  const { createExploreHandler, createSession } = await import(at('handler.mjs'));
  const config = readConfig({
    EXPLORE_WORKERS: String(WORKERS),
    EXPLORE_MAX_QUEUE: String(SESSIONS * 2),
  });
  const pool = poolFromConfig(config, () => {});
  return {
    handler: createExploreHandler({ pool, log: () => {}, root: config.root }),
    createSession,
    pool,
  };
}

function row(name: string, s: Summary): string {
  const ms = (x: number) => `${x.toFixed(1)} ms`.padStart(9);
  return `  ${name.padEnd(28)} p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  p99 ${ms(s.p99)}  ${s.callsPerSecond.toFixed(0).padStart(5)} calls/s  ${s.errors} errors`;
}

/** Runs the daemon benchmark; true when it met its targets. */
export async function daemonBench(): Promise<boolean> {
  const local = await inProcess();
  const daemon = await startDaemon();
  try {
    const direct = (sessions: number, calls: number) =>
      load(sessions, calls, async () => {
        const session = local.createSession();
        const options = { meta: { conversationId: 'bench' } };
        return async (query) =>
          (await local.handler.execute({ query }, session, options)).isError !== true;
      });
    // Warm-up: both paths compiled and both pools' workers past their first calls.
    await direct(5, 2);
    const warm = await overHttp(daemon.origin, 5, 2);
    await Promise.all(warm.clients.map((c) => c.close()));

    const before = await heapUsed(daemon.origin);
    const http = await overHttp(daemon.origin, SESSIONS, CALLS);
    const after = await heapUsed(daemon.origin);
    await Promise.all(http.clients.map((c) => c.close()));
    const inProc = await direct(SESSIONS, CALLS);

    const h = summarize(http.run);
    const d = summarize(inProc);
    const perSession = (after - before) / SESSIONS;
    const ratio = d.callsPerSecond / h.callsPerSecond;
    console.log(`\n## ${SESSIONS} sessions × ${CALLS} calls at once, ${WORKERS} rendering workers`);
    console.log(row('daemon (MCP over HTTP)', h));
    console.log(row('in process (no MCP)', d));
    console.log(`  p50 ratio daemon / in process: ${(h.p50 / d.p50).toFixed(2)}×`);
    // What the daemon costs is measured, not a target: on 2 shared cores the
    // SDK's HTTP and JSON-RPC work and the 50 clients share the CPU with the workers.
    console.log(`  throughput ratio in process / daemon: ${ratio.toFixed(2)}×`);
    const heapOk = perSession <= HEAP_PER_SESSION_MAX;
    console.log(
      `  heap per open session: ${(perSession / 1024).toFixed(1)} KB (target ≤ ${HEAP_PER_SESSION_MAX / 1024} KB) ${heapOk ? 'met' : 'MISSED'}`,
    );
    const errorsOk = h.errors === 0 && d.errors === 0;
    console.log(`  errors: ${h.errors + d.errors} (target 0) ${errorsOk ? 'met' : 'MISSED'}`);
    return heapOk && errorsOk;
  } finally {
    daemon.proc.kill('SIGTERM');
    await local.pool.close();
  }
}
