/**
 * The example as a daemon: Streamable HTTP on 127.0.0.1, one MCP session per
 * `mcp-session-id`, each with its own ledger, all sharing one handler and one
 * worker pool.
 *
 * What a long-running process needs that stdio does not: bodies read up to a
 * limit, a bound on open sessions, idle sessions closed (ledger and all), a
 * call whose client hung up treated as cancelled, and `/healthz` that proves
 * the pool still answers.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { withSessionView } from 'span-ledger/wire';
import { createSession } from './handler.mjs';
import { createExploreServer } from './tool.mjs';

/** Reads a body of at most `maxBytes`; past that, the rest is discarded unread. */
function readBody(req, maxBytes) {
  return new Promise((resolveBody, reject) => {
    if (Number(req.headers['content-length']) > maxBytes) {
      req.resume();
      return resolveBody({ tooLarge: true });
    }
    const chunks = [];
    let received = 0;
    req.on('data', (chunk) => {
      received += chunk.length;
      if (received <= maxBytes) chunks.push(chunk);
    });
    req.on('end', () =>
      resolveBody(
        received > maxBytes
          ? { tooLarge: true }
          : { tooLarge: false, text: Buffer.concat(chunks).toString('utf8') },
      ),
    );
    req.on('error', reject);
  });
}

function reply(res, status, message) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** The JSON-RPC request ids of a parsed body (one message or a batch). */
function requestIds(body) {
  const messages = Array.isArray(body) ? body : [body];
  return messages
    .filter((m) => m !== null && typeof m === 'object' && 'method' in m && 'id' in m)
    .map((m) => m.id);
}

/** Any query will do: a rendered answer proves a worker took the call and came back. */
const HEALTH_QUERY = 'healthz';

/** An abort signal that fires when the client hangs up before `res` was sent whole. */
function hangUp(res) {
  const exchange = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) exchange.abort();
  });
  return exchange.signal;
}

/**
 * Stateful sessions: one transport, `McpServer` and ledger per
 * `mcp-session-id`, in this process. Bounded in number, closed when idle.
 */
function statefulSessions({ config, handler, log }) {
  /** MCP session id → { server, transport, lastSeen, inflight }. Dropped, ledger and all, on close. */
  const sessions = new Map();

  const open = () => {
    const session = createSession();
    /** JSON-RPC id → the abort signal of the HTTP exchange that carries it. */
    const inflight = new Map();
    const entry = { server: undefined, transport: undefined, lastSeen: Date.now(), inflight };
    // A call is cancelled when the SDK says so (notifications/cancelled) or
    // when the client hung up before its answer went out (a reset socket).
    const signalFor = (extra) => {
      const hungUp = inflight.get(extra.requestId);
      return hungUp === undefined ? extra.signal : AbortSignal.any([extra.signal, hungUp]);
    };
    entry.server = createExploreServer({ handler, session, signalFor });
    entry.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        sessions.set(sid, entry);
        log(`session opened (${sessions.size} open)`);
      },
    });
    entry.transport.onclose = () => {
      // The session's ledger goes with it: nothing of a conversation outlives it.
      const sid = entry.transport.sessionId;
      if (sid !== undefined && sessions.delete(sid)) log(`session closed (${sessions.size} open)`);
    };
    return entry;
  };

  // Idle sessions (a client that vanished without DELETE) are closed, which frees their ledger.
  const sweep = setInterval(
    () => {
      const now = Date.now();
      let expired = 0;
      for (const entry of sessions.values()) {
        if (entry.inflight.size > 0 || now - entry.lastSeen < config.idleMs) continue;
        expired++;
        entry.server.close().catch(() => {});
      }
      if (expired > 0) log(`expired ${expired} idle session(s) (${sessions.size} open)`);
    },
    Math.min(60_000, Math.max(50, Math.floor(config.idleMs / 4))),
  );
  sweep.unref();

  return {
    size: () => sessions.size,
    async handle(req, res, body) {
      const id = req.headers['mcp-session-id'];
      let entry = typeof id === 'string' ? sessions.get(id) : undefined;
      if (entry === undefined) {
        if (id !== undefined) return reply(res, 404, 'Unknown session');
        if (!isInitializeRequest(body)) return reply(res, 400, 'No session: initialize first');
        if (sessions.size >= config.maxSessions) {
          return reply(res, 503, `Too many open sessions (${config.maxSessions}): try again later`);
        }
        entry = open();
        await entry.server.connect(entry.transport);
      }
      entry.lastSeen = Date.now();
      const ids = requestIds(body);
      if (ids.length > 0) {
        const signal = hangUp(res);
        for (const rid of ids) entry.inflight.set(rid, signal);
        res.once('close', () => {
          for (const rid of ids) entry.inflight.delete(rid);
          entry.lastSeen = Date.now();
        });
      }
      await entry.transport.handleRequest(req, res, body);
    },
    async close() {
      clearInterval(sweep);
      for (const { server } of sessions.values()) await server.close().catch(() => {});
    },
  };
}

