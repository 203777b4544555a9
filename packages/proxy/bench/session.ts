/**
 * The scripted agent of `bench:proxy`: contexts that share one MCP
 * connection (a main context and its subagents), each keeping what the
 * responses it received carried; a compaction that empties a context but
 * leaves it its token; and the recovery rule — an agent shown a pointer to a
 * response it lost calls the tool once more with `refresh` naming every
 * response it lost.
 *
 * It measures what each arm delivered to whom: source chars (numbered lines
 * sent), duplicate chars (lines sent to a context that still held them),
 * pointers, stale pointers (naming lines, or citing a response, the asking
 * context does not hold), refresh calls, and each call's time as the client
 * sees it. It reads the responses as an agent would, never the proxy's
 * internals.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { readResponse } from '../test/_read.js';

/** One step of a session. */
export type Step =
  | {
      readonly kind: 'call';
      readonly context: string;
      readonly tool: string;
      readonly args: Record<string, unknown>;
    }
  | { readonly kind: 'compact'; readonly context: string }
  | { readonly kind: 'edit'; readonly run: () => void };

/** What one call delivered: numbered lines by `path@version`, and its pointers. */
export interface Delivery {
  readonly lines: ReadonlyMap<string, ReadonlyMap<number, string>>;
  readonly pointers: readonly Pointer[];
  /** `Response #N` and its token, when the response says them. */
  readonly number: number | null;
  readonly token: string | null;
}

/** A pointer as the agent reads it. */
export interface Pointer {
  /** `path@version`, as the delivery keys lines. */
  readonly file: string;
  readonly lines: readonly number[];
  /** The responses it cites (`[]` when it names none). */
  readonly calls: readonly number[];
}

/** An arm: how to connect, and how to read what a call delivered. */
export interface Arm {
  readonly name: string;
  /** Whether the arm takes `context` and `refresh` (the proxy). */
  readonly proxied: boolean;
  connect(): Promise<Client>;
  /** Reads a call's text result (`args` as sent, for arms whose text does not say its lines). */
  read(text: string, tool: string, args: Record<string, unknown>): Delivery;
  /** After each call: how long the upstream took on it, as the proxy measured (proxied arms). */
  upstreamMs?(client: Client): Promise<number>;
}

/** The figures of one arm over one session. */
export interface Figures {
  calls: number;
  refreshCalls: number;
  sourceChars: number;
  duplicateChars: number;
  pointers: number;
  stalePointers: number;
  staleInSubagents: number;
  staleAfterCompaction: number;
  /** Stale pointers in a context that was never compacted: a wrong "unchanged" answer. */
  staleUncompacted: number;
  /** Stale pointers in responses to a refresh call, or after one (the recovery failed). */
  staleAfterRefresh: number;
  uniqueChars: number;
  /** Client-observed time of each scripted call (refresh calls left out), in order. */
  latencyMs: number[];
  /** Per call (refresh calls too), the client-observed time less the upstream's own, for arms that report it. */
  addedMs: number[];
  /** What each scripted call delivered, in order (for comparing arms). */
  delivered: Map<string, Set<number>>[];
  /** What each context held before each scripted call, in order. */
  heldBefore: Map<string, Set<number>>[];
  /** Lines' texts, by file, as delivered. */
  texts: Map<string, Map<number, string>>;
  /**
   * What `cat -n` numbering costs on the lines delivered, at the reference
   * renderer's width (a number right-aligned in 6 columns, then a tab): the
   * proxy's own cost where the upstream's text has no line numbers.
   */
  numberingChars: number;
  /**
   * The part of it on lines some pointer of the session names — all that
   * numbering only what a later pointer names would have cost, known only in
   * hindsight (every delivery of a named line counts, so it never understates).
   */
  numberingNamedChars: number;
}

/** The chars `cat -n` numbering adds to line `n`. */
const numberWidth = (n: number) => Math.max(6, String(n).length) + 1;

