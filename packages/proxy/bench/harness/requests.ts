/**
 * Reading what the model received: the Messages API request bodies Claude
 * Code sent to the scripted model, and nothing else. Each request is split
 * into its texts in order (system prompt, message texts, tool results); each
 * text is read as an agent reads a response (`_read.ts`: numbered lines under
 * their path, pointers and the lines they cite, the response's number and
 * token). It knows neither the proxy nor the core: only what is on the wire.
 *
 * The figures: per tool result, at the first request that carries it (where
 * the model reads it), its source chars, its duplicate chars (numbered lines
 * already present earlier in that same request) and its pointers — stale when
 * a line they cite is absent from that request. Results made before the
 * compaction and kept by it are read again in the first request after it:
 * their pointers either still find their lines there (given back by a hook or
 * kept), are recovered in a later request (a refresh), or are lost.
 */
import { readResponse } from '../../test/_read.js';
import type { Logged, MessagesBody } from './model.js';

/** What marks each scripted context's prompt (the summary the model writes keeps the main one). */
export const MARK = { main: '[bench:main]', sub: '[bench:sub]' } as const;
/** The prompt Claude Code's compaction request ends with. */
const SUMMARY_PROMPT = 'Your task is to create a detailed summary of the conversation';
/** What Claude Code puts in place of an MCP result over its output cap. */
const SAVED_STUB = /exceeds maximum allowed tokens\. Output has been saved to/;

export type Role = 'main' | 'sub' | 'compact' | 'side';

/** One text of a request, in order: a tool result (`id` its `tool_use_id`) or any other text. */
export interface Segment {
  readonly id: string | null;
  readonly text: string;
}

export interface ToolUse {
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
}

export interface Tool {
  readonly name: string;
  readonly description?: string;
  readonly input_schema?: unknown;
}

/** One request as the model received it. */
export interface ReadRequest {
  readonly role: Role;
  readonly system: string;
  readonly segments: readonly Segment[];
  readonly uses: readonly ToolUse[];
  readonly tools: readonly Tool[];
}

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b: { type?: string; text?: unknown }) =>
      b?.type === 'text' && typeof b.text === 'string' ? b.text : '',
    )
    .join('\n');
}

/** Splits a request body into its texts and tool calls, and says whose it is. */
export function readRequest(body: MessagesBody): ReadRequest {
  const system = Array.isArray(body.system)
    ? body.system.map((s) => s.text ?? '').join('\n')
    : typeof body.system === 'string'
      ? body.system
      : '';
  const segments: Segment[] = [];
  const uses: ToolUse[] = [];
  for (const message of body.messages ?? []) {
    const content = message.content;
    if (typeof content === 'string') {
      segments.push({ id: null, text: content });
      continue;
    }
    if (!Array.isArray(content)) continue;
    for (const block of content as Record<string, unknown>[]) {
      if (block.type === 'text' && typeof block.text === 'string') {
        segments.push({ id: null, text: block.text });
      } else if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
        segments.push({ id: block.tool_use_id, text: blockText(block.content) });
      } else if (block.type === 'tool_use' && typeof block.id === 'string') {
        uses.push({
          id: block.id,
          name: String(block.name),
          input: (block.input ?? {}) as Record<string, unknown>,
        });
      }
    }
  }
  const last = segments.at(-1)?.text ?? '';
  // Whose conversation: the first text that carries a context's mark (its prompt, or the summary).
  const marked = segments.find((s) => s.text.includes(MARK.main) || s.text.includes(MARK.sub));
  const tools = body.tools ?? [];
  const role: Role = last.includes(SUMMARY_PROMPT)
    ? 'compact'
    : tools.length === 0 || marked === undefined
      ? 'side'
      : marked.text.includes(MARK.sub)
        ? 'sub'
        : 'main';
  return { role, system, segments, uses, tools };
}

