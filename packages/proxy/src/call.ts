/**
 * One call of a re-rendered tool, end to end: which agent context asks (a
 * `_meta` conversation id, the context token it echoes, or a fresh token),
 * what it says it lost (`refresh`), the upstream's answer, and — for the
 * sections the profile proves — the plan, the numbered response and the
 * record of what it delivered.
 *
 * The rules it keeps:
 * - `context` and `refresh` are the proxy's: removed before the call goes upstream.
 * - A call takes its number from the store before it is planned (`reserve`,
 *   atomic in Redis too), so no two responses of one context print the same
 *   one, across processes and after a lost ledger (the numbering tag); its
 *   record goes under that number, or nowhere.
 * - A response is sized under the client's cap (`cap.ts`), cut by the
 *   planner where it must, each cut stated; one that cannot fit is the
 *   upstream's answer passed through and recorded nowhere: the client would
 *   not have handed it to the model.
 * - Nothing is recorded for a call that was cancelled, failed or refused; the
 *   caller takes a record back when the answer could not be sent.
 * - Anything unexpected while re-rendering gives the upstream's own answer,
 *   passed through: never a crash, never a pointer for lines not proven.
 */
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  type CallBudget,
  type CallPlan,
  contextIdFromMeta,
  type ProjectState,
  planCall,
  type Refresh,
  readContextToken,
  readRefresh,
} from 'span-ledger';
import {
  createEmissionRecorder,
  type EmissionRecorder,
  formatResponseHeader,
} from 'span-ledger/adapter';
import { type ResponseLimit, responseLimit, sizeOf, tokensOf, within } from './cap.js';
import { isHarnessContextId, tokenKey } from './context.js';
import type { Root } from './disk.js';
import { diskReader } from './disk.js';
import type { Profile, Reading, ToolResult } from './profile.js';
import { textsOf } from './profile.js';
import type { CallFigures, Stats } from './stats.js';
import type { ProxyStore } from './store.js';
import type { Answer } from './upstream.js';

/**
 * Adds a call's figures to the stats once its answer is on its way: the
 * token estimate of what the upstream answered is bookkeeping the answer
 * need not wait for (a third of the proxy's CPU on a call). `delivered`: the
 * tokens of what was sent, counted already when it was sized, or `null` when
 * the upstream's answer was sent as it came. Their CPU time is added to the
 * call's, so `cpuMs` stays all of it.
 */
function countLater(
  stats: Stats,
  sessionId: string,
  figures: Omit<CallFigures, 'upstreamTokens' | 'deliveredTokens'>,
  upstream: readonly string[],
  delivered: number | null,
): void {
  stats.later(sessionId, () => {
    const cpu = process.cpuUsage();
    const upstreamTokens = tokensOf(upstream);
    const deliveredTokens = delivered ?? upstreamTokens;
    return { ...figures, upstreamTokens, deliveredTokens, cpuMs: figures.cpuMs + cpuMs(cpu) };
  });
}

/**
 * What every call of one proxy shares.
 */
export interface CallSetup {
  readonly root: Root;
  readonly store: ProxyStore;
  readonly stats: Stats;
  readonly profile: Profile;
  /** `false` (`SPAN_LEDGER_DEDUP=0`): every section in full, responses still numbered. */
  readonly enabled: boolean;
  /**
   * The client's cap on one tool result, in its tokens (`MAX_MCP_OUTPUT_TOKENS`,
   * `--max-tokens`, else 25,000): every re-rendered response is sized under it
   * with the tokenizer margin, or is not recorded.
   */
  readonly maxTokens: number;
  /** Makes a context token for a context that has none (default `mintContextToken`, 8 chars). */
  readonly mintToken: () => string;
  /**
   * Contexts more than one client can reach (the HTTP front, a shared
   * store): a token or `_meta` id a client sends keys one only when it has
   * 128 bits (22 chars or more); a shorter one, which anyone could guess, starts a new
   * context.
   */
  readonly sharedTokens: boolean;
  readonly log: (line: string) => void;
  /** Told of each path a result names that lies under none of the root's directories. */
  readonly outside?: ((path: string) => void) | undefined;
}

/**
 * One call as the relay hands it over.
 */
