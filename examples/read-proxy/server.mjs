#!/usr/bin/env node
/**
 * The read proxy: span-ledger in front of the published filesystem server
 * (`@modelcontextprotocol/server-filesystem`), run in this process with the
 * span-ledger-proxy package's `startProxy` — the same proxy as
 *
 *   npx span-ledger-proxy --root <root> -- npx -y @modelcontextprotocol/server-filesystem <root>
 *
 * shown as the few lines a host needs to embed it.
 *
 *   node examples/read-proxy/server.mjs <root>     stdio; <root> is the upstream's allowed directory
 *
 * Environment: `SPAN_LEDGER_DEDUP=0` sends every read in full. Stdout carries
 * protocol only: logs go to stderr.
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ProxyStartError, startProxy } from 'span-ledger-proxy';

const log = (line) => process.stderr.write(`[read-proxy] ${line}\n`);

if (process.argv[2] === undefined) {
  log('usage: server.mjs <root>');
  process.exit(2);
}
const root = resolve(process.argv[2]);

/** The upstream server's entry point, resolved from the installed package. */
const require = createRequire(import.meta.url);
const manifest = require('@modelcontextprotocol/server-filesystem/package.json');
const upstream = require.resolve(
  `@modelcontextprotocol/server-filesystem/${manifest.bin['mcp-server-filesystem']}`,
);

const proxy = await startProxy({
  command: process.execPath,
  args: [upstream, root],
  root,
  profile: 'filesystem',
  log,
}).catch((error) => {
  log(error instanceof ProxyStartError ? error.message : String(error));
  process.exit(2);
});
const server = proxy.createServer();
const stop = async () => {
  await proxy.close();
  log(proxy.summary());
  process.exit(0);
};
server.onclose = stop;
process.stdin.once('end', stop);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
await server.connect(new StdioServerTransport());
log(`proxying ${root}`);
