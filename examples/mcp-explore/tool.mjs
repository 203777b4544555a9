/**
 * The MCP face of the example: the `explore` tool's schema and description,
 * and one `McpServer` per session that routes calls to the shared handler.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MAX_QUERY_CHARS } from './config.mjs';

/**
 * Strict about what it keeps: arguments the tool does not define are dropped
 * here, before the handler, so nothing else a client sends (an extra argument
 * nested ten thousand arrays deep, a forged `_spanLedgerView`) is ever cloned
 * into a worker. The handler does not rely on it and picks its fields itself.
 */
export const EXPLORE_INPUT = z.object({
  query: z
    .string()
    .max(MAX_QUERY_CHARS, `query is longer than ${MAX_QUERY_CHARS} characters: name a few symbols`)
    .describe('What to look for: symbol names or words from them'),
});

/**
 * A new `McpServer` for one session, answering `explore` with `handler`.
 * `signalFor(extra)` gives the abort signal of a call (default: the SDK's).
 */
export function createExploreServer({ handler, session, signalFor = (extra) => extra.signal }) {
  const server = new McpServer({ name: 'span-ledger-explore', version: '0.1.0' });
  server.registerTool(
    'explore',
    {
      description:
        'Find the definitions matching a query and show their source. Source already sent in ' +
        'this conversation comes back as a pointer to that earlier copy, not again.',
      inputSchema: EXPLORE_INPUT,
    },
    (args, extra) => handler.execute(args, session, { signal: signalFor(extra) }),
  );
  return server;
}
