/**
 * `npm run bench:hook`: what the harness hook adds to each proxied call. The
 * installed entry is an `mcp_tool` hook, so the added work is one round trip
 * on the MCP connection the harness already holds, into the proxy itself:
 * this script makes that round trip from a real MCP client over stdio (the
 * proxy in front of the filesystem server on a scratch directory), with the
 * arguments Claude Code sends for a `PreToolUse`, and prints its p50 and p95
 * beside the cost of starting a Node process (what a `command` hook pays on
 * every call), measured the same way.
 *
 * Warm-up rounds are left out; every loop is bounded in count and time.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { quantile } from '../../../bench/_harness.js';

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(PACKAGE, 'bin/span-ledger-proxy.js');
const ROUNDS = 200;
const WARM_UP = 20;
const PROCESS_ROUNDS = 20;
const DEADLINE_MS = 60_000;

const dir = mkdtempSync(join(tmpdir(), 'span-ledger-hook-bench-'));
writeFileSync(join(dir, 'a.ts'), 'export const a = 1;\n');
const filesystem = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-filesystem/dist/index.js',
);
const client = new Client({ name: 'hook-bench', version: '0' });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--root', dir, '--', process.execPath, filesystem, dir],
    stderr: 'ignore',
  }),
);
const started = Date.now();
const times: number[] = [];
const context = new Set<string>();
for (let i = 0; i < WARM_UP + ROUNDS && Date.now() - started < DEADLINE_MS; i++) {
  const at = performance.now();
  const result = await client.callTool({
    name: 'span_ledger_hook',
    arguments: {
      event: 'PreToolUse',
      session_id: '5b9c1e52-1f7a-4c0e-9d7e-2f1b8a6c3d40',
      agent_id: i % 2 === 0 ? '' : 'a908e69ff90c41f2b',
      tool_name: 'mcp__fs__read_text_file',
      tool_input: JSON.stringify({ path: join(dir, 'a.ts'), head: i }),
      transcript_path: '',
      source: '',
      server: 'fs',
    },
  });
  const ms = performance.now() - at;
  if (i >= WARM_UP) times.push(ms);
  const text = (result.content as { text?: string }[])[0]?.text ?? '';
  context.add(JSON.parse(text).hookSpecificOutput.updatedInput.context);
}
await client.close();

const spawned: number[] = [];
for (let i = 0; i < PROCESS_ROUNDS; i++) {
  const at = performance.now();
  spawnSync(process.execPath, ['-e', 'process.stdin.resume();process.stdin.on("end",()=>{})'], {
    input: '{}',
  });
  spawned.push(performance.now() - at);
}
rmSync(dir, { recursive: true, force: true });

const ms = (value: number) => `${value.toFixed(1)} ms`;
const hookP50 = quantile(times, 0.5);
const hookP95 = quantile(times, 0.95);
const nodeP50 = quantile(spawned, 0.5);
process.stdout.write(
  [
    `mcp_tool hook round trip into the proxy (${times.length} calls, 2 contexts: ${context.size} ids)`,
    `  p50 ${ms(hookP50)}   p95 ${ms(hookP95)}   target p50 <= 30 ms: ${hookP50 <= 30 ? 'met' : 'NOT met'}`,
    `a Node process per call (what a command hook would start; ${spawned.length} runs)`,
    `  p50 ${ms(nodeP50)}   p95 ${ms(quantile(spawned, 0.95))}   ratio to the hook's p50: ${(nodeP50 / hookP50).toFixed(0)}x`,
    '',
  ].join('\n'),
);
