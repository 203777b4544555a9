/**
 * One call of a re-rendered tool, end to end: which agent context asks (a
 * `_meta` conversation id, the context token it echoes, or a fresh token),
 * what it says it lost (`refresh`), the upstream's answer, and — for the
 * sections the profile proves — the plan, the numbered response and the
 * record of what it delivered.
 *
 * The rules it keeps:
 * - `context` and `refresh` are the proxy's: removed before the call goes upstream.
 * - A call takes its number from the store before it is planned (a ticket,
 *   atomic in Redis too), so no two responses of one context print the same
 *   one, across processes and after a lost ledger (the generation); the
 *   header prints the ticket's number and the record goes under it, or
 *   nowhere.
 * - A response is sized under the client's cap (`cap.ts`), cut by the
 *   planner where it must, each cut stated; one that cannot fit is the
 *   upstream's answer passed through and recorded nowhere: the client would
 *   not have handed it to the model.
 * - Nothing is recorded for a call that was cancelled, failed or refused; a
 *   recorded one comes with its receipt, which the caller undoes when the
 *   answer could not be sent — the only way a record is taken back.
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
import { errorMessage } from './error-message.js';
import { isObject } from './json.js';
import type { Place, Profile, Reading, ToolResult } from './profile.js';
import { textsOf } from './profile.js';
import type { CallFigures, Stats } from './stats.js';
import type { ProxyStore, Receipt, Ticket } from './store.js';
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
  /**
   * Aborts when the answer can no longer count as delivered: with `signal`,
   * and for a cancellation that may be another client's, which undoes the
   * call's record without stopping it. Absent: as `signal`.
   */
  readonly undone?: AbortSignal;
  /** Key prefix of the caller, when a front keys contexts by who is asking (an HTTP bearer). */
  readonly principal?: string | undefined;
  /** Sends the call upstream with these arguments. */
  readonly forward: (args: unknown) => Promise<Answer>;
}

/**
 * What the relay sends back: a result or a JSON-RPC error, and the receipt of
 * its record (`null`: nothing was recorded), to undo when the answer did not
 * reach the client. `null`: send nothing (the call was cancelled).
 */
export type Outcome = {
  readonly reply: { readonly result: unknown } | { readonly error: unknown };
  readonly receipt: Receipt | null;
} | null;

/** An answer that records nothing. */
export function unrecorded(
  reply: { readonly result: unknown } | { readonly error: unknown },
): Outcome {
  return { reply, receipt: null };
}

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

/** Whether `value` (a call's arguments, a tool's schema properties) has an own `context` or `refresh`. */
export function hasProxyArguments(value: unknown): boolean {
  return hasOwn(value, 'context') || hasOwn(value, 'refresh');
}

/** The arguments without the proxy's own two (`context`, `refresh`). */
export function withoutProxyArguments(args: unknown): unknown {
  if (!hasProxyArguments(args)) return args;
  const { context: _context, refresh: _refresh, ...rest } = args as Record<string, unknown>;
  return rest;
}

function isToolResult(value: unknown): value is ToolResult {
  return Array.isArray((value as { content?: unknown } | null | undefined)?.content);
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
 * The call's arguments as the profile prepares them for the upstream (the
 * client's, less the proxy's own two), or the one line it refuses the call
 * with. A profile that fails to prepare them has them forwarded as they came.
 */
async function prepared(
  setup: CallSetup,
  call: ToolCall,
  place: Place,
): Promise<{ args: unknown } | { refuse: string }> {
  const args = withoutProxyArguments(call.args);
  const { prepare } = setup.profile;
  if (prepare === undefined || !isObject(args)) return { args };
  try {
    const made = await prepare(call.tool, args, place);
    return 'refuse' in made ? made : { args: made.args };
  } catch (error) {
    setup.log(`${call.tool}: ${errorMessage(error)}; forwarded as it came`);
    return { args };
  }
}

/**
 * Where a call's time goes: `upstream` times the wait for the upstream's
 * answer; `figures` is the upstream's time, and the proxy's own wall and CPU
 * time before and after it (not while it waited).
 */
