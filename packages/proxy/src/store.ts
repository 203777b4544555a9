/**
 * Where the proxy keeps what each agent context was sent: a ledger in this
 * process (over stdio, one client), or the shared store in Redis (over HTTP,
 * where any proxy process sharing the store may take a context's next call).
 * Both behind one async interface, with the per-context lock the proxy plans
 * and records under.
 *
 * Not a cache of results: only the ledger (paths, line spans, fingerprints,
 * response numbers) is kept.
 */
import { randomUUID } from 'node:crypto';
import type {
  CallRecord,
  Emission,
  LedgerLimits,
  ProjectState,
  PruneRequest,
  Reservation,
  SessionStore,
} from 'span-ledger';
import { createSessionStore } from 'span-ledger';
import { connectRedis, type RedisClientLike, redisBackend } from 'span-ledger/redis';
import { createSharedSessionStore, type SharedStoreBackend } from 'span-ledger/shared';
import { principalPart } from './context.js';
import { errorMessage } from './error-message.js';

/**
 * The one handle that takes a record back: a call that recorded its response
 * returns it, and whoever learns the answer did not reach the agent after all
 * (a cancellation, a hang-up, a failed send) undoes that record and nothing
 * else, without knowing where or under which key it was kept.
 */
export interface Receipt {
  /** Drops exactly the record this receipt was given for; a second call does nothing. Never rejects. */
  undo(): Promise<void>;
}

/**
 * A number taken for one call ({@link ProxyStore.reserve}): the reservation
 * to plan and print the header with, and the two ways it ends — the response
 * that printed the number recorded under it, or the number given back.
 */
export interface Ticket extends Reservation {
  /**
   * Records `emission` under this ticket's number (whatever number the
   * emission carries): the receipt that takes it back, or `null` when
   * nothing was recorded (the store could not confirm it in time; the
   * number is then given back, should the write have landed after all).
   */
  record(emission: Emission): Promise<Receipt | null>;
  /** Gives the number back: the call records nothing. */
  release(): Promise<void>;
}

/**
 * The ledger operations the proxy uses, each a Promise (never rejecting).
 */
