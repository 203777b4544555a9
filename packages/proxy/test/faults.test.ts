/**
 * The proxy in front of an upstream that misbehaves (test/fixtures/
 * upstream.mjs, a server speaking the wire protocol by hand): a crash, a
 * hang, a junk result, a tool error, a cancelled call, results naming files
 * the proxy cannot prove — each gives the upstream's own answer or a
 * one-line tool error, records nothing, and leaves the proxy working. And
 * everything the proxy does not re-render passes through as it came.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, PACKAGE, REPO } from './_bin.js';
import {
  alive,
  childrenOf,
  closeAll,
  type Running,
  readResponse,
  sampleScratch,
  startDirect,
  startProxy,
  testEnv,
  textOf,
  until,
} from './_proxy.js';

const FIXTURE = join(PACKAGE, 'test/fixtures/upstream.mjs');
let scratch = '';
let root = '';
let events = '';

beforeAll(() => {
  ({ scratch, root, events } = sampleScratch('proxy-faults-'));
  writeFileSync(join(scratch, 'outside.ts'), 'export const secret = 1;\nexport const other = 2;\n');
  writeFileSync(join(root, 'blob.ts'), 'export const a = 1;\n\0\u0001binary\n');
});

afterEach(closeAll);
afterAll(() => {
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
});

const CART = { path: 'cart.ts', start: 1, end: 79 };
const MONEY = { path: 'money.ts', start: 1, end: 51 };
/** Two files: a repeat of them points at the second (the hold-back restores the first). */
const BOTH = [CART, MONEY];

function start(args: readonly string[] = []): Promise<Running> {
  return startProxy([process.execPath, FIXTURE, root], {
    cwd: root,
    args,
    env: testEnv({ UPSTREAM_EVENTS: events }),
  });
}

