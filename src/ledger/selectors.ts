/**
 * Selectors over a session view: how a tool call reads what its session has
 * been served, without reaching into the shape.
 */
import { isOwn, own } from '../boundary/_own.js';
import { OPEN_LIMITS, readView } from '../boundary/view.js';
import { mergeRanges } from '../ranges/merge.js';
import type { LineRange } from '../ranges/range.js';
import { projectKey } from './project-key.js';
import type { ProjectState, SessionView } from './types.js';

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
  return (
    found ??
    own(Object.freeze({ projectRoot, callCount: 0, responseChars: 0, calls: Object.freeze([]) }))
  );
}

/**
 * The merged spans of `path` that retained calls served from content with
 * exactly this `fingerprint`. Records without a fingerprint are ignored: a match
 * that cannot be proven is treated as "not held", and the lines are re-sent.
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
  const found: LineRange[] = [];
  if (
    project === null ||
    typeof project !== 'object' ||
    typeof fingerprint !== 'string' ||
    fingerprint === ''
  ) {
    return mergeRanges(found);
  }
  try {
    collectServed(project, path, fingerprint, found);
  } catch {
    // Unreadable state proves nothing: hold nothing, so every line is re-sent.
    return mergeRanges([]);
  }
  return mergeRanges(found);
}

function collectServed(
  project: ProjectState,
  path: string,
  fingerprint: string,
  found: LineRange[],
): void {
  const calls = Array.isArray(project.calls) ? project.calls : [];
  for (const call of calls) {
    const files =
      call !== null && typeof call === 'object' && Array.isArray(call.files) ? call.files : [];
    for (const file of files) {
      if (file === null || typeof file !== 'object') continue;
      if (file.path !== path || file.fingerprint !== fingerprint) continue;
      if (Array.isArray(file.ranges)) for (const r of file.ranges) found.push(r);
    }
  }
}