/** A segment read as an agent reads a response, its paths made relative to `root`. */
export interface Reading {
  readonly number: number | null;
  readonly token: string | null;
  /** Numbered lines in order: `path:line` and the line's chars (with its newline). */
  readonly lines: readonly { readonly key: string; readonly chars: number }[];
  readonly pointers: readonly {
    readonly keys: readonly string[];
    readonly calls: readonly number[];
  }[];
}

const readings = new Map<string, Reading>();

/** Reads one text (memoized: a conversation repeats its texts in every request). */
export function readSegment(text: string, root: string): Reading {
  const memo = `${root}\0${text}`;
  const known = readings.get(memo);
  if (known !== undefined) return known;
  const relative = (path: string) =>
    path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
  const read = readResponse(text);
  const lines: { key: string; chars: number }[] = [];
  for (const [path, numbered] of read.lines) {
    for (const [n, line] of numbered)
      lines.push({ key: `${relative(path)}:${n}`, chars: line.length + 1 });
  }
  const pointers = read.pointers.map((p) => ({
    calls: p.calls,
    keys: p.spans.flatMap(({ start, end }) =>
      Array.from({ length: end - start + 1 }, (_, i) => `${relative(p.path)}:${start + i}`),
    ),
  }));
  const reading = { number: read.number, token: read.token, lines, pointers };
  if (readings.size > 5000) readings.clear();
  readings.set(memo, reading);
  return reading;
}

/** Every `path:line` a request holds. */
export function heldLines(request: ReadRequest, root: string): Set<string> {
  const held = new Set<string>();
  for (const segment of request.segments) {
    for (const { key } of readSegment(segment.text, root).lines) held.add(key);
  }
  return held;
}

/** The figures of one arm's session, all read from its request bodies. */
export interface HarnessFigures {
  /** Explore calls the model made, by context (refresh calls apart). */
  mainCalls: number;
  subCalls: number;
  refreshCalls: number;
  refreshChars: number;
  sourceChars: number;
  duplicateChars: number;
  uniqueChars: number;
  pointers: number;
  stale: number;
  staleInSubagent: number;
  /** In responses made after the compaction. */
  staleAfterCompaction: number;
  /** In the main context before any compaction. */
  staleUncompacted: number;
  /** Pointers inside results the compaction kept, read again after it. */
  keptPointers: number;
  /** …whose lines the first request after the compaction held (kept or given back by a hook). */
  keptHeld: number;
  /** …missing there, found in a later request (a refresh brought them). */
  keptRecovered: number;
  /** …missing there and never brought back. */
  keptLost: number;
  /** Of the source chars, those in texts other than tool results (what a hook gave back), each text once. */
  givenBackChars: number;
  /** Of the duplicate chars, those in texts other than tool results. */
  givenBackDuplicateChars: number;
  /** Every `path:line` each context received over the session, sorted. */
  received: { main: string[]; sub: string[] };
  /** Lines a pointer cites that the request reading it did not hold (each pointer read once). */
  citedMissing: number;
  /** All chars of the server's results (each read once): source, and the server's own words around it. */
  resultChars: number;
  largestResult: number;
  largestRequest: number;
  sumRequests: number;
  requests: number;
  compactions: number;
  /** Results of a proxied tool Claude Code replaced by its "saved to a file" stub. */
  savedStubs: number;
  /** The server's instructions as the main context's system prompt carries them (from its heading on, 4,096 chars and a little more). */
  instructions: string;
  /** The subagent's explore tool describes `context` and `refresh`. */
  subSchemaExplains: boolean;
  /** Per explore call: model answer to the request carrying its result, in ms (the call's round trip in the harness). */
  roundTripMs: number[];
}

function describes(tool: Tool | undefined, name: string): boolean {
  const schema = tool?.input_schema as { properties?: Record<string, { description?: string }> };
  const text = schema?.properties?.[name]?.description ?? '';
  return text.length > 0;
}

