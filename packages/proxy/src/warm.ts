/**
 * A warm-up before the first client: the proxy's own call path — proof from
 * disk, the symbol scan, planning, the pointer, re-rendering sections and
 * reads, the check of the upstream's result, sizing, recording — run over a
 * few made-up calls, so that V8 has compiled and optimized it before a real
 * call pays for it. Cold, the first calls of a process cost 10–25 ms of CPU
 * each; warm, 2–4 ms. What a call does once per process is done here too: the
 * SDK's result schema builds its parser, the random source for context
 * tokens loads.
 *
 * The calls go through {@link answerCall} with a store, figures and an
 * upstream of their own: nothing a client sees or the exit line counts. The
 * one file they prove against is this module's own file, read where it
 * lies and never written.
 */
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mintContextToken } from 'span-ledger';
import type { FileSource } from 'span-ledger/adapter';
import { answerCall, type CallSetup } from './call.js';
import { openRoot, type Root, readUnderRoot } from './disk.js';
import { filesystemProfile } from './filesystem.js';
import type { Profile, ToolResult } from './profile.js';
import { codegraphProfile, PROXY_LIMITS } from './sectioned.js';
import { createStats } from './stats.js';
import { localStore } from './store.js';

/** Rounds of made-up calls: measured by `bench:proxy`, fewer leave the first real calls cold. */
const ROUNDS = 8;

/** Lines `from..to` of `file` (those it has), as `N\ttext` when `numbered`. */
function linesOf(file: FileSource, from: number, to: number, numbered: boolean): string {
  const out: string[] = [];
  for (let n = from; n <= Math.min(to, file.lineCount); n++) {
    out.push(numbered ? `${n}\t${file.line(n)}` : file.line(n));
  }
  return out.join('\n');
}

/** A section of `file` as Codegraph writes one: numbered lines, a gap between two runs. */
function section(file: FileSource, heading: string, from: number, to: number): string[] {
  const middle = from + Math.floor((to - from) / 2);
  return [
    heading,
    '',
    '```typescript',
    linesOf(file, from, middle - 10, true),
    '',
    `... (gap: section (${file.path}:${middle - 9})) ...`,
    '',
    linesOf(file, middle, to, true),
    '```',
    '',
  ];
}

/** An exploration shaped as Codegraph's: prose and lists around two overlapping sections of `file`. */
function exploration(file: FileSource, round: number): ToolResult {
  const at = 1 + ((round * 37) % Math.max(1, file.lineCount - 160));
  const heading = `**\`${file.path}\`** — warmUp(function), section(function), +3 more`;
  const text = [
    '**Exploration: warm-up**',
    '',
    'Found 4 symbols across 1 file.',
    '',
    `- \`warmUp\` (${file.path}:${at}) — 1 caller; no tests found within 3 caller hops`,
    `- \`section\` (${file.path}:${at + 9}) — 2 callers; no tests found within 3 caller hops`,
    '',
    '> The source below is read from disk on this call, line-numbered.',
    '',
    ...section(file, heading, at, at + 80),
    ...section(file, heading, at + 60, at + 160),
    '**Not shown above**',
    '',
    `- ${file.path}: exploration:${at + 3}, linesOf:${at + 5}`,
    '',
    '> Some file sections were trimmed for size.',
  ].join('\n');
  return { content: [{ type: 'text', text }] };
}

/** A node as Codegraph shows one: its location, then its source. */
function node(file: FileSource, round: number): ToolResult {
  const at = 1 + ((round * 53) % Math.max(1, file.lineCount - 40));
  const text = [
    `**Location:** ${file.path}:${at} — warmUp(function)`,
    '',
    '```typescript',
    linesOf(file, at, at + 30, true),
    '```',
  ].join('\n');
  return { content: [{ type: 'text', text }] };
}

/** One call through `answerCall`, answered by `result`. */
function call(setup: CallSetup, tool: string, args: Record<string, unknown>, result: ToolResult) {
  return answerCall(setup, {
    tool,
    args,
    meta: undefined,
    signal: new AbortController().signal,
    forward: async () => ({ result }),
  });
}

/** What a warm-up did: calls re-rendered, and the pointers they wrote. */
export interface WarmedUp {
  readonly calls: number;
  readonly pointers: number;
}

/**
 * Runs the call path a few times, and says how much of it ran. Never throws:
 * a warm-up that fails costs only the speed it was for.
 *
 * @example
 * ```ts
 * await warmUp(); // before the first client connects: { calls: 40, pointers: 32 }
 * ```
 */
export async function warmUp(): Promise<WarmedUp> {
  try {
    const own = fileURLToPath(import.meta.url);
    const name = basename(own);
    const stats = createStats();
    const setup = (profile: Profile, root: Root): CallSetup => ({
      root,
      store: localStore(PROXY_LIMITS),
      stats,
      profile,
      enabled: true,
      maxTokens: 25_000,
      mintToken: mintContextToken,
      sharedTokens: false,
      log: () => {},
    });
    for (let round = 0; round < ROUNDS; round++) {
      // A root of its own each round: the file is read from disk each time, not kept.
      const root = await openRoot(dirname(own));
      const file = root === null ? null : await readUnderRoot(root, name);
      if (root === null || file === null) break;
      const sections = setup(codegraphProfile, root);
      const reads = setup(filesystemProfile, root);
      const context = mintContextToken();
      const explore = exploration(file, round);
      const read = { content: [{ type: 'text', text: linesOf(file, 1, 150, false) }] };
      // The second call of a context asks again: pointers, and the size gate.
      await call(sections, 'codegraph_explore', { query: 'warm-up', context }, explore);
      await call(sections, 'codegraph_explore', { query: 'warm-up', context }, explore);
      await call(sections, 'codegraph_node', { symbol: 'warmUp', context }, node(file, round));
      await call(reads, 'read_text_file', { path: name, head: 150, context }, read);
      await call(reads, 'read_text_file', { path: name, head: 150, context }, read);
    }
    const { calls, pointers } = stats.report().total;
    return { calls, pointers };
  } catch {
    return { calls: 0, pointers: 0 };
  }
}
