/**
 * The example as a daemon: Streamable HTTP through span-ledger-proxy's HTTP
 * front, which keeps the transport's rules (Origin, Host, bearer tokens),
 * bounds every client (sessions, calls in flight, slow connections) and tells
 * each call whether its answer went out.
 *
 * Stateful (the default): one MCP session per `mcp-session-id`, each with its
 * own ledger, all sharing one handler and one worker pool. With a shared
 * store (`--redis`): stateless, one server per request, and every
 * conversation's ledger in the store, so several processes serve one
 * conversation.
 */
import { serveMcpHttp } from 'span-ledger-proxy/http';
import { createSession } from './handler.mjs';
import { createExploreServer } from './tool.mjs';

/**
 * Serves on `host:port` (127.0.0.1 unless asked). `config` is `readConfig()`'s,
 * `handler` and `pool` are shared by every session; `shared` (a
 * `createSharedSessionStore`) makes it stateless; `tokens` (`readTokenFile`)
 * requires a bearer token; `relay` carries cancellations between processes.
 * Resolves with the running front; rejects with a `FrontStartError`.
 */
export function serveHttp({ port, host, config, handler, pool, log, shared, tokens, relay }) {
  return serveMcpHttp({
    port,
    host,
    stateful: shared === undefined,
    tokens,
    relay,
    limits: {
      maxBodyBytes: config.maxBodyBytes,
      maxSessions: config.maxSessions,
      idleMs: config.idleMs,
      unusedIdleMs: Math.min(config.idleMs, config.unusedIdleMs),
      maxCallsPerContext: config.maxCallsPerContext,
    },
    // One server per session (stateful: each with its own ledger) or per request (stateless).
    createServer: () =>
      createExploreServer({
        handler,
        session: shared === undefined ? createSession() : { spans: shared, shared: true },
      }),
    // Counters only: /healthz renders nothing. With --expose-gc the heap is the live heap (a leak check).
    health: () => {
      globalThis.gc?.();
      return { ...pool.stats(), heapUsed: process.memoryUsage().heapUsed };
    },
    log,
  });
}