function startClock() {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let upstreamMs = 0;
  let cpuBefore = 0;
  let cpuAfter = cpu;
  return {
    async upstream<T>(wait: () => Promise<T>): Promise<T> {
      const at = performance.now();
      cpuBefore = cpuMs(cpu);
      const answer = await wait();
      upstreamMs = performance.now() - at;
      cpuAfter = process.cpuUsage();
      return answer;
    },
    figures: () => ({
      upstreamMs,
      ownMs: performance.now() - started - upstreamMs,
      cpuMs: cpuBefore + cpuMs(cpuAfter),
    }),
  };
}

type Clock = ReturnType<typeof startClock>;

/**
 * The upstream's answer as a tool result to re-render, or the outcome that
 * ends the call here: nothing for a cancelled call, one readable line for
 * a failure or a result the client's SDK would refuse, and an error or a
 * tool error as it came (nothing to prove in either).
 */
function resultOf(call: ToolCall, answer: Answer): { result: ToolResult } | { outcome: Outcome } {
  if (call.signal.aborted || ('failed' in answer && answer.failed === 'cancelled')) {
    return { outcome: null };
  }
  if ('failed' in answer) {
    return { outcome: unrecorded({ result: toolError(failureText(call.tool, answer)) }) };
  }
  if ('error' in answer) return { outcome: unrecorded({ error: answer.error }) };
  const { result } = answer;
  const fault = !isToolResult(result)
    ? 'is not a tool result'
    : // Items the client's SDK would refuse (and report as a schema dump): one line instead.
      !CallToolResultSchema.safeParse(result).success
      ? 'has content items that are not MCP content'
      : null;
  if (fault !== null) {
    const text = `span-ledger-proxy: the upstream's answer to ${call.tool} ${fault}.`;
    return { outcome: unrecorded({ result: toolError(text) }) };
  }
  const tool = result as ToolResult;
  return tool.isError === true ? { outcome: unrecorded({ result: tool }) } : { result: tool };
}

/**
 * Answers one call of a re-rendered tool: the arguments prepared, the call
 * forwarded, the upstream's answer checked, and a tool result re-rendered
 * for the asking context ({@link answerFor}).
 *
 * @example
 * ```ts
 * const outcome = await answerCall(setup, { tool, args, meta, signal, forward });
 * if (outcome !== null && !(await send(outcome.reply))) await outcome.receipt?.undo();
 * ```
 */
export async function answerCall(setup: CallSetup, call: ToolCall): Promise<Outcome> {
  const clock = startClock();
  const place = { root: setup.root, read: diskReader(setup.root, setup.outside) };
  const args = await prepared(setup, call, place);
  if ('refuse' in args) return unrecorded({ result: toolError(args.refuse) });
  const answer = await clock.upstream(() => call.forward(args.args));
  const checked = resultOf(call, answer);
  if ('outcome' in checked) return checked.outcome;
  return answerFor(setup, call, { args: args.args, result: checked.result, place, clock });
}

/** A tool result the upstream answered, with what it was asked and how long that took. */
interface Answered {
  readonly args: unknown;
  readonly result: ToolResult;
  readonly place: Place;
  readonly clock: Clock;
}

/** One call from its context on: who asks, what it lost, and how its figures are counted. */
interface Asked {
  readonly setup: CallSetup;
  readonly call: ToolCall;
  readonly sessionId: string;
  readonly token: string | null;
  readonly refresh: Refresh | null;
  /** Counts the call's figures, with what a re-rendered response delivered (`null`: the upstream's answer). */
  readonly answered: (delivered: Delivered | null, unproven: number) => void;
  /** The upstream's answer as it came, recorded nowhere. */
  readonly passThrough: (unproven: number) => Outcome;
}

/** What a re-rendered response delivered, for the figures. */
interface Delivered {
  readonly chars: number;
  readonly pointers: number;
  readonly tokens: number;
}

/**
 * The answer for the asking context: the upstream's result re-rendered
 * under a number of the context (when the profile proves sections of it),
 * or passed through as it came. Anything unexpected passes it through.
 */
