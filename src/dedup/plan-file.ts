/**
 * The five gates for one file: what of the intended spans to send, what to
 * replace with a pointer, and why. Pure; never throws on bad input.
 *
 * Not for call-level rules (hold-back, budget): those are in `plan-call.ts`.
 */

import { fingerprint as fingerprintOf } from '../fingerprint/fingerprint.js';
import type { ProjectState } from '../ledger/types.js';
import { EMPTY, fromSpans, type Spans, toSpans } from '../ranges/_spans.js';
import { longRuns } from '../ranges/dedupe.js';
import type { LineRange } from '../ranges/range.js';
import { intersectSpans, subtractSpans } from '../ranges/setops.js';
import { charsOf, clipToFile, indexLines, type LineIndex } from './_lines.js';
import {
  indexServed,
  type ServedIndex,
  type SessionState,
  servedFor,
  sessionStateOf,
} from './_served.js';
import type { GateDecision, GateReason, GateVerdict } from './gates.js';
import { type DedupThresholds, resolveThresholds } from './thresholds.js';

/**
 * How a file appears in the response:
 * - `full` — nothing withheld: its section shows `emit` (the intended spans);
 * - `partial` — a pointer for `covered`, then the new lines in `emit`;
 * - `backref` — a pointer only, `emit` empty;
 * - `skipped` — left out: nothing of the file to send once its intended spans
 *   are clipped to its lines, or (from `planCall` with a budget) no room for it.
 *   No source, no pointer, no file slot, never recorded, whatever the other
 *   fields say.
 *
 * @example
 * ```ts
 * if (plan.render === 'skipped') continue;
 * ```
 */
export type FileRender = 'full' | 'partial' | 'backref' | 'skipped';

/**
 * The decision for one file.
 *
 * What to record after rendering it: `emit` as source with `fingerprint`, and
 * (for `partial` and `backref`) `covered` as held with 0 chars. Never `folded`:
 * the reader has not seen those lines.
 *
 * @example
 * ```ts
 * const plan: FilePlan = planFile({ path, content, intended, prior });
 * if (plan.render === 'partial' || plan.render === 'backref') rec.backref(plan.path, plan.covered, plan.fingerprint);
 * if (plan.emit.length > 0) rec.source(plan.path, plan.emit, plan.newChars, plan.fingerprint);
 * ```
 */
export interface FilePlan {
  readonly path: string;
  /** Fingerprint of the content planned (computed unless passed); `''` when there was no content. */
  readonly fingerprint: string;
  readonly render: FileRender;
  /** The lines to send as source, normalized. */
  readonly emit: LineRange[];
  /** The lines a pointer stands for: held by the reader from this very content. */
  readonly covered: LineRange[];
  /**
   * New lines folded into the pointer by the delta gate: fewer than
   * `minDeltaChars` chars, each line empty or only whitespace and `)]};,`. The
   * reader has not seen them, but they carry no code.
   */
  readonly folded: LineRange[];
  /** Chars of `emit`: source this file really sends. */
  readonly newChars: number;
  /**
   * Chars of `covered`. A pre-clip figure: duplicate source the ranking intended
   * to send, not what dedup kept out of the window (a budget would have cut much
   * of it anyway). Never read it as savings.
   */
  readonly coveredChars: number;
  /** Chars of `folded`; when > 0, `render` is `backref` and `newChars` is 0. */
  readonly foldedChars: number;
  /** Each gate's verdict with a reason code, in order: switch, session, content, size, delta. */
  readonly gates: readonly GateDecision[];
}

/**
 * One file to plan.
 *
 * @example
 * ```ts
 * const input: PlanFileInput = { path: 'src/a.ts', content, intended: [{ start: 1, end: 40 }], prior: null };
 * ```
 */
export interface PlanFileInput {
  /** Project-relative path, as the ledger records it. */
  readonly path: string;
  /** The file's current content. */
  readonly content: string;
  /** The spans the ranking wants to send, 1-based inclusive; invalid ones are dropped. */
  readonly intended: readonly LineRange[];
  /** What the session was served before: `null` when nobody tracks this call. */
  readonly prior: ProjectState | null;
  /** The fingerprint of `content`, when the caller has it already. */
  readonly fingerprint?: string | undefined;
  /** `false` renders as if the session had no history. Default on. */
  readonly enabled?: boolean | undefined;
  /** Overrides of {@link DEDUP_THRESHOLDS}. */
  readonly thresholds?: Partial<DedupThresholds> | undefined;
}