/**
 * Stateless: no MCP session lives in this process, so any process sharing
 * the store answers any request (no sticky sessions behind a load balancer).
 * Each POST gets a fresh transport and `McpServer`; the conversation is the
 * `_meta` conversation id or the context token, and its ledger is in `shared`.
 */
function statelessSessions({ handler, shared }) {
  const session = { spans: shared };
  return {
    size: () => 0,
    async handle(req, res, body) {
      if (req.method !== 'POST')
        return reply(res, 405, 'Method not allowed: this server is stateless');
      const server = createExploreServer({ handler, session });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      // The server lives as long as this exchange. Closing it aborts the
      // signal of a call still in flight, so a client that hung up before its
      // answer went out gets nothing recorded.
      res.once('close', () => server.close().catch(() => {}));
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    },
    async close() {},
  };
}

/**
 * Serves on 127.0.0.1:`port` until SIGTERM/SIGINT. `config` is `readConfig()`'s,
 * `handler` and `pool` are shared by every session. With `shared` (a
 * `createSharedSessionStore`), the transport runs stateless and every
 * conversation's ledger lives in that store.
 */
export function serveHttp({ port, config, handler, pool, log, shared, onStop }) {
  const sessions =
    shared === undefined
      ? statefulSessions({ config, handler, log })
      : statelessSessions({ handler, shared });

  const health = async (res) => {
    const started = Date.now();
    let ok = false;
    try {
      const result = await pool.run(withSessionView({ query: HEALTH_QUERY }, null));
      ok = typeof result?.content?.[0]?.text === 'string';
    } catch {
      ok = false;
    }
    // With --expose-gc the figure is the live heap, which is what a leak check wants.
    globalThis.gc?.();
    res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ok,
        ms: Date.now() - started,
        sessions: sessions.size(),
        ...pool.stats(),
        heapUsed: process.memoryUsage().heapUsed,
      }),
    );
  };

  const http = createServer(async (req, res) => {
    try {
      // A daemon on loopback still answers browsers: refuse other Host names (DNS rebinding).
      const host = (req.headers.host ?? '').replace(/:\d+$/, '');
      if (host !== '127.0.0.1' && host !== 'localhost') return reply(res, 403, 'Forbidden host');
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      if (path === '/healthz') return await health(res);
      if (path !== '/mcp') return reply(res, 404, 'Not found: the endpoint is /mcp');

      let body;
      if (req.method === 'POST') {
        const read = await readBody(req, config.maxBodyBytes);
        if (read.tooLarge) {
          return reply(res, 413, `Request body larger than ${config.maxBodyBytes} bytes`);
        }
        try {
          body = JSON.parse(read.text);
        } catch {
          return reply(res, 400, 'Parse error');
        }
      }
      await sessions.handle(req, res, body);
    } catch (error) {
      log(`http: ${error instanceof Error ? error.message : error}`);
      if (!res.headersSent) reply(res, 500, 'Internal error');
    }
  });

  const stop = async () => {
    await sessions.close();
    http.close();
    await pool.close();
    await onStop?.();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  http.listen(port, '127.0.0.1', () => {
    const { port: bound } = http.address();
    const mode = shared === undefined ? 'sessions in this process' : 'stateless, shared store';
    log(
      `serving ${config.root} (dedup ${config.enabled ? 'on' : 'off'}, ${config.workers} workers, ${mode})`,
    );
    log(`listening on http://127.0.0.1:${bound}/mcp`);
  });
}
