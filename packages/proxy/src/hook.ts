/**
 * The harness's hooks, answered inside the proxy: Claude Code calls the
 * hidden tool `span_ledger_hook` (an `mcp_tool` hook, see `install.ts`) on
 * the connection it already holds, with the hook's own input.
 *
 * - `PreToolUse` of a re-rendered tool: the call's `context` becomes an id
 *   made from the session and the agent, whatever the model passed.
 * - `PreCompact`: the context is marked; its next call carries `refresh` for
 *   the responses the compaction dropped.
 * - `SessionStart` (`clear`, `resume`, `fork`): the session's contexts start over.
 *
 * Not the installer (`install.ts`), and never a reason to withhold more:
 * every answer here either changes nothing or makes a call send more.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type CallRecord,
  type FileEmission,
  intersectRanges,
  type LineRange,
  mergeRanges,
} from 'span-ledger';
import { formatResponseHeader } from 'span-ledger/adapter';
import { harnessContextId, tokenKey } from './context.js';
import { diskReader, type Root } from './disk.js';
import { errorMessage } from './error-message.js';
import { isObject } from './json.js';
import type { ToolResult } from './profile.js';
import type { ProxyStore } from './store.js';

/** The hook tool's name: called by the harness, never listed to the model. */
export const HOOK_TOOL = 'span_ledger_hook';

/** Contexts and sessions the hook state keeps at most: older marks are dropped first. */
const MAX_MARKS = 4096;

/** The hook context Claude Code may inject before it diverts it to a file (about 10 KB): kept under it. */
const MAX_GIVEN_BACK_CHARS = 9_000;

/** A transcript larger than this is not read: the context then forgets all its responses. */
export const MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024;

/** The most response numbers one `refresh` can name (the core reads no longer list). */
const MAX_REFRESH_LIST = 1024;

/**
 * What the hooks remember between two of them, per context id: a compaction
 * not yet read from the transcript, and the responses the context's next
 * call is to refresh. Bounded; a mark that is dropped leaves a call as the
 * model made it, and its `refresh` was applied to the ledger already.
 */
export interface HookState {
  /** Context id → the compaction not yet read: its transcript, and when it began (ms). */
  readonly compacting: Map<string, { readonly transcript: string; readonly at: number }>;
  /** Context id → the `refresh` its next call carries. */
  readonly refresh: Map<string, readonly number[] | true>;
  /** Session id → the agent ids seen in it (so `clear` and `resume` reach its subagents too). */
  readonly agents: Map<string, Set<string>>;
  /**
   * Context id → the number the lines given back after its compaction were
   * recorded under: the model holds them (the hook's context), so reading
   * the compaction never forgets that response.
   */
  readonly givenBack: Map<string, number>;
}

/**
 * An empty hook state, one per proxy.
 *
 * @example
 * ```ts
 * createHookState().compacting.size; // 0
 * ```
 */
export function createHookState(): HookState {
  return { compacting: new Map(), refresh: new Map(), agents: new Map(), givenBack: new Map() };
}

function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > MAX_MARKS) map.delete(map.keys().next().value as K);
}

/** The hook tool's arguments as the installed entry sends them; every field a string, `''` when absent. */
export interface HookInput {
  readonly event: string;
  readonly sessionId: string;
  /** `null`: the main agent. */
  readonly agentId: string | null;
  readonly toolName: string;
  readonly toolInput: string;
  readonly transcriptPath: string;
  readonly source: string;
  /** The MCP server the entry was installed for. */
  readonly server: string;
}

/** Longest field the hook reads (a session id, a path, a tool name); the tool input has its own bound. */
const MAX_FIELD = 4096;
/** Longest tool input the hook rewrites: past it, the call goes as the model made it. */
const MAX_TOOL_INPUT = 1024 * 1024;

/**
 * Reads the hook tool's arguments: anything not a string reads as `''`, an
 * over-long field as `''` (the tool input up to 1 MiB), an empty agent id as
 * the main agent. Fields a later harness adds are ignored.
 *
 * @example
 * ```ts
 * readHookInput({ event: 'PreToolUse', session_id: 's1', agent_id: '' }).agentId; // null
 * readHookInput('junk').event;                                                     // ''
 * ```
 */
