/**
 * The harness hooks answered inside the proxy (`span_ledger_hook`): the
 * context id a PreToolUse sets, the compaction a transcript tells, and every
 * input that must leave the call as the model made it.
 */
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readContextToken } from 'span-ledger';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { harnessContextId, isHarnessContextId } from '../src/context.js';
import { openRoot } from '../src/disk.js';
import {
  answerHook,
  citedLines,
  createHookState,
  type HookSetup,
  MAX_TRANSCRIPT_BYTES,
  readHookInput,
  readTranscript,
} from '../src/hook.js';
import { localStore } from '../src/store.js';
import { closeAll, type Running, startProxy, testEnv } from './_proxy.js';

const scratches: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'span-ledger-hooks-'));
  scratches.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of scratches.splice(0)) rmSync(dir, { recursive: true, force: true });
});
afterAll(closeAll);

const SESSION = '5b9c1e52-1f7a-4c0e-9d7e-2f1b8a6c3d40';

async function setupIn(dir: string): Promise<HookSetup & { lines: string[] }> {
  const lines: string[] = [];
  const root = await openRoot(dir);
  return {
    root: root!,
    store: localStore({}),
    proxied: new Set(['read_text_file']),
    state: createHookState(),
    log: (line) => lines.push(line),
    lines,
  };
}

const preToolUse = (extra: Record<string, unknown> = {}) => ({
  event: 'PreToolUse',
  session_id: SESSION,
  agent_id: '',
  tool_name: 'mcp__fs__read_text_file',
  tool_input: JSON.stringify({ path: 'a.ts', context: 'model-says' }),
  transcript_path: '',
  source: '',
  server: 'fs',
  ...extra,
});

/** The hook output a result carries, or `null` for an empty answer (the call goes as the model made it). */
interface HookOutput {
  readonly hookSpecificOutput: {
    readonly hookEventName: string;
    readonly updatedInput: Record<string, unknown>;
    readonly additionalContext?: string;
  };
}
function outputOf(result: { content: readonly unknown[] }): HookOutput | null {
  const text = (result.content[0] as { text?: string } | undefined)?.text;
  return text === undefined ? null : JSON.parse(text);
}

describe('the context id', () => {
  it('is one per session and agent, a valid shared token, and known from an echoed one', () => {
    const main = harnessContextId(SESSION, null);
    const sub = harnessContextId(SESSION, 'a908e69ff90c41f2b');
    expect(main).toMatch(/^cc-[A-Za-z0-9_-]{43}$/);
    expect(
      new Set([main, sub, harnessContextId('other', null), harnessContextId(SESSION, 'main')]).size,
    ).toBe(4);
    expect(harnessContextId(SESSION, null)).toBe(main);
    expect(readContextToken({ context: main }, { shared: true })).toBe(main);
    expect(isHarnessContextId(main)).toBe(true);
    expect(isHarnessContextId('k7f3q2ab')).toBe(false);
    expect(isHarnessContextId(`${main}x`)).toBe(false);
    expect(isHarnessContextId(null)).toBe(false);
  });
});

