#!/usr/bin/env node
/**
 * An MCP server with one tool, `explore`, over a small project, built on
 * span-ledger: a second call does not re-send the source an earlier call of
 * the same conversation already delivered, it points at it.
 *
 *   node examples/mcp-explore/server.mjs               stdio: one client, the host's child process
 *   node examples/mcp-explore/server.mjs --http 3333   daemon on 127.0.0.1 (port 0: any free port)
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
import { createPool } from './pool.mjs';
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

const at = process.argv.indexOf('--http');
const port = at < 0 ? undefined : Number(process.argv[at + 1] ?? 0);
if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
  fail('usage: server.mjs [--http <port>]');
}

const pool = createPool({
  size: config.workers,
  workerUrl: config.workerUrl,
  workerData: {
    root: config.root,
    enabled: config.enabled,
    budget: config.budget,
    maxResponseChars: config.maxResponseChars,
  },
  timeoutMs: config.callTimeoutMs,
  maxQueue: config.maxQueue,
  log,
});
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
  serveHttp({ port, config, handler, pool, log });
}