export interface ProxyStore {
  /**
   * Takes the number of a call about to be planned, atomically (in Redis
   * too), with the prior to plan against: calls of one context never print
   * the same number, on one process or several, and a bucket made from
   * nothing gets a fresh generation. `null`: nothing can be tracked now
   * (the store is away), so the call is passed through.
   */
  reserve(projectRoot: string, sessionId: string): Promise<Ticket | null>;
  prune(request: PruneRequest): Promise<void>;
  /** What the context's ledger holds for the project now (its recorded calls); `null` when it cannot tell. */
  project(projectRoot: string, sessionId: string): Promise<ProjectState | null>;
  /**
   * Runs `work` while no other work of the same context runs in this process:
   * a call reserves, plans, renders and records under it, so a call of a
   * context plans against everything its previous one recorded (the numbers
   * stay distinct without it: `reserve` takes them).
   */
  exclusive<T>(sessionId: string, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The ledger operations a {@link ProxyStore} is made of, as a backend answers them. */
interface Ledgers {
  reserve(projectRoot: string, sessionId: string): Promise<Reservation | null>;
  record(emission: Emission, sessionId: string): Promise<CallRecord | null>;
  prune(request: PruneRequest): Promise<void>;
  project(projectRoot: string, sessionId: string): Promise<ProjectState | null>;
}

/**
 * The proxy's store over `ledgers`: every record hands out its receipt, and
 * every reservation is a ticket that records under its own number.
 */
function withReceipts(ledgers: Ledgers, close: () => Promise<void>): ProxyStore {
  return {
    async reserve(projectRoot, sessionId) {
      const reserved = await ledgers.reserve(projectRoot, sessionId);
      if (reserved === null) return null;
      const { callIndex, generation } = reserved;
      const number = generation === null ? { index: callIndex } : { index: callIndex, generation };
      return {
        ...reserved,
        async record({ index: _index, generation: _generation, ...emission }) {
          // Where the record lands, or would have: the number is this call's
          // alone, so pruning it takes back this record and nothing else.
          const request = { sessionId, projectRoot: emission.projectRoot, calls: [callIndex] };
          const takeBack = () => ledgers.prune(request).catch(() => {});
          const kept = await ledgers.record({ ...emission, ...number }, sessionId);
          if (kept === null) {
            // Not confirmed in time, yet the write may have landed (its reply
            // came late: a busy server, a clock ahead of the server's).
            await takeBack();
            return null;
          }
          let undone: Promise<void> | undefined;
          return { undo: () => (undone ??= takeBack()) };
        },
        release: () => ledgers.prune({ sessionId, projectRoot, calls: [callIndex] }),
      };
    },
    prune: (request) => ledgers.prune(request),
    project: (projectRoot, sessionId) => ledgers.project(projectRoot, sessionId),
    exclusive: lockTable(),
    close,
  };
}

/** Serializes work per key; a key's chain is dropped once it is idle. */
function lockTable(): ProxyStore['exclusive'] {
  const tails = new Map<string, Promise<unknown>>();
  return (key, work) => {
    const before = tails.get(key) ?? Promise.resolve();
    const run = before.then(work, work);
    const tail = run.then(
      () => {},
      () => {},
    );
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}

/**
 * A ledger in this process (`createSessionStore`), one per principal: each
 * principal's contexts are bounded by `limits` on their own, so one
 * principal's many contexts never evict another's.
 *
 * @example
 * ```ts
 * const store = localStore({ ...DEFAULT_LIMITS, maxProjects: 64 });
 * ```
 */
export function localStore(limits: Partial<LedgerLimits>): ProxyStore {
  const stores = new Map<string, SessionStore>();
  const of = (sessionId: string | undefined): SessionStore => {
    const part = principalPart(sessionId);
    let store = stores.get(part);
    if (store === undefined) {
      store = createSessionStore(limits);
      stores.set(part, store);
    }
    return store;
  };
  return withReceipts(
    {
      reserve: async (projectRoot, sessionId) => of(sessionId).reserve(projectRoot, sessionId),
      record: async (emission, sessionId) => of(sessionId).record(emission, sessionId),
      prune: async (request) => of(request.sessionId).prune(request),
      project: async (projectRoot, sessionId) => of(sessionId).project(projectRoot, sessionId),
    },
    async () => {},
  );
}

/**
 * One line per change of the Redis connection's state, not per reconnect
 * attempt: "lost" once, "back" once.
 */
function connectionLines(log: (line: string) => void): {
  lost: (e: Error) => void;
  back: () => void;
} {
  let up = true;
  return {
    lost(error) {
      if (!up) return;
      up = false;
      log(`redis: ${error.message}; calls pass through untracked until it is back`);
    },
    back() {
      if (up) return;
      up = true;
      log('redis: connected again; calls are tracked again');
    },
  };
}

/**
 * The shared store over Redis at `url` (`createSharedSessionStore` with
 * `span-ledger/redis`): a single server, or a Redis Cluster (detected with
 * `INFO cluster`, then reached with node-redis's cluster client; every
 * operation touches one key). Rejects with one line when the server cannot
 * be reached or used at start-up (a cluster not in `cluster_state:ok`, a
 * read-only replica, a server without scripting): the start-up probe writes
 * one key the way every call will. Once running, a Redis outage degrades
 * every call to "nothing recorded, nothing withheld" instead of failing it,
 * with one line when the connection goes and one when it is back.
 *
 * @example
 * ```ts
 * const store = await redisStore('redis://127.0.0.1:6379', DEFAULT_LIMITS, log);
 * ```
 */
export async function redisStore(
  url: string,
  limits: Partial<LedgerLimits>,
  log: (line: string) => void,
): Promise<ProxyStore> {
  // `redis` is an optional peer: only --redis needs it, so it is loaded here and said when missing.
  const { createClient, createCluster } = await import('redis').catch(() => {
    throw new Error(
      '--redis needs the redis package beside span-ledger-proxy: npm install redis (with -g for a global install)',
    );
  });
  const lines = connectionLines(log);
  const single = await connectRedis(createClient, url, { onError: lines.lost });
  single.on('ready', lines.back);
  let client: RedisClientLike = single;
  let close = async () => {
    await single.close().catch(() => {});
  };
  try {
    const info = String(await single.sendCommand(['INFO', 'cluster']));
    if (/^cluster_enabled:1\b/m.test(info)) {
      const state = String(await single.sendCommand(['CLUSTER', 'INFO']));
      await close();
      if (!/^cluster_state:ok\b/m.test(state))
        throw new Error('the cluster is not in cluster_state:ok');
      const cluster = createCluster({
        rootNodes: [{ url }],
        defaults: { disableOfflineQueue: true, socket: { connectTimeout: 2000 } },
      });
      cluster.on('error', lines.lost);
      cluster.on('node-error', lines.lost);
      cluster.on('node-ready', lines.back);
      close = async () => {
        await cluster.close().catch(() => {});
      };
      await cluster.connect();
      client = cluster;
    }
    const backend = redisBackend(client, { prefix: PREFIX });
    const probe = `probe:${randomUUID()}`;
    if ((await backend.compareAndSet(probe, null, '1', 1000)) !== true) {
      throw new Error('a compare-and-set did not apply');
    }
    return sharedStore(backend, limits, close);
  } catch (error) {
    await close();
    const why = errorMessage(error);
    throw new Error(`cannot use the Redis of --redis: ${why}`.replace(/\s+/g, ' '));
  }
}

/** Before every key of the proxy's store, apart from other programs' keys. */
const PREFIX = 'span-ledger-proxy:';

/**
 * The shared store over any backend (`createSharedSessionStore`): Redis in
 * {@link redisStore}, the in-memory backend or a faulty one in tests.
 *
 * @example
 * ```ts
 * const store = sharedStore(createMemoryBackend(), DEFAULT_LIMITS);
 * ```
 */
export function sharedStore(
  backend: SharedStoreBackend,
  limits: Partial<LedgerLimits>,
  close: () => Promise<void> = async () => {},
): ProxyStore {
  return withReceipts(createSharedSessionStore(backend, { limits }), close);
}
