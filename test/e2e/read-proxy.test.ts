/**
 * The read proxy (examples/read-proxy) as a host runs it: a subprocess that
 * starts the published filesystem MCP server as its own subprocess, driven
 * with the official SDK client over stdio. What it proves is the embedding:
 * overlapping windows bring only their new lines, an unchanged re-read is the
 * pointer alone, an edited file comes back whole, `refresh` brings lines
 * back, and whatever the upstream server refuses reaches the client exactly
 * as the upstream wrote it.
 *
 * The files read are real code nobody here wrote (zod's sources), copied
 * into a scratch root. The example imports the built package, so `dist/` is
 * built first when it is missing.
 */
import { execSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = join(REPO, 'examples/read-proxy/server.mjs');
const require = createRequire(import.meta.url);
const ZOD = join(dirname(require.resolve('zod/package.json')), 'src/v4/core');

const clients: Client[] = [];
let scratch = '';
let root = '';
let outside = '';

beforeAll(() => {
  if (!existsSync(join(REPO, 'dist/index.js')) || !existsSync(join(REPO, 'dist/adapter.js'))) {
    execSync('npx tsup', { cwd: REPO, stdio: 'ignore' });
  }
  scratch = mkdtempSync(join(tmpdir(), 'read-proxy-'));
  root = join(scratch, 'root');
  outside = join(scratch, 'outside');
  execSync(`mkdir -p ${JSON.stringify(root)} ${JSON.stringify(outside)}`);
  copyFileSync(join(ZOD, 'util.ts'), join(root, 'util.ts'));
  copyFileSync(join(ZOD, 'core.ts'), join(root, 'core.ts'));
  copyFileSync(join(ZOD, 'errors.ts'), join(root, 'errors.ts'));
  writeFileSync(join(outside, 'secret.ts'), 'export const secret = 1;\n');
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
});

function envWithout(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  delete env.SPAN_LEDGER_DEDUP;
  return env;
}

/** A client connected to a fresh proxy on `root`. */
async function startProxy(): Promise<Client> {
  const client = new Client({ name: 'read-proxy-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [SERVER, root],
      cwd: REPO,
      env: envWithout(),
      stderr: 'pipe',
    }),
  );
  return client;
}

/** A client connected straight to the upstream server on `root` (to compare its own answers). */
async function startUpstream(): Promise<Client> {
  const manifest = require('@modelcontextprotocol/server-filesystem/package.json') as {
    bin: Record<string, string>;
  };
  const entry = require.resolve(
    `@modelcontextprotocol/server-filesystem/${manifest.bin['mcp-server-filesystem']}`,
  );
  const client = new Client({ name: 'read-proxy-test-upstream', version: '1.0.0' });
  clients.push(client);
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [entry, root], stderr: 'pipe' }),
  );
  return client;
}

interface Read {
  readonly text: string;
  /** Numbered lines shown, `cat -n` style. */
  readonly lines: ReadonlyMap<number, string>;
  /** Lines that are neither the response header nor numbered source: the pointer. */
  readonly prose: readonly string[];
  /** The number the response says it has. */
  readonly number: number | null;
}

function parse(text: string): Read {
  const lines = new Map<number, string>();
  const prose: string[] = [];
  let number: number | null = null;
  for (const line of text.split('\n')) {
    const m = /^ *(\d+)\t/.exec(line);
    if (m) {
      lines.set(Number(m[1]), line.slice(m[0].length));
      continue;
    }
    const h = /^Response #(\d+)/.exec(line);
    if (h && number === null) {
      number = Number(h[1]);
      continue;
    }
    if (line.trim() !== '') prose.push(line);
  }
  return { text, lines, prose, number };
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text?: string }[];
  return { result, text: content[0]?.text ?? '' };
}

async function readText(client: Client, args: Record<string, unknown>): Promise<Read> {
  const { result, text } = await call(client, 'read_text_file', args);
  expect(result.isError).not.toBe(true);
  return parse(text);
}

/** The POSIX lines of a file of the root, 1-based. */
function fileLines(name: string): string[] {
  const content = readFileSync(join(root, name), 'utf8');
  const lines = content.split('\n');
  if (content.endsWith('\n')) lines.pop();
  return ['', ...lines];
}

/** Asserts the read shows exactly lines `from..to` of `name`, verbatim. */
function expectShows(read: Read, name: string, from: number, to: number): void {
  const want = fileLines(name);
  expect([...read.lines.keys()]).toEqual(Array.from({ length: to - from + 1 }, (_, i) => from + i));
  for (const [n, text] of read.lines) expect(text, `${name}:${n}`).toBe(want[n]);
}

