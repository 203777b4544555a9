/**
 * The upstream: the MCP server the proxy fronts, a child process spoken to
 * over stdio (newline-delimited JSON-RPC). This module moves messages and
 * keeps the child alive; it reads nothing in them beyond ids, methods and
 * progress tokens.
 *
 * - The child runs in a process group of its own, so stopping it stops what
 *   it started too (Codegraph's npm launcher runs the real server as its own
 *   child): nothing outlives the proxy.
 * - A child that exits or crashes while the proxy runs is restarted; the
 *   requests in flight get an `exited` answer, later ones wait for the new
 *   child. A child that keeps dying is given up on for a while.
 * - A request that gets no answer within its time gets a `timeout` answer and
 *   is cancelled upstream; one whose signal aborts is cancelled upstream.
 * - A message too large to hold (see {@link MAX_MESSAGE_BYTES}) is dropped,
 *   and the request it answered gets a `too-large` answer.
 *
 * Not a client: it does not check results against the protocol's schemas.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';

/**
 * A JSON-RPC message as it crosses the pipe: parsed JSON, read field by field.
 */
export type Message = Record<string, unknown>;

/**
 * A JSON-RPC request id.
 */
export type RequestId = string | number;

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

/**
 * The largest single message the proxy reads from the upstream, or a client
 * over stdio: 10 MiB, what the MCP SDK's stdio transport reads (its client
 * drops the connection past it). A whole-file read is refused well below it
 * (see the filesystem profile); this bounds what any other tool can make the
 * proxy hold, and a message past it gets one JSON-RPC error and one line.
 */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** How long a child may take to answer `initialize` before start-up fails. */
const START_TIMEOUT_MS = 60_000;

/** How long a stopped child has to exit after SIGTERM before SIGKILL. */
const STOP_GRACE_MS = 2_000;

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
  /** Progress notifications for this request (`params` as the upstream sent them). */
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
 * Thrown by {@link startUpstream} when the upstream cannot start: one line to
 * print before exit 2.
 */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

/** JSON-RPC's internal error code. */
export const INTERNAL_ERROR = -32603;

/**
 * A JSON-RPC error object as an {@link Answer}: its code when a number (else
 * an internal error), its message when a string (else `fallback`), its data
 * when it has some.
 *
 * @example
 * ```ts
 * errorAnswer({ code: -32602, message: 'bad params' }, 'upstream error'); // { error: { code: -32602, message: 'bad params' } }
 * errorAnswer({}, 'client error'); // { error: { code: -32603, message: 'client error' } }
 * ```
 */
export function errorAnswer(
  error: { readonly code?: unknown; readonly message?: unknown; readonly data?: unknown },
  fallback: string,
): Answer {
  return {
    error: {
      code: typeof error.code === 'number' ? error.code : INTERNAL_ERROR,
      message: typeof error.message === 'string' ? error.message : fallback,
      ...(error.data === undefined ? {} : { data: error.data }),
    },
  };
}

interface Pending {
  readonly settle: (answer: Answer) => void;
  readonly progressToken: unknown;
  readonly onProgress: ((params: Record<string, unknown>) => void) | undefined;
  /** Restarts the wait (progress arrived). */
  readonly rearm: () => void;
}

/** One child process and the framing of its stdout. */
interface Child {
  readonly process: ChildProcess;
  readonly generation: number;
  /** Resolves once the child has exited. */
  readonly exited: Promise<void>;
}

/** `cmd` for a log line: the command as the user typed it. */
function shownCommand(command: string, args: readonly string[]): string {
  return [command, ...args].join(' ');
}

/** Why a child ended, for a log line. */
function howEnded(code: number | null, signal: NodeJS.Signals | null): string {
  return signal !== null ? `killed by ${signal}` : `exit code ${code}`;
}

/**
 * The id of a JSON-RPC message too large to keep, from its first and last
 * bytes: a request written by `JSON.stringify` starts with it (after
 * `jsonrpc`), a response ends with it. `null` when neither says.
 */
function idOfOversize(head: string, tail: string): RequestId | null {
  const match =
    /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(\d+|"(?:[^"\\]|\\.)*")/.exec(head) ??
    /"id":(\d+|"(?:[^"\\]|\\.)*")\}\s*$/.exec(tail);
  return match ? (JSON.parse(match[1]!) as RequestId) : null;
}

