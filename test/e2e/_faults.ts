/**
 * The fault probes of the MCP example's daemon, as a hostile local client
 * runs them: each starts what it needs (the daemon as a subprocess on a free
 * loopback port, a real `redis-server` when it needs one), drives it with the
 * official SDK client or raw HTTP, measures, stops everything it started, and
 * returns its figures. The e2e tests (`mcp-explore.faults.*.test.ts`) assert
 * on them; `npm run bench -- faults` prints them beside the figures the same
 * probes gave before the daemon was fixed.
 *
 * No vitest here: the benchmark bundles this file. Every probe is bounded in
 * calls and in time and talks to 127.0.0.1 only.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  ftruncateSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createClient } from 'redis';
import { REPO } from '../_repo.js';
import { startRedis, type TestRedis } from './_redis.js';

export { REPO };

/**
 * The checkout whose daemon the probes start: this one, or (to measure the
 * "before" column) a checkout of older code with its dist/ built, named by
 * FAULTS_DAEMON_REPO.
 */
const DAEMON_REPO = process.env.FAULTS_DAEMON_REPO ?? REPO;
export const SERVER = join(DAEMON_REPO, 'examples/mcp-explore/server.mjs');
const FAULTY_WORKER = join(DAEMON_REPO, 'test/e2e/_mcp-explore-faulty-worker.mjs');
/** The read proxy example (`node server.mjs <root>`, stdio) of the same checkout. */
const READ_PROXY = join(DAEMON_REPO, 'examples/read-proxy/server.mjs');

/** Queries that match definitions of the bundled fixture (four files for WIDE). */
export const WIDE = 'checkout cart money catalog';
export const STOCK = 'money stock order';
export const RESTOCK = 'stock catalog restock';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A promise a test fires by hand: a step waits on `fired`, another calls `fire()`. */
export function cue(): { fired: Promise<void>; fire: () => void } {
  let fire: () => void = () => {};
  const fired = new Promise<void>((done) => {
    fire = done;
  });
  return { fired, fire };
}

// ---------------------------------------------------------------------------
// Processes

export interface Daemon {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  readonly proc: ChildProcess;
  /** What it wrote to stderr so far. */
  log(): string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

export interface DaemonOptions {
  /** Environment on top of ours (the example's own settings removed first). */
  readonly env?: Record<string, string>;
  /** More server flags (`--redis <url>`, `--token-file <file>`). */
  readonly args?: readonly string[];
  readonly nodeArgs?: readonly string[];
  /** A worker that misbehaves on request (`slow:` queries take `slowMs`). */
  readonly slowMs?: number;
}

/** Our environment without the example's settings, plus `extra`. */
export function envWith(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && k !== 'SPAN_LEDGER_DEDUP' && !k.startsWith('EXPLORE_')) env[k] = v;
  }
  return { ...env, ...extra };
}

const running = new Set<ChildProcess>();

export function stopProcess(proc: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise<void>((done) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return done();
    proc.once('exit', () => done());
    proc.kill(signal);
  });
}

/** Stops every daemon a probe started and left running (a probe that threw). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((p) => stopProcess(p)));
}

/** Starts the example as an HTTP daemon on a free port; resolves once it listens. */
export function startDaemon(options: DaemonOptions = {}): Promise<Daemon> {
  const env: Record<string, string> = { ...(options.env ?? {}) };
  if (options.slowMs !== undefined) {
    env.EXPLORE_WORKER ??= FAULTY_WORKER;
    env.EXPLORE_WORKERS ??= '1';
    env.EXPLORE_TEST_SLOW_MS = String(options.slowMs);
  }
  const proc = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), SERVER, '--http', '0', ...(options.args ?? [])],
    { cwd: DAEMON_REPO, env: envWith(env), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  running.add(proc);
  proc.once('exit', () => running.delete(proc));
  let log = '';
  return new Promise((done, fail) => {
    proc.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
      const m = /listening on (http:\/\/127\.0\.0\.1:(\d+))\/mcp/.exec(log);
      if (m) {
        done({
          url: `${m[1]}/mcp`,
          origin: m[1]!,
          port: Number(m[2]),
          proc,
          log: () => log,
          stop: () => stopProcess(proc),
        });
      }
    });
    proc.once('exit', (code) => fail(new Error(`daemon exited (${code}): ${log}`)));
  });
}

/** Resolves once `daemon`'s log holds `line` at least `count` times (10 s at most). */
export async function logged(daemon: Daemon, line: string, count: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (daemon.log().split(line).length - 1 >= count) return;
    await sleep(25);
  }
  throw new Error(`the daemon never logged "${line}" ${count} times`);
}

/** A real Redis for a probe; `debug` lets the probe stall it (`DEBUG SLEEP`). */
export async function withRedis<T>(run: (redis: TestRedis) => Promise<T>): Promise<T> {
  const redis = await startRedis({ debug: true });
  try {
    return await run(redis);
  } finally {
    await redis.stop();
  }
}

/** Stalls the Redis at `url` for `seconds`; resolves once it is asleep, with `awake` for its waking. */
export async function stallRedis(url: string, seconds: number): Promise<{ awake: Promise<void> }> {
  const admin = createClient({ url });
  await admin.connect();
  const awake = admin
    .sendCommand(['DEBUG', 'SLEEP', String(seconds)])
    .then(() => admin.quit())
    .then(() => undefined);
  // The command is on its way before the probe's next call goes out.
  await sleep(50);
  return { awake };
}

/** Writes held by Redis (`CLIENT PAUSE … WRITE`) until the probe lets them go, each step confirmed. */
export interface HeldWrites {
  /** Holds every write from now on: resolves once Redis confirms it (reads still answer). */
  hold(): Promise<void>;
  /** Resolves once `count` clients wait on a held write (`blocked_clients`); false if `until` settled first. */
  waiting(count: number, until: Promise<unknown>): Promise<boolean>;
  /** Lets the held writes go (`CLIENT UNPAUSE`) and closes the connection; again, does nothing. */
  release(): Promise<void>;
}

/**
 * A connection to the Redis at `url` that holds its writes on cue: Redis
 * "slow" for the daemon's records exactly from `hold()` to `release()`, with
 * no sleep deciding what happens first. A hold ends by itself after 10 s.
 */