interface Context {
  token: string | null;
  held: Map<string, Set<number>>;
  responses: Set<number>;
  lost: number[];
  compacted: boolean;
  refreshed: boolean;
  readonly subagent: boolean;
}

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('\n');
}

function copyHeld(held: Map<string, Set<number>>): Map<string, Set<number>> {
  return new Map([...held].map(([file, lines]) => [file, new Set(lines)]));
}

function emptyFigures(): Figures {
  return {
    calls: 0,
    refreshCalls: 0,
    sourceChars: 0,
    duplicateChars: 0,
    pointers: 0,
    stalePointers: 0,
    staleInSubagents: 0,
    staleAfterCompaction: 0,
    staleUncompacted: 0,
    staleAfterRefresh: 0,
    uniqueChars: 0,
    latencyMs: [],
    addedMs: [],
    delivered: [],
    heldBefore: [],
    texts: new Map(),
    numberingChars: 0,
    numberingNamedChars: 0,
  };
}

/**
 * Runs `steps` against `arm` on one connection, `rounds` times (each round
 * with contexts of its own, as new conversations would be). The figures are
 * the first round's; the per-call times (`addedMs`) are every round's, so
 * their percentiles rest on more than a handful of calls. Contexts are named
 * by the steps; a context named `sub…` is a subagent (it never saw another
 * context's token).
 */
export async function runSession(arm: Arm, steps: readonly Step[], rounds = 1): Promise<Figures> {
  const client = await arm.connect();
  const first = emptyFigures();
  try {
    for (let round = 0; round < rounds; round++) {
      const figures = round === 0 ? first : emptyFigures();
      await playRound(client, arm, steps, figures);
      if (round > 0) first.addedMs.push(...figures.addedMs);
    }
  } finally {
    await client.close();
  }
  first.uniqueChars = first.sourceChars - first.duplicateChars;
  return first;
}

async function playRound(
  client: Client,
  arm: Arm,
  steps: readonly Step[],
  figures: Figures,
): Promise<void> {
  const contexts = new Map<string, Context>();
  /** Each delivered line (`file\tline`) and how many times it was delivered; the lines pointers named. */
  const deliveries = new Map<string, number>();
  const named = new Set<string>();
  const contextOf = (name: string): Context => {
    let ctx = contexts.get(name);
    if (ctx === undefined) {
      ctx = {
        token: null,
        held: new Map(),
        responses: new Set(),
        lost: [],
        compacted: false,
        refreshed: false,
        subagent: name.startsWith('sub'),
      };
      contexts.set(name, ctx);
    }
    return ctx;
  };

  const call = async (
    ctx: Context,
    tool: string,
    args: Record<string, unknown>,
    refresh: readonly number[] | null,
  ) => {
    const sent = {
      ...args,
      ...(arm.proxied && ctx.token !== null ? { context: ctx.token } : {}),
      ...(refresh ? { refresh } : {}),
    };
    const started = performance.now();
    const result = await client.callTool({ name: tool, arguments: sent });
    const ms = performance.now() - started;
    if (arm.upstreamMs !== undefined) figures.addedMs.push(ms - (await arm.upstreamMs(client)));
    const delivery = arm.read(textOf(result), tool, args);
    figures.calls++;
    if (refresh !== null) figures.refreshCalls++;
    if (delivery.token !== null) ctx.token = delivery.token;
    let stale = 0;
    for (const pointer of delivery.pointers) {
      figures.pointers++;
      for (const n of pointer.lines) named.add(`${pointer.file}\t${n}`);
      const held = ctx.held.get(pointer.file);
      const missing =
        pointer.lines.some((n) => !held?.has(n)) ||
        pointer.calls.some((n) => !ctx.responses.has(n));
      if (!missing) continue;
      stale++;
      figures.stalePointers++;
      if (ctx.subagent) figures.staleInSubagents++;
      if (ctx.compacted) figures.staleAfterCompaction++;
      else figures.staleUncompacted++;
      if (ctx.refreshed || refresh !== null) figures.staleAfterRefresh++;
    }
    const delivered = new Map<string, Set<number>>();
    for (const [file, lines] of delivery.lines) {
      let held = ctx.held.get(file);
      if (held === undefined) {
        held = new Set();
        ctx.held.set(file, held);
      }
      let texts = figures.texts.get(file);
      if (texts === undefined) {
        texts = new Map();
        figures.texts.set(file, texts);
      }
      const mine = new Set<number>();
      for (const [n, text] of lines) {
        const chars = text.length + 1;
        figures.sourceChars += chars;
        if (held.has(n)) figures.duplicateChars += chars;
        held.add(n);
        mine.add(n);
        texts.set(n, text);
        deliveries.set(`${file}\t${n}`, (deliveries.get(`${file}\t${n}`) ?? 0) + 1);
      }
      delivered.set(file, mine);
    }
    if (delivery.number !== null) ctx.responses.add(delivery.number);
    return { ms, stale, delivered };
  };
  for (const step of steps) {
    if (step.kind === 'edit') {
      step.run();
      continue;
    }
    const ctx = contextOf(step.context);
    if (step.kind === 'compact') {
      ctx.held = new Map();
      ctx.lost = [...ctx.responses];
      ctx.responses = new Set();
      ctx.compacted = true;
      continue;
    }
    figures.heldBefore.push(copyHeld(ctx.held));
    const first = await call(ctx, step.tool, step.args, null);
    figures.latencyMs.push(first.ms);
    const delivered = first.delivered;
    if (arm.proxied && first.stale > 0 && ctx.compacted && !ctx.refreshed && ctx.lost.length > 0) {
      ctx.refreshed = true;
      const again = await call(ctx, step.tool, step.args, ctx.lost);
      for (const [file, lines] of again.delivered) {
        const into = delivered.get(file) ?? new Set<number>();
        for (const n of lines) into.add(n);
        delivered.set(file, into);
      }
    }
    figures.delivered.push(delivered);
  }
  for (const [key, times] of deliveries) {
    const chars = times * numberWidth(Number(key.slice(key.lastIndexOf('\t') + 1)));
    figures.numberingChars += chars;
    if (named.has(key)) figures.numberingNamedChars += chars;
  }
}