describe('read proxy over the filesystem server', () => {
  it('sends a pointer and only the new lines for overlapping head and tail reads', async () => {
    const client = await startProxy();
    const total = fileLines('util.ts').length - 1;
    expect(total).toBeGreaterThan(1000);

    const first = await readText(client, { path: 'util.ts', head: 100 });
    expectShows(first, 'util.ts', 1, 100);
    expect(first.prose).toEqual([]);

    const wider = await readText(client, { path: 'util.ts', head: 160 });
    expectShows(wider, 'util.ts', 101, 160);
    expect(wider.prose.join(' ')).toContain('L1-100');
    expect(wider.prose.join(' ')).toContain(`#${first.number}`);

    const tail = await readText(client, { path: 'util.ts', tail: total - 43 });
    expectShows(tail, 'util.ts', 161, total);
    expect(tail.prose.join(' ')).toContain('L44-160');

    const again = await readText(client, { path: 'util.ts', head: 160 });
    expect(again.lines.size).toBe(0);
    expect(again.prose.join(' ')).toContain('L1-160');

    // The agent lost the response that carried lines 1-100: it asks for them back.
    const back = await readText(client, { path: 'util.ts', head: 100, refresh: [first.number] });
    expectShows(back, 'util.ts', 1, 100);
  });

  it('answers an unchanged re-read of a whole file with the pointer alone', async () => {
    const client = await startProxy();
    const total = fileLines('core.ts').length - 1;
    expectShows(await readText(client, { path: 'core.ts' }), 'core.ts', 1, total);
    const again = await readText(client, { path: 'core.ts' });
    expect(again.lines.size).toBe(0);
    expect(again.prose.length).toBeGreaterThan(0);
    expect(again.prose.join(' ')).toContain('core.ts');
  });

  it('sends a file edited between two reads whole', async () => {
    const client = await startProxy();
    const total = fileLines('errors.ts').length - 1;
    expectShows(await readText(client, { path: 'errors.ts' }), 'errors.ts', 1, total);
    const lines = fileLines('errors.ts').slice(1);
    lines[19] = '// edited between two reads';
    writeFileSync(join(root, 'errors.ts'), `${lines.join('\n')}\n`);
    const after = await readText(client, { path: 'errors.ts' });
    expectShows(after, 'errors.ts', 1, total);
    expect(after.lines.get(20)).toBe('// edited between two reads');
    expect(after.prose).toEqual([]);
  });

  it("passes the upstream server's own errors through unchanged", async () => {
    const client = await startProxy();
    const upstream = await startUpstream();
    const secret = join(outside, 'secret.ts');

    const direct = await call(upstream, 'read_text_file', { path: secret });
    const proxied = await call(client, 'read_text_file', { path: secret });
    expect(direct.result.isError).toBe(true);
    expect(direct.text).toContain('outside allowed directories');
    expect(proxied.result.isError).toBe(true);
    expect(proxied.text).toBe(direct.text);

    const both = { path: 'core.ts', head: 3, tail: 3 };
    expect((await call(client, 'read_text_file', both)).text).toBe(
      (await call(upstream, 'read_text_file', both)).text,
    );

    const missing = await call(upstream, 'read_multiple_files', { paths: ['missing.ts'] });
    const many = await call(client, 'read_multiple_files', { paths: ['core.ts', 'missing.ts'] });
    expect(many.result.isError).not.toBe(true);
    const [ok, failed] = many.text.split('\n---\n');
    expect(failed).toBe(missing.text);
    expect(ok).toContain('core.ts:');
    expectShows(parse(ok!), 'core.ts', 1, fileLines('core.ts').length - 1);
  });

  it('dedups read_multiple_files against what single reads sent', async () => {
    const client = await startProxy();
    await readText(client, { path: 'core.ts', head: 50 });
    const many = await call(client, 'read_multiple_files', { paths: ['core.ts'] });
    const read = parse(many.text);
    expectShows(read, 'core.ts', 51, fileLines('core.ts').length - 1);
    expect(read.prose.join(' ')).toContain('L1-50');
  });

  it('gives each conversation id in _meta a ledger of its own on one connection', async () => {
    const client = await startProxy();
    const total = fileLines('core.ts').length - 1;
    const withoutId = async () =>
      parse((await call(client, 'read_text_file', { path: 'core.ts' })).text);
    const read = async (conversationId: string) => {
      const result = await client.callTool({
        name: 'read_text_file',
        arguments: { path: 'core.ts' },
        _meta: { 'vscode.conversationId': conversationId },
      });
      return parse((result.content as { text?: string }[])[0]?.text ?? '');
    };
    expectShows(await read('parent'), 'core.ts', 1, total);
    expect((await read('parent')).lines.size).toBe(0);
    // Another conversation on the same connection was never sent the file.
    expectShows(await read('subagent'), 'core.ts', 1, total);
    // Nor was the connection's own bucket (no conversation id).
    expectShows(await withoutId(), 'core.ts', 1, total);
  });

  it('ignores a view the client put in the arguments', async () => {
    const client = await startProxy();
    const forged = {
      version: 1,
      projects: [
        {
          projectRoot: root,
          callCount: 1,
          responseChars: 1,
          calls: [
            {
              index: 1,
              projectRoot: root,
              query: 'x',
              sourceChars: 1,
              responseChars: 1,
              files: [{ path: 'core.ts', ranges: [{ start: 1, end: 1000 }], chars: 1 }],
            },
          ],
        },
      ],
    };
    const read = await readText(client, { path: 'core.ts', _spanLedgerView: forged });
    expectShows(read, 'core.ts', 1, fileLines('core.ts').length - 1);
    expect(read.prose).toEqual([]);
  });
});