export async function holdRedisWrites(url: string): Promise<HeldWrites> {
  const admin = createClient({ url });
  await admin.connect();
  let settled = false;
  let released = false;
  return {
    async hold() {
      await admin.sendCommand(['CLIENT', 'PAUSE', '10000', 'WRITE']);
    },
    async waiting(count, until) {
      void until.then(() => {
        settled = true;
      });
      for (let i = 0; i < 400 && !settled; i++) {
        const info = String(await admin.sendCommand(['INFO', 'clients']));
        if (Number(/blocked_clients:(\d+)/.exec(info)?.[1] ?? 0) >= count) return true;
        await sleep(25);
      }
      if (settled) return false;
      throw new Error(`Redis never held ${count} write(s)`);
    },
    async release() {
      if (released) return;
      released = true;
      await admin.sendCommand(['CLIENT', 'UNPAUSE']);
      await admin.quit();
    },
  };
}

// ---------------------------------------------------------------------------
// Clients

/** `Authorization` for a daemon started with `--token-file`. */
export type Auth = string | null;

function authHeaders(auth: Auth): Record<string, string> {
  return auth === null ? {} : { authorization: `Bearer ${auth}` };
}

/** An SDK client on the daemon at `url`. */
export async function connectClient(url: string, auth: Auth = null): Promise<Client> {
  const client = new Client({ name: 'fault-probe', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: authHeaders(auth) },
    }),
  );
  return client;
}

export type Meta = Record<string, unknown> | null;

/** What a call answered: the text, or the tool error's text. */
export interface Answer {
  readonly text: string;
  readonly isError: boolean;
}

/** One `explore` call; never throws (a transport fault is an error answer). */
export async function call(
  client: Client,
  args: Record<string, unknown>,
  meta: Meta = null,
  signal?: AbortSignal,
): Promise<Answer> {
  try {
    const params = { name: 'explore', arguments: args, ...(meta === null ? {} : { _meta: meta }) };
    const result = await client.callTool(params, undefined, signal === undefined ? {} : { signal });
    const text = (result.content as { text?: string }[])[0]?.text ?? '';
    return { text, isError: result.isError === true };
  } catch (error) {
    return { text: String(error instanceof Error ? error.message : error), isError: true };
  }
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** One HTTP request on a shared keep-alive agent; a connection fault is status 0. */
export function httpRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawResponse> {
  return new Promise((done) => {
    const req = request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        done({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', () => done({ status: 0, headers: {}, text: '' }));
    });
    req.on('error', (e) => done({ status: 0, headers: {}, text: e.message }));
    req.end(body);
  });
}

export const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
} as const;

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'fault-probe-raw', version: '1.0.0' },
  },
});

/** A raw `initialize`; the session id when one was opened. */
export async function rawInitialize(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; sid: string | null }> {
  const res = await httpRequest(url, 'POST', { ...MCP_HEADERS, ...headers }, INITIALIZE);
  const sid = res.headers['mcp-session-id'];
  return { status: res.status, sid: typeof sid === 'string' ? sid : null };
}

/** The JSON-RPC messages of a Streamable HTTP answer (SSE `data:` lines, or a JSON body). */
export function messagesOf(body: string): Record<string, unknown>[] {
  try {
    if (body.trimStart().startsWith('{') || body.trimStart().startsWith('[')) {
      const parsed = JSON.parse(body);
      return Array.isArray(parsed) ? parsed : [parsed];
    }
    return body
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice('data: '.length)));
  } catch {
    return [];
  }
}

export function toolCall(id: number, args: Record<string, unknown>, meta: Meta = null) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'explore', arguments: args, ...(meta === null ? {} : { _meta: meta }) },
  };
}

/** A `tools/call` POSTed on a socket of its own, which the probe can reset. */
export function callToHangUp(
  url: string,
  message: unknown,
  headers: Record<string, string> = {},
): { hangUp(): void; answered: Promise<string | null> } {
  const req = request(url, { method: 'POST', headers: { ...MCP_HEADERS, ...headers } });
  const answered = new Promise<string | null>((done) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => {
        text += c.toString('utf8');
      });
      res.on('end', () => done(text));
      res.on('error', () => done(null));
    });
    req.on('error', () => done(null));
    req.on('close', () => done(null));
  });
  req.end(JSON.stringify(message));
  return { hangUp: () => req.destroy(), answered };
}

// ---------------------------------------------------------------------------
// Reading responses

/** The label a response opens with (`3`, or `3/kqfz` with its numbering's tag), or `null`. */
export function labelOf(text: string): string | null {
  return /^Response #(\d+(?:\/[a-z]+)?)/.exec(text)?.[1] ?? null;
}

/** The context token a response asks the agent to echo, or `null`. */
export function tokenOf(text: string): string | null {
  return /^Response #\S+ · context ([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? null;
}

interface Section {
  readonly path: string;
  /** Numbered source lines shown. */
  readonly lines: Set<number>;
  /** Lines a pointer stands for. */
  readonly pointed: Set<number>;
  /** Response labels the pointer cites. */
  readonly cites: Set<string>;
}

const SPAN = /\bL(\d+)(?:-(\d+))?\b/g;

