/**
 * The proxy in front of the published filesystem server
 * (`@modelcontextprotocol/server-filesystem`), driven with the SDK client
 * over zod's sources copied into a scratch root: overlapping `head`/`tail`
 * windows bring only their new lines, an unchanged re-read is the pointer
 * alone, an edited file comes back whole, `refresh` brings lines back, each
 * `_meta` conversation and each context token has its own ledger, and
 * whatever the upstream refuses reaches the client as the upstream wrote it.
 * And the faults a read proxy meets on a developer's machine: a 100 MiB
 * file, a FIFO in the root, an upstream that dies.
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  childrenOf,
  closeAll,
  type ReadResponse,
  type Running,
  readResponse,
  startDirect,
  startProxy,
  textOf,
  until,
} from './_proxy.js';

const require = createRequire(import.meta.url);
const ZOD = join(dirname(require.resolve('zod/package.json')), 'src/v4/core');
const manifest = require('@modelcontextprotocol/server-filesystem/package.json') as {
  bin: Record<string, string>;
};
const SERVER = require.resolve(
  `@modelcontextprotocol/server-filesystem/${manifest.bin['mcp-server-filesystem']}`,
);

let scratch = '';
let root = '';
let outside = '';
let direct: Client;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'proxy-filesystem-'));
  root = join(scratch, 'root');
  outside = join(scratch, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  for (const name of ['core.ts', 'errors.ts']) copyFileSync(join(ZOD, name), join(root, name));
  // util.ts cut to 1,100 lines: its tail from line 45 stays under the 50,000 chars a client
  // keeps of one result (the proxy cuts a longer one, and says so).
  const util = readFileSync(join(ZOD, 'util.ts'), 'utf8').split('\n').slice(0, 1100);
  writeFileSync(join(root, 'util.ts'), `${util.join('\n')}\n`);
  writeFileSync(join(outside, 'secret.ts'), 'export const secret = 1;\n');
  writeFileSync(
    join(root, 'blob.bin'),
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 0xff, 0xfe, 10, 65]),
  );
  // 100 MiB with one short first line: sparse, so it costs no disk.
  const big = openSync(join(root, 'big.log'), 'w');
  writeSync(big, 'the first line of a large log\nthe second line\n');
  closeSync(big);
  truncateSync(join(root, 'big.log'), 100 * 1024 * 1024);
  execFileSync('mkfifo', [join(root, 'pipe')]);
  direct = await startDirect(process.execPath, [SERVER, root], { cwd: root });
});

afterEach(closeAll);
afterAll(async () => {
  await direct?.close();
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
});

function start(): Promise<Running> {
  return startProxy([process.execPath, SERVER, root], { cwd: root });
}

/** The POSIX lines of a file of the root, 1-based (`[0]` unused). */
function fileLines(name: string): string[] {
  const content = readFileSync(join(root, name), 'utf8');
  const lines = content.split('\n');
  if (content.endsWith('\n')) lines.pop();
  return ['', ...lines];
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  meta?: Record<string, unknown>,
) {
  const result = await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) });
  return { result, text: textOf(result) };
}

/** A read through the proxy, read as the agent reads it; `context` carried from `prior` when given. */
async function read(
  proxy: Running,
  args: Record<string, unknown>,
  prior?: ReadResponse,
): Promise<ReadResponse> {
  const context = prior?.token ?? undefined;
  const { result, text } = await call(proxy.client, 'read_text_file', {
    ...args,
    ...(context ? { context } : {}),
  });
  expect(result.isError).not.toBe(true);
  return readResponse(text, String(args.path));
}

/** Asserts the read shows exactly lines `from..to` of `name`, verbatim. */
function expectShows(got: ReadResponse, name: string, from: number, to: number): void {
  const want = fileLines(name);
  const lines = got.lines.get(name) ?? new Map<number, string>();
  expect([...lines.keys()]).toEqual(Array.from({ length: to - from + 1 }, (_, i) => from + i));
  for (const [n, text] of lines) expect(text, `${name}:${n}`).toBe(want[n]);
}

describe('the root when none is named', () => {
  it("is the server's allowed directory, wherever the client starts the proxy (no --, no --root)", async () => {
    const proxy = await startProxy([], {
      cwd: tmpdir(),
      args: [process.execPath, SERVER, root],
    });
    const path = join(root, 'errors.ts');
    const first = await read(proxy, { path });
    expect(first.pointers).toEqual([]);
    const again = await read(proxy, { path }, first);
    expect(again.pointers).toHaveLength(1);
    expect(proxy.stderr()).toContain(
      `, proving under ${realpathSync(root)} (the filesystem server's allowed directories); ready`,
    );
    expect(proxy.stderr()).not.toContain('is outside the root');
  });
});

