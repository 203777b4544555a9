/**
 * span-ledger/redis: the Redis (or Valkey) backend of the shared session
 * store, for a node-redis client (v4 or v5). The compare-and-set is one Lua
 * script run on the server, so it is atomic however many processes write.
 *
 * Not a Redis client: the host creates and owns the client (`redis` is an
 * optional peer dependency, and nothing else of span-ledger needs it).
 * `connectRedis` is the start-up helper that fails fast on a bad URL and
 * reconnects for ever once it has been up.
 */
import { sha1OfUtf8 } from '../hash/fingerprint.js';
import type { SharedStoreBackend } from '../shared/backend.js';

/**
 * What {@link redisBackend} needs of a client: the three commands it sends.
 * A node-redis v4 or v5 client (`createClient()`, also `createCluster()`)
 * has them.
 */
export interface RedisClientLike {
  /** `GET key`. */
  get(key: string): Promise<unknown>;
  /** `EVAL script numkeys key… arg…`. */
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  /** `EVALSHA sha1 numkeys key… arg…`. */
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/**
 * Options of {@link redisBackend}.
 */
export interface RedisBackendOptions {
  /** Put before every key (default `'span-ledger:'`), to keep the store's keys apart from others. */
  readonly prefix?: string;
}

/**
 * The compare-and-set, run atomically on the server. ARGV: whether no value
 * is expected ('1'), the SHA-1 of the expected value (the value itself would
 * send a session's ~45 KB twice per write), the next value, the TTL in ms. A
 * key holding another type (another program's hash or list) reads as the
 * empty string, a value that is not a ledger, and is replaced like one.
 */
const COMPARE_AND_SET = `local kind = redis.call('TYPE', KEYS[1])['ok']
local current = false
if kind == 'string' then
  current = redis.call('GET', KEYS[1])
elseif kind ~= 'none' then
  current = ''
end
if ARGV[1] == '1' then
  if current ~= false then return 0 end
elseif current == false or redis.sha1hex(current) ~= ARGV[2] then
  return 0
end
redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
return 1`;

let scriptSha: string | undefined;

function isWrongType(err: unknown): boolean {
  return err instanceof Error && err.message.startsWith('WRONGTYPE');
}

function isNoScript(err: unknown): boolean {
  return err instanceof Error && err.message.startsWith('NOSCRIPT');
}

/**
 * A {@link SharedStoreBackend} over a node-redis client: `get` is `GET`,
 * `compareAndSet` a Lua script sent with `EVALSHA` (and `EVAL` when the
 * server does not have it cached yet) that compares (by SHA-1) and sets with
 * `PX` in one step. Every key is `prefix` + the store's key.
 *
 * Errors of the client (Redis down, a closed client) reject; the shared store
 * turns that into "nothing recorded" / "an empty view". A key holding a
 * non-string value (another program's) reads as a value that is not a ledger,
 * and the next write replaces it.
 *
 * @throws {TypeError} when `prefix` is not a string.
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { createSharedSessionStore } from 'span-ledger/shared';
 * import { connectRedis, redisBackend } from 'span-ledger/redis';
 *
 * const client = await connectRedis(createClient, process.env.REDIS_URL!);
 * const store = createSharedSessionStore(redisBackend(client, { prefix: 'explore:' }));
 * ```
 */
export function redisBackend(
  client: RedisClientLike,
  options: RedisBackendOptions = {},
): SharedStoreBackend {
  const prefix = options.prefix ?? 'span-ledger:';
  if (typeof prefix !== 'string') {
    throw new TypeError('redisBackend(client, options): prefix must be a string');
  }
  return {
    async get(key) {
      let value: unknown;
      try {
        value = await client.get(prefix + key);
      } catch (err) {
        if (isWrongType(err)) return '';
        throw err;
      }
      // A client whose type mapping answers bulk strings as Buffers.
      if (value instanceof Uint8Array) return new TextDecoder().decode(value);
      return value as string | null;
    },
    async compareAndSet(key, expected, next, ttlMs) {
      const args = {
        keys: [prefix + key],
        arguments: [
          expected === null ? '1' : '0',
          expected === null ? '' : sha1OfUtf8(expected),
          next,
          String(ttlMs),
        ],
      };
      scriptSha ??= sha1OfUtf8(COMPARE_AND_SET);
      let reply: unknown;
      try {
        reply = await client.evalSha(scriptSha, args);
      } catch (err) {
        if (!isNoScript(err)) throw err;
        reply = await client.eval(COMPARE_AND_SET, args);
      }
      return reply === 1;
    },
  };
}

/**
 * Options of {@link connectRedis}.
 */
export interface ConnectRedisOptions {
  /** How long the first connection may take (default 2000 ms). */
  readonly connectTimeoutMs?: number;
  /**
   * Told of every client error once connected (a lost connection, each
   * failed reconnect). Default: ignored — the store already degrades, and an
   * unheard client error would end the process.
   */
  readonly onError?: (error: Error) => void;
}

/**
 * The options {@link connectRedis} hands to the `createClient` it is given
 * (a subset of node-redis's client options).
 */
export interface RedisClientFactoryOptions {
  url: string;
  disableOfflineQueue: boolean;
  socket: {
    connectTimeout: number;
    /** Gives up (an `Error`) before the first connection, retries (a delay in ms) after it. */
    reconnectStrategy: (retries: number, cause: Error) => number | Error;
  };
}

/**
 * What {@link connectRedis} needs of the client `createClient` makes, besides
 * the commands {@link redisBackend} sends. A node-redis v4 or v5 client has it.
 */
export interface ConnectableRedisClient {
  /** Opens the connection; rejects when the reconnect strategy gives up. */
  connect(): Promise<unknown>;
  /** Listens to the client's `error` and `ready` events. */
  on(event: 'error' | 'ready', listener: (error: Error) => void): unknown;
}

/** A URL that is not a redis:// or rediss:// URL is not echoed: it may be a secret pasted in the wrong place. */
const NOT_A_REDIS_URL = 'the Redis URL (not a redis:// or rediss:// URL)';

/** `url` with any password replaced, fit for a log line. */
function shown(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return NOT_A_REDIS_URL;
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') return NOT_A_REDIS_URL;
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}

/**
 * Creates a node-redis client for `url` and connects it, for a host's
 * start-up: a URL that cannot connect (refused, unknown host, timeout,
 * malformed) rejects with one line — `span-ledger/redis: cannot connect to
 * redis://127.0.0.1:6390: connect ECONNREFUSED 127.0.0.1:6390` — instead of
 * the first tool call finding out. Once connected, the client reconnects
 * for ever (backing off to 2 s), and while it is down commands fail at once
 * instead of queueing (`disableOfflineQueue`), so tool calls go on without
 * recording rather than waiting.
 *
 * Pass the `createClient` of the `redis` package the host installed (v4 or
 * v5): span-ledger does not import it.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * const client = await connectRedis(createClient, 'redis://127.0.0.1:6379').catch((e) => {
 *   console.error(e.message); // one line
 *   process.exit(1);
 * });
 * ```
 */
export async function connectRedis<C extends ConnectableRedisClient>(
  createClient: (options: RedisClientFactoryOptions) => C,
  url: string,
  options: ConnectRedisOptions = {},
): Promise<C> {
  const onError = options.onError ?? (() => {});
  let ready = false;
  try {
    const client = createClient({
      url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: options.connectTimeoutMs ?? 2000,
        // Before the first connection, give up (connect() rejects); after it, retry.
        reconnectStrategy: (retries, cause) => (ready ? Math.min(50 * 2 ** retries, 2000) : cause),
      },
    });
    client.on('ready', () => {
      ready = true;
    });
    client.on('error', (error) => {
      if (ready) onError(error);
    });
    await client.connect();
    return client;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(
      `span-ledger/redis: cannot connect to ${shown(url)}: ${why}`.replace(/\s+/g, ' '),
    );
  }
}
