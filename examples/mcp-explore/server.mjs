#!/usr/bin/env node
/**
 * An MCP server with one tool, `explore`, over a small project, built on
 * span-ledger: a second call does not re-send the source an earlier call of
 * the same conversation already delivered, it points at it.
 *
 *   node examples/mcp-explore/server.mjs               stdio: one client, the host's child process
 *   node examples/mcp-explore/server.mjs --http 3333   daemon on 127.0.0.1 (port 0: any free port)
 *
 * Environment: `EXPLORE_ROOT` (the project, default the bundled fixture),
 * `SPAN_LEDGER_DEDUP=0` (dedup off), `EXPLORE_MAX_CHARS` (source chars per
 * call, default 3000), `EXPLORE_WORKERS` (rendering workers, default 2).
 *
 * Both modes share one handler and one worker pool across all sessions; each
 * session (an MCP session id over HTTP, the connection over stdio) owns its
 * ledger. Stdout carries protocol only: everything else goes to stderr.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { dedupEnabledFromEnv } from 'span-ledger';
import { z } from 'zod';
import { createExploreHandler, createSession } from './handler.mjs';
import { createPool } from './pool.mjs';

const log = (line) => process.stderr.write(`[mcp-explore] ${line}\n`);

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(process.env.EXPLORE_ROOT ?? resolve(here, '../../fixtures/sample'));
const enabled = dedupEnabledFromEnv();
const maxChars = Number(process.env.EXPLORE_MAX_CHARS ?? 3000);
const workers = Math.max(1, Number(process.env.EXPLORE_WORKERS ?? 2) || 1);

const pool = createPool(workers, { root, enabled, budget: { maxChars, maxFiles: 4 } });
const handler = createExploreHandler({ pool, log });

// Loose on purpose: a strict schema would strip `_spanLedgerView` before the
// handler ran, and the example would then only look safe. The handler is the
// defence (withSessionView replaces whatever the client sent), and it is
// tested with the key really delivered.
const INPUT = z.looseObject({
  query: z.string().describe('What to look for: symbol names or words from them'),
});

/** One client session: its own McpServer and ledger, sharing the handler and the pool. */
function openSession() {
  const session = createSession();
  const server = new McpServer({ name: 'span-ledger-explore', version: '0.1.0' });
  server.registerTool(
    'explore',
    {
      description:
        'Find the definitions matching a query and show their source. Source already sent in ' +
        'this conversation comes back as a pointer to that earlier copy, not again.',
      inputSchema: INPUT,
    },
    (args) => handler.execute(args, session),
  );
  return { session, server, transport: undefined };
}

async function serveStdio() {
  const { server } = openSession();
  const stop = async () => {
    await server.close().catch(() => {});
    await pool.close();
    process.exit(0);
  };
  process.stdin.on('end', stop);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  await server.connect(new StdioServerTransport());
  log(`serving ${root} on stdio (dedup ${enabled ? 'on' : 'off'})`);
}

function readBody(req) {
  return new Promise((resolveBody, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolveBody(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function reply(res, status, message) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function serveHttp(port) {
  /** MCP session id → { session, server, transport }. Dropped (ledger and all) when the session closes. */
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    try {
      // A daemon on loopback still answers browsers: refuse other Host names (DNS rebinding).
      const host = (req.headers.host ?? '').replace(/:\d+$/, '');
      if (host !== '127.0.0.1' && host !== 'localhost') return reply(res, 403, 'Forbidden host');
      if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') {
        return reply(res, 404, 'Not found: the endpoint is /mcp');
      }
      let body;
      if (req.method === 'POST') {
        try {
          body = JSON.parse(await readBody(req));
        } catch {
          return reply(res, 400, 'Parse error');
        }
      }
      const id = req.headers['mcp-session-id'];
      let entry = typeof id === 'string' ? sessions.get(id) : undefined;
      if (entry === undefined) {
        if (id !== undefined) return reply(res, 404, 'Unknown session');
        if (!isInitializeRequest(body)) return reply(res, 400, 'No session: initialize first');
        const opened = openSession();
        opened.transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => {
            sessions.set(sid, opened);
            log(`session opened (${sessions.size} open)`);
          },
        });
        opened.transport.onclose = () => {
          // The session's ledger goes with it: nothing of a conversation outlives it.
          const sid = opened.transport.sessionId;
          if (sid !== undefined && sessions.delete(sid))
            log(`session closed (${sessions.size} open)`);
        };
        await opened.server.connect(opened.transport);
        entry = opened;
      }
      await entry.transport.handleRequest(req, res, body);
    } catch (error) {
      log(`http: ${error instanceof Error ? error.message : error}`);
      if (!res.headersSent) reply(res, 500, 'Internal error');
    }
  });
  const stop = async () => {
    for (const { server } of sessions.values()) await server.close().catch(() => {});
    http.close();
    await pool.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  http.listen(port, '127.0.0.1', () => {
    const { port: bound } = http.address();
    log(`serving ${root} (dedup ${enabled ? 'on' : 'off'}, ${workers} workers)`);
    log(`listening on http://127.0.0.1:${bound}/mcp`);
  });
}

const at = process.argv.indexOf('--http');
if (at < 0) {
  await serveStdio();
} else {
  const port = Number(process.argv[at + 1] ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    log('usage: server.mjs [--http <port>]');
    process.exit(2);
  }
  await serveHttp(port);
}