/**
 * @internal One file's decision in packed form, which `planCall` goes on
 * changing (hold-back, budget) before {@link planOf} builds the public plan once.
 */
export interface FileWork {
  readonly path: string;
  readonly fingerprint: string;
  render: FileRender;
  readonly index: LineIndex;
  /** The intended spans clipped to the file. */
  readonly intended: Spans;
  emit: Spans;
  covered: Spans;
  folded: Spans;
  readonly gates: readonly GateDecision[];
  /** The path and content were usable. */
  readonly valid: boolean;
}

/** @internal What the gates read besides the file. */
export interface GateContext {
  readonly enabled: boolean;
  readonly session: SessionState;
  readonly served: ServedIndex;
  readonly thresholds: DedupThresholds;
}

const decide = (
  gate: GateDecision['gate'],
  verdict: GateVerdict,
  reason: GateReason,
): GateDecision => ({ gate, verdict, reason });

/**
 * @internal `obj[key]`, or `undefined` when reading it throws: a hostile getter
 * or proxy, or `obj` being null or undefined.
 */
export function read(obj: unknown, key: string): unknown {
  try {
    return (obj as Record<string, unknown>)[key];
  } catch {
    // No field, as far as the planner is concerned.
  }
  return undefined;
}

/** Whitespace and closing punctuation only: lines that carry no code. */
const TRIVIAL = /^[\s)\]};,]*$/;

/**
 * Whether every line of `spans` is trivial — empty, or only whitespace and
 * `)]};,`. Only such a remainder may be folded into a pointer: the reader has
 * not seen it, so anything that could be code (an exported one-liner) is sent.
 */
function isTrivial(content: string, index: LineIndex, spans: Spans): boolean {
  for (let i = 0; i < spans.n; i++) {
    const text = content.slice(index.offsets[spans.s[i]! - 1]!, index.offsets[spans.e[i]!]!);
    if (!TRIVIAL.test(text)) return false;
  }
  return true;
}

/** @internal Runs the five gates on one file. */
export function planWork(input: unknown, ctx: GateContext): FileWork {
  // Every field is read through `read`: null, a primitive or a hostile object reads as none.
  const rawPath = read(input, 'path');
  const rawContent = read(input, 'content');
  const rawFingerprint = read(input, 'fingerprint');
  const path = typeof rawPath === 'string' ? rawPath : '';
  const hasContent = typeof rawContent === 'string';
  const content = hasContent ? rawContent : '';
  const asked = hasContent ? toSpans(read(input, 'intended')) : EMPTY;
  // Lines past the last intended one are never scanned.
  const index = indexLines(content, asked.n > 0 ? asked.e[asked.n - 1]! : 1);
  const intended = clipToFile(asked, index.lineCount);
  let fp = '';
  if (hasContent) {
    fp =
      typeof rawFingerprint === 'string' && rawFingerprint !== ''
        ? rawFingerprint
        : fingerprintOf(content);
  }

  const gates: GateDecision[] = [];
  let covered: Spans = EMPTY;
  let folded: Spans = EMPTY;
  let emit: Spans = intended;
  let render: FileRender = 'full';

  const stopRest = (from: number) => {
    const names = ['switch', 'session', 'content', 'size', 'delta'] as const;
    for (let i = from; i < 5; i++) {
      const gate = names[i]!;
      gates.push(decide(gate, 'skip', gate === 'delta' ? 'nothing-covered' : 'not-reached'));
    }
  };

  gates.push(decide('switch', ctx.enabled ? 'pass' : 'stop', ctx.enabled ? 'enabled' : 'disabled'));
  if (!ctx.enabled) stopRest(1);
  else if (ctx.session !== 'has-history') {
    gates.push(decide('session', 'stop', ctx.session));
    stopRest(2);
  } else {
    gates.push(decide('session', 'pass', 'has-history'));
    const served = hasContent ? servedFor(ctx.served, path, fp) : undefined;
    if (served?.reason !== 'fingerprint-match') {
      gates.push(decide('content', 'stop', served ? served.reason : 'no-content'));
      stopRest(3);
    } else {
      gates.push(decide('content', 'pass', 'fingerprint-match'));
      const held = intersectSpans(intended, served.spans);
      covered = longRuns(held, ctx.thresholds.minCoveredLines);
      if (covered.n === 0) {
        gates.push(decide('size', 'stop', held.n === 0 ? 'no-overlap' : 'below-min-covered'));
        stopRest(4);
      } else {
        gates.push(decide('size', 'pass', 'covered'));
        const rest = subtractSpans(intended, covered);
        const restChars = charsOf(index, rest);
        if (rest.n === 0) {
          gates.push(decide('delta', 'pass', 'all-covered'));
          emit = EMPTY;
          render = 'backref';
        } else if (restChars < ctx.thresholds.minDeltaChars && isTrivial(content, index, rest)) {
          gates.push(decide('delta', 'fold', 'folded-small-delta'));
          folded = rest;
          emit = EMPTY;
          render = 'backref';
        } else {
          gates.push(decide('delta', 'pass', 'delta-kept'));
          emit = rest;
          render = 'partial';
        }
      }
    }
  }

  // Nothing of the file left to send after clipping (or nothing valid asked): no section.
  if (intended.n === 0) render = 'skipped';
  return {
    path,
    fingerprint: fp,
    render,
    index,
    intended,
    emit,
    covered,
    folded,
    gates,
    valid: hasContent && path !== '',
  };
}

