/**
 * The MCP face of the example: the `explore` tool's schema and description,
 * and one `McpServer` per session that routes calls to the shared handler.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CONTEXT_INPUT_SCHEMA, REFRESH_INPUT_SCHEMA } from 'span-ledger';
import { httpCallOf } from 'span-ledger-proxy/http';
import { z } from 'zod';
import { MAX_QUERY_CHARS } from './config.mjs';

/**
 * Strict about what it keeps: arguments the tool does not define are dropped
 * here, before the handler, so nothing else a client sends (an extra argument
 * nested ten thousand arrays deep, a forged `_spanLedgerView`) is ever cloned
 * into a worker. The handler does not rely on it and picks its fields itself.
 *
 * `refresh` and `context` are listed with span-ledger's schemas but parsed as
 * anything: junk there reads as absent in the handler (`readRefresh`,
 * `readContextToken`) instead of failing the call, because the worst a client
 * can do with them is make the server re-send.
 */
export const EXPLORE_INPUT = z.object({
  query: z
    .string()
    .max(MAX_QUERY_CHARS, `query is longer than ${MAX_QUERY_CHARS} characters: name a few symbols`)
    .describe('What to look for: symbol names or words from them'),
  refresh: z
    .unknown()
    .optional()
    .meta({ ...REFRESH_INPUT_SCHEMA }),
  context: z
    .unknown()
    .optional()
    .meta({ ...CONTEXT_INPUT_SCHEMA }),
});

/** What the server tells the agent once, at `initialize`: how to read a pointer, and what to echo. */
export const INSTRUCTIONS =
  'Explore responses are numbered, and a quoted pointer in place of source means those lines were ' +
  'sent in the earlier response it names and are unchanged since. If that response is no longer ' +
  'in your context, call explore again with refresh: [its number] (true for all) and the source ' +
  'comes back in full. Pass the context token a response gives you back as "context" on your ' +
  'later calls, and leave it out if no response in your own context gave you one.';

/**
 * A new `McpServer` for one session, answering `explore` with `handler`.
 * Over HTTP, each call also carries what the front knows of it (`httpCallOf`):
 * its principal, its lane, a hang-up or cancellation, its delivery.
 */
export function createExploreServer({ handler, session }) {
  const server = new McpServer(
    { name: 'span-ledger-explore', version: '0.1.0' },
    { instructions: INSTRUCTIONS },
  );
  server.registerTool(
    'explore',
    {
      description:
        'Find the definitions matching a query and show their source. Source already sent in ' +
        'this conversation comes back as a pointer to that earlier copy, not again.',
      inputSchema: EXPLORE_INPUT,
    },
    (args, extra) =>
      handler.execute(args, session, {
        signal: extra.signal,
        meta: extra._meta,
        call: httpCallOf(extra),
      }),
  );
  return server;
}