/**
 * Measures one session from its log. `server` is the MCP server's name in
 * the config (its tools are `mcp__server__…`), `root` the project's folder.
 */
export function measure(log: readonly Logged[], server: string, root: string): HarnessFigures {
  const prefix = `mcp__${server}__`;
  const figures: HarnessFigures = {
    mainCalls: 0,
    subCalls: 0,
    refreshCalls: 0,
    refreshChars: 0,
    sourceChars: 0,
    duplicateChars: 0,
    uniqueChars: 0,
    pointers: 0,
    stale: 0,
    staleInSubagent: 0,
    staleAfterCompaction: 0,
    staleUncompacted: 0,
    keptPointers: 0,
    keptHeld: 0,
    keptRecovered: 0,
    keptLost: 0,
    givenBackChars: 0,
    givenBackDuplicateChars: 0,
    received: { main: [], sub: [] },
    citedMissing: 0,
    resultChars: 0,
    largestResult: 0,
    largestRequest: 0,
    sumRequests: 0,
    requests: 0,
    compactions: 0,
    savedStubs: 0,
    instructions: '',
    subSchemaExplains: false,
    roundTripMs: [],
  };
  // Where each tool call was made (the index of the log entry the model answered with it).
  const madeAt = new Map<string, number>();
  log.forEach((entry, i) => {
    if (entry.reply?.kind === 'tool_use') madeAt.set(entry.reply.id, i);
  });
  const compactAt = log.findIndex(
    (e) => e.path === '/v1/messages' && readRequest(e.body as MessagesBody).role === 'compact',
  );
  const firstRead = new Set<string>();
  const seenUses = new Set<string>();
  const refreshIds = new Set<string>();
  const seenContext = new Set<string>();
  // Kept results: pointers to settle at the first request after the compaction, and later.
  const pendingKept: { keys: readonly string[] }[] = [];
  const received = { main: new Set<string>(), sub: new Set<string>() };
  let keptSettled = false;
  let guidanceRead = false;
  let subSchemaRead = false;
  log.forEach((entry, index) => {
    if (
      entry.path !== '/v1/messages' ||
      entry.reply === undefined ||
      entry.reply.kind === 'error'
    ) {
      return;
    }
    const request = readRequest(entry.body as MessagesBody);
    figures.requests++;
    figures.sumRequests += entry.chars;
    figures.largestRequest = Math.max(figures.largestRequest, entry.chars);
    if (request.role === 'compact') figures.compactions++;
    if (request.role !== 'main' && request.role !== 'sub') return;
    if (!guidanceRead && request.role === 'main') {
      guidanceRead = true;
      const heading = `## ${server}\n`;
      const text = [request.system, ...request.segments.map((s) => s.text)].find((t) =>
        t.includes(heading),
      );
      if (text !== undefined) {
        const start = text.indexOf(heading) + heading.length;
        figures.instructions = text.slice(start, start + 4_400);
      }
    }
    if (!subSchemaRead && request.role === 'sub') {
      subSchemaRead = true;
      const explore = request.tools.find((t) => t.name.startsWith(prefix));
      figures.subSchemaExplains = describes(explore, 'context') && describes(explore, 'refresh');
    }
    for (const use of request.uses) {
      if (seenUses.has(use.id) || !use.name.startsWith(prefix)) continue;
      seenUses.add(use.id);
      if (Object.hasOwn(use.input, 'refresh')) {
        figures.refreshCalls++;
        refreshIds.add(use.id);
      } else if (request.role === 'sub') figures.subCalls++;
      else figures.mainCalls++;
    }
    const held = heldLines(request, root);
    for (const key of held) received[request.role].add(key);
    const afterCompaction = compactAt >= 0 && index > compactAt;
    if (afterCompaction && request.role === 'main') {
      for (const kept of pendingKept.splice(0)) {
        if (kept.keys.every((k) => held.has(k))) figures.keptRecovered++;
        else pendingKept.push(kept);
      }
    }
    const seen = new Set<string>();
    for (const segment of request.segments) {
      const reading = readSegment(segment.text, root);
      if (segment.id === null) {
        if (reading.lines.length > 0 && !seenContext.has(segment.text)) {
          seenContext.add(segment.text);
          for (const line of reading.lines) {
            figures.sourceChars += line.chars;
            figures.givenBackChars += line.chars;
            if (seen.has(line.key)) {
              figures.duplicateChars += line.chars;
              figures.givenBackDuplicateChars += line.chars;
            }
          }
        }
      } else if (!firstRead.has(segment.id)) {
        firstRead.add(segment.id);
        const made = madeAt.get(segment.id) ?? index;
        if (!isProxied(request, log, segment.id, prefix)) {
          for (const { key } of reading.lines) seen.add(key);
          continue;
        }
        figures.resultChars += segment.text.length;
        figures.largestResult = Math.max(figures.largestResult, segment.text.length);
        if (SAVED_STUB.test(segment.text)) figures.savedStubs++;
        if (refreshIds.has(segment.id)) figures.refreshChars += segment.text.length;
        const kept = request.role === 'main' && afterCompaction && made < compactAt;
        const asked = log[made]?.answeredAt ?? 0;
        if (asked > 0 && !kept) figures.roundTripMs.push(entry.at - asked);
        for (const line of reading.lines) {
          figures.sourceChars += line.chars;
          if (seen.has(line.key)) figures.duplicateChars += line.chars;
        }
        // A result made before the compaction but first read after it (the compacting call's own) is kept.
        if (kept) {
          figures.pointers += reading.pointers.length;
          settleKept(figures, reading, held, pendingKept);
        } else
          countPointers(
            figures,
            reading,
            held,
            request.role === 'sub'
              ? 'sub'
              : made > compactAt && compactAt >= 0
                ? 'after'
                : 'before',
          );
      } else if (
        request.role === 'main' &&
        afterCompaction &&
        !keptSettled &&
        (madeAt.get(segment.id) ?? index) < compactAt
      ) {
        settleKept(figures, reading, held, pendingKept);
      }
      for (const { key } of reading.lines) seen.add(key);
    }
    if (request.role === 'main' && afterCompaction) keptSettled = true;
  });
  figures.keptLost = pendingKept.length;
  figures.received = { main: [...received.main].sort(), sub: [...received.sub].sort() };
  figures.uniqueChars = figures.sourceChars - figures.duplicateChars;
  return figures;
}