/**
 * Public ranges of a packed set. Most plans leave `covered` or `folded` empty,
 * and an empty array needs none of the bookkeeping `fromSpans` does for
 * lookups, so it is built directly.
 */
function rangesOf(spans: Spans): LineRange[] {
  return spans.n === 0 ? [] : fromSpans(spans);
}

/** @internal Builds the public plan object from packed spans. */
export function planOf(work: FileWork): FilePlan {
  const { index } = work;
  return {
    path: work.path,
    fingerprint: work.fingerprint,
    render: work.render,
    emit: rangesOf(work.emit),
    covered: rangesOf(work.covered),
    folded: rangesOf(work.folded),
    newChars: charsOf(index, work.emit),
    coveredChars: charsOf(index, work.covered),
    foldedChars: charsOf(index, work.folded),
    gates: work.gates,
  };
}

/** @internal The gate context for a call. */
export function gateContext(
  prior: ProjectState | null,
  enabled: unknown,
  thresholds: unknown,
  paths?: ReadonlySet<string>,
): GateContext {
  const on = enabled !== false;
  const session = sessionStateOf(prior);
  return {
    enabled: on,
    session,
    served: on && session === 'has-history' ? indexServed(prior, paths) : new Map(),
    thresholds: resolveThresholds(thresholds as Partial<DedupThresholds> | undefined),
  };
}

/**
 * Plans one file through the five gates (switch, session, content, size,
 * delta): which intended lines to send, which to replace by a pointer, and a
 * reason code for each gate's verdict.
 *
 * Lines are POSIX lines (a final `'\n'` ends the last line; `''` has none);
 * intended spans past the last line are clipped to it, invalid ones dropped. A
 * file with nothing left to send after that renders `'skipped'`. Never throws:
 * a non-string `content` plans as an empty file (`'skipped'`: nothing sent,
 * nothing withheld).
 *
 * @example
 * ```ts
 * // An earlier call sent L1-40 of this very content; now L1-60 is wanted.
 * const plan = planFile({ path: 'src/auth.ts', content, intended: [{ start: 1, end: 60 }], prior });
 * plan.render;  // 'partial'
 * plan.covered; // [{ start: 1, end: 40 }]  → a pointer
 * plan.emit;    // [{ start: 41, end: 60 }] → source
 * plan.gates.map((g) => g.reason);
 * // ['enabled', 'has-history', 'fingerprint-match', 'covered', 'delta-kept']
 * ```
 */
export function planFile(input: PlanFileInput): FilePlan {
  const ctx = gateContext(
    (read(input, 'prior') as ProjectState | null | undefined) ?? null,
    read(input, 'enabled'),
    read(input, 'thresholds'),
    // Only this path is indexed; a path that is not a string matches no record.
    new Set([read(input, 'path') as string]),
  );
  return planOf(planWork(input, ctx));
}