function eventsSeen(): Record<string, unknown>[] {
  try {
    return readFileSync(events, 'utf8')
      .trim()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

/** Waits until the upstream was told the last call of `mode` it started was cancelled. */
async function cancelledUpstream(mode: string): Promise<void> {
  const started = eventsSeen()
    .filter((e) => e.mode === mode)
    .at(-1)!;
  const told = () =>
    eventsSeen().some((e) => e.cancelled === started.started && e.pid === started.pid);
  await until(told, 5000, `the cancellation of the ${mode} call`);
}

async function show(proxy: Running, args: Record<string, unknown>) {
  const result = await proxy.client.callTool({ name: 'show', arguments: args });
  return { result, text: textOf(result), read: readResponse(textOf(result)) };
}

describe('an upstream that fails a call', () => {
  it('crashes: a one-line tool error, one line on stderr, then a restarted upstream answers', async () => {
    const proxy = await start();
    const before = childrenOf(proxy.pid);
    const crashed = await show(proxy, { files: [CART], mode: 'crash', context: 'ctx-crash' });
    expect(crashed.result.isError).toBe(true);
    expect(crashed.text.split('\n')).toHaveLength(1);
    expect(crashed.text).toMatch(
      /^span-ledger-proxy: show got no answer: the upstream exited \(exit code 1\)/,
    );
    const next = await show(proxy, { files: [CART], context: 'ctx-crash' });
    // Nothing was recorded for the crashed call: the next one is the context's first.
    expect(next.read.number).toBe(1);
    expect(next.read.pointers).toEqual([]);
    expect(next.read.lines.get('cart.ts')?.size).toBe(79);
    expect(childrenOf(proxy.pid)).not.toEqual(before);
    expect(proxy.stderr()).toMatch(
      /span-ledger-proxy: the upstream exited \(exit code 1\); restarting it\n/,
    );
  });

  it('hangs: the call times out as a tool error and is cancelled upstream', async () => {
    const proxy = await start(['--timeout', '1']);
    const hung = await show(proxy, { files: [CART], mode: 'hang', context: 'ctx-hang' });
    expect(hung.result.isError).toBe(true);
    expect(hung.text).toBe(
      'span-ledger-proxy: show got no answer: the upstream did not answer within 1 s.',
    );
    await cancelledUpstream('hang');
    const next = await show(proxy, { files: [CART], context: 'ctx-hang' });
    expect(next.read.number).toBe(1);
    expect(proxy.stderr()).toContain(
      'span-ledger-proxy: tools/call got no answer within 1 s; cancelled it upstream\n',
    );
  });

  it('answers with junk: a tool error, nothing recorded', async () => {
    const proxy = await start();
    const junk = await show(proxy, { files: [CART], mode: 'junk', context: 'ctx-junk' });
    expect(junk.result.isError).toBe(true);
    expect(junk.text).toBe(
      "span-ledger-proxy: the upstream's answer to show is not a tool result.",
    );
    expect((await show(proxy, { files: [CART], context: 'ctx-junk' })).read.number).toBe(1);
  });

  it('answers with over 10 MiB: a one-line tool error, one line on stderr, and the proxy serves on', async () => {
    const proxy = await start();
    const huge = await show(proxy, { files: [CART], mode: 'huge', context: 'ctx-huge' });
    expect(huge.result.isError).toBe(true);
    expect(huge.text).toBe(
      "span-ledger-proxy: show got no answer: the upstream's answer was over 10 MiB.",
    );
    expect((await show(proxy, { files: [CART], context: 'ctx-huge' })).read.number).toBe(1);
    expect(proxy.stderr().match(/over 10 MiB/g)).toHaveLength(1);
  });

  it('answers with content items that are not MCP content: one line, nothing recorded', async () => {
    const proxy = await start();
    const junk = await show(proxy, { files: [CART], mode: 'junk-items', context: 'ctx-items' });
    expect(junk.result.isError).toBe(true);
    expect(junk.text).toBe(
      "span-ledger-proxy: the upstream's answer to show has content items that are not MCP content.",
    );
    expect((await show(proxy, { files: [CART], context: 'ctx-items' })).read.number).toBe(1);
  });

  for (const [mode, error, said] of [
    ['string-error', '"boom"', 'boom'],
    ['array-error', '["boom", 1]', '["boom",1]'],
  ] as const) {
    it(`answers error: ${error}: a JSON-RPC error that quotes it, and the proxy serves on`, async () => {
      const proxy = await start();
      const failed = proxy.client.callTool({
        name: 'show',
        arguments: { files: [CART], mode, context: 'ctx-boom' },
      });
      await expect(failed).rejects.toThrow(`the upstream answered with an error: ${said}`);
      expect((await show(proxy, { files: [CART], context: 'ctx-boom' })).read.number).toBe(1);
    });
  }

  it('is sent a 100,000-deep argument: one error at once, nothing left waiting', async () => {
    // Raw over stdio: a client library could not even write it.
    const proc = spawn(
      process.execPath,
      [BIN, '--root', root, '--', process.execPath, FIXTURE, root],
      {
        cwd: root,
        env: testEnv({ UPSTREAM_EVENTS: events }),
        stdio: ['pipe', 'pipe', 'ignore'],
      },
    );
    try {
      let out = '';
      proc.stdout.on('data', (c: Buffer) => {
        out += c.toString();
      });
      const send = (m: string) => proc.stdin.write(`${m}\n`);
      send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 't', version: '1' },
          },
        }),
      );
      const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
      send(
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"value":${deep}}}}`,
      );
      await until(() => out.includes('"id":1'));
      expect(out).toContain(
        'span-ledger-proxy: echo got no answer: the request could not be written upstream: it is nested too deeply.',
      );
      send('{"jsonrpc":"2.0","id":2,"method":"ping"}');
      await until(() => out.includes('"id":2'));
      expect(out).toContain('{"jsonrpc":"2.0","id":2,"result":{}}');
    } finally {
      proc.kill('SIGTERM');
    }
  });

  it('answers with a tool error: passed through as it is, nothing recorded', async () => {
    const proxy = await start();
    const direct = await startDirect(process.execPath, [FIXTURE, root], { cwd: root });
    const own = await direct.callTool({ name: 'show', arguments: { mode: 'error' } });
    await direct.close();
    const failed = await proxy.client.callTool({
      name: 'show',
      arguments: { mode: 'error', context: 'ctx-err' },
    });
    expect(failed).toEqual(own);
    expect((await show(proxy, { files: [CART], context: 'ctx-err' })).read.number).toBe(1);
  });

  it('cancelled by the client: the cancellation reaches the upstream and nothing is recorded', async () => {
    const proxy = await start();
    const controller = new AbortController();
    const call = proxy.client.callTool(
      { name: 'show', arguments: { files: [CART], mode: 'slow', context: 'ctx-cancel' } },
      undefined,
      { signal: controller.signal },
    );
    await until(() => eventsSeen().some((e) => e.mode === 'slow'), 5000, 'the slow call upstream');
    controller.abort();
    await expect(call).rejects.toThrow();
    await cancelledUpstream('slow');
    const next = await show(proxy, { files: [CART], context: 'ctx-cancel' });
    expect(next.read.number).toBe(1);
    expect(next.read.pointers).toEqual([]);
  });
});

describe('a client request over the stdio limit', () => {
  it('gets one JSON-RPC error and one line on stderr, and the proxy serves on', async () => {
    const proxy = await start();
    const sent = proxy.client.callTool({
      name: 'echo',
      arguments: { value: 'y'.repeat(10 * 1024 * 1024 + 1) },
    });
    await expect(sent).rejects.toThrow(/the request is over 10 MiB/);
    expect((await show(proxy, { files: [CART], context: 'ctx-big-request' })).read.number).toBe(1);
    expect(proxy.stderr()).toContain(
      'span-ledger-proxy: a message from the client was over 10 MiB; dropped, and answered with an error\n',
    );
  });
});

describe('sections the proxy cannot prove', () => {
  const outside = readFileSync(join(REPO, 'fixtures/sample/src/cart.ts'), 'utf8');
  const fenced = (path: string, lines: readonly string[]) =>
    `**\`${path}\`**\n\n\`\`\`ts\n${lines.map((l, i) => `${i + 1}\t${l}`).join('\n')}\n\`\`\`\n`;

  it.each([
    [
      'a path outside the root',
      fenced('../outside.ts', ['export const secret = 1;', 'export const other = 2;']),
    ],
    ['an absolute path outside the root', fenced(join(tmpdir(), 'elsewhere.ts'), ['x', 'y'])],
    ['a path that does not exist', fenced('missing.ts', ['x', 'y'])],
    ['binary content', fenced('blob.ts', ['export const a = 1;', '\0\u0001binary'])],
    [
      'lines that differ from the file on disk',
      fenced(
        'cart.ts',
        outside
          .split('\n')
          .slice(0, 20)
          .map((l) => `${l} `),
      ),
    ],
    ['numbers that do not climb', fenced('cart.ts', ['a', 'b']).replace('2\tb', '1\tb')],
  ])('%s: passed through as the upstream wrote it, and never pointed at', async (_what, text) => {
    const proxy = await start();
    const first = await show(proxy, { text, context: 'ctx-unproven' });
    expect(first.text).toBe(text);
    const again = await show(proxy, { text, context: 'ctx-unproven' });
    expect(again.text).toBe(text);
    expect(again.read.pointers).toEqual([]);
    const stats = JSON.parse(
      (
        (await proxy.client.readResource({ uri: 'span-ledger://stats' })).contents[0] as {
          text: string;
        }
      ).text,
    );
    expect(stats.total.calls).toBe(2);
    expect(stats.total.pointers).toBe(0);
  });

  it('says once on stderr, naming the roots and --root, that a section lies outside every root', async () => {
    const proxy = await start();
    const text = fenced(join(tmpdir(), 'elsewhere.ts'), ['x', 'y']);
    await show(proxy, { text, context: 'ctx-outside' });
    await show(proxy, { text: fenced('../outside.ts', ['z']), context: 'ctx-outside' });
    const lines = proxy
      .stderr()
      .split('\n')
      .filter((line) => line.includes('is outside the root'));
    expect(lines).toEqual([
      `span-ledger-proxy: ${join(tmpdir(), 'elsewhere.ts')} is outside the root ${root} (the working directory): its sections pass through unproven, never pointed at; name the directory with --root DIR (repeat it for several)`,
    ]);
  });

  it('proves the sections it can beside one it cannot, and points only at the proved one', async () => {
    const proxy = await start();
    const money = readFileSync(join(root, 'money.ts'), 'utf8').split('\n').slice(0, 40);
    const text = [
      fenced('cart.ts', outside.split('\n').slice(0, 40)),
      fenced('../outside.ts', ['export const secret = 1;']),
      fenced('money.ts', money),
    ].join('\n');
    const first = await show(proxy, { text, context: 'ctx-mixed' });
    expect(first.read.number).toBe(1);
    expect(first.text).toContain(fenced('../outside.ts', ['export const secret = 1;']));
    const again = await show(proxy, { text, context: 'ctx-mixed' });
    expect(again.read.pointers.map((p) => p.path)).toEqual(['money.ts']);
    expect(again.text).toContain(fenced('../outside.ts', ['export const secret = 1;']));
  });
});

