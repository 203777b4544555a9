/**
 * The examples as `npm run example:mcp` and `npm run example:read-proxy` start
 * them: from the library's sources, through `scripts/from-source.mjs`, with no
 * build step, so an edit to src/ is what the next launch runs. The other e2e
 * files test the examples against the built dist/; this one tests the
 * launch a contributor and a host configuration use.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { envWith, explore, FIXTURE, hasPointer, REPO, WIDE } from './_mcp-explore.js';

const clients: Client[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'span-ledger-from-source-'));

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  rmSync(scratch, { recursive: true, force: true });
});

/** A client on `npm run -s <script> [-- args]`, the command a host's MCP configuration runs. */
async function startScript(script: string, args: readonly string[] = []): Promise<Client> {
  const client = new Client({ name: 'from-source-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(
    new StdioClientTransport({
      command: 'npm',
      args: ['run', '-s', script, ...(args.length > 0 ? ['--', ...args] : [])],
      cwd: REPO,
      env: envWith({}),
      stderr: 'pipe',
    }),
  );
  return client;
}

describe('scripts/from-source.mjs', () => {
  it('resolves span-ledger and its entries to src/, in worker threads too', () => {
    const probe = join(scratch, 'probe.mjs');
    writeFileSync(
      probe,
      `import { Worker, isMainThread, parentPort } from 'node:worker_threads';
       const here = ['span-ledger', 'span-ledger/adapter', 'span-ledger/redis'].map((id) => import.meta.resolve(id));
       if (isMainThread) {
         const worker = new Worker(new URL(import.meta.url));
         worker.once('message', (there) => { console.log(JSON.stringify({ here, there })); worker.terminate(); });
       } else parentPort.postMessage(here);`,
    );
    const run = spawnSync(
      process.execPath,
      ['--import', join(REPO, 'scripts/from-source.mjs'), probe],
      { cwd: scratch, encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    const src = (path: string) => pathToFileURL(join(REPO, 'src', path)).href;
    const want = [src('index.ts'), src('adapter/index.ts'), src('redis/index.ts')];
    expect(JSON.parse(run.stdout)).toEqual({ here: want, there: want });
  });
});

describe('npm run example:mcp', () => {
  it('answers from its rendering workers and points at what the first call sent', async () => {
    const client = await startScript('example:mcp');
    const first = await explore(client, { query: WIDE });
    const second = await explore(client, { query: WIDE });
    expect(first).toMatch(/^Response #1\/tag\n/);
    expect(hasPointer(first)).toBe(false);
    expect(second).toMatch(/^Response #2\/tag\n/);
    expect(hasPointer(second)).toBe(true);
  });
});

describe('npm run example:read-proxy', () => {
  it('answers an unchanged re-read with a pointer to the first read', async () => {
    const client = await startScript('example:read-proxy', [FIXTURE]);
    const read = async (context?: string) => {
      const result = await client.callTool({
        name: 'read_text_file',
        arguments: { path: 'src/cart.ts', ...(context === undefined ? {} : { context }) },
      });
      expect(result.isError).not.toBe(true);
      return (result.content as { text: string }[])[0]!.text;
    };
    const first = await read();
    // The read proxy is span-ledger-proxy: the agent's context is the token the first answer gives.
    const token = /^Response #1\/[a-z]+ · context ([A-Za-z0-9_-]+) /.exec(first)?.[1];
    expect(token).toBeDefined();
    const again = await read(token);
    expect(first).toContain('export interface CartLine');
    expect(again).toMatch(/^Response #2\/[a-z]+ · context /);
    expect(again).toMatch(/Sent in response #1\/[a-z]+ /);
    expect(again).not.toContain('export interface CartLine');
  });
});
