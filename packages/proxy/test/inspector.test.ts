/**
 * The client recipe of docs/proxy.md ("The MCP Inspector"), run with the
 * SDK's client: the same command line the Inspector passes on after its own
 * `--` — the proxy, then the upstream command with no `--` and no `--root` —
 * started in a directory that is not the project, as a client starts it.
 * `tools/list` and two `tools/call` of one file in one session: the second
 * points at the first.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAll, readResponse, startProxy, textOf } from './_proxy.js';

const require = createRequire(import.meta.url);
const SERVER = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

let project = '';
let elsewhere = '';

beforeAll(() => {
  project = realpathSync(mkdtempSync(join(tmpdir(), 'proxy-inspector-project-')));
  elsewhere = mkdtempSync(join(tmpdir(), 'proxy-inspector-cwd-'));
  const lines = Array.from({ length: 40 }, (_, i) => `export const v${i} = ${i};`);
  writeFileSync(join(project, 'README.md'), `${lines.join('\n')}\n`);
});

afterAll(async () => {
  await closeAll();
  for (const dir of [project, elsewhere]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the Inspector recipe, as the SDK client runs it', () => {
  it('lists the tools and points the second read of a file at the first, started outside the project', async () => {
    // `span-ledger-proxy npx -y @modelcontextprotocol/server-filesystem "$PWD"`, with the server installed.
    const proxy = await startProxy([], {
      cwd: elsewhere,
      args: [process.execPath, SERVER, project],
    });
    const { tools } = await proxy.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('read_text_file');
    const path = join(project, 'README.md');
    const call = async (context?: string) =>
      readResponse(
        textOf(
          await proxy.client.callTool({
            name: 'read_text_file',
            arguments: { path, ...(context ? { context } : {}) },
          }),
        ),
        'README.md',
      );
    const first = await call();
    expect(first.number).toBe(1);
    expect(first.lines.get('README.md')?.size).toBe(40);
    const second = await call(first.token ?? undefined);
    expect(second.pointers).toEqual([
      { path: 'README.md', calls: [1], spans: [{ start: 1, end: 40 }] },
    ]);
  });
});