/**
 * Splits a byte stream into lines of at most {@link MAX_MESSAGE_BYTES} with
 * their newline (handed on without it). A longer line is not kept: its first
 * and last bytes are, to find the id of the message it was.
 *
 * @example
 * ```ts
 * process.stdin.on('data', splitLines((line) => handle(line), (id) => refuse(id)));
 * ```
 */
export function splitLines(
  onLine: (line: Buffer) => void,
  onOversize: (id: RequestId | null) => void,
): (chunk: Buffer) => void {
  let chunks: Buffer[] = [];
  let size = 0;
  let dropping = false;
  let head = '';
  let tail = '';
  const flushLine = (last: Buffer) => {
    if (!dropping && size + last.length + 1 > MAX_MESSAGE_BYTES) {
      dropping = true;
      head = (chunks[0] ?? last).subarray(0, 200).toString('utf8');
      chunks = [];
      size = 0;
    }
    if (dropping) {
      onOversize(idOfOversize(head, (tail + last.toString('utf8')).slice(-80)));
      dropping = false;
      head = '';
      tail = '';
      return;
    }
    chunks.push(last);
    const line = chunks.length === 1 ? last : Buffer.concat(chunks);
    chunks = [];
    size = 0;
    onLine(line);
  };
  return (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      flushLine(chunk.subarray(start, nl));
      start = nl + 1;
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0) return;
    if (dropping) {
      tail = (tail + rest.toString('utf8')).slice(-80);
      return;
    }
    size += rest.length;
    if (size + 1 > MAX_MESSAGE_BYTES) {
      dropping = true;
      head = (chunks[0] ?? rest).subarray(0, 200).toString('utf8');
      tail = rest.toString('utf8').slice(-80);
      chunks = [];
      size = 0;
      return;
    }
    chunks.push(Buffer.from(rest));
  };
}

/** Splits a byte stream into lines ({@link splitLines}) and parses each as JSON. */
function lineReader(
  onMessage: (message: Message) => void,
  onOversize: (id: RequestId | null) => void,
  onJunk: () => void,
) {
  return splitLines((line) => {
    const text = line.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      onJunk();
      return;
    }
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      onMessage(parsed as Message);
    } else {
      onJunk();
    }
  }, onOversize);
}

/**
 * Starts the upstream and completes the MCP handshake with it (`initialize`,
 * then `notifications/initialized`). Rejects with a {@link StartupError} when
 * the command cannot be started, exits before answering, answers with an
 * error, or does not answer in time.
 *
 * @example
 * ```ts
 * const upstream = await startUpstream({ ...options, command: 'codegraph', args: ['serve', '--mcp'] });
 * upstream.initialized.serverInfo; // { name: 'codegraph', … }
 * ```
 */
