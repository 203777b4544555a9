/**
 * The upstream: the MCP server the proxy fronts, a child process spoken to
 * over stdio through the SDK's protocol engine (ids, timeouts, progress and
 * cancellation are the SDK's). This module keeps the child alive and turns
 * what a request got into an {@link Answer}.
 *
 * - The child runs in a process group of its own (see `child.ts`), so
 *   stopping it stops what it started too: nothing outlives the proxy.
 * - Each start of the child is a connection of its own: a child that exits
 *   takes its requests, their timers and their cancellations with it, so
 *   nothing meant for a dead child reaches the next one. One that exits or
 *   crashes while the proxy runs is restarted; the requests in flight get an
 *   `exited` answer, later ones wait for the new child. A child that keeps
 *   dying is given up on for a while.
 * - A request that gets no answer within its time gets a `timeout` answer and
 *   is cancelled upstream; one whose signal aborts is cancelled upstream.
 * - A message too large to hold is dropped, and the request it answered gets
 *   a `too-large` answer.
 */
import { statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ChildTransport, Dropped, NotAnObject } from './child.js';
import { errorMessage } from './error-message.js';
import { isObject } from './json.js';
import { AS_IS, Link } from './link.js';

/**
 * A JSON-RPC message as it crosses the pipe: parsed JSON, read field by field.
 */
export type Message = Record<string, unknown>;

/**
 * What a request got: the upstream's result or error, or why there was none.
 */
export type Answer =
  | { readonly result: unknown }
  | { readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } }
  | { readonly failed: Failure; readonly message: string };

/**
 * Why a request got no answer from the upstream: it `exited` (or crashed)
 * before answering, it did not answer in time (`timeout`), the caller
 * `cancelled` it, the answer was `too-large` to read, or the upstream is
 * `unavailable` (it could not be restarted).
 */
export type Failure = 'exited' | 'timeout' | 'cancelled' | 'too-large' | 'unavailable';

/** How long a child may take to answer `initialize` before start-up fails. */
const START_TIMEOUT_MS = 60_000;

/** Restarts allowed within {@link RESTART_WINDOW_MS}; past them the upstream is given up on until the window passes. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;

/**
 * How to start and talk to the upstream.
 */
export interface UpstreamOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** The `initialize` params the proxy sends, as its client (again after every restart). */
  readonly initialize: Record<string, unknown>;
  /** One line for the proxy's stderr (no prefix, no newline). */
  readonly log: (line: string) => void;
  /** A notification from the upstream that no request of the proxy claims (progress of its own calls is routed to them). */
  readonly onNotification: (message: Message) => void;
  /** A request from the upstream to its client (sampling, roots, elicitation): answered by the proxy's client. */
  readonly onRequest: (message: Message) => Promise<Answer>;
  /** How long `initialize` may take (default 60 s). */
  readonly startTimeoutMs?: number;
}

/**
 * Options of one {@link Upstream.request}.
 */
export interface RequestOptions {
  /** How long to wait for the answer; progress from the upstream starts the wait again. */
  readonly timeoutMs: number;
  /** Aborting it cancels the request upstream (`notifications/cancelled`). */
  readonly signal?: AbortSignal | undefined;
  /** Progress notifications for this request (`params` as the upstream sent them, without its token). */
  readonly onProgress?: ((params: Record<string, unknown>) => void) | undefined;
}

/**
 * A running upstream.
 */
export interface Upstream {
  /** The `initialize` result of the running child (of the first one until a restart succeeds). */
  readonly initialized: Record<string, unknown>;
  /** Sends a request and waits for its answer (never rejects). */
  request(method: string, params: unknown, options: RequestOptions): Promise<Answer>;
  /** Sends a notification (dropped while no child runs). */
  notify(method: string, params: unknown): void;
  /**
   * Stops reading the child's stdout until `until` settles: a client that
   * is not reading slows the upstream down (its pipe fills, its writes
   * block) instead of the proxy buffering without bound.
   */
  hold(until: Promise<unknown>): void;
  /** Stops the child (and its process group) and answers what is in flight with `exited`. */
  close(): Promise<void>;
}

/**
 * Why the proxy cannot start (its root, its store, or its upstream): the one
 * line to print before exit 2. The HTTP front's own reasons (token file,
 * address, port) are a `FrontStartError`.
 */
export class ProxyStartError extends Error {
  override readonly name = 'ProxyStartError';
}

/** One start of the child: its transport and the connection over it. */
interface Started {
  readonly transport: ChildTransport;
  readonly link: Link;
}

/** Why a request failed to be written, or `null` when it can be. */
function unwritable(params: unknown): string | null {
  try {
    JSON.stringify(params);
    return null;
  } catch (error) {
    return error instanceof RangeError ? 'it is nested too deeply' : 'it is not JSON';
  }
}