describe('arguments of the proxy the client sends wrong', () => {
  it.each([
    ['a number', 42],
    ['a path', '../x'],
    ['too short', 'abc'],
    ['too long', 'x'.repeat(65)],
    ['an object', { token: 'abcdef12' }],
  ])(
    'context as %s reads as absent: a fresh context, and the upstream never sees it',
    async (_what, context) => {
      const proxy = await start();
      const got = await show(proxy, { files: [CART], mode: 'ok', context, refresh: true });
      expect(got.read.number).toBe(1);
      expect(got.read.token).toMatch(/^[A-Za-z0-9_-]{8}$/);
      expect(eventsSeen().at(-1)?.keys).toEqual(['files', 'mode']);
      const echoed = await proxy.client.callTool({ name: 'echo', arguments: { value: 1 } });
      expect(textOf(echoed)).toBe('{"value":1}');
    },
  );

  it.each([
    ['a string', 'yes'],
    ['a zero', [0]],
    ['an object', { calls: [1] }],
  ])(
    'refresh as %s: the response says it was not understood, and nothing is refreshed',
    async (_what, refresh) => {
      const proxy = await start();
      await show(proxy, { files: BOTH, context: 'ctx-refresh' });
      const got = await show(proxy, { files: BOTH, context: 'ctx-refresh', refresh });
      expect(got.text.split('\n')[1]).toMatch(/^`refresh` was not understood, so nothing was sent/);
      expect(got.read.pointers.length).toBeGreaterThan(0);
    },
  );

  it('refresh naming a response this context has not sent says so in one line', async () => {
    const proxy = await start();
    await show(proxy, { files: BOTH, context: 'ctx-ahead' });
    const got = await show(proxy, { files: BOTH, context: 'ctx-ahead', refresh: [99] });
    expect(got.text.split('\n')[1]).toMatch(
      /^`refresh` named #99, which this context has not sent \(this is #2[^)]*\): nothing was sent again for it\.$/,
    );
    expect(got.read.pointers.length).toBeGreaterThan(0);
  });

  it('a junk context token says in one line that a new context started, and which token to send', async () => {
    const proxy = await start();
    const got = await show(proxy, { files: [CART], context: 'x!' });
    expect(got.text.split('\n')[1]).toBe(
      `\`context\` "x!" is not a token a response of this tool gave, so this response starts a new context: send ${got.read.token}.`,
    );
  });

  it('refresh: false is no refresh, and says nothing', async () => {
    const proxy = await start();
    await show(proxy, { files: [CART], context: 'ctx-false' });
    const got = await show(proxy, { files: [CART], context: 'ctx-false', refresh: false });
    expect(got.text).not.toContain('not understood');
  });
});