async function answerFor(setup: CallSetup, call: ToolCall, up: Answered): Promise<Outcome> {
  const upstreamTexts = textsOf(up.result);
  const upstreamChars = upstreamTexts.reduce((sum, text) => sum + text.length, 0);
  const { sessionId, token } = contextOf(call, setup);
  const refresh = readRefresh(call.args);
  const answered = (delivered: Delivered | null, unproven: number): void => {
    const figures = {
      upstreamChars,
      deliveredChars: delivered?.chars ?? upstreamChars,
      pointers: delivered?.pointers ?? 0,
      refreshed: refresh !== null,
      unproven,
      tool: call.tool,
      ...up.clock.figures(),
    };
    countLater(setup.stats, sessionId, figures, upstreamTexts, delivered?.tokens ?? null);
  };
  const passThrough = (unproven: number): Outcome => {
    answered(null, unproven);
    return unrecorded({ result: up.result });
  };
  const asked: Asked = { setup, call, sessionId, token, refresh, answered, passThrough };
  try {
    const args = up.args as Record<string, unknown>;
    const reading = await setup.profile.read(call.tool, args, up.result, up.place);
    if (reading === null || reading.files.length === 0) return passThrough(reading?.unproven ?? 0);
    return await setup.store.exclusive(sessionId, () => numberedAnswer(asked, reading));
  } catch (error) {
    setup.log(
      `${call.tool}: could not re-render (${errorMessage(error)}); the upstream's answer was passed through`,
    );
    return passThrough(0);
  }
}

/**
 * The response of `reading`, under the context's lock: the refresh applied,
 * a ticket taken (no ticket, the store is away: passed through), the
 * response written under the client's cap with the ticket's number, and its
 * record written under that number — or the number given back when the call
 * was cancelled meanwhile or no response fits the cap (then the upstream's
 * answer goes as it came: the client would not hand it to the model), and
 * the record undone when the call was cancelled while it was written.
 */
async function numberedAnswer(asked: Asked, reading: Reading): Promise<Outcome> {
  const { setup, call, sessionId, refresh } = asked;
  const projectRoot = setup.root.path;
  if (refresh !== null) await setup.store.prune({ sessionId, projectRoot, ...refresh });
  const ticket = await setup.store.reserve(projectRoot, sessionId);
  if (ticket === null) return asked.passThrough(reading.unproven);
  const { prior, stale } = forgetRefreshed(ticket.prior, refresh);
  const header = headerOf(asked, ticket);
  const written = writeWithin(responseLimit(setup.maxTokens), (budget) => {
    const holdBack = setup.profile.holdBack(call.tool);
    const plan = planCall({
      files: reading.files,
      prior,
      enabled: setup.enabled,
      budget,
      holdBack,
    });
    const recorder = createEmissionRecorder({ projectRoot, query: call.tool });
    return writtenOf(plan, reading, header, recorder);
  });
  if (call.signal.aborted || written === null) {
    await ticket.release();
    return call.signal.aborted ? null : asked.passThrough(reading.unproven);
  }
  const chars = written.texts.reduce((sum, text) => sum + text.length, 0);
  // Null when the store could not write it in time: recorded nowhere, the number spent.
  const receipt = await ticket.record(written.recorder.finish(chars));
  // The refresh the store could not apply in time: applied now, or the next call would cite them.
  if (stale.length > 0) await setup.store.prune({ sessionId, projectRoot, calls: stale });
  // Cancelled or hung up while the record was on its way: undone here, under
  // the lock, so the context's next call cannot plan on it.
  if (call.signal.aborted) {
    await receipt?.undo();
    return null;
  }
  // Undone by a cancellation that does not stop the call: the answer still
  // goes out, recorded as nothing, before the next call of the context plans.
  const undone = call.undone?.aborted === true;
  if (undone) await receipt?.undo();
  const delivered = { chars, pointers: written.pointers, tokens: written.size.textTokens };
  asked.answered(delivered, reading.unproven);
  return { reply: { result: written.result }, receipt: undone ? null : receipt };
}

/**
 * The response's first line: the ticket's number and generation, the token
 * (unless the harness carries it: a harness-made id is the context's own,
 * never a stray one), and a line when the client's `refresh` or `context`
 * could not be read.
 */
function headerOf(asked: Asked, ticket: Ticket): string {
  const { args } = asked.call;
  const harnessMade = isHarnessContextId(asked.token);
  const own = (key: string) =>
    hasOwn(args, key) ? (args as Record<string, unknown>)[key] : undefined;
  return formatResponseHeader({
    callIndex: ticket.callIndex,
    generation: ticket.generation,
    context: harnessMade ? null : asked.token,
    refreshArgument: own('refresh'),
    contextArgument: asked.token !== null && !harnessMade ? own('context') : undefined,
  });
}
