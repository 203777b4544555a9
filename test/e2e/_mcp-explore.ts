/**
 * What the MCP explore example's tests share: starting the example as a host
 * does (stdio child, or HTTP daemon on a free 127.0.0.1 port), connecting the
 * official SDK client or speaking raw HTTP, reading rendered responses, and
 * stopping everything a test file started.
 *
 * The example imports the built packages (`span-ledger` resolves to `dist/`
 * through the package's own `exports`, `span-ledger-proxy/http` to
 * packages/proxy/dist/), so they are built first when missing.
 */
import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect } from 'vitest';
import { parseRenderedResponse, type RenderedSection } from '../../src/adapter/parse.js';
import { httpRequest, INITIALIZE, messagesOf } from './_faults.js';

// The raw HTTP helpers are the fault probes' (one keep-alive agent, a connection fault is status 0).
export { httpRequest, messagesOf, type RawResponse } from './_faults.js';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * The package's entry points as users import them (package.json `exports`);
 * the pack and caller-shape checks load each one.
 */
export const ENTRIES = [
  'span-ledger',
  'span-ledger/adapter',
  'span-ledger/shared',
  'span-ledger/wire',
  'span-ledger/testing',
  'span-ledger/redis',
];
export const SERVER = join(REPO, 'examples/mcp-explore/server.mjs');
export const FIXTURE = join(REPO, 'fixtures/sample');
/** A worker that misbehaves on request (`slow:`, `exit:`, `hang:`, `throw:` queries). */
export const FAULTY_WORKER = join(REPO, 'test/e2e/_mcp-explore-faulty-worker.mjs');

/** Matches definitions in four files: more than one call's budget, so a repeat has new source to bring. */
export const WIDE = 'checkout cart money catalog';
export const STOCK = 'money stock order';
export const RESTOCK = 'stock catalog restock';

const clients: Client[] = [];
const daemons: ChildProcess[] = [];

/** Builds dist/ when missing, and stops every client and daemon of the file afterwards. */
export function useExample(): void {
  beforeAll(() => {
    if (!existsSync(join(REPO, 'dist/index.js')) || !existsSync(join(REPO, 'dist/adapter.js'))) {
      execSync('npx tsup', { cwd: REPO, stdio: 'ignore' });
    }
    // The daemon serves through span-ledger-proxy's HTTP front.
    if (!existsSync(join(REPO, 'packages/proxy/dist/http.js'))) {
      execSync('npx tsup', { cwd: join(REPO, 'packages/proxy'), stdio: 'ignore' });
    }
  }, 120_000);
  afterAll(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
    await Promise.all(daemons.splice(0).map(stopProcess));
  });
}

export function stopProcess(proc: ChildProcess): Promise<void> {
  return new Promise<void>((done) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return done();
    proc.once('exit', () => done());
    proc.kill('SIGTERM');
  });
}

/** The environment a subprocess gets: ours, without the example's settings unless `extra` sets them. */
export function envWith(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && k !== 'SPAN_LEDGER_DEDUP' && !k.startsWith('EXPLORE_')) env[k] = v;
  }
  // A budget the small fixture overflows, so a repeat has new source to bring.
  return { ...env, EXPLORE_MAX_CHARS: '3000', ...extra };
}

export interface StdioServer {
  readonly client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Transport faults seen by the client (a stray stdout line would show up here). */
  readonly faults: Error[];
}

/** Starts the example on stdio, as a host does, and connects a client to it. */
export async function startStdio(extra: Record<string, string> = {}): Promise<StdioServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER],
    cwd: REPO,
    env: envWith(extra),
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const client = new Client({ name: 'mcp-explore-test', version: '1.0.0' });
  const faults: Error[] = [];
  client.onerror = (e) => faults.push(e);
  clients.push(client);
  await client.connect(transport);
  return { client, stderr: () => err, faults };
}

export interface Daemon {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** What the daemon wrote to stderr so far. */
  log(): string;
  readonly proc: ChildProcess;
}

