/**
 * The reference side of the conformance protocol: every operation of every
 * suite, answered by the package itself. The vectors in `conformance/` are
 * these answers; the runner compares a foreign implementation against them.
 *
 * Inputs are JSON values (read once here, never trusted); answers are JSON
 * values too: `{ output }`, or `{ error: 'invalid-input' }` where the
 * operation's domain excludes the input (the package throws or the protocol
 * says so), never an exception.
 */
import { prop } from '../../boundary/read.js';
import { describeSession, formatSessionBlock } from '../../dedup/diagnostics.js';
import { planCall } from '../../dedup/plan-call.js';
import { planFile } from '../../dedup/plan-file.js';
import { planRead } from '../../dedup/plan-read.js';
import { formatPointer } from '../../dedup/pointer.js';
import { symbolsInSpans } from '../../dedup/symbols.js';
import { dedupEnabledFromEnv } from '../../dedup/thresholds.js';
import { fingerprint } from '../../hash/fingerprint.js';
import { createLedger, ledgerReducer, sessionView } from '../../ledger/ledger.js';
import { projectKey } from '../../ledger/project-key.js';
import { projectFromView, servedRangesForFile } from '../../ledger/selectors.js';
import { normalizeSessionId } from '../../ledger/session-id.js';
import type { Ledger, LedgerEvent } from '../../ledger/types.js';
import { coalesceRanges } from '../../ranges/coalesce.js';
import { countLines, rangesCover } from '../../ranges/cover.js';
import { dedupeRange } from '../../ranges/dedupe.js';
import { formatSpans } from '../../ranges/format.js';
import { mergeRanges } from '../../ranges/merge.js';
import { isLineRange, type LineRange } from '../../ranges/range.js';
import { readRanges } from '../../ranges/read.js';
import {
  intersectRange,
  intersectRanges,
  subtractRange,
  subtractRanges,
} from '../../ranges/setops.js';
import { charsOf, clipToLines, indexLines, splitLines } from '../../text/lines.js';
import { estimateTokens } from '../../text/tokens.js';
import { contextIdFromMeta, readContextToken, readRefresh } from '../../wire/args.js';

/** The protocol's version: the handshake names it, and a change to any answer's shape bumps it. */
export const PROTOCOL_VERSION = 1;

/** The suites, in the order the runner runs them. */
export const SUITES = [
  'algebra',
  'lines',
  'fingerprint',
  'plan',
  'ledger',
  'scenario',
  'contract',
] as const;
export type Suite = (typeof SUITES)[number];

/** The operations of each suite. */
export const OPS: Readonly<Record<Suite, readonly string[]>> = {
  algebra: [
    'isLineRange',
    'merge',
    'intersect',
    'intersectRange',
    'subtract',
    'subtractRange',
    'dedupe',
    'coalesce',
    'cover',
    'count',
    'formatSpans',
  ],
  lines: ['lines', 'chars'],
  fingerprint: ['fingerprint'],
  plan: ['planFile'],
  ledger: ['run'],
  scenario: ['run'],
  contract: [
    'planCall',
    'planRead',
    'formatPointer',
    'symbolsInSpans',
    'estimateTokens',
    'normalizeSessionId',
    'projectKey',
    'servedRangesForFile',
    'describeSession',
    'formatSessionBlock',
    'readRefresh',
    'readContextToken',
    'contextIdFromMeta',
    'dedupEnabledFromEnv',
  ],
};

/** The suites whose random phase draws cases (the others run their vectors only). */
export const RANDOM_SUITES: readonly Suite[] = SUITES.filter((s) => s !== 'contract');

/** What an operation answers: its output, or an error code. */
export type Answer = { readonly output: unknown } | { readonly error: string };

/** The project root every plan and scenario is answered under. */
export const ROOT = '/repo';

const INVALID: Answer = { error: 'invalid-input' };

/** A plain JSON copy: what crosses the pipe, with no frozen or shared parts. */
function json(x: unknown): unknown {
  return JSON.parse(JSON.stringify(x));
}

function ok(output: unknown): Answer {
  return { output: json(output) };
}

type Ranges = readonly LineRange[];
const ranges = (input: unknown, key: string): Ranges => prop(input, key) as Ranges;

