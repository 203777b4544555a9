/**
 * A real Redis for end-to-end tests: Debian's `redis-server`, started on a
 * free 127.0.0.1 port with no persistence (`--save '' --appendonly no`) and
 * a temporary working directory, stopped (and the directory removed) by
 * `stop()`. `restart()` brings it back, empty, on the same port, for tests of
 * a Redis that went away in the middle of a session.
 *
 * Tests fail with a clear message when `redis-server` is not installed
 * (`apt-get install redis-server`); they never fall back to a stand-in.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BINARY = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

/** A running (or stopped) test Redis. */
export interface TestRedis {
  readonly port: number;
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** Stops the server; the port stays reserved for `restart`. */
  halt(): Promise<void>;
  /** Starts it again, empty, on the same port. */
  restart(): Promise<void>;
  /** Stops it for good and removes its directory. */
  stop(): Promise<void>;
}

/** A port nothing listens on right now (the kernel's pick for port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function launch(port: number, dir: string, debug: boolean): Promise<ChildProcess> {
  const proc = spawn(
    BINARY,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--daemonize',
      'no',
      '--loglevel',
      'notice',
      // DEBUG SLEEP stalls the server on cue, for the tests of a Redis slower than its client's timeout.
      ...(debug ? ['--enable-debug-command', 'local'] : []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`redis-server did not start on port ${port}:\n${log}`));
    }, 10_000);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Ready to accept connections')) {
        clearTimeout(timer);
        proc.stdout?.off('data', onData);
        proc.stdout?.resume();
        proc.stderr?.resume();
        resolve(proc);
      }
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code} before it was ready:\n${log}`));
    });
  });
}

function kill(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}

/**
 * Starts a Redis of its own for a test file. Call `stop()` in `afterAll`.
 * `debug: true` enables `DEBUG` for local clients (`DEBUG SLEEP 3` stalls it).
 *
 * @example
 * ```ts
 * let redis: TestRedis;
 * beforeAll(async () => { redis = await startRedis(); });
 * afterAll(() => redis.stop());
 * ```
 */
export async function startRedis({ debug = false } = {}): Promise<TestRedis> {
  if (!existsSync(BINARY)) {
    throw new Error(`${BINARY} is missing: install it with apt-get install redis-server`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'span-ledger-redis-'));
  let port = 0;
  let proc: ChildProcess | undefined;
  // Another process may take the free port before the server binds it: try again.
  for (let attempt = 0; proc === undefined; attempt++) {
    port = await freePort();
    try {
      proc = await launch(port, dir, debug);
    } catch (err) {
      if (attempt >= 4) {
        rmSync(dir, { recursive: true, force: true });
        throw err;
      }
    }
  }
  let running: ChildProcess | undefined = proc;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async halt() {
      if (running !== undefined) await kill(running);
      running = undefined;
    },
    async restart() {
      if (running !== undefined) await kill(running);
      running = await launch(port, dir, debug);
    },
    async stop() {
      if (running !== undefined) await kill(running);
      running = undefined;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