/** Lines with only whitespace and `)]};,`: what the delta gate may fold into a pointer. */
const TRIVIAL = /^[\s)\]};,]*$/;

/**
 * Lines `base` delivered to a context at a scripted call that `arm` neither
 * delivered at that call (with its refresh) nor had delivered to the context
 * before — the source dedup kept from the agent — split into trivial lines
 * and the rest.
 */
export function withheld(base: Figures, arm: Figures): { trivial: number; code: number } {
  let trivial = 0;
  let code = 0;
  base.delivered.forEach((files, i) => {
    for (const [file, lines] of files) {
      for (const n of lines) {
        if (arm.delivered[i]?.get(file)?.has(n) || arm.heldBefore[i]?.get(file)?.has(n)) continue;
        if (TRIVIAL.test(base.texts.get(file)?.get(n) ?? '')) trivial++;
        else code++;
      }
    }
  });
  return { trivial, code };
}

// ---- Reading responses --------------------------------------------------------------------

/** The lines a pointer's spans name. */
function linesOf(spans: readonly { readonly start: number; readonly end: number }[]): number[] {
  const lines: number[] = [];
  for (const { start, end } of spans) for (let n = start; n <= end; n++) lines.push(n);
  return lines;
}

/**
 * Reads a response as the agent does (see the tests' reader), keying each
 * file by `version(path)`: the path itself where files do not change in the
 * session, the path and its content where they do.
 */
export function readDelivery(
  text: string,
  version: (path: string) => string = (path) => path,
  single?: string,
): Delivery {
  const read = readResponse(text, single);
  return {
    number: read.number,
    token: read.token,
    lines: new Map([...read.lines].map(([path, lines]) => [version(path), lines])),
    pointers: read.pointers.map((p) => ({
      file: version(p.path),
      lines: linesOf(p.spans),
      calls: p.calls,
    })),
  };
}
