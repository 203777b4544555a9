/**
 * The session block of a diagnostics report: where the call being planned
 * stands in its session, and what the session was already served. Absent (not
 * zeroed) when nobody tracks the call, so "untracked" never reads as "first call".
 *
 * Not for decisions: the planner never reads these figures.
 */

import { frozenEach } from '../boundary/freeze.js';
import { isOwn, own } from '../boundary/own.js';
import { count, isPositiveInteger, prop, readEach, stringOf } from '../boundary/read.js';
import { readGeneration } from '../ledger/random.js';
import { readPrior, responseNumber } from '../ledger/read-prior.js';
import type { ProjectState } from '../ledger/types.js';
import { firstThenMore, plural, spansText } from '../ranges/format.js';
import { mergeRanges } from '../ranges/merge.js';
import type { LineRange } from '../ranges/range.js';
import { readRanges } from '../ranges/read.js';
import { responseLabel } from './pointer.js';

/**
 * What one path was served over the retained calls.
 */
export interface PriorFile {
  readonly path: string;
  /** Union of the served spans (source and held), normalized. */
  readonly ranges: LineRange[];
  /** Source chars sent of this path over those calls. */
  readonly chars: number;
}

/**
 * The session block.
 */
export interface SessionDiagnostics {
  /**
   * The number of the call being planned: the one reserved for it
   * (`project.callIndex`), else `priorCalls + 1`.
   */
  readonly callIndex: number;
  /** The numbering tag printed beside it (`project.generation`); `null` or absent for none. */
  readonly generation?: string | null;
  /** Calls answered for this project in this session before, evicted ones included. */
  readonly priorCalls: number;
  /** Response chars over those calls. */
  readonly priorChars: number;
  /** Per path, most recently served first. */
  readonly priorFiles: PriorFile[];
}

/**
 * The session block for a call about to be planned: `undefined` when `project`
 * is `null` (untracked), otherwise the call's position and what was served.
 *
 * @example
 * ```ts
 * describeSession(null); // undefined: nobody tracks this call
 * describeSession({ projectRoot: '/repo', callCount: 0, responseChars: 0, calls: [] });
 * // → { callIndex: 1, generation: null, priorCalls: 0, priorChars: 0, priorFiles: [] }
 * ```
 */
export function describeSession(project: ProjectState | null): SessionDiagnostics | undefined {
  const prior = readPrior(project, null);
  if (prior === null) return undefined;
  const byPath = new Map<string, { ranges: LineRange[]; chars: number; last: number }>();
  for (const [i, call] of prior.calls.entries()) {
    for (const file of call.files) {
      const entry = byPath.get(file.path) ?? { ranges: [], chars: 0, last: i };
      byPath.set(file.path, entry);
      entry.last = i;
      entry.chars += file.chars;
      entry.ranges.push(...file.ranges);
    }
  }
  const priorFiles = [...byPath.entries()]
    .sort((a, b) => b[1].last - a[1].last)
    .map(([path, e]) =>
      Object.freeze({ path, ranges: frozenEach(mergeRanges(e.ranges)), chars: e.chars }),
    );
  // Deep-frozen and marked: `formatSessionBlock` takes it back as it is.
  return own(
    Object.freeze({
      callIndex: responseNumber(prior),
      generation: prior.generation ?? null,
      priorCalls: prior.callCount,
      priorChars: prior.responseChars,
      priorFiles: Object.freeze(priorFiles) as PriorFile[],
    }),
  );
}

function thousands(n: number): string {
  const digits = String(Math.round(n));
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

const MAX_FILES_SHOWN = 8;

/**
 * Renders the session block as short text lines (joined by `\n`); `''` for
 * `undefined`.
 *
 * @example
 * ```ts
 * formatSessionBlock({ callIndex: 2, generation: null, priorCalls: 1, priorChars: 18204,
 *   priorFiles: [{ path: 'src/a.ts', ranges: [{ start: 1, end: 159 }], chars: 4928 }] });
 * // → 'session: call #2 for this project · 1 earlier call · 18,204 chars sent so far\n'
 * //   + '  sent before: src/a.ts · 4,928 chars · L1-159'
 * ```
 */
export function formatSessionBlock(d: SessionDiagnostics | undefined): string {
  const block = isOwn(d) ? (d as SessionDiagnostics) : readSessionBlock(d);
  return block === null ? '' : sessionBlock(block);
}

/**
 * A session block the library did not build (written by hand, or after a trip
 * through JSON) read into the shape `describeSession` gives, or `null` when
 * it has no call number (it is not a block). Counts that are not counts read
 * as 0, a path that is not a string as '', spans that cannot be read as none.
 */
function readSessionBlock(raw: unknown): SessionDiagnostics | null {
  const callIndex = prop(raw, 'callIndex');
  if (!isPositiveInteger(callIndex)) return null;
  const priorFiles = readEach(prop(raw, 'priorFiles'), (f): PriorFile => {
    return {
      path: stringOf(prop(f, 'path')),
      ranges: readRanges(prop(f, 'ranges')),
      chars: count(prop(f, 'chars')),
    };
  });
  return {
    callIndex,
    generation: readGeneration(prop(raw, 'generation')) ?? null,
    priorCalls: count(prop(raw, 'priorCalls')),
    priorChars: count(prop(raw, 'priorChars')),
    priorFiles,
  };
}

/** The session block's text, from a block read or built by `describeSession`. */
function sessionBlock(d: SessionDiagnostics): string {
  const { priorCalls: calls, priorFiles } = d;
  const index = responseLabel(d.callIndex, d.generation);
  const head =
    calls === 0
      ? `session: call #${index} for this project · no earlier calls`
      : `session: call #${index} for this project · ${calls} earlier ${plural(calls, 'call')} · ${thousands(d.priorChars)} chars sent so far`;
  const files = firstThenMore(
    priorFiles,
    MAX_FILES_SHOWN,
    (f) => {
      const spans = spansText(f.ranges, 4);
      return `  sent before: ${f.path} · ${thousands(f.chars)} chars${spans ? ` · ${spans}` : ''}`;
    },
    (rest) => `  +${rest} more ${plural(rest, 'file')}`,
  );
  return [head, ...files].join('\n');
}