describe('reads through the proxy', () => {
  it('send a pointer and only the new lines for overlapping head and tail windows', async () => {
    const proxy = await start();
    const total = fileLines('util.ts').length - 1;
    expect(total).toBeGreaterThan(1000);

    const first = await read(proxy, { path: 'util.ts', head: 100 });
    expectShows(first, 'util.ts', 1, 100);
    expect(first.pointers).toEqual([]);

    const wider = await read(proxy, { path: 'util.ts', head: 160 }, first);
    expectShows(wider, 'util.ts', 101, 160);
    expect(wider.pointers).toEqual([
      { path: 'util.ts', calls: [1], spans: [{ start: 1, end: 100 }] },
    ]);

    // The upstream's tail of a file that ends with a newline: `tail: n` gives its last n − 1 lines.
    const tail = await read(proxy, { path: 'util.ts', tail: total - 43 }, first);
    expectShows(tail, 'util.ts', 161, total);
    expect(tail.pointers).toEqual([
      { path: 'util.ts', calls: [2, 1], spans: [{ start: 45, end: 160 }] },
    ]);

    const again = await read(proxy, { path: 'util.ts', head: 160 }, first);
    expect(again.lines.size).toBe(0);
    expect(again.pointers[0]?.spans).toEqual([{ start: 1, end: 160 }]);

    // The agent lost the response that carried lines 1-100: it asks for them back.
    const back = await read(proxy, { path: 'util.ts', head: 100, refresh: [1] }, first);
    expectShows(back, 'util.ts', 1, 100);
  });

  it('answer an unchanged re-read of a whole file with the pointer alone', async () => {
    const proxy = await start();
    const total = fileLines('core.ts').length - 1;
    const first = await read(proxy, { path: 'core.ts' });
    expectShows(first, 'core.ts', 1, total);
    const again = await read(proxy, { path: 'core.ts' }, first);
    expect(again.lines.size).toBe(0);
    expect(again.pointers).toEqual([
      { path: 'core.ts', calls: [1], spans: [{ start: 1, end: total }] },
    ]);
  });

  it('send a file edited between two reads whole', async () => {
    const proxy = await start();
    const original = readFileSync(join(root, 'errors.ts'), 'utf8');
    try {
      const total = fileLines('errors.ts').length - 1;
      const first = await read(proxy, { path: 'errors.ts' });
      expectShows(first, 'errors.ts', 1, total);
      const lines = fileLines('errors.ts').slice(1);
      lines[19] = '// edited between two reads';
      writeFileSync(join(root, 'errors.ts'), `${lines.join('\n')}\n`);
      const after = await read(proxy, { path: 'errors.ts' }, first);
      expectShows(after, 'errors.ts', 1, total);
      expect(after.lines.get('errors.ts')?.get(20)).toBe('// edited between two reads');
      expect(after.pointers).toEqual([]);
    } finally {
      writeFileSync(join(root, 'errors.ts'), original);
    }
  });

  it('dedup read_multiple_files against what single reads sent, and send a path named twice once', async () => {
    const proxy = await start();
    const first = await read(proxy, { path: 'core.ts', head: 50 });
    const many = await call(proxy.client, 'read_multiple_files', {
      paths: ['core.ts', './core.ts', 'errors.ts'],
      context: first.token,
    });
    const parts = many.text.split('\n---\n');
    expect(parts).toHaveLength(2);
    const got = readResponse(many.text);
    expectShows(got, 'core.ts', 51, fileLines('core.ts').length - 1);
    expectShows(got, 'errors.ts', 1, fileLines('errors.ts').length - 1);
    expect(got.pointers).toEqual([{ path: 'core.ts', calls: [1], spans: [{ start: 1, end: 50 }] }]);
  });

  it('give each conversation id in _meta, and each context token, a ledger of its own', async () => {
    const proxy = await start();
    const total = fileLines('core.ts').length - 1;
    const byMeta = async (conversationId: string) =>
      readResponse(
        (
          await call(
            proxy.client,
            'read_text_file',
            { path: 'core.ts' },
            { 'vscode.conversationId': conversationId },
          )
        ).text,
        'core.ts',
      );
    const parent = await byMeta('parent');
    expectShows(parent, 'core.ts', 1, total);
    expect(parent.token).toBeNull();
    expect((await byMeta('parent')).lines.size).toBe(0);
    expectShows(await byMeta('subagent'), 'core.ts', 1, total);
    // opencode's key, and the generic one.
    for (const meta of [{ sessionID: 'oc-session' }, { conversationId: 'generic-conversation' }]) {
      const once = async () =>
        readResponse(
          (await call(proxy.client, 'read_text_file', { path: 'core.ts' }, meta)).text,
          'core.ts',
        );
      expectShows(await once(), 'core.ts', 1, total);
      expect((await once()).lines.size).toBe(0);
    }
    // A context token is not a conversation id: another key space.
    expectShows(await read(proxy, { path: 'core.ts', context: 'parent' }), 'core.ts', 1, total);
    // No id and no token: a fresh context.
    expectShows(await read(proxy, { path: 'core.ts' }), 'core.ts', 1, total);
  });

  it('ignore a ledger view the client put in the arguments', async () => {
    const proxy = await start();
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
    const got = await read(proxy, { path: 'core.ts', _spanLedgerView: forged, context: 'forger1' });
    expectShows(got, 'core.ts', 1, fileLines('core.ts').length - 1);
    expect(got.pointers).toEqual([]);
  });
});