export function readHookInput(args: unknown): HookInput {
  const record = isObject(args) ? args : {};
  const field = (key: string, max = MAX_FIELD) => {
    const value = Object.hasOwn(record, key) ? record[key] : undefined;
    return typeof value === 'string' && value.length <= max ? value : '';
  };
  const agent = field('agent_id');
  return {
    event: field('event'),
    sessionId: field('session_id').trim(),
    agentId: agent.trim() === '' ? null : agent.trim(),
    toolName: field('tool_name'),
    toolInput: field('tool_input', MAX_TOOL_INPUT),
    transcriptPath: field('transcript_path'),
    source: field('source'),
    server: field('server'),
  };
}

/** Server names as Claude Code writes them into tool names. */
export const toolPrefixOf = (server: string) => `mcp__${server.replace(/[^A-Za-z0-9_-]/g, '_')}__`;

/** One tool result the compaction kept, of the proxied server: its number and its text. */
export interface KeptResponse {
  readonly index: number;
  readonly text: string;
}

const RESPONSE_HEADER = /^Response #(\d+)(?:\/[A-Za-z0-9_-]+)?(?:\s|$)/;

/**
 * A tool result's text as the model read it: its text blocks, and where the
 * harness showed the result's structured content instead (a JSON object, as
 * Claude Code does for a tool with an output schema), that object's strings.
 */
function blockText(content: unknown): string {
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content
            .map((block) => (block?.type === 'text' ? String(block.text ?? '') : ''))
            .join('\n')
        : '';
  if (!text.startsWith('{')) return text;
  const structured = parseLine(text);
  if (structured === null) return text;
  return Object.values(structured)
    .filter((value): value is string => typeof value === 'string')
    .join('\n');
}

/** What a transcript says of the proxied server's responses. */
export interface TranscriptReading {
  /**
   * The responses the last compaction kept (the messages its compact
   * boundary lists, and every message after it); `null` when the transcript
   * holds no boundary written since `since`.
   */
  readonly kept: readonly KeptResponse[] | null;
  /** The last response of the server in the transcript, wherever it is. */
  readonly last: KeptResponse | null;
}

/**
 * Reads a transcript (Claude Code's JSONL) for the responses of the tools
 * whose names start with `toolPrefix`: which ones its last compaction kept,
 * and which one came last. A sentence instead when it cannot be read: no
 * transcript named, missing, unreadable, over `MAX_TRANSCRIPT_BYTES`.
 *
 * @example
 * ```ts
 * const reading = await readTranscript('/home/me/.claude/projects/-app/3f1c.jsonl', 'mcp__codegraph__');
 * 'reason' in reading ? reading.reason : reading.kept?.map((r) => r.index); // e.g. [7]
 * ```
 */
