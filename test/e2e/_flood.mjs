/**
 * A hostile local client for the fault probes, in a process of its own (as a
 * real one is): floods the daemon at `url` until SIGTERM, then prints what it
 * sent as one JSON line on stdout and exits.
 *
 *   node _flood.mjs calls  <url> <width> [bearer]   `width` explore calls in flight on one session
 *   node _flood.mjs health <url> <width>            cross-origin GET /healthz, `width` at a time
 *   node _flood.mjs batch  <url> <width>            JSON-RPC batches of 100 calls, `width` POSTs at a time
 *
 * It says "flooding" on stderr once its first requests are out.
 */

import { setMaxListeners } from 'node:events';
import { Agent, request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [mode, url, widthArg, bearer] = process.argv.slice(2);
const width = Number(widthArg);
const auth = bearer ? { authorization: `Bearer ${bearer}` } : {};
const origin = new URL(url).origin;
let stopped = false;
let requests = 0;
let busy = 0;
let refused = 0;

setMaxListeners(0);
process.on('SIGTERM', () => {
  stopped = true;
  process.stdout.write(`${JSON.stringify({ requests, busy, refused })}\n`);
  process.exit(0);
});

const agent = new Agent({ keepAlive: true, maxSockets: width });

function http(method, target, headers, body) {
  return new Promise((done) => {
    const req = request(target, { method, headers, agent }, (res) => {
      let text = '';
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => done({ status: res.statusCode, text, headers: res.headers }));
      res.on('error', () => done({ status: 0, text: '' }));
    });
    req.on('error', () => done({ status: 0, text: '' }));
    req.end(body);
  });
}

const MCP = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function loops(once) {
  let started = false;
  await Promise.all(
    Array.from({ length: width }, async (_, i) => {
      while (!stopped) {
        requests++;
        if (!started) {
          started = true;
          setTimeout(() => process.stderr.write('flooding\n'), 50);
        }
        await once(i);
      }
    }),
  );
}

if (mode === 'calls') {
  const client = new Client({ name: 'flooder', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: auth } }),
  );
  const queries = ['checkout cart money catalog', 'money stock order'];
  await loops(async (i) => {
    try {
      const result = await client.callTool({
        name: 'explore',
        arguments: { query: queries[i % 2] },
        _meta: { conversationId: 'flooder' },
      });
      if (result.isError && /busy/i.test(JSON.stringify(result.content))) busy++;
    } catch {
      refused++;
      await new Promise((r) => setTimeout(r, 10));
    }
  });
} else if (mode === 'health') {
  await loops(async () => {
    const res = await http('GET', `${origin}/healthz`, { origin: 'http://evil.example' });
    if (res.status !== 200) refused++;
  });
} else if (mode === 'batch') {
  const init = await http(
    'POST',
    url,
    { ...MCP, ...auth },
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'b', version: '1' },
      },
    }),
  );
  const sid = init.headers?.['mcp-session-id'];
  const headers = {
    ...MCP,
    ...auth,
    ...(sid ? { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' } : {}),
  };
  await http(
    'POST',
    url,
    headers,
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  );
  let id = 1000;
  await loops(async () => {
    const batch = Array.from({ length: 100 }, () => ({
      jsonrpc: '2.0',
      id: id++,
      method: 'tools/call',
      params: { name: 'explore', arguments: { query: 'checkout cart money catalog' } },
    }));
    const res = await http('POST', url, headers, JSON.stringify(batch));
    if (res.status >= 400) {
      refused++;
      await new Promise((r) => setTimeout(r, 10));
    } else busy += (res.text.match(/busy/g) ?? []).length;
  });
} else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