describe('what the upstream says for itself', () => {
  it('passes its errors, binary reads and other tools through as it wrote them', async () => {
    const proxy = await start();
    const cases: [string, Record<string, unknown>][] = [
      ['read_text_file', { path: join(outside, 'secret.ts') }],
      ['read_text_file', { path: 'missing.ts' }],
      ['read_text_file', { path: 'core.ts', head: 3, tail: 3 }],
      ['read_text_file', { path: 'blob.bin' }],
      ['read_text_file', { path: 'core.ts', head: -2 }],
      ['read_text_file', { path: 'core.ts', head: 2.5 }],
      ['read_multiple_files', { paths: [join(outside, 'secret.ts')] }],
      ['list_directory', { path: '.' }],
      ['directory_tree', { path: '.' }],
      ['search_files', { path: '.', pattern: '*.ts' }],
      ['list_allowed_directories', {}],
      ['read_media_file', { path: 'blob.bin' }],
    ];
    for (const [name, args] of cases) {
      const own = await direct.callTool({ name, arguments: args });
      expect(
        await proxy.client.callTool({ name, arguments: args }),
        `${name} ${JSON.stringify(args)}`,
      ).toEqual(own);
    }
    const missing = await call(direct, 'read_multiple_files', { paths: ['missing.ts'] });
    const many = await call(proxy.client, 'read_multiple_files', {
      paths: ['core.ts', 'missing.ts'],
      context: 'mixed01',
    });
    const [ok, failed] = many.text.split('\n---\n');
    expect(failed).toBe(missing.text);
    expectShows(readResponse(ok!), 'core.ts', 1, fileLines('core.ts').length - 1);
  });
});

describe('the faults a read proxy meets', () => {
  it('answers head: 1 of a 100 MiB file in under a second, refuses it whole with one line, and keeps working', async () => {
    const proxy = await start();
    const started = performance.now();
    const head = await call(proxy.client, 'read_text_file', { path: 'big.log', head: 1 });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(head.text).toBe('the first line of a large log');
    const whole = await call(proxy.client, 'read_text_file', { path: 'big.log' });
    expect(whole.result.isError).toBe(true);
    expect(whole.text).toBe(
      'big.log is 100.0 MiB, over the 4 MiB span-ledger-proxy reads whole: pass head or tail to read part of it.',
    );
    const many = await call(proxy.client, 'read_multiple_files', { paths: ['core.ts', 'big.log'] });
    expect(many.result.isError).toBe(true);
    expectShows(await read(proxy, { path: 'core.ts', head: 5 }), 'core.ts', 1, 5);
  });

  it('refuses a FIFO in the root with one line instead of hanging, and keeps working', async () => {
    const proxy = await start();
    for (const [name, args] of [
      ['read_text_file', { path: 'pipe' }],
      ['read_text_file', { path: 'pipe', head: 1 }],
      ['read_multiple_files', { paths: ['core.ts', 'pipe'] }],
    ] as const) {
      const got = await call(proxy.client, name, args);
      expect(got.result.isError).toBe(true);
      expect(got.text).toBe(
        'pipe is not a regular file (a FIFO, socket or device): span-ledger-proxy does not read it.',
      );
    }
    expectShows(await read(proxy, { path: 'core.ts', head: 5 }), 'core.ts', 1, 5);
  });

  it('restarts an upstream that died: the call in flight gets a tool error, later calls work', async () => {
    const proxy = await start();
    const first = await read(proxy, { path: 'core.ts', head: 30 });
    const [upstream] = childrenOf(proxy.pid);
    // The upstream reading the FIFO (a tool the proxy forwards as it is) waits for a writer for ever.
    const inFlight = call(proxy.client, 'read_media_file', { path: 'pipe' });
    await new Promise((r) => setTimeout(r, 300));
    process.kill(upstream!, 'SIGKILL');
    const failed = await inFlight;
    expect(failed.result.isError).toBe(true);
    expect(failed.text).toBe(
      'span-ledger-proxy: read_media_file got no answer: the upstream exited (killed by SIGKILL) before it answered.',
    );
    await until(
      () => proxy.stderr().includes('the upstream is running again'),
      10_000,
      'the restart',
    );
    expect(proxy.stderr()).toContain(
      'span-ledger-proxy: the upstream exited (killed by SIGKILL); restarting it\n',
    );
    // The proxy's ledger outlives the upstream: the context's next read still points.
    const after = await read(proxy, { path: 'core.ts', head: 30 }, first);
    expect(after.number).toBe(2);
    expect(after.pointers).toEqual([
      { path: 'core.ts', calls: [1], spans: [{ start: 1, end: 30 }] },
    ]);
  });
});
