/**
 * Replaying a recorded query sequence over a project, in two arms: without
 * dedup (every call renders its intended spans under its budget) and with it
 * (`planCall` against the session's ledger, the reference renderer, the
 * emission recorder, and the ledger recording what was sent).
 *
 * Shared by the demo, the A/B replay benchmark and the tests. It measures what
 * the rendered text contains, never what the planner says it did.
 */

import {
  type DuplicateReport,
  measureDuplicates,
  parseRenderedResponse,
} from '../adapter/parse.js';
import { createEmissionRecorder } from '../adapter/recorder.js';
import { type RenderSource, renderMarkdown } from '../adapter/render.js';
import { type CallBudget, type CallPlan, planCall } from '../dedup/plan-call.js';
import type { SymbolNode } from '../dedup/symbols.js';
import { createLedger, ledgerReducer, sessionView } from '../ledger/ledger.js';
import { projectFromView } from '../ledger/selectors.js';
import type { Emission } from '../ledger/types.js';
import { mergeRanges } from '../ranges/merge.js';
import type { LineRange } from '../ranges/range.js';
import { splitLines } from '../text/lines.js';

/**
 * One call of a recorded sequence: the files the ranking chose, in rank order, and their spans.
 */
export interface RecordedCall {
  readonly query: string;
  readonly files: readonly { readonly path: string; readonly intended: readonly LineRange[] }[];
  /** The `refresh` the agent sent with this call: the responses it no longer holds. */
  readonly refresh?: readonly number[];
}

/**
 * A recorded query sequence (the JSON under `fixtures/sequences/`).
 */
export interface RecordedSequence {
  readonly name: string;
  readonly description?: string;
  readonly budget: CallBudget;
  readonly calls: readonly RecordedCall[];
}

/**
 * A project file as the replay serves it: a renderer's source, with its symbols.
 */
export type ProjectFile = RenderSource & { readonly symbols: readonly SymbolNode[] };

/**
 * One replayed call.
 */
export interface ReplayedCall {
  readonly query: string;
  readonly text: string;
  readonly plan: CallPlan;
  readonly emission: Emission;
}

/**
 * One arm of a replay.
 */
export interface ReplayArm {
  readonly calls: readonly ReplayedCall[];
  readonly report: DuplicateReport;
}

/**
 * Options of {@link replaySequence}.
 */
export interface ReplayOptions {
  readonly dedup: boolean;
  readonly projectRoot?: string;
  readonly maxResponseChars?: number;
  /**
   * Render as a tool that hands out context tokens and takes `refresh`: every
   * header prints this token, and each response offers `refresh` once.
   */
  readonly context?: string;
}

/**
 * Replays `sequence` over `project` in one arm and measures the rendered text.
 *
 * @example
 * ```ts
 * const baseline = replaySequence(project, sequence, { dedup: false });
 * const dedup = replaySequence(project, sequence, { dedup: true });
 * dedup.report.duplicateShare < baseline.report.duplicateShare; // true
 * ```
 */
export function replaySequence(
  project: ReadonlyMap<string, ProjectFile>,
  sequence: RecordedSequence,
  options: ReplayOptions,
): ReplayArm {
  const projectRoot = options.projectRoot ?? `/replay/${sequence.name}`;
  let ledger = createLedger();
  const calls: ReplayedCall[] = [];
  for (const call of sequence.calls) {
    const files = call.files.flatMap((f) => {
      const file = project.get(f.path);
      return file
        ? [{ path: f.path, content: file.content, intended: f.intended, symbols: file.symbols }]
        : [];
    });
    if (options.dedup && call.refresh !== undefined) {
      // As a host does with a `refresh` it read: forget those responses before planning.
      ledger = ledgerReducer(ledger, { type: 'pruned', projectRoot, calls: [...call.refresh] });
    }
    const prior = options.dedup ? projectFromView(sessionView(ledger), projectRoot) : null;
    const plan = planCall({ files, prior, enabled: options.dedup, budget: sequence.budget });
    const recorder = createEmissionRecorder({ projectRoot, query: call.query });
    const { text } = renderMarkdown({
      plan,
      sources: files,
      recorder,
      title: `Results for "${call.query}"`,
      maxResponseChars: options.maxResponseChars,
      ...(options.context === undefined
        ? {}
        : { context: options.context, refresh: true, refreshArgument: call.refresh }),
    });
    const emission = recorder.finish(text.length);
    if (options.dedup) ledger = ledgerReducer(ledger, { type: 'recorded', emission });
    calls.push({ query: call.query, text, plan, emission });
  }
  return { calls, report: measureDuplicates(calls.map((c) => c.text)) };
}

/**
 * A line a pointer stood for that no earlier response delivered with that text.
 */
export interface WithheldLine {
  readonly call: number;
  readonly path: string;
  readonly line: number;
}

/**
 * A line that carries no code: empty, or only whitespace and `)]};,`. The
 * delta gate may fold such a remainder into a pointer (DESIGN.md rev 2).
 *
 * @example
 * ```ts
 * isTrivialLine('  });'); // true
 * isTrivialLine('  return x;'); // false
 * ```
 */
export function isTrivialLine(text: string): boolean {
  return /^[\s)\]};,]*$/.test(text);
}

/**
 * The lines an arm withheld although the agent never received them — read
 * from the rendered text: every line a pointer names, every line of its plan's
 * `covered`, and every non-trivial line its plan folded into the pointer (the
 * delta gate) must have been in an earlier response's fences with the same
 * text. Folded lines that carry no code (`isTrivialLine`) are the one allowed
 * exception. An honest arm returns `[]`.
 *
 * @example
 * ```ts
 * withheldUnseen(replaySequence(project, sequence, { dedup: true }), project); // → []
 * ```
 */
export function withheldUnseen(
  arm: ReplayArm,
  project: ReadonlyMap<string, ProjectFile>,
): WithheldLine[] {
  const delivered = new Map<string, Set<string>>();
  const bad: WithheldLine[] = [];
  arm.calls.forEach((call, i) => {
    const parsed = parseRenderedResponse(call.text);
    for (const section of parsed.sections) {
      if (!section.pointer) continue;
      const plan = call.plan.files.find((f) => f.path === section.path);
      const lines = splitLines(project.get(section.path)?.content ?? '');
      const held = delivered.get(section.path);
      const unseen = (n: number) => !held?.has(`${n}\t${lines[n - 1] ?? ''}`);
      const covered = plan?.covered ?? [];
      for (const span of mergeRanges([...section.pointed, ...covered])) {
        for (let n = span.start; n <= span.end; n++) {
          if (unseen(n)) bad.push({ call: i + 1, path: section.path, line: n });
        }
      }
      for (const span of plan?.folded ?? []) {
        for (let n = span.start; n <= span.end; n++) {
          if (!isTrivialLine(lines[n - 1] ?? '') && unseen(n)) {
            bad.push({ call: i + 1, path: section.path, line: n });
          }
        }
      }
    }
    for (const section of parsed.sections) {
      let held = delivered.get(section.path);
      if (!held) delivered.set(section.path, (held = new Set()));
      for (const l of section.lines) held.add(`${l.line}\t${l.text}`);
    }
  });
  return bad;
}
