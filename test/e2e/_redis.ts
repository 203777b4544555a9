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
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BINARY = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
/** `redis-cli` (Debian's redis-tools, a dependency of redis-server): joins a test cluster. */
const CLI = process.env.REDIS_CLI ?? '/usr/bin/redis-cli';

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

function launch(
  port: number,
  dir: string,
  debug: boolean,
  extra: readonly string[] = [],
): Promise<ChildProcess> {
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
      ...extra,
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

/** A running test Redis Cluster: three masters, no replicas, on loopback. */
export interface TestRedisCluster {
  /** The masters' ports. */
  readonly ports: readonly number[];
  /** `redis://127.0.0.1:<port>` of the first master: a client finds the others from it. */
  readonly url: string;
  /** Stops every node and removes their directories. */
  stop(): Promise<void>;
}

/**
 * Starts a Redis Cluster of its own for a test file: three `redis-server
 * --cluster-enabled yes` on free loopback ports (cluster bus ports free too),
 * no persistence, joined with `redis-cli --cluster create`, resolved once
 * every node says `cluster_state:ok`. Call `stop()` in `afterAll`.
 *
 * @example
 * ```ts
 * let cluster: TestRedisCluster;
 * beforeAll(async () => { cluster = await startRedisCluster(); });
 * afterAll(() => cluster.stop());
 * ```
 */
export async function startRedisCluster(): Promise<TestRedisCluster> {
  if (!existsSync(BINARY) || !existsSync(CLI)) {
    throw new Error(
      `${BINARY} or ${CLI} is missing: install them with apt-get install redis-server`,
    );
  }
  const nodes: { proc: ChildProcess; dir: string; port: number }[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((n) => kill(n.proc)));
    for (const n of nodes) rmSync(n.dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 3; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'span-ledger-redis-cluster-'));
      for (let attempt = 0; ; attempt++) {
        const [port, bus] = [await freePort(), await freePort()];
        try {
          const proc = await launch(port, dir, false, [
            '--cluster-enabled',
            'yes',
            '--cluster-port',
            String(bus),
            '--cluster-config-file',
            join(dir, 'nodes.conf'),
            '--cluster-node-timeout',
            '2000',
          ]);
          nodes.push({ proc, dir, port });
          break;
        } catch (err) {
          if (attempt >= 4) {
            rmSync(dir, { recursive: true, force: true });
            throw err;
          }
        }
      }
    }
    const ports = nodes.map((n) => n.port);
    const created = spawnSync(
      CLI,
      [
        '--cluster',
        'create',
        ...ports.map((p) => `127.0.0.1:${p}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ],
      { encoding: 'utf8', timeout: 20_000 },
    );
    if (created.status !== 0)
      throw new Error(`redis-cli --cluster create failed:\n${created.stdout}${created.stderr}`);
    const ok = (port: number) =>
      spawnSync(CLI, ['-p', String(port), 'cluster', 'info'], {
        encoding: 'utf8',
        timeout: 5000,
      }).stdout.includes('cluster_state:ok');
    for (let i = 0; i < 200 && !ports.every(ok); i++) await new Promise((r) => setTimeout(r, 50));
    if (!ports.every(ok)) throw new Error('the test Redis Cluster did not reach cluster_state:ok');
    return { ports, url: `redis://127.0.0.1:${ports[0]}`, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