describe('a PreToolUse hook', () => {
  it("sets context to the agent's id, over the model's, and keeps every other argument", async () => {
    const setup = await setupIn(scratch());
    const main = outputOf(await answerHook(setup, preToolUse()));
    expect(main).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        updatedInput: { path: 'a.ts', context: harnessContextId(SESSION, null) },
      },
    });
    const sub = outputOf(await answerHook(setup, preToolUse({ agent_id: 'a908e69ff90c41f2b' })));
    expect(sub?.hookSpecificOutput.updatedInput.context).toBe(
      harnessContextId(SESSION, 'a908e69ff90c41f2b'),
    );
  });

  it.each([
    ['input that is not an object', 'junk'],
    ['no arguments', undefined],
    ['a list', [1, 2]],
    ['an event it does not know', preToolUse({ event: 'PostToolBatch' })],
    ['no event', preToolUse({ event: 5 })],
    ['no session_id', preToolUse({ session_id: '' })],
    ['a session_id that is not a string', preToolUse({ session_id: 42 })],
    ['a tool of another server', preToolUse({ tool_name: 'mcp__github__read_text_file' })],
    ['a tool the proxy does not re-render', preToolUse({ tool_name: 'mcp__fs__write_file' })],
    ['an entry without its server', preToolUse({ server: '' })],
    ['a truncated tool input', preToolUse({ tool_input: '{"path": "a.t' })],
    ['a tool input that is a list', preToolUse({ tool_input: '[1]' })],
    ['an over-long session id', preToolUse({ session_id: 'x'.repeat(5000) })],
  ])('leaves the call as the model made it for %s', async (_name, args) => {
    const setup = await setupIn(scratch());
    expect(outputOf(await answerHook(setup, args))).toBeNull();
    expect(setup.lines.length).toBeLessThanOrEqual(1);
  });

  it('reads a later harness version by the fields it knows and ignores the rest', async () => {
    const setup = await setupIn(scratch());
    const later = { ...preToolUse(), effort: { level: 'max' }, hook_version: 9, prompt_id: 'p' };
    const output = outputOf(await answerHook(setup, later));
    expect(output?.hookSpecificOutput.updatedInput.context).toBe(harnessContextId(SESSION, null));
    expect(readHookInput({ ...later, agent_id: '  ' }).agentId).toBeNull();
  });
});

/** A transcript line of Claude Code's: one tool call and its result, of `tool`. */
function exchange(n: number, tool: string, text: string, uuid = `u${n}`): string[] {
  return [
    JSON.stringify({
      type: 'assistant',
      uuid: `${uuid}-call`,
      message: { content: [{ type: 'tool_use', id: `toolu_${n}`, name: tool, input: {} }] },
    }),
    JSON.stringify({
      type: 'user',
      uuid,
      message: {
        content: [
          { type: 'tool_result', tool_use_id: `toolu_${n}`, content: [{ type: 'text', text }] },
        ],
      },
    }),
  ];
}
const boundary = (uuids: readonly string[], at = new Date()) =>
  JSON.stringify({
    type: 'system',
    subtype: 'compact_boundary',
    timestamp: at.toISOString(),
    compactMetadata: { trigger: 'auto', preservedMessages: { uuids } },
  });

describe('reading a transcript', () => {
  it('finds the responses the last compact boundary kept, of the server only', async () => {
    const dir = scratch();
    const path = join(dir, 't.jsonl');
    const lines = [
      ...exchange(1, 'mcp__fs__read_text_file', 'Response #1/kq\nfirst'),
      ...exchange(2, 'mcp__fs__read_text_file', 'Response #2/kq\nsecond'),
      ...exchange(3, 'mcp__other__read_text_file', 'Response #9\nnot ours'),
      // Claude Code shows a result with structured content as its JSON.
      ...exchange(4, 'mcp__fs__read_text_file', '{"content":"Response #4/kq\\nfourth"}'),
      boundary(['u2', 'u2-call', 'u3', 'u3-call', 'u4', 'u4-call']),
      '{"type":"user", truncated',
    ];
    writeFileSync(path, `${lines.join('\n')}\n`);
    const reading = await readTranscript(path, 'mcp__fs__');
    expect('reason' in reading).toBe(false);
    if ('reason' in reading) return;
    expect(reading.kept?.map((r) => r.index)).toEqual([2, 4]);
    expect(reading.kept?.[1]?.text).toBe('Response #4/kq\nfourth');
    expect(reading.last?.index).toBe(4);
  });

  it('says the boundary is not there yet when the last one is older than the compaction', async () => {
    const dir = scratch();
    const path = join(dir, 't.jsonl');
    writeFileSync(
      path,
      [...exchange(1, 'mcp__fs__x', 'Response #1'), boundary(['u1'], new Date(0))].join('\n'),
    );
    const reading = await readTranscript(path, 'mcp__fs__', Date.now());
    expect(!('reason' in reading) && reading.kept).toBeNull();
  });

  it.each([
    ['missing', (dir: string) => join(dir, 'none.jsonl'), /cannot read the transcript \(ENOENT\)/],
    ['a directory', (dir: string) => dir, /cannot read the transcript \(EISDIR\)/],
    [
      'huge',
      (dir: string) => {
        const path = join(dir, 'big.jsonl');
        writeFileSync(path, '');
        truncateSync(path, MAX_TRANSCRIPT_BYTES + 1);
        return path;
      },
      /the transcript is over/,
    ],
    ['not named', () => '', /names no transcript/],
  ])('gives the reason for a transcript that is %s', async (_name, make, reason) => {
    const reading = await readTranscript(make(scratch()), 'mcp__fs__');
    expect('reason' in reading && reading.reason).toMatch(reason);
  });

  it('reads a transcript without a boundary as no compaction (kept: null)', async () => {
    const dir = scratch();
    const path = join(dir, 't.jsonl');
    writeFileSync(path, exchange(1, 'mcp__fs__x', 'Response #1\nx').join('\n'));
    const reading = await readTranscript(path, 'mcp__fs__');
    expect(!('reason' in reading) && reading.kept).toBeNull();
    expect(!('reason' in reading) && reading.last?.index).toBe(1);
  });
});

