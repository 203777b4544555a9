/**
 * The upstream's child process as an MCP transport. Written beside the SDK's
 * `StdioClientTransport` because that one spawns without a process group
 * (stopping it would leave a launcher's own child running) and closes the
 * connection on a message over its buffer instead of failing that one call.
 *
 * It is also the edge where the upstream's output is read: each line is
 * parsed once, a response is handed on in the shape JSON-RPC gives it (an
 * error that is not an error object, or a result that is not an object,
 * becomes an error answer that says so), and a line that is not JSON is told
 * once per line to `log`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isObject } from './json.js';
import { MESSAGE_LIMIT, type RequestId, splitLines } from './lines.js';

/** How long a stopped child has to exit after SIGTERM before SIGKILL. */
const STOP_GRACE_MS = 2_000;

/** The `data` of an error answer standing for an answer over `MAX_MESSAGE_BYTES`, dropped. */
export class Dropped {
  toString(): string {
    return `the upstream's answer was over ${MESSAGE_LIMIT}`;
  }
}

/** The `data` of an error answer standing for a result that is not an object (`value`, as it came). */
export class NotAnObject {
  constructor(readonly value: unknown) {}
}

/** How to start the child. */
export interface ChildCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly log: (line: string) => void;
}

/** An upstream's JSON-RPC error in the protocol's shape; one that is not an object (an array too) is quoted. */
function errorObject(error: unknown): { code: number; message: string; data?: unknown } {
  if (!isObject(error)) {
    const said = typeof error === 'string' ? error : JSON.stringify(error);
    return {
      code: ErrorCode.InternalError,
      message: `the upstream answered with an error: ${said.slice(0, 200)}`,
    };
  }
  const { code, message, data } = error;
  return {
    code: Number.isSafeInteger(code) ? (code as number) : ErrorCode.InternalError,
    message: typeof message === 'string' ? message : 'upstream error',
    ...(data === undefined ? {} : { data }),
  };
}

/** A response as JSON-RPC shapes it; a request or notification as it came. */
function shaped(message: Record<string, unknown>): JSONRPCMessage {
  if (typeof message.method === 'string' || message.id === undefined) {
    return message as JSONRPCMessage;
  }
  const { id, error, result } = message;
  if (error !== undefined && error !== null) {
    return { jsonrpc: '2.0', id: id as RequestId, error: errorObject(error) };
  }
  if (isObject(result)) {
    return { jsonrpc: '2.0', id: id as RequestId, result };
  }
  const said = 'the upstream answered with a result that is not an object';
  const failure = { code: ErrorCode.InternalError, message: said, data: new NotAnObject(result) };
  return { jsonrpc: '2.0', id: id as RequestId, error: failure };
}

/**
 * The child process of one start of the upstream, spoken to over its stdin
 * and stdout, in a process group of its own (POSIX): closing it stops the
 * group.
 *
 * @example
 * ```ts
 * const transport = new ChildTransport({ command: 'codegraph', args: ['serve', '--mcp'], cwd, env, log });
 * await protocol.connect(transport); // spawns it
 * ```
 */
export class ChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** How the child ended (`exit code 1`, `killed by SIGKILL`), once it has. */
  ended: string | null = null;
  #process: ChildProcess | null = null;
  #exited: Promise<void> = Promise.resolve();
  #holds = 0;

  constructor(private readonly command: ChildCommand) {}

  async start(): Promise<void> {
    const { command, args, cwd, env } = this.command;
    const posix = process.platform !== 'win32';
    const child = spawn(command, [...args], {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'inherit'],
      detached: posix,
      shell: !posix,
      windowsHide: true,
    });
    this.#process = child;
    this.#exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.ended = signal !== null ? `killed by ${signal}` : `exit code ${code}`;
        resolve();
        this.onclose?.();
      });
    });
    child.stdin?.on('error', () => {});
    child.stdout?.on('data', this.#reader());
    child.on('error', () => {});
    try {
      await once(child, 'spawn');
    } catch (error) {
      this.#process = null;
      throw error;
    }
  }

  /** Splits stdout into messages, each read once here. */
  #reader(): (chunk: Buffer) => void {
    const { log } = this.command;
    return splitLines(
      (line) => {
        const text = line.toString('utf8').replace(/\r$/, '');
        if (text.trim() === '') return;
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {}
        if (!isObject(parsed)) {
          log('the upstream wrote a line that is not a JSON-RPC message; ignored');
          return;
        }
        this.onmessage?.(shaped(parsed));
      },
      (id) => {
        log(
          `the upstream wrote a message over ${MESSAGE_LIMIT}; dropped${id === null ? '' : ', and its request answered with an error'}`,
        );
        if (id === null) return;
        const data = new Dropped();
        const error = { code: ErrorCode.InternalError, message: String(data), data };
        this.onmessage?.({ jsonrpc: '2.0', id, error });
      },
    );
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#process?.stdin;
    if (!stdin?.writable) throw new Error('the upstream is not running');
    stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** Stops reading stdout until `until` settles (a client that is not reading slows the upstream). */
  hold(until: Promise<unknown>): void {
    const stdout = this.#process?.stdout;
    if (stdout === null || stdout === undefined) return;
    this.#holds++;
    stdout.pause();
    const release = () => {
      if (--this.#holds === 0) stdout.resume();
    };
    until.then(release, release);
  }

  /** Kills the process group at once (the process is exiting: no time to wait). */
  kill(): void {
    if (this.#process !== null) killGroup(this.#process, 'SIGKILL');
  }

  async close(): Promise<void> {
    const child = this.#process;
    if (child === null) return;
    child.stdin?.end();
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), STOP_GRACE_MS);
    await this.#exited;
    clearTimeout(timer);
    // The group may hold more than the child (a launcher's own child): make sure it is gone.
    killGroup(child, 'SIGKILL');
  }
}

/** Kills a child's process group (the child alone where there are no groups). */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (process.platform !== 'win32' && child.pid !== undefined) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // Already gone.
  }
}
