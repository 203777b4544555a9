/**
 * Selectors over a session view: how a tool call reads what its session has
 * been served, without reaching into the shape.
 */
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
 * entries: `/repo/` finds the project recorded as `/repo`.
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
  if (view === null || typeof view !== 'object') return null;
  try {
    return findProject(view, projectRoot);
  } catch {
    // A view whose getters throw was not built by a ledger: treat the call as
    // untracked, which withholds nothing.
    return null;
  }
}

function findProject(view: SessionView, projectRoot: string): ProjectState {
  const projects = Array.isArray(view.projects) ? view.projects : [];
  const key = typeof projectRoot === 'string' ? projectKey(projectRoot) : undefined;
  const found = projects.find(
    (p) =>
      p !== null &&
      typeof p === 'object' &&
      (p.projectRoot === projectRoot ||
        (key !== undefined &&
          typeof p.projectRoot === 'string' &&
          projectKey(p.projectRoot) === key)),
  );
  return found ?? { projectRoot, callCount: 0, responseChars: 0, calls: [] };
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
