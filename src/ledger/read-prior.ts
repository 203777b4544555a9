/**
 * Reading a `prior` — the project state a host hands the planner, or
 * `servedRangesForFile`, or `describeSession` — into the plain shape they
 * trust. A project this library built (and froze) is taken as it is; any
 * other is read here, and what cannot be read holds nothing (its lines are
 * re-sent).
 */
import { isOwn } from '../boundary/own.js';
import {
  at,
  count,
  isNonEmptyString,
  isPositiveInteger,
  listOf,
  prop,
  readEach,
  stringOf,
} from '../boundary/read.js';
import { readRanges } from '../ranges/read.js';
import { readFingerprint, withNumbering } from './read-emission.js';
import type { CallRecord, FileEmission, ProjectState } from './types.js';

/** One file of a prior record: only the paths asked about, only with a usable fingerprint. */
function readServedFile(raw: unknown, wanted: ReadonlySet<string> | null): FileEmission | null {
  const path = prop(raw, 'path');
  if (!isNonEmptyString(path)) return null;
  if (wanted !== null && !wanted.has(path)) return null;
  const fingerprint = readFingerprint(prop(raw, 'fingerprint'));
  const ranges = readRanges(prop(raw, 'ranges'));
  const file: FileEmission = { path, ranges, chars: count(prop(raw, 'chars')) };
  return fingerprint === undefined ? file : { ...file, fingerprint };
}

/**
 * What the session was served, for the paths in `wanted` (every path when
 * `null`): `null` when the prior is not an object (untracked). Records without
 * a positive safe-integer `index` are dropped (a pointer could not cite them);
 * files of other paths are left out, since nothing in this call asks about them.
 */
export function readPrior(raw: unknown, wanted: ReadonlySet<string> | null): ProjectState | null {
  if (typeof raw !== 'object' || raw === null) return null;
  // A project the library built and froze (`projectFromView`) is exactly what it made.
  if (isOwn(raw)) return raw as ProjectState;
  const callCount = prop(raw, 'callCount');
  const { list, length } = listOf(prop(raw, 'calls'));
  const calls: CallRecord[] = [];
  for (let i = 0; i < length; i++) {
    const call = at(list, i);
    const index = prop(call, 'index');
    if (!isPositiveInteger(index)) continue;
    const files = readEach(prop(call, 'files'), (file) => readServedFile(file, wanted));
    calls.push({ index, projectRoot: '', query: '', files, sourceChars: 0, responseChars: 0 });
  }
  const prior: { -readonly [K in keyof ProjectState]: ProjectState[K] } = {
    projectRoot: stringOf(prop(raw, 'projectRoot')),
    // Never below the calls it holds: the call being planned comes after them.
    callCount: Math.max(Math.floor(Math.min(count(callCount), Number.MAX_SAFE_INTEGER)), length),
    responseChars: count(prop(raw, 'responseChars')),
    calls,
  };
  return withNumbering(prior, raw);
}

/**
 * @internal The number of the call being planned against `project`, once:
 * the one `reserve` put on it (`callIndex`), else the next after its
 * retained count. `planCall`, `planFile`/`planRead` and `describeSession`
 * all print this number.
 */
export function responseNumber(project: ProjectState): number {
  return project.callIndex ?? project.callCount + 1;
}