function algebra(op: string, input: unknown): Answer {
  switch (op) {
    case 'isLineRange':
      return ok(isLineRange(prop(input, 'range')));
    case 'merge':
      return ok(mergeRanges(ranges(input, 'ranges')));
    case 'intersect':
      return ok(intersectRanges(ranges(input, 'a'), ranges(input, 'b')));
    case 'intersectRange':
      return ok(intersectRange(prop(input, 'range') as LineRange, ranges(input, 'set')));
    case 'subtract':
      return ok(subtractRanges(ranges(input, 'a'), ranges(input, 'b')));
    case 'subtractRange':
      return ok(subtractRange(prop(input, 'range') as LineRange, ranges(input, 'set')));
    case 'dedupe':
      return ok(
        dedupeRange(
          prop(input, 'range') as LineRange,
          ranges(input, 'served'),
          prop(input, 'minCovered') as number,
        ),
      );
    case 'coalesce':
      return ok(coalesceRanges(ranges(input, 'ranges'), prop(input, 'max') as number));
    case 'cover':
      return ok(rangesCover(ranges(input, 'ranges'), prop(input, 'line') as number));
    case 'count':
      return ok(countLines(ranges(input, 'ranges')));
    default:
      return ok(formatSpans(ranges(input, 'ranges'), prop(input, 'max') as number));
  }
}

function lines(op: string, input: unknown): Answer {
  const content = prop(input, 'content');
  if (typeof content !== 'string') return INVALID;
  if (op === 'lines') return ok(splitLines(content));
  const index = indexLines(content);
  return ok(charsOf(index, clipToLines(readRanges(ranges(input, 'ranges')), index.lineCount)));
}

/**
 * The planner's prior from the protocol's `served` records, oldest first:
 * `null` (not an array) is a call nobody tracks.
 */
function priorOf(served: unknown): Parameters<typeof planFile>[0]['prior'] {
  if (!Array.isArray(served)) return null;
  const indexes = served.map((r) => prop(r, 'index')).filter(Number.isSafeInteger) as number[];
  return {
    projectRoot: ROOT,
    callCount: Math.max(0, ...indexes),
    responseChars: 0,
    calls: served.map((r) => ({
      index: prop(r, 'index') as number,
      projectRoot: ROOT,
      query: '',
      sourceChars: 0,
      responseChars: 0,
      files: (Array.isArray(prop(r, 'files')) ? (prop(r, 'files') as unknown[]) : []).map((f) => ({
        path: prop(f, 'path') as string,
        ranges: ranges(f, 'ranges'),
        chars: 0,
        ...(typeof prop(f, 'fingerprint') === 'string'
          ? { fingerprint: prop(f, 'fingerprint') as string }
          : {}),
      })),
    })),
  };
}

/** One file's decision as the protocol states it. */
function decision(plan: ReturnType<typeof planFile>) {
  return {
    render: plan.render,
    fingerprint: plan.fingerprint,
    emit: plan.emit,
    covered: plan.covered,
    coveredBy: plan.coveredBy,
    folded: plan.folded,
    newChars: plan.newChars,
    coveredChars: plan.coveredChars,
    foldedChars: plan.foldedChars,
    gates: plan.gates,
  };
}

function plan(input: unknown): Answer {
  const enabled = prop(input, 'enabled');
  return ok(
    decision(
      planFile({
        path: prop(input, 'path') as string,
        content: prop(input, 'content') as string,
        intended: ranges(input, 'intended'),
        prior: priorOf(prop(input, 'served')),
        enabled: enabled === false ? false : undefined,
        thresholds: prop(input, 'thresholds') as never,
      }),
    ),
  );
}

/** The rest of the core's exported functions, each called with the input's fields. */
function contract(op: string, input: unknown): Answer {
  const at = (key: string) => prop(input, key) as never;
  const prior = () => priorOf(prop(input, 'served'));
  switch (op) {
    case 'planCall':
      return ok(
        planCall({
          files: at('files'),
          prior: prior(),
          enabled: at('enabled'),
          thresholds: at('thresholds'),
          budget: at('budget'),
          holdBack: at('holdBack'),
          holdBackChars: at('holdBackChars'),
        }),
      );
    case 'planRead':
      return ok(
        planRead({
          path: at('path'),
          content: at('content'),
          range: at('range'),
          prior: prior(),
          enabled: at('enabled'),
          budget: at('budget'),
        }),
      );
    case 'formatPointer':
      return ok(formatPointer(input as never));
    case 'symbolsInSpans':
      return ok(symbolsInSpans(at('symbols'), at('ranges')));
    case 'estimateTokens':
      return typeof prop(input, 'text') === 'string' ? ok(estimateTokens(at('text'))) : INVALID;
    case 'normalizeSessionId':
      return ok(normalizeSessionId(at('id')) ?? null);
    case 'projectKey':
      return typeof prop(input, 'root') === 'string'
        ? ok(projectKey(at('root'), at('platform')))
        : INVALID;
    case 'servedRangesForFile':
      return ok(servedRangesForFile(prior(), at('path'), at('fingerprint')));
    case 'describeSession':
      return ok(describeSession(prior()) ?? null);
    case 'formatSessionBlock':
      return ok(formatSessionBlock(describeSession(prior())));
    case 'readRefresh':
      return ok(readRefresh(at('args')));
    case 'readContextToken':
      return ok(readContextToken(at('args')));
    case 'contextIdFromMeta':
      return ok(contextIdFromMeta(at('meta')));
    default:
      return ok(dedupEnabledFromEnv(at('env')));
  }
}