export interface ToolCall {
  readonly tool: string;
  /** The client's arguments, `context` and `refresh` included. */
  readonly args: unknown;
  /** The request's `_meta`. */
  readonly meta: unknown;
  /** Aborts when the client cancelled the call or went away. */
  readonly signal: AbortSignal;
  /** Key prefix of the caller, when a front keys contexts by who is asking (an HTTP bearer). */
  readonly principal?: string | undefined;
  /** Sends the call upstream with these arguments. */
  readonly forward: (args: unknown) => Promise<Answer>;
}

/**
 * What the relay sends back: a result or a JSON-RPC error, and the record to
 * take back if sending fails. `null`: send nothing (the call was cancelled).
 */
export type Outcome = {
  readonly reply: { readonly result: unknown } | { readonly error: unknown };
  readonly recorded: { readonly sessionId: string; readonly index: number } | null;
} | null;

/**
 * A tool error the agent can read: one line.
 *
 * @example
 * ```ts
 * toolError('span-ledger-proxy: show got no answer: the upstream exited (exit code 1).');
 * // { content: [{ type: 'text', text: 'span-ledger-proxy: …' }], isError: true }
 * ```
 */
export function toolError(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function hasOwn(value: unknown, key: string): boolean {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, key);
}

/** The arguments without the proxy's own two. */
function upstreamArgs(args: unknown): unknown {
  if (!hasOwn(args, 'context') && !hasOwn(args, 'refresh')) return args;
  const { context: _context, refresh: _refresh, ...rest } = args as Record<string, unknown>;
  return rest;
}

function isToolResult(value: unknown): value is ToolResult {
  return (
    value !== null &&
    typeof value === 'object' &&
    Array.isArray((value as { content?: unknown }).content)
  );
}

/**
 * The bucket of the asking context: the client's conversation id, else the
 * token the agent echoed, else a fresh token (which the response prints).
 * Ids and tokens live in separate key spaces, so a token can never name a
 * conversation id's bucket; where other clients reach the contexts, an id or
 * token below 128 bits keys nothing (a fresh token is minted instead).
 */
function contextOf(
  call: ToolCall,
  setup: Pick<CallSetup, 'mintToken' | 'sharedTokens'>,
): { sessionId: string; token: string | null } {
  const prefix = call.principal === undefined ? '' : `p:${call.principal}/`;
  const conversation = contextIdFromMeta(call.meta, { shared: setup.sharedTokens });
  if (conversation !== null) return { sessionId: `${prefix}m:${conversation}`, token: null };
  const token = readContextToken(call.args, { shared: setup.sharedTokens }) ?? setup.mintToken();
  return { sessionId: tokenKey(token, call.principal), token };
}

/**
 * `prior` without the responses the agent said it lost, whatever the store
 * did with the prune (a stalled Redis misses its deadline): the call's own
 * plan never points at them. `stale`: the numbers the store still held, to
 * prune again once the call is recorded.
 */
function forgetRefreshed(
  prior: ProjectState,
  refresh: Refresh | null,
): { prior: ProjectState; stale: number[] } {
  if (refresh === null) return { prior, stale: [] };
  const lost = (index: number) => refresh.calls === undefined || refresh.calls.includes(index);
  const stale = prior.calls.filter((c) => lost(c.index)).map((c) => c.index);
  if (stale.length === 0) return { prior, stale };
  return { prior: { ...prior, calls: prior.calls.filter((c) => !lost(c.index)) }, stale };
}

/** CPU time this process spent since `since`, in ms: the proxy's own work, whatever else the machine runs. */
function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** The tool error for a call the upstream gave no answer to (it exited, timed out, sent too much). */
export function failureText(tool: string, answer: Extract<Answer, { failed: unknown }>): string {
  return `span-ledger-proxy: ${tool} got no answer: ${answer.message}.`;
}

/**
 * A response written from one plan: the result, its pointers, the spans it
 * reported, its texts and its size.
 */
interface Written {
  readonly plan: CallPlan;
  readonly result: ToolResult;
  readonly pointers: number;
  readonly recorder: EmissionRecorder;
  readonly texts: readonly string[];
  readonly size: ReturnType<typeof sizeOf>;
}

function writtenOf(
  plan: CallPlan,
  reading: Reading,
  header: string,
  recorder: EmissionRecorder,
): Written {
  const { result, pointers } = reading.write(plan, { header, recorder });
  const texts = textsOf(result);
  return { plan, result, pointers, recorder, texts, size: sizeOf(texts, result.structuredContent) };
}

/** How many files a plan gives a slot (every one it does not leave out). */
function slotted(plan: CallPlan): number {
  return plan.files.filter((file) => file.render !== 'skipped').length;
}