export async function startUpstream(options: UpstreamOptions): Promise<Upstream> {
  const shown = shownCommand(options.command, options.args);
  const pending = new Map<RequestId, Pending>();
  let nextId = 1;
  let generation = 0;
  let child: Child | null = null;
  let closing = false;
  /** While a (re)start is under way: what requests wait for. */
  let starting: Promise<boolean> | null = null;
  const restarts: number[] = [];
  /** Holds on reading the child's stdout (see `hold`). */
  let holds = 0;
  let initialized: Record<string, unknown> = {};

  const settleAll = (failed: Failure, message: string) => {
    const all = [...pending.values()];
    pending.clear();
    for (const p of all) p.settle({ failed, message });
  };

  /** Writes one serialized message to the child: false while none runs. */
  const writeLine = (line: string): boolean => {
    const stdin = child?.process.stdin;
    if (stdin === undefined || stdin === null || stdin.destroyed || !stdin.writable) return false;
    stdin.write(`${line}\n`);
    return true;
  };

  /** Writes `message` (one the proxy made, or passes on as it was parsed): false when it cannot go. */
  const write = (message: Message): boolean => {
    let line: string;
    try {
      line = JSON.stringify(message);
    } catch {
      return false;
    }
    return writeLine(line);
  };

  const onMessage = (message: Message, from: number) => {
    if (from !== generation) return;
    const id = message.id as RequestId | undefined;
    const method = message.method;
    if (typeof method === 'string') {
      if (id === undefined || id === null) {
        if (method === 'notifications/progress') {
          const params = (message.params ?? {}) as Record<string, unknown>;
          for (const p of pending.values()) {
            if (p.progressToken !== undefined && p.progressToken === params.progressToken) {
              p.rearm();
              p.onProgress?.(params);
              return;
            }
          }
        }
        options.onNotification(message);
        return;
      }
      void options.onRequest(message).then((answer) => respond(from, id, answer));
      return;
    }
    if (id === undefined || id === null) return;
    const p = pending.get(id);
    if (p === undefined) return;
    pending.delete(id);
    const error = message.error;
    if (error !== null && typeof error === 'object') {
      p.settle(errorAnswer(error, 'upstream error'));
    } else if (error !== undefined && error !== null) {
      // Not an error object (`"error": "boom"`): still an error, with what it said.
      const said = typeof error === 'string' ? error : JSON.stringify(error);
      p.settle(
        errorAnswer({ message: `the upstream answered with an error: ${said.slice(0, 200)}` }, ''),
      );
    } else {
      p.settle({ result: message.result });
    }
  };

  const respond = (from: number, id: RequestId, answer: Answer) => {
    if (from !== generation) return;
    if ('result' in answer) write({ jsonrpc: '2.0', id, result: answer.result });
    else if ('error' in answer) write({ jsonrpc: '2.0', id, error: answer.error });
    else write({ jsonrpc: '2.0', id, error: { code: INTERNAL_ERROR, message: answer.message } });
  };

  /** Spawns a child; resolves when it runs, rejects with the spawn error. */
  const spawnChild = (): Promise<Child> => {
    const gen = ++generation;
    const posix = process.platform !== 'win32';
    const proc = spawn(options.command, [...options.args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'inherit'],
      detached: posix,
      shell: !posix,
      windowsHide: true,
    });
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.stdin?.on('error', () => {});
    proc.stdout?.on(
      'data',
      lineReader(
        (message) => onMessage(message, gen),
        (id) => {
          if (gen !== generation) return;
          const p = id === null ? undefined : pending.get(id);
          options.log(
            `the upstream wrote a message over ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB; dropped${p === undefined ? '' : ', and its request answered with an error'}`,
          );
          if (p === undefined) return;
          pending.delete(id!);
          p.settle({
            failed: 'too-large',
            message: `the upstream's answer was over ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB`,
          });
        },
        () => {
          if (gen === generation)
            options.log('the upstream wrote a line that is not a JSON-RPC message; ignored');
        },
      ),
    );
    return new Promise((resolve, reject) => {
      proc.once('error', reject);
      proc.once('spawn', () => {
        proc.off('error', reject);
        proc.on('error', () => {});
        resolve({ process: proc, generation: gen, exited });
      });
    });
  };

  /** Kills the child's process group (the child alone where there are no groups). */
  const kill = (proc: ChildProcess, signal: NodeJS.Signals) => {
    try {
      if (process.platform !== 'win32' && proc.pid !== undefined) process.kill(-proc.pid, signal);
      else proc.kill(signal);
    } catch {
      // Already gone.
    }
  };

  const stopChild = async (c: Child) => {
    c.process.stdin?.end();
    kill(c.process, 'SIGTERM');
    const timer = setTimeout(() => kill(c.process, 'SIGKILL'), STOP_GRACE_MS);
    await c.exited;
    clearTimeout(timer);
    // The group may hold more than the child (a launcher's own child): make sure it is gone.
    kill(c.process, 'SIGKILL');
  };

  /** One request on the current child, without waiting for a restart. */
  const send = (method: string, params: unknown, opts: RequestOptions): Promise<Answer> =>
    new Promise<Answer>((resolve) => {
      const id = nextId++;
      let timer: NodeJS.Timeout | undefined;
      let done = false;
      const settle = (answer: Answer) => {
        if (done) return;
        done = true;
        if (timer !== undefined) clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        resolve(answer);
      };
      const cancel = (reason: string) => {
        pending.delete(id);
        write({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason },
        });
      };
      const arm = () => {
        if (timer !== undefined) clearTimeout(timer);
        timer = setTimeout(() => {
          options.log(
            `${method} got no answer within ${Math.round(opts.timeoutMs / 1000)} s; cancelled it upstream`,
          );
          cancel('timed out in span-ledger-proxy');
          settle({
            failed: 'timeout',
            message: `the upstream did not answer within ${Math.round(opts.timeoutMs / 1000)} s`,
          });
        }, opts.timeoutMs);
        timer.unref?.();
      };
      const onAbort = () => {
        cancel('cancelled by the client');
        settle({ failed: 'cancelled', message: 'cancelled' });
      };
      if (opts.signal?.aborted) {
        settle({ failed: 'cancelled', message: 'cancelled' });
        return;
      }
      const progressToken = (params as { _meta?: { progressToken?: unknown } } | undefined)?._meta
        ?.progressToken;
      let line: string;
      try {
        line = JSON.stringify({
          jsonrpc: '2.0',
          id,
          method,
          ...(params === undefined ? {} : { params }),
        });
      } catch (error) {
        // Nested too deeply, or a cycle: nothing is sent, and nothing waits for an answer.
        const why = error instanceof RangeError ? 'it is nested too deeply' : 'it is not JSON';
        settle({
          failed: 'unavailable',
          message: `the request could not be written upstream: ${why}`,
        });
        return;
      }
      pending.set(id, { settle, progressToken, onProgress: opts.onProgress, rearm: arm });
      if (!writeLine(line)) {
        pending.delete(id);
        settle({ failed: 'exited', message: 'the upstream is not running' });
        return;
      }
      arm();
      opts.signal?.addEventListener('abort', onAbort, { once: true });
    });

  /** Starts a child and shakes hands; resolves `true` when it is ready. Throws a StartupError. */
  const launch = async (): Promise<void> => {
    let c: Child;
    try {
      c = await spawnChild();
    } catch (error) {
      const why =
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? notFound(options.command, options.cwd, options.env)
          : String((error as Error).message);
      throw new StartupError(`cannot start the upstream \`${shown}\`: ${why}`);
    }
    child = c;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    // Until it has answered initialize, an exit is the start-up's to report, not a crash to restart.
    let ready = false;
    c.process.once('exit', (code, signal) => {
      exit = { code, signal };
      if (child === c) child = null;
      if (closing || c.generation !== generation || !ready) return;
      settleAll('exited', `the upstream exited (${howEnded(code, signal)}) before it answered`);
      options.log(`the upstream exited (${howEnded(code, signal)}); restarting it`);
      void restart();
    });
    const answer = await Promise.race([
      send('initialize', options.initialize, {
        timeoutMs: options.startTimeoutMs ?? START_TIMEOUT_MS,
      }),
      c.exited.then(() => ({ failed: 'exited', message: '' }) as Answer),
    ]);
    if ('result' in answer && answer.result !== null && typeof answer.result === 'object') {
      initialized = answer.result as Record<string, unknown>;
      ready = true;
      write({ jsonrpc: '2.0', method: 'notifications/initialized' });
      return;
    }
    await stopChild(c);
    if ('error' in answer) {
      throw new StartupError(
        `the upstream \`${shown}\` refused initialize: ${answer.error.message}`,
      );
    }
    if ('failed' in answer && answer.failed === 'timeout') {
      throw new StartupError(
        `the upstream \`${shown}\` did not answer initialize within ${Math.round((options.startTimeoutMs ?? START_TIMEOUT_MS) / 1000)} s`,
      );
    }
    const ended = exit as { code: number | null; signal: NodeJS.Signals | null } | null;
    throw new StartupError(
      `the upstream \`${shown}\` exited (${ended === null ? 'no answer' : howEnded(ended.code, ended.signal)}) before it answered initialize`,
    );
  };

  const restart = (): Promise<boolean> => {
    if (starting !== null) return starting;
    const now = Date.now();
    while (restarts.length > 0 && now - restarts[0]! > RESTART_WINDOW_MS) restarts.shift();
    if (restarts.length >= MAX_RESTARTS) return Promise.resolve(false);
    restarts.push(now);
    starting = launch().then(
      () => {
        starting = null;
        options.log('the upstream is running again');
        return true;
      },
      (error: unknown) => {
        starting = null;
        options.log(
          `${error instanceof Error ? error.message : String(error)}; calls fail until it starts`,
        );
        return false;
      },
    );
    return starting;
  };

  const stopOnExit = () => {
    if (child !== null) kill(child.process, 'SIGKILL');
  };
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
      if (child === null && !(await restart())) {
        return {
          failed: 'unavailable',
          message: 'the upstream is not running and could not be restarted',
        };
      }
      return send(method, params, opts);
    },
    notify(method, params) {
      write({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) });
    },
    hold(until) {
      const stdout = child?.process.stdout;
      if (stdout === null || stdout === undefined) return;
      holds++;
      stdout.pause();
      const release = () => {
        if (--holds === 0) stdout.resume();
      };
      until.then(release, release);
    },
    async close() {
      if (closing) return;
      closing = true;
      process.off('exit', stopOnExit);
      settleAll('exited', 'the proxy is stopping');
      const c = child;
      child = null;
      if (c !== null) await stopChild(c);
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