/**
 * Starts the example as an HTTP daemon on a free port (`node` flags in
 * `nodeArgs`, more server flags such as `--redis <url>` in `serverArgs`).
 */
export function startDaemon(
  extra: Record<string, string> = {},
  nodeArgs: readonly string[] = [],
  serverArgs: readonly string[] = [],
): Promise<Daemon> {
  const proc = spawn(process.execPath, [...nodeArgs, SERVER, '--http', '0', ...serverArgs], {
    cwd: REPO,
    env: envWith(extra),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  daemons.push(proc);
  let log = '';
  return new Promise((done, fail) => {
    proc.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(log);
      if (m) done({ url: `${m[1]}/mcp`, origin: m[1]!, log: () => log, proc });
    });
    proc.once('exit', (code) => fail(new Error(`daemon exited (${code}): ${log}`)));
  });
}

/** A daemon whose one worker misbehaves on request, and what a first call there sends. */
export interface FaultyDaemon extends Daemon {
  /** A fresh session's first `WIDE` call: what a call that was not recorded leaves the next one to send. */
  readonly firstCall: string;
  /** Resolves once the worker has begun the next `slow:` call (they are counted from the start). */
  slowCallStarted(): Promise<void>;
}

/**
 * Starts the example as an HTTP daemon with one `FAULTY_WORKER`, whose
 * `slow:` calls take `slowMs`, and more settings in `extra`; then makes the
 * first `WIDE` call of a fresh session.
 */
export async function startFaultyDaemon(
  slowMs: number,
  extra: Record<string, string> = {},
): Promise<FaultyDaemon> {
  const daemon = await startDaemon({
    EXPLORE_WORKERS: '1',
    EXPLORE_WORKER: FAULTY_WORKER,
    EXPLORE_TEST_SLOW_MS: String(slowMs),
    ...extra,
  });
  const firstCall = await explore(await connectHttp(daemon.url), { query: WIDE });
  let slowCalls = 0;
  return {
    ...daemon,
    firstCall,
    slowCallStarted: () => logged(daemon, 'slow call started', ++slowCalls),
  };
}

