/**
 * Test support: a project's history built by hand, for planner and diagnostics
 * cases. Members are passed on as given, so a case can slip junk in beside
 * good records.
 */
import type { ProjectState } from '../src/index.js';

/** One retained call under `/repo` that served `files`. */
export function callRecord(files: unknown) {
  return { index: 1, projectRoot: '/repo', query: 'q', sourceChars: 0, responseChars: 0, files };
}

/** The state of `/repo` after `calls`; `callCount` is their number unless `extra` says otherwise. */
export function projectState(calls: unknown, extra: Record<string, unknown> = {}): ProjectState {
  const callCount = Array.isArray(calls) ? calls.length : 0;
  return { projectRoot: '/repo', callCount, responseChars: 0, calls, ...extra } as ProjectState;
}