/** The file sections of a response: lines shown, lines pointed at, responses cited. */
export function sectionsOf(text: string): Section[] {
  const out: Section[] = [];
  let current: Section | null = null;
  let inFence = false;
  for (const line of text.split('\n')) {
    if (inFence) {
      const m = /^(\d+)\t/.exec(line);
      if (m) current?.lines.add(Number(m[1]));
      else if (/^`{3,}\s*$/.test(line)) inFence = false;
      continue;
    }
    const header = /^\*\*`([^`]+)`\*\*/.exec(line);
    if (header) {
      current = { path: header[1]!, lines: new Set(), pointed: new Set(), cites: new Set() };
      out.push(current);
      continue;
    }
    if (/^`{3,}[^`]*$/.test(line)) {
      inFence = true;
      continue;
    }
    if (current !== null && line.startsWith('>')) {
      // The spans are those before the first sentence's end: the refresh sentence names no lines.
      for (const m of line.matchAll(SPAN)) {
        const start = Number(m[1]);
        const end = m[2] === undefined ? start : Number(m[2]);
        for (let l = start; l <= end; l++) current.pointed.add(l);
      }
      for (const m of line.matchAll(/#(\d+(?:\/[a-z]+)?)/g)) current.cites.add(m[1]!);
    }
  }
  return out;
}

/**
 * Answers of calls that ran in parallel, in the order their numbers say the
 * agent could have read them: a response can only cite one recorded before
 * its own number was taken, so by number is an order the checks accept
 * whenever the server numbered honestly (unnumbered answers last).
 */
export function byNumber(answers: readonly Answer[]): Answer[] {
  const n = (a: Answer) => Number(labelOf(a.text)?.split('/')[0] ?? Number.POSITIVE_INFINITY);
  return answers.filter((a) => !a.isError).sort((a, b) => n(a) - n(b));
}

export function hasPointer(text: string): boolean {
  return sectionsOf(text).some((s) => s.pointed.size > 0);
}

/**
 * What one agent context was delivered, in order, checked for the two
 * over-reports the probes look for: a label printed twice, and a pointer
 * citing a response the context was not delivered (or one that did not carry
 * the lines it points at).
 */
export class Context {
  /** label → lines delivered per path. */
  private readonly delivered = new Map<string, Map<string, Set<number>>>();
  private readonly printed: string[] = [];
  /** Pointers citing something the context never received: `#label path` each. */
  readonly badCitations: string[] = [];

  /** A response that reached the agent. */
  deliver(text: string): void {
    for (const s of sectionsOf(text)) {
      for (const cite of s.cites) {
        const held = this.delivered.get(cite)?.get(s.path);
        if (held === undefined) {
          this.badCitations.push(`#${cite} ${s.path}`);
        }
      }
      // The pointed lines must have come in one of the cited responses.
      const union = new Set<number>();
      for (const cite of s.cites)
        for (const l of this.delivered.get(cite)?.get(s.path) ?? []) union.add(l);
      if (s.cites.size > 0 && [...s.pointed].some((l) => !union.has(l))) {
        this.badCitations.push(`lines of ${s.path} not in #${[...s.cites].join(', #')}`);
      }
    }
    const label = labelOf(text);
    if (label === null) return;
    this.printed.push(label);
    const files = this.delivered.get(label) ?? new Map<string, Set<number>>();
    for (const s of sectionsOf(text)) {
      const lines = files.get(s.path) ?? new Set<number>();
      for (const l of s.lines) lines.add(l);
      files.set(s.path, lines);
    }
    this.delivered.set(label, files);
  }

  /** Labels printed more than once. */
  duplicates(): number {
    return this.printed.length - new Set(this.printed).size;
  }

  labels(): readonly string[] {
    return this.printed;
  }

  /** The labels printed, as the agent read them: `#1 #2/kqfz …`. */
  shown(): string {
    return this.printed.map((l) => `#${l}`).join(' ');
  }
}

// ---------------------------------------------------------------------------
// Figures

/** One probe's outcome: its figure as printed, and whether it meets the issue's target. */
export interface Figure {
  readonly figure: string;
  readonly met: boolean;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const BUSY = /busy/i;

/** The well-behaved client's calls: one after another, each timed. */
async function steadyCalls(
  client: Client,
  count: number,
  meta: Meta,
): Promise<{ latencies: number[]; busy: number; errors: number }> {
  const latencies: number[] = [];
  let busy = 0;
  let errors = 0;
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const answer = await call(client, { query: [WIDE, STOCK, RESTOCK][i % 3] }, meta);
    latencies.push(performance.now() - t0);
    if (answer.isError && BUSY.test(answer.text)) busy++;
    else if (answer.isError) errors++;
  }
  return { latencies, busy, errors };
}

// ---------------------------------------------------------------------------
// Over-report probes

/**
 * Redis slower than the store's timeout (`DEBUG SLEEP 3`, timeout 2 s): three
 * calls, then one while Redis sleeps, then one after. Over-report: a label
 * printed twice, or the last call citing a number the context never saw.
 */
export async function probeSlowRedisRecord(): Promise<Figure & { context: Context }> {
  return withRedis(async (redis) => {
    const daemon = await startDaemon({ args: ['--redis', redis.url] });
    try {
      const client = await connectClient(daemon.url);
      const meta = { conversationId: 'slow-redis' };
      const context = new Context();
      for (const query of [WIDE, STOCK, RESTOCK]) {
        context.deliver((await call(client, { query }, meta)).text);
      }
      const { awake } = await stallRedis(redis.url, 3);
      context.deliver((await call(client, { query: WIDE }, meta)).text);
      await awake;
      await sleep(100);
      context.deliver((await call(client, { query: WIDE }, meta)).text);
      await client.close();
      const bad = context.badCitations.length + context.duplicates();
      return {
        figure: `printed ${context.shown()} (${context.duplicates()} repeated); ${context.badCitations.length} citation(s) of a response not seen${context.badCitations.length > 0 ? ` (${context.badCitations[0]})` : ''}`,
        met: bad === 0,
        context,
      };
    } finally {
      await daemon.stop();
    }
  });
}

/** Resolves once the daemon at `origin` has `count` calls in flight (`/healthz`), 10 s at most. */
async function callsInFlight(origin: string, count: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const health = await httpRequest(`${origin}/healthz`, 'GET', {});
    if (health.status === 200 && JSON.parse(health.text).calls === count) return;
    await sleep(25);
  }
  throw new Error(`the daemon never had ${count} call(s) in flight`);
}

/** The text of the result an exchange received whole for call `id`, or `null`. */
export function resultText(body: string | null, id: number): string | null {
  const message = messagesOf(body ?? '').find((m) => m.id === id && 'result' in m);
  const content = (message?.result as { content?: { text?: string }[] } | undefined)?.content;
  return content?.[0]?.text ?? null;
}

/**
 * The client hangs up while Redis is slow (its writes held, under the
 * store's timeout): the call's render is done, its record waits on Redis,
 * and the daemon has seen the hang-up before Redis answers. Nothing was
 * delivered, so the next call of that context — made once Redis answered,
 * or `atOnce`, while the record still waits — must not point at it.
 *
 * Each step waits on a state, never on a sleep, and the oracle is given
 * what the hung-up client really received: a trial in which the answer got
 * out whole before Redis held its record (a loaded machine) counts it as
 * delivered, and is tried again (3 trials at most).
 */
export async function probeHangUpWhileRedisSlow(atOnce = false): Promise<Figure> {
  return withRedis(async (redis) => {
    const daemon = await startDaemon({
      args: ['--redis', redis.url],
      slowMs: 500,
      // The held record lands once Redis answers, however loaded the machine.
      env: { EXPLORE_STORE_TIMEOUT_MS: '10000' },
    });
    try {
      let bad = 0;
      let early = 0;
      for (let trial = 1; trial <= 3; trial++) {
        const writes = await holdRedisWrites(redis.url);
        const outcome = await hangUpTrial(daemon, writes, trial, atOnce).finally(() =>
          writes.release(),
        );
        bad += outcome.bad;
        if (outcome.hungUp) {
          const retried =
            early > 0 ? ` (${early} trial(s) answered before Redis held the record)` : '';
          return {
            figure: `next call: ${bad} pointer(s) to a response not delivered${retried}`,
            met: bad === 0,
          };
        }
        early++;
      }
      return {
        figure: `next call: ${bad} pointer(s) to a response not delivered; in ${early} trial(s) the answer got out before Redis held its record (no hang-up while Redis was slow)`,
        met: false,
      };
    } finally {
      await daemon.stop();
    }
  });
}

/**
 * One trial of {@link probeHangUpWhileRedisSlow}: its oracle violations, and
 * whether the client hung up while Redis held the record (else the answer
 * got out whole first, and the oracle counted it as delivered).
 */
async function hangUpTrial(
  daemon: Daemon,
  writes: HeldWrites,
  trial: number,
  atOnce: boolean,
): Promise<{ bad: number; hungUp: boolean }> {
  const client = await connectClient(daemon.url);
  const meta = { conversationId: `hang-up-slow-redis-${trial}` };
  const context = new Context();
  context.deliver((await call(client, { query: STOCK }, meta)).text);
  const id = 7;
  const exchange = callToHangUp(daemon.url, toolCall(id, { query: `slow:${WIDE}` }, meta));
  // Its number is reserved and it renders: from now on Redis holds every write.
  await logged(daemon, 'slow call started', trial);
  await writes.hold();
  const held = await writes.waiting(1, exchange.answered);
  let next: Promise<Answer> | undefined;
  if (held) {
    // The render is done and its record waits on Redis: hang up, and let the daemon see it.
    exchange.hangUp();
    await callsInFlight(daemon.origin, 0);
    if (atOnce) {
      next = call(client, { query: WIDE }, meta);
      await callsInFlight(daemon.origin, 1);
    }
  }
  await writes.release();
  // What the client read whole is in its context; a hung-up exchange gave it nothing.
  const received = resultText(await exchange.answered, id);
  if (received !== null) context.deliver(received);
  context.deliver((await (next ?? call(client, { query: WIDE }, meta))).text);
  await client.close();
  return { bad: context.badCitations.length, hungUp: held && received === null };
}

/**
 * Stateless mode: `notifications/cancelled` lands on a fresh server (and, with
 * two daemons on one Redis, on the other process). The cancelled call must
 * record nothing the next call points at.
 */
export async function probeStatelessCancel(): Promise<Figure> {
  return withRedis(async (redis) => {
    const [a, b] = await Promise.all([
      startDaemon({ args: ['--redis', redis.url], slowMs: 500 }),
      startDaemon({ args: ['--redis', redis.url], slowMs: 500 }),
    ]);
    try {
      const results: string[] = [];
      let bad = 0;
      for (const [where, cancelAt] of [
        ['same process', a],
        ['other process', b],
      ] as const) {
        const meta = { conversationId: `cancelled-${where}` };
        const client = await connectClient(a.url);
        const context = new Context();
        context.deliver((await call(client, { query: STOCK }, meta)).text);
        // The call goes to `a`; its cancellation to `cancelAt`, as a load balancer may route it.
        const id = 42;
        const exchange = callToHangUp(a.url, toolCall(id, { query: `slow:${WIDE}` }, meta));
        await logged(a, 'slow call started', where === 'same process' ? 1 : 2);
        const cancelled = await httpRequest(
          cancelAt.url,
          'POST',
          { ...MCP_HEADERS },
          JSON.stringify({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: id, reason: 'the user pressed stop' },
          }),
        );
        // The client dropped that answer (it cancelled the call): the context never holds it.
        const answer = await exchange.answered;
        const answered = messagesOf(answer ?? '').some((m) => m.id === id && 'result' in m);
        context.deliver((await call(client, { query: WIDE }, meta)).text);
        const pointedAtIt = context.badCitations.length;
        bad += pointedAtIt;
        results.push(
          `${where}: cancel ${cancelled.status}, call ${answered ? 'answered' : 'not answered'}, next call: ${pointedAtIt} pointer(s) to it`,
        );
        await client.close();
      }
      return { figure: results.join('; '), met: bad === 0 };
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
}

/**
 * The ledger is lost (FLUSHALL, TTL expiry, a restart of the stateful
 * daemon) and numbering starts again: no label may repeat in the context.
 */
export async function probeLostLedger(): Promise<Figure> {
  const parts: string[] = [];
  let dups = 0;
  let bad = 0;
  await withRedis(async (redis) => {
    const daemon = await startDaemon({
      args: ['--redis', redis.url],
      env: { EXPLORE_IDLE_MS: '700' },
    });
    try {
      const client = await connectClient(daemon.url);
      for (const loss of ['flush', 'expiry'] as const) {
        const meta = { conversationId: `lost-${loss}` };
        const context = new Context();
        context.deliver((await call(client, { query: WIDE }, meta)).text);
        context.deliver((await call(client, { query: STOCK }, meta)).text);
        if (loss === 'flush') {
          const admin = createClient({ url: redis.url });
          await admin.connect();
          await admin.flushAll();
          await admin.quit();
        } else {
          await sleep(1000);
        }
        context.deliver((await call(client, { query: RESTOCK }, meta)).text);
        context.deliver((await call(client, { query: WIDE }, meta)).text);
        dups += context.duplicates();
        bad += context.badCitations.length;
        parts.push(`${loss}: ${context.shown()}`);
      }
      await client.close();
    } finally {
      await daemon.stop();
    }
  });
  // A stateful daemon restarted under a client that keeps its conversation.
  const meta = { conversationId: 'lost-restart' };
  const context = new Context();
  for (let round = 0; round < 2; round++) {
    const daemon = await startDaemon();
    try {
      const client = await connectClient(daemon.url);
      context.deliver((await call(client, { query: WIDE }, meta)).text);
      context.deliver((await call(client, { query: STOCK }, meta)).text);
      await client.close();
    } finally {
      await daemon.stop();
    }
  }
  dups += context.duplicates();
  bad += context.badCitations.length;
  parts.push(`restart: ${context.shown()}`);
  return { figure: `${dups} repeated label(s): ${parts.join('; ')}`, met: dups === 0 && bad === 0 };
}

/**
 * Parallel calls of one context: 100 at once over two daemons on one Redis
 * (stateless), and 3 at once in one stateful session. Then one more call:
 * every pointer must cite a response that carried its lines.
 */
export async function probeParallelCalls(count = 100): Promise<Figure> {
  const parts: string[] = [];
  let dups = 0;
  let bad = 0;
  await withRedis(async (redis) => {
    // Bounds wide enough that every call runs: the race is the point here.
    const env = { EXPLORE_MAX_CALLS_PER_CONTEXT: String(count), EXPLORE_MAX_QUEUE: String(count) };
    const [a, b] = await Promise.all([
      startDaemon({ args: ['--redis', redis.url], env }),
      startDaemon({ args: ['--redis', redis.url], env }),
    ]);
    try {
      const clients = await Promise.all([connectClient(a.url), connectClient(b.url)]);
      const meta = { conversationId: 'parallel' };
      const answers = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          call(clients[i % 2]!, { query: [WIDE, STOCK, RESTOCK][i % 3] }, meta),
        ),
      );
      const context = new Context();
      for (const answer of byNumber(answers)) context.deliver(answer.text);
      context.deliver((await call(clients[0]!, { query: WIDE }, meta)).text);
      context.deliver((await call(clients[1]!, { query: STOCK }, meta)).text);
      const distinct = new Set(context.labels()).size;
      dups += context.duplicates();
      bad += context.badCitations.length;
      const firstBad = context.badCitations[0];
      parts.push(
        `${count} in parallel over two daemons: ${distinct} distinct labels in ${context.labels().length} responses, ${context.badCitations.length} bad citation(s)${firstBad === undefined ? '' : ` (${firstBad})`}`,
      );
      await Promise.all(clients.map((c) => c.close()));
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
  const daemon = await startDaemon();
  try {
    const client = await connectClient(daemon.url);
    const meta = { conversationId: 'parallel-stateful' };
    const context = new Context();
    context.deliver((await call(client, { query: STOCK }, meta)).text);
    const answers = await Promise.all(
      [WIDE, RESTOCK, WIDE].map((query) => call(client, { query }, meta)),
    );
    for (const answer of byNumber(answers)) context.deliver(answer.text);
    context.deliver((await call(client, { query: WIDE }, meta)).text);
    // Four other contexts on the same connection, then the first one again.
    for (let i = 0; i < 4; i++)
      await call(client, { query: STOCK }, { conversationId: `other-${i}` });
    context.deliver((await call(client, { query: RESTOCK }, meta)).text);
    dups += context.duplicates();
    bad += context.badCitations.length;
    parts.push(`stateful, 3 in parallel then 4 other contexts: ${context.shown()}`);
    await client.close();
  } finally {
    await daemon.stop();
  }
  return { figure: `${dups} repeated label(s); ${parts.join('; ')}`, met: dups === 0 && bad === 0 };
}

/**
 * Stateless: one key space for everyone. A client that sends another
 * context's token (or names it as its `_meta` conversation id) must not be
 * pointed at source only the other context received. Also: how many bits a
 * minted token carries.
 */
export async function probeSharedKeySpace(tokenFile?: {
  readonly path: string;
  readonly tokens: readonly [string, string];
}): Promise<Figure> {
  return withRedis(async (redis) => {
    const args = ['--redis', redis.url, ...(tokenFile ? ['--token-file', tokenFile.path] : [])];
    const daemon = await startDaemon({ args });
    try {
      const [authA, authB] = tokenFile?.tokens ?? [null, null];
      const owner = await connectClient(daemon.url, authA);
      const first = (await call(owner, { query: WIDE })).text;
      const token = tokenOf(first) ?? '';
      const bits = Math.floor(token.length * Math.log2(/[A-Z_-]/.test(token) ? 64 : 36));
      const intruder = await connectClient(daemon.url, authB);
      const byToken = hasPointer((await call(intruder, { query: WIDE, context: token })).text);
      const byMeta = hasPointer(
        (await call(intruder, { query: WIDE }, { conversationId: token })).text,
      );
      await Promise.all([owner.close(), intruder.close()]);
      const figure =
        `token of ${token.length} chars (~${bits} bits); another client sending it ${byToken ? 'is pointed at' : 'gets full source, not'} ` +
        `the owner's responses; as _meta.conversationId ${byMeta ? 'it shares' : 'it does not share'} the token's bucket`;
      return { figure, met: bits >= 128 && !byMeta && (tokenFile === undefined || !byToken) };
    } finally {
      await daemon.stop();
    }
  });
}

// ---------------------------------------------------------------------------
// Transport rules and fairness

/** A cross-origin request with a loopback Host, and a request to Host `[::1]`. */
export async function probeOriginAndHost(): Promise<Figure> {
  const daemon = await startDaemon();
  try {
    const evil = await rawInitialize(daemon.url, { origin: 'http://evil.example' });
    const local = await rawInitialize(daemon.url, { origin: daemon.origin });
    const v6 = await rawInitialize(daemon.url, { host: `[::1]:${daemon.port}` });
    const health = await httpRequest(`${daemon.origin}/healthz`, 'GET', {
      origin: 'http://evil.example',
    });
    return {
      figure: `Origin evil.example → ${evil.status}${evil.sid ? ' (a session)' : ''}, /healthz → ${health.status}; loopback Origin → ${local.status}; Host [::1] → ${v6.status}`,
      met:
        evil.status === 403 && health.status === 403 && local.status === 200 && v6.status === 200,
    };
  } finally {
    await daemon.stop();
  }
}

/** `--token-file`: a request without the bearer token, with a wrong one, with the right one. */
export async function probeBearer(tokenFile: string, token: string): Promise<Figure> {
  const daemon = await startDaemon({ args: ['--token-file', tokenFile] });
  try {
    const none = await httpRequest(daemon.url, 'POST', { ...MCP_HEADERS }, INITIALIZE);
    const wrong = await rawInitialize(daemon.url, { authorization: 'Bearer not-the-token' });
    const right = await rawInitialize(daemon.url, { authorization: `Bearer ${token}` });
    const challenge = none.headers['www-authenticate'];
    return {
      figure: `no token → ${none.status}${challenge ? ` (WWW-Authenticate: ${challenge})` : ''}, wrong → ${wrong.status}, right → ${right.status}`,
      met:
        none.status === 401 &&
        challenge !== undefined &&
        wrong.status === 401 &&
        right.status === 200,
    };
  } finally {
    await daemon.stop();
  }
}

/** One client opens `count` sessions and never closes them; then another client connects. */
export async function probeSessionFlood(count = 1000): Promise<Figure> {
  const daemon = await startDaemon();
  try {
    const t0 = performance.now();
    let opened = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < count) {
          next++;
          if ((await rawInitialize(daemon.url)).sid !== null) opened++;
        }
      }),
    );
    const ms = performance.now() - t0;
    const after = await rawInitialize(daemon.url);
    let calls = 'a call works';
    try {
      const client = await connectClient(daemon.url);
      const answer = await call(client, { query: WIDE });
      if (answer.isError) calls = `a call fails: ${answer.text.slice(0, 60)}`;
      await client.close();
    } catch (error) {
      calls = `the SDK client cannot connect (${String(error).slice(0, 60)})`;
    }
    return {
      figure: `${opened} of ${count} sessions opened in ${(ms / 1000).toFixed(1)} s; next initialize → ${after.status}; ${calls}`,
      met: after.status === 200 && calls === 'a call works',
    };
  } finally {
    await daemon.stop();
  }
}

const FLOODER = join(REPO, 'test/e2e/_flood.mjs');

/** A hostile client in a process of its own (`_flood.mjs`); `stop()` ends it and says what it sent. */
async function startFlood(
  mode: 'calls' | 'health' | 'batch',
  url: string,
  width: number,
  auth: Auth = null,
): Promise<{ stop(): Promise<{ requests: number; busy: number; refused: number }> }> {
  const proc = spawn(
    process.execPath,
    [FLOODER, mode, url, String(width), ...(auth ? [auth] : [])],
    {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  running.add(proc);
  let out = '';
  let err = '';
  proc.stdout.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  await new Promise<void>((done, fail) => {
    proc.stderr.on('data', (c: Buffer) => {
      err += c.toString('utf8');
      if (err.includes('flooding')) done();
    });
    proc.once('exit', (code) => fail(new Error(`the flooder exited (${code}): ${err}`)));
  });
  return {
    async stop() {
      await stopProcess(proc);
      running.delete(proc);
      try {
        return JSON.parse(out.trim());
      } catch {
        return { requests: 0, busy: 0, refused: 0 };
      }
    },
  };
}

interface FairnessFigures extends Figure {
  readonly atRestP95: number;
  readonly p95: number;
  readonly busy: number;
}

/**
 * The well-behaved client's calls at rest, then while another process floods
 * (`mode`, `width` at a time): its busy answers and p95 latency, against the
 * issue's targets (0 busy, p95 ≤ 2× at rest).
 */
async function underFlood(
  mode: 'calls' | 'health' | 'batch',
  width: number,
  calls = 40,
  options: DaemonOptions = {},
): Promise<FairnessFigures> {
  const daemon = await startDaemon(options);
  try {
    const client = await connectClient(daemon.url);
    const meta = { conversationId: 'well-behaved' };
    await steadyCalls(client, 10, meta); // warm-up
    const rest = await steadyCalls(client, calls, meta);
    const flood = await startFlood(mode, daemon.url, width);
    await sleep(500); // the flood is at full strength
    const loaded = await steadyCalls(client, calls, meta);
    const sent = await flood.stop();
    await client.close();
    const atRestP95 = percentile(rest.latencies, 95);
    const p95 = percentile(loaded.latencies, 95);
    return {
      figure: `${loaded.busy} busy of ${calls} (${loaded.errors} other errors), p95 ${p95.toFixed(0)} ms vs ${atRestP95.toFixed(0)} ms at rest (${(p95 / atRestP95).toFixed(1)}×; flood: ${sent.requests} requests, ${sent.busy} busy, ${sent.refused} refused)`,
      met: loaded.busy === 0 && loaded.errors === 0 && p95 <= 2 * atRestP95,
      atRestP95,
      p95,
      busy: loaded.busy,
    };
  } finally {
    await daemon.stop();
  }
}

export const probeCallFlood = (width = 500, calls = 40) => underFlood('calls', width, calls);
export const probeHealthFlood = (width = 200, calls = 40) => underFlood('health', width, calls);
export const probeBatchFlood = (width = 4, calls = 40) => underFlood('batch', width, calls);

/** One JSON-RPC batch: accepted or refused, and how many calls it made the daemon run. */
export async function probeBatch(): Promise<Figure> {
  const daemon = await startDaemon();
  try {
    const { sid } = await rawInitialize(daemon.url);
    const headers = {
      ...MCP_HEADERS,
      ...(sid ? { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' } : {}),
    };
    await httpRequest(
      daemon.url,
      'POST',
      headers,
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    );
    const batch = Array.from({ length: 100 }, (_, i) => toolCall(500 + i, { query: WIDE }));
    const res = await httpRequest(daemon.url, 'POST', headers, JSON.stringify(batch));
    const answers = messagesOf(res.text).filter((m) => 'result' in m);
    const busy = answers.filter((m) => BUSY.test(JSON.stringify(m))).length;
    return {
      figure: `a batch of 100 calls → ${res.status}; ${answers.length} answered (${busy} of them "busy")`,
      met: res.status === 400 && answers.length === 0,
    };
  } finally {
    await daemon.stop();
  }
}

/**
 * `count` connections that send a request's headers one byte at a time (one
 * byte every `everyMs`): how long the daemon takes to cut them all (its
 * headers timeout is 5 s, checked every second), waiting at most `forMs`,
 * and whether a well-behaved client is served meanwhile. It waits for the
 * cut rather than reading the count at a fixed time: on a machine whose
 * cores are busy the timers fire late, and a count read at 7 s said nothing
 * about whether the connections are cut.
 */
export async function probeSlowClients(count = 300, forMs = 8000, everyMs = 500): Promise<Figure> {
  const daemon = await startDaemon();
  const sockets: ReturnType<typeof connect>[] = [];
  try {
    const client = await connectClient(daemon.url);
    let cut = 0;
    const request = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${daemon.port}\r\nContent-Type: application/json\r\nX-Slow: ${'a'.repeat(200)}`;
    for (let i = 0; i < count; i++) {
      const socket = connect(daemon.port, '127.0.0.1');
      socket.on('error', () => {});
      socket.once('close', () => cut++);
      socket.setNoDelay(true);
      sockets.push(socket);
    }
    let at = 0;
    const dribble = setInterval(() => {
      for (const s of sockets) if (!s.destroyed) s.write(request[at % request.length]!);
      at++;
    }, everyMs);
    const t0 = performance.now();
    let served = 0;
    let failed = 0;
    while (cut < count && performance.now() - t0 < forMs) {
      const answer = await call(client, { query: WIDE }, { conversationId: 'beside-slow-clients' });
      if (answer.isError) failed++;
      else served++;
      await sleep(200);
    }
    const took = (performance.now() - t0) / 1000;
    clearInterval(dribble);
    await client.close();
    return {
      figure: `${cut} of ${count} slow connections cut, after ${took.toFixed(1)} s (waited at most ${(forMs / 1000).toFixed(0)} s); well-behaved client: ${served} served, ${failed} failed`,
      met: cut === count && failed === 0,
    };
  } finally {
    for (const s of sockets) s.destroy();
    await daemon.stop();
  }
}

/**
 * `count` calls without a context token on a stateless daemon with Redis:
 * the keys they leave, how long those live, and whether a stored value holds
 * the query text.
 */
export async function probeTokenlessKeys(count = 1000): Promise<Figure> {
  return withRedis(async (redis) => {
    const daemon = await startDaemon({ args: ['--redis', redis.url] });
    try {
      const client = await connectClient(daemon.url);
      const marker = 'zqxmarker';
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < count) {
            next++;
            await call(client, { query: `${WIDE} ${marker}` });
          }
        }),
      );
      await client.close();
      const admin = createClient({ url: redis.url });
      await admin.connect();
      const keys = await admin.keys('*');
      let maxTtl = 0;
      let withQuery = 0;
      let bytes = 0;
      for (const key of keys) {
        maxTtl = Math.max(maxTtl, await admin.pTTL(key));
        const value = (await admin.get(key)) ?? '';
        bytes += value.length;
        if (value.includes(marker)) withQuery++;
      }
      await admin.quit();
      const minutes = maxTtl / 60_000;
      return {
        figure: `${keys.length} keys (${(bytes / 1024).toFixed(0)} KiB), longest TTL ${minutes.toFixed(1)} min, ${withQuery} holding the query text`,
        met: minutes <= 5 && withQuery === 0,
      };
    } finally {
      await daemon.stop();
    }
  });
}

// ---------------------------------------------------------------------------
// Start-up and shutdown

/** Runs the example with `args` until it exits or `ms` pass; what it printed and how it ended. */
export function runServer(
  args: readonly string[],
  env: Record<string, string> = {},
  ms = 10_000,
): Promise<{ code: number | null; stderr: string; stillRunning: boolean }> {
  const proc = spawn(process.execPath, [SERVER, ...args], {
    cwd: DAEMON_REPO,
    env: envWith(env),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  return new Promise((done) => {
    let outlived = false;
    const timer = setTimeout(() => {
      outlived = true;
      proc.kill('SIGKILL');
    }, ms);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      done({ code: outlived ? null : code, stderr, stillRunning: outlived });
    });
  });
}

function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split('\n');
  return `${lines.length} line(s)${lines.length > 1 ? ` (first: ${lines[0]!.slice(0, 60)})` : `: ${lines[0]!.slice(0, 90)}`}`;
}

/** A port in use, and an EXPLORE_ROOT that does not exist. */
export async function probeStartupFailures(): Promise<Figure> {
  const daemon = await startDaemon();
  try {
    // Each is given 20 s to exit by itself: a bound, not an expectation (a node process on a
    // busy machine can take more than 3 s to load and reach its check; one that outlives
    // 20 s is a server that started anyway).
    const taken = await runServer(['--http', String(daemon.port)], {}, 20_000);
    const missing = await runServer(
      ['--http', '0'],
      { EXPLORE_ROOT: join(tmpdir(), 'no-such-root-span-ledger') },
      20_000,
    );
    const missingFigure = missing.stillRunning
      ? 'missing EXPLORE_ROOT: starts and runs'
      : `missing EXPLORE_ROOT: exit ${missing.code}, ${oneLine(missing.stderr)}`;
    const met =
      taken.code === 2 &&
      taken.stderr.trimEnd().split('\n').length === 1 &&
      missing.code === 2 &&
      missing.stderr.trimEnd().split('\n').length === 1;
    return {
      figure: `port in use: exit ${taken.code}, ${oneLine(taken.stderr)}; ${missingFigure}`,
      met,
    };
  } finally {
    await daemon.stop();
  }
}

/** SIGTERM to a daemon that has served calls: its exit code and what it printed on the way out. */
export async function probeSigterm(): Promise<Figure> {
  const daemon = await startDaemon();
  const client = await connectClient(daemon.url);
  await call(client, { query: WIDE });
  await client.close();
  const before = daemon.log().length;
  const code = await new Promise<number | null>((done) => {
    daemon.proc.once('exit', (c) => done(c));
    daemon.proc.kill('SIGTERM');
  });
  const tail = daemon.log().slice(before).trim();
  const lines = tail === '' ? [] : tail.split('\n');
  return {
    figure: `exit ${code}; ${lines.length} line(s) on the way out${
      lines.length > 0
        ? ` (${lines
            .map((l) => l.replace('[mcp-explore] ', ''))
            .join(' / ')
            .slice(0, 100)})`
        : ''
    }`,
    met: code === 0 && !/worker exited/.test(tail),
  };
}

/** The pids of every process below `pid` (children first found through /proc). */
function descendants(pid: number): number[] {
  try {
    const out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
    const kids = out
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter((n) => n > 0);
    return kids.flatMap((k) => [k, ...descendants(k)]);
  } catch {
    return [];
  }
}

/** Whether `pid` still runs (a zombie waiting to be reaped does not). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * `npm run example:mcp -- --http 0` killed with SIGTERM, as a terminal or a
 * supervisor does: is anything it started still running afterwards? (Any
 * survivor is stopped by the probe.)
 */
export async function probeKilledNpm(): Promise<Figure> {
  const proc = spawn('npm', ['run', '-s', 'example:mcp', '--', '--http', '0'], {
    cwd: DAEMON_REPO,
    env: envWith({}),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  proc.stderr.on('data', (c: Buffer) => {
    log += c.toString('utf8');
  });
  const listening = await new Promise<boolean>((done) => {
    const timer = setTimeout(() => done(false), 60_000);
    proc.stderr.on('data', () => {
      if (/listening on http:\/\/127\.0\.0\.1:\d+\/mcp/.test(log)) {
        clearTimeout(timer);
        done(true);
      }
    });
    proc.once('exit', () => {
      clearTimeout(timer);
      done(false);
    });
  });
  if (!listening) {
    await stopProcess(proc, 'SIGKILL');
    return { figure: `did not start: ${log.slice(0, 120)}`, met: false };
  }
  const below = descendants(proc.pid!);
  await stopProcess(proc, 'SIGTERM');
  for (let i = 0; i < 30 && below.some(alive); i++) await sleep(100);
  const survivors = below.filter(alive);
  for (const pid of survivors) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  return {
    figure: `${survivors.length} of ${below.length} processes it started still running after SIGTERM to npm`,
    met: survivors.length === 0,
  };
}

/** A token file holding `tokens`, one per line, in a fresh directory; `remove()` deletes it. */
export function tokenFile(tokens: readonly string[]): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'span-ledger-token-'));
  const path = join(dir, 'tokens');
  writeFileSync(path, `${tokens.join('\n')}\n`, { mode: 0o600 });
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

// ---------------------------------------------------------------------------
// The read proxy

/** A file of `mib` MiB whose first line is `first` (the rest a hole: no disk written). */
function largeFile(path: string, first: string, mib: number): void {
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, `${first}\n`);
    ftruncateSync(fd, mib * 1024 * 1024);
  } finally {
    closeSync(fd);
  }
}

/** One read through `client`, answered within `ms` or not; never throws. */
async function readWithin(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  ms: number,
): Promise<{ ms: number; text: string; isError: boolean; hung: boolean }> {
  const t0 = performance.now();
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), ms);
  try {
    const result = await client.callTool({ name, arguments: args }, undefined, {
      signal: stop.signal,
      timeout: ms + 1000,
    });
    const text = (result.content as { text?: string }[])[0]?.text ?? '';
    return { ms: performance.now() - t0, text, isError: result.isError === true, hung: false };
  } catch (error) {
    const text = String(error instanceof Error ? error.message : error);
    return { ms: performance.now() - t0, text, isError: true, hung: stop.signal.aborted };
  } finally {
    clearTimeout(timer);
  }
}

/** A client on the read proxy over `root`, closed after `run`. */
async function withReadProxy<T>(root: string, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ name: 'fault-probe-reads', version: '1.0.0' });
  try {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [READ_PROXY, root],
        cwd: DAEMON_REPO,
        env: envWith({}),
        stderr: 'ignore',
      }),
    );
    return await run(client);
  } finally {
    await client.close().catch(() => {});
  }
}

/**
 * The read proxy against the files a developer's tree holds: `head: 1` of a
 * 6 MiB and of a 100 MiB file, then a FIFO in the root on a connection of
 * its own (each read given 3 s), a small file read after each (does the
 * proxy still work?), and a root that does not exist at start-up.
 */
export async function probeReadProxy(): Promise<Figure> {
  const root = mkdtempSync(join(tmpdir(), 'span-ledger-read-faults-'));
  try {
    largeFile(join(root, 'six.log'), 'the first line of six MiB', 6);
    largeFile(join(root, 'hundred.log'), 'the first line of a hundred MiB', 100);
    writeFileSync(join(root, 'small.ts'), 'export const small = 1;\n');
    execFileSync('mkfifo', [join(root, 'pipe')]);
    const works = async (client: Client) =>
      !(await readWithin(client, 'read_text_file', { path: 'small.ts' }, 3000)).isError;
    const parts: string[] = [];
    let met = true;
    await withReadProxy(root, async (client) => {
      for (const [name, first] of [
        ['six.log', 'the first line of six MiB'],
        ['hundred.log', 'the first line of a hundred MiB'],
      ] as const) {
        const got = await readWithin(client, 'read_text_file', { path: name, head: 1 }, 3000);
        const ok = !got.isError && got.text.includes(first);
        const after = await works(client);
        met &&= ok && got.ms < 1000 && after;
        parts.push(
          `head: 1 of ${name} → ${ok ? `answered in ${got.ms.toFixed(0)} ms` : got.hung ? 'no answer within 3 s' : `"${got.text.slice(0, 40)}"`}, later calls ${after ? 'work' : 'fail'}`,
        );
      }
    });
    await withReadProxy(root, async (client) => {
      const fifo = await readWithin(client, 'read_text_file', { path: 'pipe' }, 3000);
      const after = await works(client);
      met &&= !fifo.hung && fifo.text.split('\n').length === 1 && after;
      parts.push(
        `a FIFO → ${fifo.hung ? 'hung 3 s' : `${fifo.isError ? 'refused' : 'answered'} in ${fifo.ms.toFixed(0)} ms`}, later calls ${after ? 'work' : 'fail'}`,
      );
    });
    const missing = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const proc = spawn(process.execPath, [READ_PROXY, join(root, 'no-such-dir')], {
        cwd: DAEMON_REPO,
        env: envWith({}),
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      let stderr = '';
      proc.stderr.on('data', (c: Buffer) => {
        stderr += c.toString('utf8');
      });
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      proc.once('exit', (code) => {
        clearTimeout(timer);
        done({ code, stderr });
      });
    });
    const lines = missing.stderr.trimEnd().split('\n').length;
    met &&= missing.code === 2 && lines === 1;
    parts.push(`missing root: exit ${missing.code}, ${lines} line(s)`);
    return { figure: parts.join('; '), met };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
