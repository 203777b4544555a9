/**
 * A client that speaks newline-delimited JSON-RPC by hand, for tests that
 * compare bytes: every line it reads is kept as it came, and a response is
 * found by the id it was asked with (a number or a string the test picks).
 */
import { type ChildProcess, spawn } from 'node:child_process';

/** One line read, parsed, and as it came. */
export interface Line {
  readonly raw: string;
  readonly message: Record<string, unknown>;
}

/** A raw peer of an MCP server over stdio. */
export interface WirePeer {
  /** Every line read so far, in order. */
  readonly lines: readonly Line[];
  /** Sends a request with `id` and resolves with its response line (fails after `ms`). */
  request(id: string | number, method: string, params?: unknown, ms?: number): Promise<Line>;
  /** Sends a notification. */
  notify(method: string, params?: unknown): void;
  /** Waits until a line satisfying `test` was read (fails after `ms`). */
  waitFor(test: (message: Record<string, unknown>) => boolean, ms?: number): Promise<Line>;
  /** Stops the process (its group when it made one of its own is its own business). */
  close(): Promise<void>;
}

/**
 * Starts `command args…` and shakes hands as a client (`initialize`, then
 * `notifications/initialized`).
 *
 * @example
 * ```ts
 * const peer = await startWire(process.execPath, [SERVER, root], { cwd: root, env });
 * const answer = await peer.request(7, 'tools/list');
 * ```
 */
export async function startWire(
  command: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env: Record<string, string> },
): Promise<WirePeer> {
  const child: ChildProcess = spawn(command, [...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stderr?.resume();
  const lines: Line[] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
      const raw = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (raw.trim() === '') continue;
      lines.push({ raw, message: JSON.parse(raw) as Record<string, unknown> });
    }
    for (const wake of [...waiters]) wake();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const write = (message: Record<string, unknown>) =>
    child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const waitFor = (test: (message: Record<string, unknown>) => boolean, ms = 20_000) =>
    new Promise<Line>((resolve, reject) => {
      const check = () => {
        const found = lines.find((line) => test(line.message));
        if (found === undefined) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error('timed out waiting for a line'));
      }, ms);
      waiters.add(check);
      check();
    });
  const peer: WirePeer = {
    lines,
    request(id, method, params, ms) {
      write({ id, method, ...(params === undefined ? {} : { params }) });
      return waitFor((m) => m.id === id && m.method === undefined, ms);
    },
    notify(method, params) {
      write({ method, ...(params === undefined ? {} : { params }) });
    },
    waitFor,
    async close() {
      child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
  await peer.request('init', 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'wire-test', version: '1.0.0' },
  });
  peer.notify('notifications/initialized');
  return peer;
}

/** The `result` or `error` member of a response line, serialized as it came. */
export function payloadOf(line: Line): string {
  const { message } = line;
  return JSON.stringify('error' in message ? { error: message.error } : { result: message.result });
}
