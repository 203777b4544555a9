#!/usr/bin/env node
/**
 * An MCP server with one tool, `explore`, over a small project, built on
 * span-ledger: a second call does not re-send the source an earlier call of
 * the same conversation already delivered, it points at it.
 *
 *   node examples/mcp-explore/server.mjs               stdio: one client, the host's child process
 *   node examples/mcp-explore/server.mjs --http 3333   daemon on 127.0.0.1 (port 0: any free port)
 *   … --http 3333 --redis redis://127.0.0.1:6379       stateless daemon: ledgers in Redis, so
 *                                                      several processes serve one conversation
 *   … --http 3333 --token-file FILE                    every request needs a bearer token of FILE
 *   … --http 3333 --host 0.0.0.0                       another address than loopback (warned about)
 *
 * Settings come from the environment (see config.mjs and the README). Both
 * modes share one handler and one worker pool across all sessions; each
 * session (an MCP session id over HTTP, the connection over stdio) owns its
 * ledger. Stdout carries protocol only: everything else goes to stderr.
 * Anything that stops it from starting is one line on stderr and exit 2.
 */
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { FrontStartError, readTokenFile, tokenFileWarning } from 'span-ledger-proxy/http';
import { ConfigError, readConfig } from './config.mjs';
import { createExploreHandler, createSession } from './handler.mjs';
import { serveHttp } from './http.mjs';
import { poolFromConfig } from './pool.mjs';
import { createExploreServer } from './tool.mjs';

const log = (line) => process.stderr.write(`[mcp-explore] ${line}\n`);

function fail(line) {
  log(line);
  process.exit(2);
}

/** Runs `step`; a failure it can explain (a setting, the start-up) is one line and exit 2. */
async function orFail(step) {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof FrontStartError) fail(error.message);
    throw error;
  }
}

const USAGE =
  'usage: server.mjs [--http <port> [--redis <url>] [--token-file <file>] [--host <address>]]';
let flags;
try {
  ({ values: flags } = parseArgs({
    options: {
      http: { type: 'string' },
      redis: { type: 'string' },
      'token-file': { type: 'string' },
      host: { type: 'string' },
    },
    strict: true,
  }));
} catch {
  fail(USAGE);
}
const port = flags.http === undefined ? undefined : Number(flags.http || 0);
if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) fail(USAGE);
const httpOnly = [flags.redis, flags['token-file'], flags.host].some((f) => f !== undefined);
if (port === undefined && httpOnly) fail(USAGE);
if (flags.redis === '') fail(USAGE);

const config = await orFail(() => readConfig());
const tokenFile = flags['token-file'] ?? config.tokenFile;
const tokens =
  port === undefined || tokenFile === undefined
    ? null
    : await orFail(() => readTokenFile(tokenFile));
if (tokens !== null) {
  const warning = tokenFileWarning(tokenFile);
  if (warning !== null) log(warning);
}

/**
 * The shared store on Redis (`redis` and `span-ledger/redis` are loaded only
 * in this mode), and the relay that carries a cancellation to the process
 * running the call. A Redis that cannot be reached fails here, in one line,
 * not at the first call. Every conversation's ledger expires after the idle
 * timeout, like a session.
 */
async function connectShared(url) {
  const { createClient } = await import('redis');
  const { connectRedis, redisBackend } = await import('span-ledger/redis');
  const { createSharedSessionStore } = await import('span-ledger/shared');
  const { redisCancelRelay } = await import('span-ledger-proxy/http');
  const client = await connectRedis(createClient, url, {
    onError: (error) => log(`redis: ${error.message}`),
  }).catch((error) => fail(error.message));
  const store = createSharedSessionStore(redisBackend(client, { prefix: 'mcp-explore:' }), {
    ttlMs: config.idleMs,
    timeoutMs: config.storeTimeoutMs,
  });
  const relay = await redisCancelRelay(client, 'mcp-explore:cancelled');
  return { client, store, relay };
}

const redis = flags.redis === undefined ? undefined : await connectShared(flags.redis);

const pool = poolFromConfig(config, log);
const handler = createExploreHandler({ pool, log, root: config.root });

/** `step()`, given at most a second: a stop never waits on a Redis that went away. */
const briefly = (step) =>
  Promise.race([
    Promise.resolve()
      .then(step)
      .catch(() => {}),
    new Promise((done) => setTimeout(done, 1000).unref()),
  ]);

/** Stops everything this process started, quietly, and exits 0. */
let stopping;
function stopWith(close) {
  stopping ??= (async () => {
    await briefly(close);
    await briefly(() => pool.close());
    await briefly(() => redis?.client.quit());
    process.exit(0);
  })();
  return stopping;
}

/**
 * Under `npm run`, the daemon ends when npm does: npm passes a signal to the
 * shell it started, which does not pass it on, and a killed npm would leave
 * the server running on its port. A reparented process has lost its launcher.
 */
function endWithNpm(stop) {
  if (process.env.npm_lifecycle_event === undefined) return;
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop();
  }, 500).unref();
}

if (port === undefined) {
  const server = createExploreServer({ handler, session: createSession() });
  const stop = () => stopWith(() => server.close());
  process.stdin.on('end', stop);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  endWithNpm(stop);
  await server.connect(new StdioServerTransport());
  log(`serving ${config.root} on stdio (dedup ${config.enabled ? 'on' : 'off'})`);
} else {
  const front = await orFail(() =>
    serveHttp({
      port,
      host: flags.host,
      config,
      handler,
      pool,
      log,
      shared: redis?.store,
      tokens,
      relay: redis?.relay,
    }),
  );
  const stop = () => stopWith(() => front.close());
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  endWithNpm(stop);
  const mode = redis === undefined ? 'sessions in this process' : 'stateless, shared store';
  const auth = tokens === null ? '' : ', bearer tokens required';
  log(
    `serving ${config.root} (dedup ${config.enabled ? 'on' : 'off'}, ${config.workers} workers, ${mode}${auth})`,
  );
  if (front.warning !== null) log(front.warning);
  log(`listening on ${front.url}`);
}
