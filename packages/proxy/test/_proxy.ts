/**
 * Running the proxy the way an MCP client does: the bin as a subprocess over
 * stdio, driven by the SDK's client, with the real upstream behind it. And
 * reading what the agent gets back: the response number, the token, the
 * numbered lines of each section, the pointers.
 */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN } from './_bin.js';

/** The environment a test runs its processes in: this one, telemetry and daemons off. */
export function testEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  delete env.SPAN_LEDGER_DEDUP;
  return { ...env, CODEGRAPH_TELEMETRY: '0', CODEGRAPH_NO_DAEMON: '1', ...extra };
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
 * Starts `span-ledger-proxy [proxyArgs] -- upstream…` in `cwd` and connects a client to it.
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
    args: [options.bin ?? BIN, ...(options.args ?? []), '--', ...upstream],
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

/** What a response says, read the way an agent reads it. */
export interface ReadResponse {
  /** `Response #N`, or `null`. */
  readonly number: number | null;
  /** The context token the header gives, or `null`. */
  readonly token: string | null;
  /** Numbered source lines by path (both explore fences and `cat -n` reads). */
  readonly lines: ReadonlyMap<string, ReadonlyMap<number, string>>;
  /** The pointers: the path, the responses they cite, the lines they name. */
  readonly pointers: readonly {
    readonly path: string;
    readonly calls: readonly number[];
    readonly spans: readonly { readonly start: number; readonly end: number }[];
  }[];
}

const HEADER = /^Response #(\d+)(?: · context ([A-Za-z0-9_-]+))?/;
const SECTION =
  /^\*\*`([^`]+)`\*\*|^\*\*Location:\*\* (.+?):\d+|^([^\s:]+):$|^\*\*([^*`\s]+)\*\* — \d+ lines/;
const POINTER =
  /^>? ?Sent (?:in responses? ((?:#\d+(?:, | and )?)+)|earlier) of this conversation: `([^`]+)`((?: L\d+(?:-\d+)?,?)*)/;
const NUMBERED = /^ *(\d+)\t/;

/**
 * Reads a response: its number and token, the numbered lines under each
 * section heading (`` **`path`** ``, `**Location:** path:N`, a node file read
 * `**path** — N lines`, or a `read_multiple_files` part `path:`), and its
 * pointers.
 */
export function readResponse(text: string, single?: string): ReadResponse {
  let number: number | null = null;
  let token: string | null = null;
  const lines = new Map<string, Map<number, string>>();
  const pointers: { path: string; calls: number[]; spans: { start: number; end: number }[] }[] = [];
  let path = single ?? '';
  for (const line of text.split('\n')) {
    const header = HEADER.exec(line);
    if (header !== null && number === null) {
      number = Number(header[1]);
      token = header[2] ?? null;
      continue;
    }
    const pointer = POINTER.exec(line);
    if (pointer !== null) {
      pointers.push({
        path: pointer[2]!,
        calls: [...(pointer[1] ?? '').matchAll(/#(\d+)/g)].map((m) => Number(m[1])),
        spans: [...(pointer[3] ?? '').matchAll(/L(\d+)(?:-(\d+))?/g)].map((m) => ({
          start: Number(m[1]),
          end: Number(m[2] ?? m[1]),
        })),
      });
      continue;
    }
    const section = SECTION.exec(line);
    if (section !== null) {
      path = section[1] ?? section[2] ?? section[3] ?? section[4]!;
      continue;
    }
    const numbered = NUMBERED.exec(line);
    if (numbered !== null && path !== '') {
      let mine = lines.get(path);
      if (mine === undefined) {
        mine = new Map();
        lines.set(path, mine);
      }
      mine.set(Number(numbered[1]), line.slice(numbered[0].length));
    }
  }
  return { number, token, lines, pointers };
}