function countPointers(
  figures: HarnessFigures,
  reading: Reading,
  held: ReadonlySet<string>,
  where: 'sub' | 'after' | 'before',
): void {
  for (const pointer of reading.pointers) {
    figures.pointers++;
    const missing = pointer.keys.filter((k) => !held.has(k)).length;
    if (missing === 0) continue;
    figures.citedMissing += missing;
    figures.stale++;
    if (where === 'sub') figures.staleInSubagent++;
    else if (where === 'after') figures.staleAfterCompaction++;
    else figures.staleUncompacted++;
  }
}

function settleKept(
  figures: HarnessFigures,
  reading: Reading,
  held: ReadonlySet<string>,
  pending: { keys: readonly string[] }[],
): void {
  for (const pointer of reading.pointers) {
    figures.keptPointers++;
    if (pointer.keys.every((k) => held.has(k))) figures.keptHeld++;
    else pending.push(pointer);
  }
}

/** Whether the result `id` answers a call of the measured server's tools. */
function isProxied(
  request: ReadRequest,
  log: readonly Logged[],
  id: string,
  prefix: string,
): boolean {
  const use = request.uses.find((u) => u.id === id);
  if (use !== undefined) return use.name.startsWith(prefix);
  const made = log.find((e) => e.reply?.kind === 'tool_use' && e.reply.id === id)?.reply;
  return made?.kind === 'tool_use' && made.name.startsWith(prefix);
}