function ledger(input: unknown): Answer {
  const events = prop(input, 'events');
  const session = prop(input, 'session');
  let state: Ledger = createLedger();
  for (const event of Array.isArray(events) ? events : []) {
    state = ledgerReducer(state, event as LedgerEvent);
  }
  return ok(sessionView(state, typeof session === 'string' ? session : undefined));
}

/** A scenario step, as {@link readScenario} accepts it. */
export type Step =
  | {
      readonly do: 'call';
      readonly context: string;
      readonly files: readonly Ask[];
      readonly refresh?: readonly number[];
    }
  | {
      readonly do: 'parallel';
      readonly context: string;
      readonly calls: readonly (readonly Ask[])[];
    }
  | { readonly do: 'edit'; readonly path: string; readonly content: string }
  | { readonly do: 'compact'; readonly context: string; readonly told: boolean }
  | {
      readonly do: 'rewind';
      readonly context: string;
      readonly to: number;
      readonly told: boolean;
    };
/** A file a call asks for: its path (one of the scenario's files) and the spans wanted. */
export interface Ask {
  readonly path: string;
  readonly intended: unknown;
}
export interface Scenario {
  readonly files: Readonly<Record<string, string>>;
  readonly steps: readonly Step[];
}

const isContext = (x: unknown): x is string => typeof x === 'string' && x !== '';
const isNumberList = (x: unknown): boolean =>
  Array.isArray(x) && x.every((n) => Number.isSafeInteger(n) && n >= 1);

/** The scenario when every part of it is well formed (see docs/conformance.md), else `null`. */
export function readScenario(input: unknown): Scenario | null {
  const files = prop(input, 'files');
  const steps = prop(input, 'steps');
  if (typeof files !== 'object' || files === null || Array.isArray(files)) return null;
  if (!Object.values(files).every((c) => typeof c === 'string') || !Array.isArray(steps)) {
    return null;
  }
  const known = (path: unknown) => typeof path === 'string' && Object.hasOwn(files, path);
  const asks = (x: unknown) =>
    Array.isArray(x) && x.every((a) => known(prop(a, 'path')) && prop(a, 'intended') !== undefined);
  const valid = steps.every((s) => {
    switch (prop(s, 'do')) {
      case 'call':
        return (
          isContext(prop(s, 'context')) &&
          asks(prop(s, 'files')) &&
          (prop(s, 'refresh') === undefined || isNumberList(prop(s, 'refresh')))
        );
      case 'parallel': {
        const calls = prop(s, 'calls');
        return isContext(prop(s, 'context')) && Array.isArray(calls) && calls.every(asks);
      }
      case 'edit':
        return known(prop(s, 'path')) && typeof prop(s, 'content') === 'string';
      case 'compact':
        return isContext(prop(s, 'context')) && typeof prop(s, 'told') === 'boolean';
      case 'rewind':
        return (
          isContext(prop(s, 'context')) &&
          Number.isSafeInteger(prop(s, 'to')) &&
          (prop(s, 'to') as number) >= 0 &&
          typeof prop(s, 'told') === 'boolean'
        );
      default:
        return false;
    }
  });
  return valid ? (json(input) as Scenario) : null;
}

/** One response of a scenario: its context, its number, and each file's decision. */
export interface ScenarioResponse {
  readonly context: string;
  readonly number: number;
  readonly files: readonly {
    readonly path: string;
    readonly render: string;
    readonly emit: Ranges;
    readonly covered: Ranges;
    readonly coveredBy: readonly number[];
  }[];
}

/** A scenario under way: the files as edited so far, the ledger, the responses each context holds, the responses sent. */
interface Play {
  readonly contents: Record<string, string>;
  readonly held: Map<string, number[]>;
  readonly out: ScenarioResponse[];
  state: Ledger;
}

/** The context forgets `calls` (a refresh, or a compaction the harness was told of). */
function forgetCalls(play: Play, context: string, calls: readonly number[]): void {
  if (calls.length === 0) return;
  play.state = ledgerReducer(play.state, {
    type: 'pruned',
    sessionId: context,
    projectRoot: ROOT,
    calls,
  });
}

/** The context keeps only the responses `keep` picks; the ledger hears of the rest when `told`. */
function dropHeld(
  play: Play,
  context: string,
  keep: (n: number, i: number, all: number[]) => boolean,
  told: boolean,
): void {
  const mine = play.held.get(context) ?? [];
  const kept = mine.filter(keep);
  if (told) {
    forgetCalls(
      play,
      context,
      mine.filter((n) => !kept.includes(n)),
    );
  }
  play.held.set(context, kept);
}

