#!/usr/bin/env node
/**
 * An MCP server in front of the published filesystem server
 * (`@modelcontextprotocol/server-filesystem`): it offers the upstream's
 * `read_text_file` (with `head`/`tail`) and `read_multiple_files`, and
 * answers them through span-ledger, so lines this conversation was already
 * sent come back as a pointer to the response that carried them.
 *
 *   node examples/read-proxy/server.mjs <root>     stdio; <root> is the upstream's allowed directory
 *
 * Environment: `SPAN_LEDGER_DEDUP=0` turns dedup off. One ledger per
 * connection (`createSessionStore(READ_TOOL_LIMITS)`); a conversation id in
 * a request's `_meta` gives that conversation a bucket of its own. Stdout
 * carries protocol only: logs go to stderr.
 */
import { resolve } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  contextIdFromMeta,
  createSessionStore,
  dedupEnabledFromEnv,
  READ_TOOL_LIMITS,
} from 'span-ledger';
import { z } from 'zod';
import { createReadHandlers } from './reads.mjs';
import { connectUpstream } from './upstream.mjs';

const log = (line) => process.stderr.write(`[read-proxy] ${line}\n`);

const rootArg = process.argv[2];
if (rootArg === undefined) {
  log('usage: server.mjs <root>');
  process.exit(2);
}
const root = resolve(rootArg);
const upstream = await connectUpstream(root, log);
const handlers = createReadHandlers({ upstream, root, enabled: dedupEnabledFromEnv(), log });
const store = createSessionStore(READ_TOOL_LIMITS);

const REFRESH = z
  .unknown()
  .optional()
  .describe(
    'true, or the numbers of earlier responses (e.g. [3]) that are no longer in your context: ' +
      'their lines come back in full.',
  );
// Loose on purpose: unknown keys reach the handler, which never forwards them upstream
// (it builds the upstream's arguments itself), so a client's `_spanLedgerView` goes nowhere.
const READ_TEXT = z.looseObject({
  path: z.string(),
  head: z.number().optional().describe('If provided, returns only the first N lines of the file'),
  tail: z.number().optional().describe('If provided, returns only the last N lines of the file'),
  refresh: REFRESH,
});
const READ_MANY = z.looseObject({
  paths: z.array(z.string()).min(1).describe('Array of file paths to read'),
  refresh: REFRESH,
});

const server = new McpServer(
  { name: 'span-ledger-read-proxy', version: '0.1.0' },
  {
    instructions:
      'Lines this conversation was already sent come back as a pointer naming the response ' +
      '(Response #N) that carried them, and that copy is exact: the file is unchanged since. ' +
      'If that response is no longer in your context, call the tool again with refresh: [N].',
  },
);

const context = (extra) => ({
  sessionId: contextIdFromMeta(extra?._meta) ?? undefined,
  signal: extra?.signal,
});

server.registerTool(
  'read_text_file',
  {
    description:
      'Read a text file (the whole file, or its first `head` / last `tail` lines). Lines sent ' +
      'earlier in this conversation come back as a pointer to that response.',
    inputSchema: READ_TEXT,
  },
  (args, extra) => handlers.readTextFile(args, store, context(extra)),
);
server.registerTool(
  'read_multiple_files',
  {
    description:
      'Read several text files at once. A file that cannot be read gets its own error line; lines ' +
      'sent earlier in this conversation come back as a pointer to that response.',
    inputSchema: READ_MANY,
  },
  (args, extra) => handlers.readMultipleFiles(args, store, context(extra)),
);

const stop = async () => {
  await server.close().catch(() => {});
  await upstream.close().catch(() => {});
  process.exit(0);
};
process.stdin.on('end', stop);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
await server.connect(new StdioServerTransport());
log(`proxying ${root} (dedup ${dedupEnabledFromEnv() ? 'on' : 'off'})`);