export async function readTranscript(
  transcriptPath: string,
  toolPrefix: string,
  since = 0,
): Promise<TranscriptReading | { readonly reason: string }> {
  if (transcriptPath === '') return { reason: 'the hook input names no transcript' };
  let text: string;
  try {
    const size = (await stat(transcriptPath)).size;
    if (size > MAX_TRANSCRIPT_BYTES) {
      return { reason: `the transcript is over ${MAX_TRANSCRIPT_BYTES} bytes` };
    }
    text = await readFile(transcriptPath, 'utf8');
  } catch (error) {
    return {
      reason: `cannot read the transcript (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    };
  }
  const lines = text.split('\n');
  let boundary = -1;
  let meta: Record<string, unknown> = {};
  for (let i = lines.length - 1; i >= 0 && boundary < 0; i--) {
    if (!lines[i]!.includes('"compact_boundary"')) continue;
    const entry = parseLine(lines[i]!);
    if (entry?.type !== 'system' || entry.subtype !== 'compact_boundary') continue;
    boundary = i;
    const found = entry.compactMetadata;
    meta = isObject(found) ? found : {};
    // A boundary older than the compaction asked about is an earlier compaction's.
    const at = Date.parse(String(entry.timestamp));
    if (since > 0 && !(at >= since)) boundary = Number.MAX_SAFE_INTEGER;
  }
  const preserved = meta.preservedMessages as { uuids?: unknown } | undefined;
  const uuids = new Set(
    Array.isArray(preserved?.uuids) ? preserved.uuids.filter((u) => typeof u === 'string') : [],
  );
  const walk = uuids.size === 0 && meta.preservedSegment !== undefined;
  const byUuid = new Map<string, Record<string, unknown>>();
  const all: Record<string, unknown>[] = [];
  const keptEntries: Record<string, unknown>[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // Only tool calls and results matter (and, to walk a segment, every message).
    if (!line.includes('"tool_use') && !(walk && line.includes('"parentUuid"'))) continue;
    const entry = parseLine(line);
    if (entry === null) continue;
    all.push(entry);
    if (typeof entry.uuid === 'string') byUuid.set(entry.uuid, entry);
    if (i > boundary || (typeof entry.uuid === 'string' && uuids.has(entry.uuid))) {
      keptEntries.push(entry);
    }
  }
  if (walk) keptEntries.push(...segmentOf(meta.preservedSegment, byUuid));
  const found = boundary >= 0 && boundary < Number.MAX_SAFE_INTEGER;
  return {
    kept: found ? responsesIn(keptEntries, toolPrefix) : null,
    last: responsesIn(all, toolPrefix).at(-1) ?? null,
  };
}

/** The responses of the server's tools among `entries`, in their order. */
function responsesIn(
  entries: readonly Record<string, unknown>[],
  toolPrefix: string,
): KeptResponse[] {
  const blocks = entries.flatMap((entry) => {
    const content = (entry.message as { content?: unknown } | undefined)?.content;
    return Array.isArray(content) ? content : [];
  });
  const toolNames = new Map<string, string>();
  for (const block of blocks) {
    if (
      block?.type === 'tool_use' &&
      typeof block.id === 'string' &&
      typeof block.name === 'string'
    ) {
      toolNames.set(block.id, block.name);
    }
  }
  const out: KeptResponse[] = [];
  for (const block of blocks) {
    if (block?.type !== 'tool_result') continue;
    if (!toolNames.get(String(block.tool_use_id))?.startsWith(toolPrefix)) continue;
    const result = blockText(block.content);
    const header = RESPONSE_HEADER.exec(result);
    if (header !== null) out.push({ index: Number(header[1]), text: result });
  }
  return out;
}

function parseLine(line: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(line) as unknown;
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** The messages of a `preservedSegment` (tail back to head through `parentUuid`), bounded. */
function segmentOf(
  segment: unknown,
  byUuid: Map<string, Record<string, unknown>>,
): Record<string, unknown>[] {
  if (!isObject(segment)) return [];
  const { headUuid, tailUuid } = segment;
  const out: Record<string, unknown>[] = [];
  let at = typeof tailUuid === 'string' ? tailUuid : undefined;
  for (let steps = 0; at !== undefined && steps < 100_000; steps++) {
    const entry = byUuid.get(at);
    if (entry === undefined) break;
    out.push(entry);
    if (at === headUuid) break;
    at = typeof entry.parentUuid === 'string' ? entry.parentUuid : undefined;
  }
  return out;
}

/** A pointer read back from a response's text: the file, its spans when all are named, the responses it cites. */
export interface CitedLines {
  readonly path: string;
  /** `null`: the pointer named only some of them (`+N more spans`). */
  readonly spans: readonly LineRange[] | null;
  readonly calls: readonly number[];
}

const POINTER = /`([^`\n]+)` (L\d+(?:-\d+)?(?:, L\d+(?:-\d+)?)*)(,? \+\d+ more spans?)?/;

/**
 * The pointers in a response's text, as `formatPointer` writes them (one per
 * line, quoted or not): the path, the spans and the responses cited.
 *
 * @example
 * ```ts
 * citedLines('> Sent in response #3 of this conversation: `src/a.ts` L10-80 (login).');
 * // → [{ path: 'src/a.ts', spans: [{ start: 10, end: 80 }], calls: [3] }]
 * citedLines('> `core/util.ts` L248-254: unchanged, sent in #2.');
 * // → [{ path: 'core/util.ts', spans: [{ start: 248, end: 254 }], calls: [2] }]
 * ```
 */
export function citedLines(text: string): CitedLines[] {
  const out: CitedLines[] = [];
  for (const line of text.split('\n')) {
    const match = POINTER.exec(line);
    if (match === null || !/#\d/.test(line)) continue;
    const calls = [...new Set([...line.matchAll(/#(\d+)/g)].map((m) => Number(m[1])))];
    const spans = match[2]!.split(', ').map((span) => {
      const [start, end] = span.slice(1).split('-').map(Number);
      return { start: start!, end: end ?? start! };
    });
    out.push({ path: match[1]!, spans: match[3] === undefined ? spans : null, calls });
  }
  return out;
}

/** What the proxy hands the hook answerer: where to prove, what to prune, which tools it re-renders. */
export interface HookSetup {
  readonly root: Root;
  readonly store: ProxyStore;
  readonly proxied: ReadonlySet<string>;
  readonly state: HookState;
  readonly log: (line: string) => void;
}

const NOTHING: ToolResult = { content: [] };
const answer = (output: unknown): ToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(output) }],
});

/**
 * Answers one call of the hook tool. Anything it cannot read or do leaves
 * the harness's action as it was (an empty answer) and logs one line; it
 * never throws.
 *
 * @example
 * ```ts
 * const result = await answerHook(setup, { event: 'PreToolUse', session_id: 's1', agent_id: '',
 *   tool_name: 'mcp__codegraph__explore', tool_input: '{"query":"auth"}', server: 'codegraph' });
 * // → the hook output that sets `context` to harnessContextId('s1', null)
 * ```
 */
export async function answerHook(
  setup: HookSetup,
  args: unknown,
  principal?: string,
): Promise<ToolResult> {
  const input = readHookInput(args);
  try {
    switch (input.event) {
      case 'PreToolUse':
        return await preToolUse(setup, input, principal);
      case 'PreCompact':
        if (input.sessionId === '') return NOTHING;
        remember(setup.state.compacting, harnessContextId(input.sessionId, input.agentId), {
          transcript: transcriptOf(input),
          at: Date.now(),
        });
        return NOTHING;
      case 'SessionStart':
        return await sessionStart(setup, input, principal);
      default:
        return NOTHING;
    }
  } catch (error) {
    setup.log(
      `hook ${input.event || '(no event)'}: ${errorMessage(error)}; the call goes as the model made it`,
    );
    return NOTHING;
  }
}

/** The transcript of the hook's context: a subagent's own, beside the session's. */
function transcriptOf(input: HookInput): string {
  if (input.agentId === null || input.transcriptPath === '') return input.transcriptPath;
  const dir = input.transcriptPath.replace(/\.jsonl$/, '');
  return join(dir, 'subagents', `agent-${input.agentId.replace(/[^A-Za-z0-9_-]/g, '_')}.jsonl`);
}

async function preToolUse(
  setup: HookSetup,
  input: HookInput,
  principal: string | undefined,
): Promise<ToolResult> {
  const prefix = toolPrefixOf(input.server);
  if (input.server === '' || input.sessionId === '' || !input.toolName.startsWith(prefix)) {
    return NOTHING;
  }
  if (!setup.proxied.has(input.toolName.slice(prefix.length))) return NOTHING;
  let toolInput: unknown;
  try {
    toolInput = JSON.parse(input.toolInput === '' ? '{}' : input.toolInput);
  } catch {
    setup.log(`hook PreToolUse: the tool input is not JSON; the call goes as the model made it`);
    return NOTHING;
  }
  if (!isObject(toolInput)) return NOTHING;
  const id = harnessContextId(input.sessionId, input.agentId);
  if (input.agentId !== null) {
    const agents = setup.state.agents.get(input.sessionId) ?? new Set<string>();
    if (agents.size < MAX_MARKS) agents.add(input.agentId);
    remember(setup.state.agents, input.sessionId, agents);
  }
  const mark = setup.state.compacting.get(id);
  if (mark !== undefined) {
    setup.state.compacting.delete(id);
    // Claude Code may write the boundary only as the first call after the compaction
    // goes out: read again for a short while before the context forgets everything.
    for (let waited = 0; ; waited += BOUNDARY_POLL_MS) {
      const final = waited >= BOUNDARY_WAIT_MS;
      if ((await readCompaction(setup, id, mark, input.server, principal, final)) !== null) break;
      await sleep(BOUNDARY_POLL_MS);
    }
  }
  const pending = setup.state.refresh.get(id);
  setup.state.refresh.delete(id);
  const updatedInput: Record<string, unknown> = {
    ...(toolInput as Record<string, unknown>),
    context: id,
  };
  if (pending !== undefined) updatedInput.refresh = mergeRefresh(pending, updatedInput.refresh);
  return answer({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput } });
}

/** The hook's `refresh` beside the model's own: `true` wins, else both lists. */
function mergeRefresh(pending: readonly number[] | true, own: unknown): readonly number[] | true {
  if (pending === true || own === true) return true;
  const mine = Array.isArray(own) ? own.filter((n) => Number.isSafeInteger(n) && n > 0) : [];
  const all = [...new Set([...pending, ...mine])].sort((a, b) => a - b);
  return all.length > MAX_REFRESH_LIST ? true : all;
}

/** How long the first call after a compaction waits for its compact boundary, and how often it looks. */
const BOUNDARY_WAIT_MS = 2000;
const BOUNDARY_POLL_MS = 50;

/** How much earlier than the `PreCompact` hook its compact boundary may be stamped (clock rounding). */
const BOUNDARY_SKEW_MS = 1000;

/**
 * Reads what a compaction of context `id` dropped: every response its ledger
 * holds that the transcript's compact boundary, written since the
 * compaction began, did not keep. They are forgotten now and named in the
 * context's next `refresh`; when the transcript cannot tell, the context
 * forgets everything it was sent. `null`: no boundary yet (read again later).
 */
async function readCompaction(
  setup: HookSetup,
  id: string,
  mark: { readonly transcript: string; readonly at: number },
  server: string,
  principal: string | undefined,
  final: boolean,
): Promise<readonly KeptResponse[] | null> {
  const sessionId = tokenKey(id, principal);
  const projectRoot = setup.root.path;
  const found = await readTranscript(
    mark.transcript,
    toolPrefixOf(server),
    mark.at - BOUNDARY_SKEW_MS,
  );
  if (!('reason' in found) && found.kept === null && !final) return null;
  const state = 'reason' in found ? null : await setup.store.project(projectRoot, sessionId);
  if ('reason' in found || found.kept === null || state === null) {
    const why =
      'reason' in found
        ? found.reason
        : 'the transcript holds no compact boundary since the compaction began';
    setup.log(`hook: ${why}; the context forgets every response it was sent`);
    await setup.store.prune({ sessionId, projectRoot });
    remember(setup.state.refresh, id, true);
    return [];
  }
  const keptIndexes = new Set(found.kept.map((r) => r.index));
  const given = setup.state.givenBack.get(id);
  if (given !== undefined) keptIndexes.add(given);
  setup.state.givenBack.delete(id);
  const dropped = state.calls.map((c) => c.index).filter((n) => !keptIndexes.has(n));
  if (dropped.length > 0) {
    await setup.store.prune({ sessionId, projectRoot, calls: dropped });
    remember(setup.state.refresh, id, dropped.length > MAX_REFRESH_LIST ? true : dropped);
  }
  return found.kept;
}

async function sessionStart(
  setup: HookSetup,
  input: HookInput,
  principal: string | undefined,
): Promise<ToolResult> {
  if (input.sessionId === '') return NOTHING;
  const main = harnessContextId(input.sessionId, null);
  if (input.source === 'clear' || input.source === 'resume' || input.source === 'fork') {
    for (const agent of [null, ...(setup.state.agents.get(input.sessionId) ?? [])]) {
      const id = harnessContextId(input.sessionId, agent);
      setup.state.compacting.delete(id);
      setup.state.givenBack.delete(id);
      await setup.store.prune({ sessionId: tokenKey(id, principal), projectRoot: setup.root.path });
      remember(setup.state.refresh, id, true);
    }
    return NOTHING;
  }
  if (input.source !== 'compact') return NOTHING;
  const projectRoot = setup.root.path;
  const sessionId = tokenKey(main, principal);
  // The ledger before the compaction's responses are forgotten: where the cited lines came from.
  const before = await setup.store.project(projectRoot, sessionId);
  const mark = setup.state.compacting.get(main) ?? {
    transcript: input.transcriptPath,
    at: Date.now(),
  };
  const kept = await readCompaction(setup, main, mark, input.server, principal, false);
  let cited: readonly KeptResponse[];
  if (kept !== null) {
    // The boundary is on disk: the kept responses' pointers to the ones it dropped.
    setup.state.compacting.delete(main);
    cited = kept;
  } else {
    // Claude Code writes the boundary after this hook: what it keeps ends with the last
    // response, whose pointers cite earlier ones. The next call reads the boundary itself.
    remember(setup.state.compacting, main, mark);
    const reading = await readTranscript(input.transcriptPath, toolPrefixOf(input.server));
    cited = 'reason' in reading || reading.last === null ? [] : [reading.last];
  }
  const given = await givenBack(setup.root, before?.calls ?? [], cited);
  const { text, index } = await recordGivenBack(setup, sessionId, given);
  // Reading the boundary at the next call must not forget the lines given back.
  if (kept === null && index !== null) remember(setup.state.givenBack, main, index);
  return text === ''
    ? NOTHING
    : answer({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } });
}

/**
 * The lines that pointers in the kept responses cite from dropped ones,
 * re-read from disk and proved by the fingerprint each was sent with; past
 * `MAX_GIVEN_BACK_CHARS`, or for lines that cannot be proved, one line
 * naming the responses to refresh.
 */
async function givenBack(
  root: Root,
  calls: readonly CallRecord[],
  kept: readonly KeptResponse[],
): Promise<{ readonly text: string; readonly files: readonly FileEmission[] }> {
  const keptIndexes = new Set(kept.map((r) => r.index));
  const byIndex = new Map(calls.map((c) => [c.index, c]));
  const sections: string[] = [];
  // What the sections carry, by path: the spans given back, the fingerprint that proved them.
  const given = new Map<string, { fingerprint: string; ranges: LineRange[]; chars: number }>();
  const unproved = new Set<number>();
  const cited = new Set<number>();
  const read = diskReader(root);
  for (const response of kept) {
    for (const pointer of citedLines(response.text)) {
      for (const n of pointer.calls.filter((n) => !keptIndexes.has(n))) {
        cited.add(n);
        const sent = byIndex.get(n)?.files.find((f) => f.path === pointer.path);
        const file = sent === undefined ? null : await read(sent.path);
        if (sent === undefined || file === null || file.fingerprint !== sent.fingerprint) {
          unproved.add(n);
          continue;
        }
        const spans =
          pointer.spans === null ? sent.ranges : intersectRanges(sent.ranges, pointer.spans);
        const mine = given.get(sent.path) ?? {
          fingerprint: file.fingerprint,
          ranges: [],
          chars: 0,
        };
        const lines: string[] = [];
        for (const span of spans) {
          const { start } = span;
          const end = Math.min(span.end, file.lineCount);
          if (end < start) continue;
          for (let line = start; line <= end; line++) lines.push(`${line}\t${file.line(line)}`);
          mine.chars += file.chars(start, end);
          mine.ranges.push({ start, end });
        }
        if (lines.length > 0) {
          given.set(sent.path, mine);
          sections.push(
            `**\`${pointer.path}\`** (sent in #${n})\n\`\`\`\n${lines.join('\n')}\n\`\`\``,
          );
        }
      }
    }
  }
  if (cited.size === 0) return { text: '', files: [] };
  const list = (numbers: Iterable<number>) => [...numbers].sort((a, b) => a - b);
  const refreshLine = (numbers: number[]) =>
    `Compaction removed response${numbers.length === 1 ? '' : 's'} ${numbers.map((n) => `#${n}`).join(', ')}, which pointers in the kept response cite: call the tool with \`refresh: [${numbers.join(', ')}]\` if you need those lines.`;
  const whole = [
    `Lines that pointers in the response kept by the compaction cite from responses it removed, re-read from disk, unchanged since they were sent:`,
    ...sections,
    ...(unproved.size > 0 ? [refreshLine(list(unproved))] : []),
  ].join('\n\n');
  return sections.length > 0 && whole.length <= MAX_GIVEN_BACK_CHARS
    ? {
        text: whole,
        files: [...given].map(([path, g]) => ({
          path,
          fingerprint: g.fingerprint,
          ranges: mergeRanges(g.ranges),
          chars: g.chars,
        })),
      }
    : { text: refreshLine(list(cited)), files: [] };
}

/**
 * Records the lines a compaction's hook gave back as a response of the
 * context (the model holds them: they are the hook's context), so later
 * calls cite them instead of sending them again, and opens the text with
 * that response's number. Nothing recorded (the store is away): the text as
 * it was, and later calls send those lines again.
 */
async function recordGivenBack(
  setup: HookSetup,
  sessionId: string,
  given: { readonly text: string; readonly files: readonly FileEmission[] },
): Promise<{ readonly text: string; readonly index: number | null }> {
  if (given.files.length === 0) return { text: given.text, index: null };
  const projectRoot = setup.root.path;
  const ticket = await setup.store.reserve(projectRoot, sessionId);
  if (ticket === null) return { text: given.text, index: null };
  const { callIndex, generation } = ticket;
  const text = `${formatResponseHeader({ callIndex, generation })}\n${given.text}`;
  const recorded = await ticket.record({
    projectRoot,
    query: 'compaction',
    files: given.files,
    sourceChars: given.files.reduce((sum, f) => sum + f.chars, 0),
    responseChars: text.length,
  });
  return recorded === null ? { text: given.text, index: null } : { text, index: callIndex };
}