/** A new client session on the daemon at `url` (`requestInit` goes with every request). */
export async function connectHttp(url: string, requestInit?: RequestInit): Promise<Client> {
  const client = new Client({ name: 'mcp-explore-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(
    new StreamableHTTPClientTransport(
      new URL(url),
      requestInit === undefined ? {} : { requestInit },
    ),
  );
  return client;
}

/** Ends `client`'s MCP session on the server (an HTTP DELETE), as a host does on exit. */
export async function endSession(client: Client): Promise<void> {
  await (client.transport as StreamableHTTPClientTransport).terminateSession();
}

/**
 * The `_meta` every helper call sends unless told otherwise: a conversation
 * id, as VS Code's client sends one, so each connection's calls share one
 * bucket and responses carry no random context token (their bytes compare
 * across sessions). Pass `null` to send none, as a client that leaves context
 * to the token does.
 */
export const CONVERSATION = Object.freeze({ conversationId: 'conversation-1' });

export type Meta = Record<string, unknown> | null;

function withMeta(params: Record<string, unknown>, meta: Meta) {
  return meta === null ? params : { ...params, _meta: meta };
}

/**
 * `text` with each numbering tag (`#4/kqfz`, random per bucket) read as
 * `#4/tag`: what two sessions' responses share when only their tags differ.
 * The fault probes (`_faults.ts`) check the tags themselves.
 */
export function untagged(text: string): string {
  return text.replace(/#(\d+)\/[a-z]{1,8}\b/g, '#$1/tag');
}

/** One `explore` call that must succeed; the text the agent would read, tags read by `untagged`. */
export async function explore(
  client: Client,
  args: Record<string, unknown>,
  meta: Meta = CONVERSATION,
): Promise<string> {
  const result = await client.callTool(
    withMeta({ name: 'explore', arguments: args }, meta) as { name: string },
  );
  expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
  const content = result.content as { type: string; text?: string }[];
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe('text');
  // Nothing of the ledger's carriers may reach the client.
  expect(Object.keys(result)).not.toContain('_spanLedgerEmission');
  return untagged(content[0]!.text!);
}

/** One `explore` call that must fail as a tool error; its message. */
export async function exploreError(
  client: Client,
  args: Record<string, unknown>,
  meta: Meta = CONVERSATION,
): Promise<string> {
  const result = await client.callTool(
    withMeta({ name: 'explore', arguments: args }, meta) as { name: string },
  );
  expect(result.isError).toBe(true);
  return (result.content as { text: string }[])[0]!.text;
}

export function sections(text: string): readonly RenderedSection[] {
  return parseRenderedResponse(text).sections;
}

/** `path:line` of every numbered source line in a response. */
export function sentLines(text: string): Set<string> {
  const out = new Set<string>();
  for (const s of sections(text)) for (const l of s.lines) out.add(`${s.path}:${l.line}`);
  return out;
}

/** Every source line of a response must be the project's real line, verbatim. */
export function expectVerbatim(text: string, root: string): void {
  for (const s of sections(text)) {
    const lines = readFileSync(join(root, s.path), 'utf8').split('\n');
    for (const l of s.lines) expect(l.text, `${s.path}:${l.line}`).toBe(lines[l.line - 1]);
  }
}

/** A response without its opening `Response #N` line: what two calls at different numbers share. */
export function body(text: string): string {
  return text.replace(/^Response #\d+[^\n]*\n/, '');
}

/** The context token a response's header asks the agent to echo, or `null`. */
export function tokenOf(text: string): string | null {
  return /^Response #\d+(?:\/[a-z]+)? · context ([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? null;
}

export function hasPointer(text: string): boolean {
  return sections(text).some((s) => s.pointer);
}

/** The HTTP headers every raw MCP POST carries. */
function mcpHeaders(sid?: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(sid === undefined ? {} : { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' }),
  };
}

/** A `tools/call` in flight that its client can abandon. */
export interface CallToHangUp {
  /** Resets the socket, as a client that went away does. */
  hangUp(): void;
  /** Settles when the socket is gone. */
  readonly closed: Promise<void>;
}

/**
 * POSTs a `tools/call` of `explore` for `query` to `url`, with JSON-RPC `id`
 * and `_meta` `meta`, on raw session `sid` when given (a stateless daemon
 * takes none), on a socket of its own so that hanging up resets only it.
 */
export function callToHangUp(
  url: string,
  query: string,
  { sid, meta = CONVERSATION, id = 99 }: { sid?: string; meta?: Meta; id?: number } = {},
): CallToHangUp {
  const req = request(url, { method: 'POST', headers: mcpHeaders(sid) });
  const closed = new Promise<void>((done) => {
    req.on('error', () => done());
    req.on('close', () => done());
  });
  req.end(
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: withMeta({ name: 'explore', arguments: { query } }, meta),
    }),
  );
  return { hangUp: () => req.destroy(), closed };
}

/** An MCP session spoken in raw HTTP: initialized, ready for `tools/call`. */
export interface RawSession {
  readonly sid: string;
  /** POSTs `body` (a string, sent as it is) on the session. */
  post(body: string): Promise<{ status: number; text: string }>;
  /** Ends the session (an HTTP DELETE). */
  end(): Promise<void>;
  /** A `tools/call` of `explore` with these arguments; the JSON-RPC answer. */
  call(args: Record<string, unknown>, meta?: Meta): Promise<Record<string, unknown>>;
}

let rawId = 1000;

/**
 * Opens a session in raw HTTP. `announce: false` skips the `initialized`
 * notification (a client that vanished right after `initialize`).
 */
export async function rawSession(url: string, { announce = true } = {}): Promise<RawSession> {
  const init = await httpRequest(url, 'POST', mcpHeaders(), INITIALIZE);
  const sid = init.headers['mcp-session-id'];
  if (init.status !== 200 || typeof sid !== 'string') {
    throw new Error(`initialize answered ${init.status}`);
  }
  const post = (body: string) => httpRequest(url, 'POST', mcpHeaders(sid), body);
  if (announce) await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return {
    sid,
    post,
    async end() {
      await httpRequest(url, 'DELETE', mcpHeaders(sid));
    },
    async call(args, meta = CONVERSATION) {
      const id = rawId++;
      const { text } = await post(
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: withMeta({ name: 'explore', arguments: args }, meta),
        }),
      );
      const answer = messagesOf(text).find((m) => m.id === id);
      if (answer === undefined) throw new Error(`no answer to call ${id}: ${text.slice(0, 200)}`);
      return answer;
    },
  };
}

