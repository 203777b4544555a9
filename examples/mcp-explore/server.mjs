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
 *
 * Settings come from the environment (see config.mjs and the README). Both
 * modes share one handler and one worker pool across all sessions; each
 * session (an MCP session id over HTTP, the connection over stdio) owns its
 * ledger. Stdout carries protocol only: everything else goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
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

let config;
try {
  config = readConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}

const USAGE = 'usage: server.mjs [--http <port> [--redis <url>]]';
const flag = (name) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : (process.argv[at + 1] ?? '');
};
const port = flag('--http') === undefined ? undefined : Number(flag('--http') || 0);
const redisUrl = flag('--redis');
if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) fail(USAGE);
if (redisUrl !== undefined && (port === undefined || redisUrl === '')) fail(USAGE);

/**
 * The shared store on Redis (`redis` and `span-ledger/redis` are loaded only
 * in this mode). A Redis that cannot be reached fails here, in one line, not
 * at the first call. Every conversation's ledger expires after the idle
 * timeout, like a session.
 */
async function connectShared(url) {
  const { createClient } = await import('redis');
  const { connectRedis, redisBackend } = await import('span-ledger/redis');
  const { createSharedSessionStore } = await import('span-ledger/shared');
  const client = await connectRedis(createClient, url, {
    onError: (error) => log(`redis: ${error.message}`),
  }).catch((error) => fail(error.message));
  const store = createSharedSessionStore(redisBackend(client, { prefix: 'mcp-explore:' }), {
    ttlMs: config.idleMs,
    timeoutMs: config.storeTimeoutMs,
  });
  return { client, store };
}

const redis = redisUrl === undefined ? undefined : await connectShared(redisUrl);

const pool = poolFromConfig(config, log);
const handler = createExploreHandler({ pool, log });

if (port === undefined) {
  const server = createExploreServer({ handler, session: createSession() });
  const stop = async () => {
    await server.close().catch(() => {});
    await pool.close();
    process.exit(0);
  };
  process.stdin.on('end', stop);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  await server.connect(new StdioServerTransport());
  log(`serving ${config.root} on stdio (dedup ${config.enabled ? 'on' : 'off'})`);
} else {
  const shared = redis?.store;
  serveHttp({ port, config, handler, pool, log, shared, onStop: () => redis?.client.quit() });
}
