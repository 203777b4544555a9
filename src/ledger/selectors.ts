/**
 * Selectors over a session view: how a tool call reads what its session has
 * been served, without reaching into the shape.
 */

import { frozenEach } from '../boundary/freeze.js';
import { isOwn, own } from '../boundary/own.js';
import type { LineRange } from '../ranges/range.js';
import { type Spans, spansOf, union, unionAll } from '../ranges/spans.js';
import { projectKey } from './project-key.js';
import { readPrior } from './read-prior.js';
import { OPEN_LIMITS, readView } from './read-view.js';
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
  return mine && projectOf(mine, projectRoot);
}

/**
 * @internal {@link projectFromView} of a view this library built or read:
 * the stores hand their own views here, which no reader need go over again.
 */
export function projectOf(view: SessionView, projectRoot: unknown): ProjectState {
  const key = typeof projectRoot === 'string' ? projectKey(projectRoot) : undefined;
  // A key is a string: without one (a root that is not a string) nothing is found.
  const found = view.projects.find((p) => projectKey(p.projectRoot) === key);
  // Part of a view the library built (or just read), deep-frozen: the planner may trust it.
  return own(
    found ??
      Object.freeze({ projectRoot, callCount: 0, responseChars: 0, calls: Object.freeze([]) }),
  ) as ProjectState;
}

/**
 * @internal What one retained record served of a path: its `index` and the
 * spans, normalized (a prior read by `readPrior` holds normalized ranges).
 */
export interface ServedRecord {
  readonly index: number;
  readonly ranges: Spans;
}

/** One file of one retained record. */
export interface ServedFile {
  readonly call: CallRecord;
  readonly file: FileEmission;
}

/**
 * Each project's files by path, most recent record first: built once per
 * project, which never changes (scanning every record per file cost the
 * 24 × 24 planner bench about 4%).
 */
const byPath = new WeakMap<ProjectState, Map<string, ServedFile[]>>();

/** @internal The files of `project` that served `path`, most recent record first. */
export function filesOf(project: ProjectState, path: string): readonly ServedFile[] {
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
  // A record's fingerprint is never '': no content, nothing served.
  const out: ServedRecord[] = [];
  let last: CallRecord | undefined;
  for (const { call, file } of filesOf(project, path)) {
    if (file.fingerprint !== fingerprint) continue;
    if (call === last) {
      // A ledger keeps one file per path and record; a project read from
      // elsewhere may list a path twice.
      const prev = out.pop()!;
      out.push({ index: call.index, ranges: union(prev.ranges, spansOf(file.ranges)) });
    } else {
      out.push({ index: call.index, ranges: spansOf(file.ranges) });
    }
    last = call;
  }
  return out;
}

/**
 * The merged spans of `path` that retained calls served from content with
 * exactly this `fingerprint`. Records without a fingerprint are ignored: a match
 * that cannot be proven is treated as "not held", and the lines are re-sent.
 * A `project` this library did not build is read as the planner reads a
 * `prior`: a record without a positive whole `index`, a file without a usable
 * path or fingerprint, and any part that cannot be read are left out, so they
 * hold nothing and their lines are re-sent.
 *
 * @example
 * ```ts
 * const content = 'let x = 1;\n'.repeat(200);
 * const spans = createSessionStore();
 * const sent = (start: number, end: number, fp: string) =>
 *   spans.record({ projectRoot: '/repo', query: 'q', sourceChars: 0, responseChars: 0,
 *     files: [{ path: 'a.ts', ranges: [{ start, end }], chars: 0, fingerprint: fp }] });
 * sent(1, 40, fingerprint(content));
 * sent(90, 120, fingerprint(content));
 * sent(150, 160, fingerprint('older content'));
 * servedRangesForFile(spans.project('/repo'), 'a.ts', fingerprint(content));
 * // → [{ start: 1, end: 40 }, { start: 90, end: 120 }]
 * servedRangesForFile(null, 'a.ts', fingerprint(content)); // []: untracked
 * ```
 */
export function servedRangesForFile(
  project: ProjectState | null,
  path: string,
  fingerprint: string,
): LineRange[] {
  // Read as the planner reads its prior (a project the library built comes
  // back as it is), so this answer and what a plan withholds never disagree.
  const plain = typeof fingerprint === 'string' ? readPrior(project, new Set([path])) : null;
  if (plain === null) return frozenEach([]);
  return frozenEach([...unionAll(servedRecords(plain, path, fingerprint).map((r) => r.ranges))]);
}