describe('what the proxy does not re-render', () => {
  it('passes other tools, resources, prompts, progress and log messages through as they came', async () => {
    const proxy = await start();
    const direct = await startDirect(process.execPath, [FIXTURE, root], { cwd: root });
    try {
      for (const value of [1, 'two', { three: [3] }, null]) {
        const args = { value };
        expect(await proxy.client.callTool({ name: 'echo', arguments: args })).toEqual(
          await direct.callTool({ name: 'echo', arguments: args }),
        );
      }
      expect(await proxy.client.readResource({ uri: 'test://notes' })).toEqual(
        await direct.readResource({ uri: 'test://notes' }),
      );
      expect(await proxy.client.listPrompts()).toEqual(await direct.listPrompts());
      expect(
        await proxy.client.getPrompt({ name: 'review', arguments: { path: 'cart.ts' } }),
      ).toEqual(await direct.getPrompt({ name: 'review', arguments: { path: 'cart.ts' } }));
      const own = (await direct.listTools()).tools;
      const listed = (await proxy.client.listTools()).tools;
      expect(listed.find((t) => t.name === 'echo')).toEqual(own.find((t) => t.name === 'echo'));
      const showTool = listed.find((t) => t.name === 'show')!;
      expect(Object.keys(showTool.inputSchema.properties ?? {})).toEqual([
        'files',
        'mode',
        'text',
        'context',
        'refresh',
      ]);
      const resources = (await proxy.client.listResources()).resources.map((r) => r.uri);
      expect(resources).toEqual(['span-ledger://stats', 'test://notes']);

      const progress: unknown[] = [];
      await proxy.client.callTool({ name: 'show', arguments: { files: [CART] } }, undefined, {
        onprogress: (p) => progress.push(p),
      });
      expect(progress).toEqual([{ progress: 1, total: 2 }]);

      const logged: unknown[] = [];
      proxy.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
        logged.push(n.params);
      });
      await proxy.client.callTool({ name: 'show', arguments: { files: [CART], mode: 'log' } });
      await until(() => logged.length > 0, 5000, 'the log message');
      expect(logged).toEqual([{ level: 'info', data: 'a log line' }]);
    } finally {
      await direct.close();
    }
  });

  it('exits when its client goes away, stops its upstream, and sums up on stderr', async () => {
    const proxy = await start();
    await show(proxy, { files: BOTH, context: 'ctx-bye' });
    await show(proxy, { files: BOTH, context: 'ctx-bye' });
    const children = childrenOf(proxy.pid);
    expect(children).toHaveLength(1);
    await proxy.close();
    expect(alive(proxy.pid)).toBe(false);
    await until(() => !alive(children[0]!), 5000, 'the upstream to stop');
    const last = proxy.stderr().trimEnd().split('\n').at(-1);
    expect(last).toMatch(
      /^span-ledger-proxy: 2 calls: [\d,]+ chars from the upstream, [\d,]+ delivered \(\d+% fewer, ~[\d,]+ tokens saved; numbering added [\d,]+ chars, dedup saved [\d,]+\), 2 pointers, 0 refreshes, 0 unproven sections$/,
    );
  });
});