/** How many numbers the context has taken. */
function callCountOf(play: Play, context: string): number {
  return projectFromView(sessionView(play.state, context), ROOT)!.callCount;
}

/**
 * Plans one call of the context against its view (under a reserved `number`
 * when `reserved`), adds its response to `play.out`, and returns the
 * `recorded` event of what it sent.
 */
function playOneCall(
  play: Play,
  context: string,
  asks: readonly Ask[],
  number: number,
  reserved: boolean,
): LedgerEvent {
  const view = projectFromView(sessionView(play.state, context), ROOT)!;
  const prior = reserved ? { ...view, callIndex: number } : view;
  const files = asks.map((a) => ({
    path: a.path,
    plan: planFile({
      path: a.path,
      content: play.contents[a.path]!,
      intended: a.intended as Ranges,
      prior,
    }),
  }));
  play.out.push({
    context,
    number,
    files: files.map(({ path, plan }) => ({
      path,
      render: plan.render,
      emit: plan.emit,
      covered: plan.covered,
      coveredBy: plan.coveredBy,
    })),
  });
  const sent = files.filter((f) => f.plan.emit.length > 0);
  const chars = sent.reduce((n, f) => n + f.plan.newChars, 0);
  return {
    type: 'recorded',
    sessionId: context,
    emission: {
      projectRoot: ROOT,
      query: '',
      files: sent.map((f) => ({
        path: f.path,
        ranges: f.plan.emit,
        chars: f.plan.newChars,
        fingerprint: f.plan.fingerprint,
      })),
      sourceChars: chars,
      responseChars: chars,
      ...(reserved ? { index: number } : {}),
    },
  };
}

/** Parallel calls of one context: each reserves its number, all plan against the same view. */
function playParallel(play: Play, context: string, calls: readonly (readonly Ask[])[]): void {
  const numbers = calls.map(() => {
    play.state = ledgerReducer(play.state, {
      type: 'reserved',
      sessionId: context,
      projectRoot: ROOT,
    });
    return callCountOf(play, context);
  });
  const events = calls.map((asks, i) => playOneCall(play, context, asks, numbers[i]!, true));
  for (const e of events) play.state = ledgerReducer(play.state, e);
  play.held.set(context, [...(play.held.get(context) ?? []), ...numbers]);
}

/**
 * Plays a scenario through the ledger and the planner: each context is a
 * session bucket of its own (the harness passes the context's id), a call
 * plans each file against its context's view and records what it sent, a
 * `refresh` prunes the named responses first, a compaction keeps the
 * context's last response (and prunes the rest when the harness is told), a
 * rewind drops the responses after `to`, parallel calls each reserve a number
 * and plan against the same view.
 */
function playScenario(s: Scenario): ScenarioResponse[] {
  const play: Play = { contents: { ...s.files }, held: new Map(), out: [], state: createLedger() };
  for (const step of s.steps) {
    switch (step.do) {
      case 'edit':
        play.contents[step.path] = step.content;
        break;
      case 'compact':
        dropHeld(play, step.context, (_n, i, all) => i === all.length - 1, step.told);
        break;
      case 'rewind':
        dropHeld(play, step.context, (n) => n <= step.to, step.told);
        break;
      case 'call': {
        forgetCalls(play, step.context, step.refresh ?? []);
        const number = callCountOf(play, step.context) + 1;
        play.state = ledgerReducer(
          play.state,
          playOneCall(play, step.context, step.files, number, false),
        );
        play.held.set(step.context, [...(play.held.get(step.context) ?? []), number]);
        break;
      }
      default:
        playParallel(play, step.context, step.calls);
    }
  }
  return play.out;
}

function scenario(input: unknown): Answer {
  const s = readScenario(input);
  return s === null ? INVALID : ok({ responses: playScenario(s) });
}

/**
 * The reference answer to one request: `suite` and `op` as the protocol names
 * them, `input` any JSON value. An unknown suite or operation answers
 * `unsupported`.
 */
export function answerReference(suite: unknown, op: unknown, input: unknown): Answer {
  if (!SUITES.includes(suite as Suite) || !OPS[suite as Suite].includes(op as string)) {
    return { error: 'unsupported' };
  }
  const name = op as string;
  switch (suite as Suite) {
    case 'algebra':
      return algebra(name, input);
    case 'lines':
      return lines(name, input);
    case 'fingerprint': {
      const content = prop(input, 'content');
      return typeof content === 'string' ? ok(fingerprint(content)) : INVALID;
    }
    case 'plan':
      return plan(input);
    case 'ledger':
      return ledger(input);
    case 'scenario':
      return scenario(input);
    default:
      return contract(name, input);
  }
}