/**
 * What a rejected request got: the upstream's own error (its message as it
 * wrote it), or why there was none.
 */
function answerOfError(error: unknown, started: Started, stopping: boolean): Answer {
  if (!(error instanceof McpError))
    return { failed: 'exited', message: 'the upstream is not running' };
  if (error.data instanceof Dropped) return { failed: 'too-large', message: String(error.data) };
  if (error.data instanceof NotAnObject) return { result: error.data.value };
  const ended = started.transport.ended;
  if (error.code === ErrorCode.ConnectionClosed && (ended !== null || stopping)) {
    return stopping
      ? { failed: 'exited', message: 'the proxy is stopping' }
      : { failed: 'exited', message: `the upstream exited (${ended}) before it answered` };
  }
  return peerError(error);
}

/**
 * What a peer's JSON-RPC error (as the SDK rejects with it) says, as an
 * {@link Answer}: its code, its message as the peer wrote it (the SDK
 * prefixes the code), its data.
 *
 * @example
 * ```ts
 * peerError(new McpError(-32602, 'bad params')); // { error: { code: -32602, message: 'bad params' } }
 * ```
 */
export function peerError(error: McpError): Answer {
  const prefix = `MCP error ${error.code}: `;
  const message = error.message.startsWith(prefix)
    ? error.message.slice(prefix.length)
    : error.message;
  return {
    error: { code: error.code, message, ...(error.data === undefined ? {} : { data: error.data }) },
  };
}

/** Whether a rejection is the SDK's own timeout of a request that waited `timeoutMs`. */
function timedOut(error: unknown, timeoutMs: number): boolean {
  return (
    error instanceof McpError &&
    error.code === ErrorCode.RequestTimeout &&
    (error.data as { timeout?: unknown } | undefined)?.timeout === timeoutMs
  );
}

/**
 * Sends one request on `started` and waits for what it got (never rejects).
 * A request that cannot be written is answered at once, leaving nothing
 * waiting.
 */
