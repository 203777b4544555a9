/**
 * The upstream: the published filesystem MCP server
 * (`@modelcontextprotocol/server-filesystem`), started as a subprocess over
 * stdio with one allowed root directory and driven with the SDK client.
 *
 * This module only moves calls and answers. It builds every upstream argument
 * itself from the fields it knows (`path`, `head`, `tail`, `paths`), so
 * nothing else a client sent — a `_spanLedgerView` least of all — ever
 * reaches the upstream server.
 */
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const require = createRequire(import.meta.url);

/** The upstream server's entry point, resolved from the installed package. */
export function upstreamEntry() {
  const manifest = require('@modelcontextprotocol/server-filesystem/package.json');
  const bin =
    typeof manifest.bin === 'string' ? manifest.bin : manifest.bin['mcp-server-filesystem'];
  return require.resolve(`@modelcontextprotocol/server-filesystem/${bin}`);
}

/**
 * Starts the upstream server on `root` and connects a client to it.
 * `log` gets the upstream's stderr lines (it writes its banner there).
 */
export async function connectUpstream(root, log = () => {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [upstreamEntry(), root],
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk) => {
    for (const line of String(chunk).split('\n')) if (line.trim() !== '') log(`upstream: ${line}`);
  });
  // No `roots` capability: the upstream keeps the directory it was started with.
  const client = new Client({ name: 'span-ledger-read-proxy', version: '0.1.0' });
  await client.connect(transport);
  return {
    /** `read_text_file` on the upstream: the whole file, or its result when that is an error. */
    async readWhole(path) {
      const result = await client.callTool({ name: 'read_text_file', arguments: { path } });
      return textOf(result);
    },
    /** `read_text_file` with the client's own `head`/`tail`, forwarded as they came. */
    async readRaw(args) {
      return client.callTool({ name: 'read_text_file', arguments: args });
    },
    /**
     * One path through `read_multiple_files`, so a per-file error comes back
     * exactly as the upstream writes it: `{ content }` or `{ error }` (the
     * upstream's `<path>: Error - <message>` text).
     */
    async readOneOfMany(path) {
      const result = await client.callTool({
        name: 'read_multiple_files',
        arguments: { paths: [path] },
      });
      const text = firstText(result);
      if (result.isError === true || text === null) return { error: text ?? 'read failed', result };
      const head = `${path}:\n`;
      if (text.startsWith(head) && text.endsWith('\n')) {
        return { content: text.slice(head.length, -1) };
      }
      return { error: text };
    },
    close: () => client.close(),
  };
}

function firstText(result) {
  const first = Array.isArray(result?.content) ? result.content[0] : undefined;
  return first?.type === 'text' && typeof first.text === 'string' ? first.text : null;
}

/** `{ content }` from a successful text result, else `{ result }` to pass through unchanged. */
function textOf(result) {
  const text = firstText(result);
  if (result?.isError === true || text === null) return { result };
  return { content: text };
}