describe('pointers read back from a response', () => {
  it('reads both forms, with their spans, the responses cited, and a cut span list as unknown', () => {
    expect(
      citedLines(
        [
          'Response #3/kq',
          '> Sent in responses #2/kq and #1/kq of this conversation: `src/a.ts` L10-80, L90 (login). The file is unchanged since.',
          '> `core/util.ts` L248-254: unchanged, sent in #2.',
          'Sent in response #1 of this conversation: `b.ts` L1-4, L6-9, L12, L15-16, +2 more spans (x).',
          'no pointer `here` at all',
        ].join('\n'),
      ),
    ).toEqual([
      {
        path: 'src/a.ts',
        spans: [
          { start: 10, end: 80 },
          { start: 90, end: 90 },
        ],
        calls: [2, 1],
      },
      { path: 'core/util.ts', spans: [{ start: 248, end: 254 }], calls: [2] },
      { path: 'b.ts', spans: null, calls: [1] },
    ]);
  });
});

/** The filesystem server the proxy fronts in the session test. */
const FILESYSTEM = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-filesystem/dist/index.js',
);

describe('a session with the hooks, through the proxy', () => {
  let proxy: Running;
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await proxy.client.callTool({ name, arguments: args });
    return {
      result,
      text: (result.content as { text?: string }[]).map((c) => c.text ?? '').join('\n'),
    };
  };
  const hook = async (args: Record<string, unknown>) =>
    outputOf((await call('span_ledger_hook', args)).result as never);
  /** One read as Claude Code makes it: the hook rewrites the input, the call goes with it. */
  const read = async (path: string, agent = '') => {
    const out = await hook(preToolUse({ agent_id: agent, tool_input: JSON.stringify({ path }) }));
    const input = out?.hookSpecificOutput.updatedInput ?? {};
    return { input, ...(await call('read_text_file', input)) };
  };

  /** A proxy over the filesystem server on a root of two 30-line files, a.ts and b.ts: the scratch folder. */
  const startOnTwoFiles = async () => {
    const dir = scratch();
    const root = join(dir, 'root');
    mkdirSync(root);
    const body = (name: string) =>
      Array.from({ length: 30 }, (_, i) => `export const ${name}${i + 1} = ${i + 1};`).join('\n');
    writeFileSync(join(root, 'a.ts'), `${body('a')}\n`);
    writeFileSync(join(root, 'b.ts'), `${body('b')}\n`);
    proxy = await startProxy([process.execPath, FILESYSTEM, root], {
      cwd: root,
      args: ['--root', root],
      env: testEnv(),
    });
    return dir;
  };

  /** The session's transcript in `dir` as Claude Code writes it: one read exchange per text, then `more` lines. */
  const writeTranscript = (dir: string, texts: readonly string[], ...more: string[]) => {
    const transcript = join(dir, 'session.jsonl');
    const exchanges = texts.flatMap((text, i) => exchange(i + 1, 'mcp__fs__read_text_file', text));
    writeFileSync(transcript, `${[...exchanges, ...more].join('\n')}\n`);
    return transcript;
  };

  it('keys each agent, drops the token sentence, and tells a compaction exactly', async () => {
    const dir = await startOnTwoFiles();

    const first = await read('a.ts');
    expect(first.text).toMatch(/^Response #1\/\w+\n/);
    expect(first.text).not.toContain('send "context"');
    // The id the hook set is the context's own, never reported as a stray token.
    expect(first.text).not.toContain('is not a token');
    const second = await read('b.ts');
    const third = await read('a.ts');
    expect(third.text).toMatch(/^Response #3\/\w+/);
    expect(citedLines(third.text).map((p) => p.calls)).toEqual([[1]]);
    // A subagent on the same connection: its own context, so a.ts comes in full.
    const sub = await read('a.ts', 'a908e69ff90c41f2b');
    expect(sub.text).toMatch(/^Response #1\/\w+/);
    expect(sub.text).toContain('export const a30 = 30;');
    // A token the model echoes still prints the sentence that asks it to.
    const echoed = await call('read_text_file', { path: 'b.ts', context: 'modeltoken1' });
    expect(echoed.text).toContain('send "context": "modeltoken1"');

    // The compaction keeps the last exchange (#3): #1 and #2 are dropped.
    const transcript = writeTranscript(dir, [first.text, second.text, third.text]);
    const event = { session_id: SESSION, agent_id: '', transcript_path: transcript, server: 'fs' };
    expect(await hook({ ...event, event: 'PreCompact' })).toBeNull();
    const started = await hook({ ...event, event: 'SessionStart', source: 'compact' });
    const given = started?.hookSpecificOutput.additionalContext as string;
    // The lines given back are recorded as a response of their own, which the text opens with.
    expect(given).toMatch(/^Response #4\/\w+\n/);
    expect(given).toContain('**`a.ts`** (sent in #1)');
    expect(given).toContain('30\texport const a30 = 30;');
    expect(given.length).toBeLessThan(9000);
    // Claude Code writes the boundary after that hook, at times only once the next call
    // has begun: the call waits for it and reads it.
    const pending = read('b.ts');
    setTimeout(() => appendFileSync(transcript, `${boundary(['u3', 'u3-call'])}\n`), 300);
    const after = await pending;
    expect(after.input.refresh).toEqual([1, 2]);
    expect(after.text).toContain('export const b30 = 30;');
    expect(citedLines(after.text)).toEqual([]);
    // And only once; the lines given back stay held: a.ts is cited from the response that gave them back.
    const again = await read('a.ts');
    expect(again.input.refresh).toBeUndefined();
    expect(citedLines(again.text).map((p) => p.calls)).toEqual([[4]]);

    // `clear` starts the context over.
    await hook({ ...event, event: 'SessionStart', source: 'clear' });
    const cleared = await read('a.ts');
    expect(cleared.input.refresh).toBe(true);
    expect(cleared.text).toContain('export const a1 = 1;');
  });

  it('gives the cited lines back at SessionStart when the compact boundary is on disk already', async () => {
    const dir = await startOnTwoFiles();
    const first = await read('a.ts');
    const second = await read('b.ts');
    const third = await read('a.ts');
    // The boundary keeps the last exchange (#3), and is written before SessionStart runs.
    const transcript = writeTranscript(
      dir,
      [first.text, second.text, third.text],
      boundary(['u3', 'u3-call']),
    );
    const event = { session_id: SESSION, agent_id: '', transcript_path: transcript, server: 'fs' };
    const started = await hook({ ...event, event: 'SessionStart', source: 'compact' });
    const given = started?.hookSpecificOutput.additionalContext as string;
    expect(given).toMatch(/^Response #4\/\w+\n/);
    expect(given).toContain('**`a.ts`** (sent in #1)');
    expect(given).toContain('30\texport const a30 = 30;');
    const after = await read('b.ts');
    expect(after.input.refresh).toEqual([1, 2]);
    expect(after.text).toContain('export const b30 = 30;');
    const again = await read('a.ts');
    expect(again.input.refresh).toBeUndefined();
    expect(citedLines(again.text).map((p) => p.calls)).toEqual([[4]]);
  });
});
