/**
 * Running the proxy the way an MCP client does: the bin as a subprocess over
 * stdio, driven by the SDK's client, with the real upstream behind it (what
 * the agent reads in its answers is `_read.ts`).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, REPO } from './_bin.js';

/** The environment a test runs its processes in: this one, telemetry and daemons off. */
export function testEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  delete env.SPAN_LEDGER_DEDUP;
  return { ...env, CODEGRAPH_TELEMETRY: '0', CODEGRAPH_NO_DAEMON: '1', ...extra };
}

/**
 * A fresh scratch folder (named from `prefix`) whose `root/` holds the sample
 * project's cart.ts and money.ts, with `events` where a fixture upstream
 * writes its log. The caller removes `scratch` when done.
 */
export function sampleScratch(prefix: string): { scratch: string; root: string; events: string } {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  const root = join(scratch, 'root');
  mkdirSync(root);
  for (const name of ['cart.ts', 'money.ts']) {
    copyFileSync(join(REPO, 'fixtures/sample/src', name), join(root, name));
  }
  return { scratch, root, events: join(scratch, 'events.jsonl') };
}

/** A proxy under test and its client. */
export interface Running {
  readonly client: Client;
  /** The proxy's process id. */
  readonly pid: number;
  /** What the proxy (and the upstream) wrote to stderr so far. */
  stderr(): string;
  /** Closes the client; resolves once the proxy process has exited. */
  close(): Promise<void>;
}

const running = new Set<Running>();

/** Closes every proxy a test file started (call in `afterAll`/`afterEach`). */
export async function closeAll(): Promise<void> {
  await Promise.allSettled([...running].map((r) => r.close()));
}

/**
 * Starts `span-ledger-proxy [proxyArgs] -- upstream…` in `cwd` and connects a client to it
 * (`span-ledger-proxy [proxyArgs]` alone when `upstream` is empty: the upstream is in `args`).
 */
export async function startProxy(
  upstream: readonly string[],
  options: {
    readonly cwd: string;
    readonly args?: readonly string[];
    readonly env?: Record<string, string>;
    /** Another copy of the bin (an installed one); default this package's. */
    readonly bin?: string;
  },
): Promise<Running> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      options.bin ?? BIN,
      ...(options.args ?? []),
      ...(upstream.length > 0 ? ['--', ...upstream] : []),
    ],
    cwd: options.cwd,
    env: options.env ?? testEnv(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'proxy-test', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid!;
  const exited = new Promise<void>((resolve) => {
    const check = setInterval(() => {
      if (!alive(pid)) {
        clearInterval(check);
        resolve();
      }
    }, 20);
  });
  const handle: Running = {
    client,
    pid,
    stderr: () => stderr,
    async close() {
      running.delete(handle);
      await client.close().catch(() => {});
      await exited;
    },
  };
  running.add(handle);
  return handle;
}

/** A client connected to `command args…` directly, to compare the upstream's own answers. */
export async function startDirect(
  command: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env?: Record<string, string> },
): Promise<Client> {
  const client = new Client({ name: 'proxy-test-direct', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command,
      args: [...args],
      cwd: options.cwd,
      env: options.env ?? testEnv(),
      stderr: 'pipe',
    }),
  );
  return client;
}

/** Whether a process runs. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The direct children of a process (Linux). */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter((p) => p !== '')
      .map(Number);
  } catch {
    return [];
  }
}

/** Waits until `test()` holds, polling; fails after `ms`. */
export async function until(test: () => boolean, ms = 10_000, what = 'a condition'): Promise<void> {
  const started = Date.now();
  while (!test()) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The text of a tool result's first content block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content[0]?.type === 'text' ? (content[0].text ?? '') : '';
}

export { type ReadResponse, readResponse } from './_read.js';