async function ask(
  started: Started,
  method: string,
  params: unknown,
  options: RequestOptions & {
    readonly log: (line: string) => void;
    readonly stopping: () => boolean;
  },
): Promise<Answer> {
  const why = unwritable(params);
  if (why !== null) {
    return { failed: 'unavailable', message: `the request could not be written upstream: ${why}` };
  }
  if (options.signal?.aborted) return { failed: 'cancelled', message: 'cancelled' };
  // The SDK cancels upstream with the abort's reason: say whose it was.
  const cancel = new AbortController();
  const onAbort = () => cancel.abort('cancelled by the client');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await started.link.request({ method, params } as never, AS_IS, {
      timeout: options.timeoutMs,
      resetTimeoutOnProgress: true,
      signal: cancel.signal,
      ...(options.onProgress ? { onprogress: options.onProgress as never } : {}),
    });
    return { result };
  } catch (error) {
    if (cancel.signal.aborted) return { failed: 'cancelled', message: 'cancelled' };
    if (!timedOut(error, options.timeoutMs))
      return answerOfError(error, started, options.stopping());
    const seconds = Math.round(options.timeoutMs / 1000);
    options.log(`${method} got no answer within ${seconds} s; cancelled it upstream`);
    return { failed: 'timeout', message: `the upstream did not answer within ${seconds} s` };
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** An answer of the proxy's client as what the upstream's request handler returns or throws. */
function resultOf(answer: Answer): Record<string, unknown> {
  if ('result' in answer) return answer.result as Record<string, unknown>;
  throw 'error' in answer
    ? answer.error
    : { code: ErrorCode.InternalError, message: answer.message };
}

/** The one line for a child that did not finish its handshake. */
function refusal(shown: string, answer: Answer, timeoutMs: number, ended: string | null): string {
  if ('error' in answer)
    return `the upstream \`${shown}\` refused initialize: ${answer.error.message}`;
  if ('failed' in answer && answer.failed === 'timeout') {
    return `the upstream \`${shown}\` did not answer initialize within ${Math.round(timeoutMs / 1000)} s`;
  }
  return `the upstream \`${shown}\` exited (${ended ?? 'no answer'}) before it answered initialize`;
}

/**
 * Starts one child and shakes hands with it (`initialize`, then
 * `notifications/initialized`); a child that does not is stopped, and a
 * {@link ProxyStartError} says why.
 */
async function startChild(
  options: UpstreamOptions,
  shown: string,
): Promise<Started & { readonly initialized: Record<string, unknown> }> {
  const transport = new ChildTransport(options);
  const link = new Link();
  link.onerror = () => {};
  link.fallbackNotificationHandler = async (message) => options.onNotification(message as Message);
  link.fallbackRequestHandler = async (message) =>
    resultOf(await options.onRequest(message as Message));
  try {
    await link.connect(transport);
  } catch (error) {
    const why =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? notFound(options.command, options.cwd, options.env)
        : String((error as Error).message);
    throw new ProxyStartError(`cannot start the upstream \`${shown}\`: ${why}`);
  }
  const timeoutMs = options.startTimeoutMs ?? START_TIMEOUT_MS;
  const started = { transport, link };
  const answer = await ask(started, 'initialize', options.initialize, {
    timeoutMs,
    log: () => {},
    stopping: () => false,
  });
  const result = 'result' in answer ? answer.result : null;
  if (isObject(result)) {
    await link.notification({ method: 'notifications/initialized' }).catch(() => {});
    return { ...started, initialized: result };
  }
  await link.close();
  throw new ProxyStartError(refusal(shown, answer, timeoutMs, transport.ended));
}

/** Whether one more restart fits the window (`restarts`: when the last ones were, kept up to date). */
function mayRestart(restarts: number[], now: number): boolean {
  while (restarts.length > 0 && now - restarts[0]! > RESTART_WINDOW_MS) restarts.shift();
  if (restarts.length >= MAX_RESTARTS) return false;
  restarts.push(now);
  return true;
}

/**
 * Starts the upstream and completes the MCP handshake with it. Rejects with
 * a {@link ProxyStartError} when the command cannot be started, exits before
 * answering, answers with an error, or does not answer in time.
 *
 * @example
 * ```ts
 * const upstream = await startUpstream({ ...options, command: 'codegraph', args: ['serve', '--mcp'] });
 * upstream.initialized.serverInfo; // { name: 'codegraph', … }
 * ```
 */
export async function startUpstream(options: UpstreamOptions): Promise<Upstream> {
  const shown = [options.command, ...options.args].join(' ');
  let current: Started | null = null;
  let initialized: Record<string, unknown> = {};
  let closing = false;
  /** While a (re)start is under way: what requests wait for. */
  let starting: Promise<boolean> | null = null;
  const restarts: number[] = [];

  const launch = async () => {
    const started = await startChild(options, shown);
    current = started;
    initialized = started.initialized;
    started.link.onclose = () => {
      if (current !== started) return;
      current = null;
      if (closing) return;
      options.log(`the upstream exited (${started.transport.ended}); restarting it`);
      void restart();
    };
    if (started.transport.ended !== null) started.link.onclose();
  };
  const restart = (): Promise<boolean> => {
    if (starting !== null) return starting;
    if (!mayRestart(restarts, Date.now())) return Promise.resolve(false);
    starting = launch().then(
      () => {
        starting = null;
        options.log('the upstream is running again');
        return true;
      },
      (error: unknown) => {
        starting = null;
        options.log(`${errorMessage(error)}; calls fail until it starts`);
        return false;
      },
    );
    return starting;
  };
  const stopOnExit = () => current?.transport.kill();
  process.once('exit', stopOnExit);
  await launch();

  return {
    get initialized() {
      return initialized;
    },
    async request(method, params, opts) {
      if (closing) return { failed: 'exited', message: 'the proxy is stopping' };
      if (starting !== null && !(await starting)) {
        return { failed: 'unavailable', message: 'the upstream could not be restarted' };
      }
      if (current === null && !(await restart())) {
        return {
          failed: 'unavailable',
          message: 'the upstream is not running and could not be restarted',
        };
      }
      if (current === null) return { failed: 'exited', message: 'the upstream is not running' };
      return ask(current, method, params, { ...opts, log: options.log, stopping: () => closing });
    },
    notify(method, params) {
      current?.link.notification({ method, params } as never).catch(() => {});
    },
    hold(until) {
      current?.transport.hold(until);
    },
    async close() {
      if (closing) return;
      closing = true;
      process.off('exit', stopOnExit);
      const started = current;
      current = null;
      await started?.link.close();
    },
  };
}

/**
 * Why a spawn found nothing to run, in words a person can act on: the
 * directory it started in (a `--cwd` that does not exist), the file a path
 * named, or the PATH a bare command was looked for on.
 */
function notFound(command: string, cwd: string, env: NodeJS.ProcessEnv): string {
  let isDir = false;
  try {
    isDir = statSync(cwd).isDirectory();
  } catch {}
  if (!isDir) return `its working directory ${cwd} is not a directory that exists (--cwd sets it)`;
  if (/[\\/]/.test(command)) {
    return `no such file ${resolvePath(cwd, command)} (a relative command is read from ${cwd}; --cwd sets it)`;
  }
  const path = env.PATH ?? env.Path ?? '';
  return `command not found on PATH (${path === '' ? 'empty' : path}), started in ${cwd}`;
}