/** The text of a raw `tools/call` answer, which must be a successful one (tags read by `untagged`). */
export function rawText(answer: Record<string, unknown>): string {
  const result = answer.result as { isError?: boolean; content: { text: string }[] };
  expect(result.isError, JSON.stringify(result)).not.toBe(true);
  return untagged(result.content[0]!.text);
}

/** `/healthz` of a daemon, parsed. */
export async function health(origin: string): Promise<{ status: number; body: HealthBody }> {
  const res = await httpRequest(`${origin}/healthz`, 'GET', {});
  return { status: res.status, body: JSON.parse(res.text) as HealthBody };
}

export interface HealthBody {
  ok: boolean;
  sessions: number;
  queued: number;
  running: number;
  workers: number;
  heapUsed: number;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once `daemon`'s log holds `line` at least `count` times (10 s at most). */
export async function logged(daemon: Daemon, line: string, count: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (daemon.log().split(line).length - 1 >= count) return;
    await sleep(50);
  }
  throw new Error(`the daemon never logged "${line}" ${count} times`);
}

/** The example's worker pool, as the tests use it (the example is plain JavaScript). */
export interface ExamplePool {
  run(
    args: Record<string, unknown>,
    options?: { signal?: AbortSignal; lane?: string },
  ): Promise<unknown>;
  stats(): { queued: number; running: number; workers: number };
  close(): Promise<void>;
}

/** What a tool call of the example's handler returns. */
export interface ExampleResult {
  isError?: boolean;
  content: { type: string; text: string }[];
}

export interface ExampleSession {
  spans: { view(sessionId?: string): { projects: { callCount: number; calls: unknown[] }[] } };
}

export interface ExampleHandler {
  execute(
    args: Record<string, unknown>,
    session: ExampleSession,
    options?: { signal?: AbortSignal; meta?: Meta },
  ): Promise<ExampleResult>;
}

const exampleModule = (name: string) =>
  import(new URL(`../../examples/mcp-explore/${name}`, import.meta.url).href);

/**
 * A pool of the example's real workers over the bundled fixture, in this
 * process (`workerUrl`: another worker module, such as FAULTY_WORKER's;
 * `timeoutMs`: one call's bound; `startupMs`: FAULTY_WORKER's start-up time;
 * `startupLimitMs`: the pool's bound on a start-up a call waits on).
 */
export async function examplePool(
  size = 1,
  workerUrl = new URL('../../examples/mcp-explore/worker.mjs', import.meta.url),
  { timeoutMs = 5000, startupMs = 0, startupLimitMs = 30_000 } = {},
): Promise<ExamplePool> {
  const { createPool } = await exampleModule('pool.mjs');
  return createPool({
    size,
    workerUrl,
    workerData: {
      root: FIXTURE,
      enabled: true,
      budget: { maxTokens: 20_000, maxChars: 3000, maxFiles: 4 },
      maxResponseChars: 20_000,
      startupMs,
    },
    timeoutMs,
    startupLimitMs,
    maxQueue: 8,
    log: () => {},
  });
}

/** The example's shared handler on `pool`, and its session factory. */
export async function exampleHandler(
  pool: ExamplePool,
  log: (line: string) => void,
): Promise<{ handler: ExampleHandler; createSession: () => ExampleSession }> {
  const { createExploreHandler, createSession } = await exampleModule('handler.mjs');
  return { handler: createExploreHandler({ pool, log, root: FIXTURE }), createSession };
}