/** Whether the budget cut a file it gave a slot (it sends part of what it would have). */
function cutShort(plan: CallPlan): boolean {
  return plan.files.some((file) => file.render !== 'skipped' && file.cutAt != null);
}

/**
 * The source budget that leaves room, under `limit`, for what else the
 * response `w` carries (headings, notes, unproven sections: not source).
 */
function roomIn(limit: ResponseLimit, w: Written): CallBudget {
  return {
    maxTokens: Math.max(1, limit.tokens - (w.size.tokens - (w.plan.newTokens ?? 0))),
    maxChars: Math.max(0, limit.chars - (w.size.chars - w.plan.newChars)),
    policy: 'bank',
  };
}

/**
 * The response written within `limit`, by the planner's own cuts, each of
 * which the response states. The source budget is the whole limit (banked:
 * a file sends the lines it would have sent with dedup off, less the ones it
 * points at). Over the limit once written, the source budget becomes what
 * the rest of the response leaves of the limit, and whole sections are left
 * out from the lowest rank up — one file slot fewer each time — until the
 * sections left fit whole; the first file alone is cut at whole lines when
 * even it does not.
 *
 * `null` when it does not fit with every section left out (what the upstream
 * wrote around them is over the limit alone).
 */
function writeWithin(
  limit: ResponseLimit,
  attempt: (budget: CallBudget) => Written,
): Written | null {
  let written = attempt({ maxTokens: limit.tokens, maxChars: limit.chars, policy: 'bank' });
  if (within(written.size, limit)) return written;
  for (let files = slotted(written.plan); files >= 0; files--) {
    // What else the response carries moves with what is cut (a cut line each): measured again once.
    for (let tries = 0; tries < 2; tries++) {
      written = attempt({ ...roomIn(limit, written), maxFiles: files });
      if (within(written.size, limit)) break;
    }
    if (within(written.size, limit) && (files <= 1 || !cutShort(written.plan))) return written;
  }
  return null;
}

/**
 * Answers one call of a re-rendered tool.
 *
 * @example
 * ```ts
 * const outcome = await answerCall(setup, { tool, args, meta, signal, forward });
 * if (outcome !== null) await send(outcome.reply);
 * ```
 */
