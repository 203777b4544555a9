/**
 * Selectors over a session view: how a tool call reads what its session has
 * been served, without reaching into the shape.
 */
import { isOwn, own } from '../boundary/_own.js';
import { OPEN_LIMITS, readView } from '../boundary/view.js';
import { mergeRanges } from '../ranges/merge.js';
import type { LineRange } from '../ranges/range.js';
import { freezeRanges } from './_freeze.js';
import { projectKey } from './project-key.js';
import type { CallRecord, FileEmission, ProjectState, SessionView } from './types.js';

/**
 * The state of one project in a session view.
 *
 * - `null` when `view` is `null`: nobody is tracking this call (a CLI, a bare
 *   handler), so nothing may be withheld.
 * - An **empty** state `{ projectRoot, callCount: 0, responseChars: 0, calls: [] }`
 *   when the view is tracked but has not seen the project yet.
 *
 * The two stay distinguishable so diagnostics can say "untracked" rather than
 * "first call". Roots are compared by `projectKey`, as the ledger keys its
 * entries: `/repo/` finds the project recorded as `/repo`. A view the library
 * did not build (one written by hand) is read as `readSessionView` reads one,
 * without its bounds: a view that is not version 1 is untracked. What it
 * returns is frozen.
 *
 * @example
 * ```ts
 * projectFromView(null, '/repo');                           // null
 * projectFromView({ version: 1, projects: [] }, '/repo');
 * // → { projectRoot: '/repo', callCount: 0, responseChars: 0, calls: [] }
 * ```
 */
export function projectFromView(
  view: SessionView | null,
  projectRoot: string,
): ProjectState | null {
  const mine = isOwn(view) ? view : readView(view, OPEN_LIMITS);
  if (mine === null) return null;
  const key = typeof projectRoot === 'string' ? projectKey(projectRoot) : undefined;
  const found =
    key === undefined ? undefined : mine.projects.find((p) => projectKey(p.projectRoot) === key);
  // Part of a view the library built (or just read), deep-frozen: the planner may trust it.
  return own(
    found ??
      Object.freeze({ projectRoot, callCount: 0, responseChars: 0, calls: Object.freeze([]) }),
  );
}

/**
 * @internal What one retained record served of a path: its `index` and the
 * spans (normalized when the record's are, as a ledger keeps them).
 */
export interface ServedRecord {
  readonly index: number;
  readonly ranges: readonly LineRange[];
}

/** One file of one retained record. */
interface ServedFile {
  readonly call: CallRecord;
  readonly file: FileEmission;
}

/** Each project's files by path, most recent record first: built once per project, which never changes. */
const byPath = new WeakMap<ProjectState, Map<string, ServedFile[]>>();

function filesOf(project: ProjectState, path: string): readonly ServedFile[] {
  let index = byPath.get(project);
  if (index === undefined) {
    index = new Map();
    for (let i = project.calls.length - 1; i >= 0; i--) {
      const call = project.calls[i]!;
      for (const file of call.files) {
        const list = index.get(file.path);
        if (list === undefined) index.set(file.path, [{ call, file }]);
        else list.push({ call, file });
      }
    }
    byPath.set(project, index);
  }
  return index.get(path) ?? [];
}

/**
 * @internal The rule "served ranges whose fingerprint matches", once: the
 * retained records of `project` that served `path` from content with exactly
 * `fingerprint`, most recent first. Records without a fingerprint never match
 * (unprovable = re-send). `servedRangesForFile` and the planner both read it.
 */
export function servedRecords(
  project: ProjectState,
  path: string,
  fingerprint: string,
): ServedRecord[] {
  const out: ServedRecord[] = [];
  if (fingerprint === '') return out;
  let last: CallRecord | undefined;
  for (const { call, file } of filesOf(project, path)) {
    if (file.fingerprint !== fingerprint) continue;
    if (call === last) {
      // A ledger keeps one file per path and record; a project read from
      // elsewhere may list a path twice.
      const prev = out.pop()!;
      out.push({ index: call.index, ranges: mergeRanges([...prev.ranges, ...file.ranges]) });
    } else {
      out.push({ index: call.index, ranges: file.ranges });
    }
    last = call;
  }
  return out;
}

/**
 * The merged spans of `path` that retained calls served from content with
 * exactly this `fingerprint`. Records without a fingerprint are ignored: a match
 * that cannot be proven is treated as "not held", and the lines are re-sent.
 * A `project` this library did not build is read as foreign input first.
 *
 * @example
 * ```ts
 * servedRangesForFile(project, 'src/auth.ts', fingerprint(content));
 * // → [{ start: 1, end: 40 }, { start: 90, end: 120 }]
 * servedRangesForFile(null, 'src/auth.ts', fp); // → [] (untracked)
 * ```
 */
export function servedRangesForFile(
  project: ProjectState | null,
  path: string,
  fingerprint: string,
): LineRange[] {
  if (project === null || typeof project !== 'object' || typeof fingerprint !== 'string') {
    return freezeRanges([]);
  }
  let plain: ProjectState;
  try {
    // A project the library built is trusted as it is; any other is read first.
    plain = isOwn(project) ? project : plainCopy(project, path);
  } catch {
    // Unreadable state proves nothing: hold nothing, so every line is re-sent.
    return freezeRanges([]);
  }
  return freezeRanges(
    mergeRanges(servedRecords(plain, path, fingerprint).flatMap((r) => r.ranges)),
  );
}

/** The records of `path` in a project no ledger may have built, as plain data. */
function plainCopy(project: ProjectState, path: string): ProjectState {
  const calls = Array.isArray(project.calls) ? project.calls : [];
  return {
    projectRoot: '',
    callCount: 0,
    responseChars: 0,
    calls: calls.map((call) => {
      const files =
        call !== null && typeof call === 'object' && Array.isArray(call.files) ? call.files : [];
      return {
        index: 0,
        projectRoot: '',
        query: '',
        sourceChars: 0,
        responseChars: 0,
        files: (files as readonly FileEmission[])
          .filter((f) => f !== null && typeof f === 'object' && f.path === path)
          .map((f) => ({
            path,
            chars: 0,
            ranges: Array.isArray(f.ranges) ? [...f.ranges] : [],
            ...(typeof f.fingerprint === 'string' ? { fingerprint: f.fingerprint } : {}),
          })),
      };
    }),
  };
}