export async function answerCall(setup: CallSetup, call: ToolCall): Promise<Outcome> {
  const { profile, root, store, stats } = setup;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const args = upstreamArgs(call.args);
  const place = { root, read: diskReader(root, setup.outside) };
  let forwarded = args;
  if (
    profile.prepare !== undefined &&
    args !== null &&
    typeof args === 'object' &&
    !Array.isArray(args)
  ) {
    try {
      const prepared = await profile.prepare(call.tool, args as Record<string, unknown>, place);
      if ('refuse' in prepared)
        return { reply: { result: toolError(prepared.refuse) }, recorded: null };
      forwarded = prepared.args;
    } catch (error) {
      setup.log(
        `${call.tool}: ${error instanceof Error ? error.message : String(error)}; forwarded as it came`,
      );
    }
  }

  const forwardedAt = performance.now();
  const cpuBefore = cpuMs(cpu);
  const answer = await call.forward(forwarded);
  const upstreamMs = performance.now() - forwardedAt;
  // The proxy's CPU from here on, beside what it spent before the call went out (not while it waited).
  const cpuAfter = process.cpuUsage();
  const ownCpu = () => cpuBefore + cpuMs(cpuAfter);
  if ('failed' in answer) {
    if (answer.failed === 'cancelled' || call.signal.aborted) return null;
    return { reply: { result: toolError(failureText(call.tool, answer)) }, recorded: null };
  }
  if ('error' in answer) return { reply: { error: answer.error }, recorded: null };
  const result = answer.result;
  if (!isToolResult(result)) {
    return {
      reply: {
        result: toolError(
          `span-ledger-proxy: the upstream's answer to ${call.tool} is not a tool result.`,
        ),
      },
      recorded: null,
    };
  }
  // Items the client's SDK would refuse (and report as a schema dump): one line instead.
  if (!CallToolResultSchema.safeParse(result).success) {
    return {
      reply: {
        result: toolError(
          `span-ledger-proxy: the upstream's answer to ${call.tool} has content items that are not MCP content.`,
        ),
      },
      recorded: null,
    };
  }
  if (result.isError === true || call.signal.aborted) {
    return call.signal.aborted ? null : { reply: { result }, recorded: null };
  }

  const upstreamTexts = textsOf(result);
  const upstreamChars = upstreamTexts.reduce((sum, text) => sum + text.length, 0);
  const { sessionId, token } = contextOf(call, setup);
  const refresh = readRefresh(call.args);
  const passThrough = (unproven: number): Outcome => {
    const figures = {
      upstreamChars,
      deliveredChars: upstreamChars,
      pointers: 0,
      refreshed: refresh !== null,
      unproven,
      tool: call.tool,
      upstreamMs,
      ownMs: performance.now() - started - upstreamMs,
      cpuMs: ownCpu(),
    };
    countLater(stats, sessionId, figures, upstreamTexts, null);
    return { reply: { result }, recorded: null };
  };

  try {
    const reading = await profile.read(
      call.tool,
      forwarded as Record<string, unknown>,
      result,
      place,
    );
    if (reading === null || reading.files.length === 0) return passThrough(reading?.unproven ?? 0);
    return await store.exclusive(sessionId, async () => {
      if (refresh !== null) await store.prune({ sessionId, projectRoot: root.path, ...refresh });
      // The number is taken before the call is planned: no other call of this
      // context, on this process or another sharing the store, prints it.
      const reserved = await store.reserve(root.path, sessionId);
      // No number (the store is away): the upstream's answer as it came, nothing withheld or recorded.
      if (reserved === null) return passThrough(reading.unproven);
      const { prior, stale } = forgetRefreshed(reserved.prior, refresh);
      const refreshArgument = hasOwn(call.args, 'refresh')
        ? (call.args as { refresh: unknown }).refresh
        : undefined;
      // A harness-made id is the context's own, carried by the hook: never a stray one.
      const harnessMade = isHarnessContextId(token);
      const contextArgument =
        token !== null && !harnessMade && hasOwn(call.args, 'context')
          ? (call.args as { context: unknown }).context
          : undefined;
      let header: string | null = null;
      const attempt = (budget: CallBudget): Written => {
        const plan = planCall({
          files: reading.files,
          prior,
          enabled: setup.enabled,
          budget,
          holdBack: profile.holdBack(call.tool),
        });
        // The number and its tag, the token, and a line when the client's `refresh` could not be read.
        header ??= formatResponseHeader({
          callIndex: plan.callIndex,
          generation: plan.generation,
          // A harness-made id is carried by the harness's hook: the model need not pass it on.
          context: harnessMade ? null : token,
          refreshArgument,
          contextArgument,
        });
        const recorder = createEmissionRecorder({ projectRoot: root.path, query: call.tool });
        // Recorded under the number the response prints, or not at all.
        recorder.numbered(plan.callIndex, plan.generation);
        return writtenOf(plan, reading, header, recorder);
      };
      const written = writeWithin(responseLimit(setup.maxTokens), attempt);
      const release = () =>
        store.prune({ sessionId, projectRoot: root.path, calls: [reserved.callIndex] });
      if (call.signal.aborted) {
        await release();
        return null;
      }
      // Over the client's cap whatever is left out: the client would not hand it to
      // the model, so nothing is recorded and the upstream's answer goes as it came.
      if (written === null) {
        await release();
        return passThrough(reading.unproven);
      }
      const deliveredChars = written.texts.reduce((sum, text) => sum + text.length, 0);
      // Null when the store could not write it in time: recorded nowhere, the number spent.
      const record = await store.record(written.recorder.finish(deliveredChars), sessionId);
      // The refresh the store could not apply in time: applied now, or the next call would cite them.
      if (stale.length > 0) await store.prune({ sessionId, projectRoot: root.path, calls: stale });
      const figures = {
        upstreamChars,
        deliveredChars,
        pointers: written.pointers,
        refreshed: refresh !== null,
        unproven: reading.unproven,
        tool: call.tool,
        upstreamMs,
        ownMs: performance.now() - started - upstreamMs,
        cpuMs: ownCpu(),
      };
      countLater(stats, sessionId, figures, upstreamTexts, written.size.textTokens);
      return {
        reply: { result: written.result },
        recorded: record === null ? null : { sessionId, index: reserved.callIndex },
      };
    });
  } catch (error) {
    setup.log(
      `${call.tool}: could not re-render (${error instanceof Error ? error.message : String(error)}); the upstream's answer was passed through`,
    );
    return passThrough(0);
  }
}
