/**
 * Internal: deep-freezing what the ledger hands out. A view hands these very
 * objects to a tool in the same thread; a tool that wrote to one would
 * otherwise rewrite what the session was served, and a later call would
 * withhold lines on its say-so.
 */
import type { CallRecord, ProjectState } from './types.js';

/** Freezes a fresh record all the way down. */
export function freezeRecord(record: CallRecord): CallRecord {
  for (const file of record.files) {
    for (const range of file.ranges) Object.freeze(range);
    Object.freeze(file.ranges);
    Object.freeze(file);
  }
  Object.freeze(record.files);
  return Object.freeze(record);
}

/** Freezes a fresh project state and its records all the way down. */
export function freezeProject(project: ProjectState): ProjectState {
  for (const call of project.calls) freezeRecord(call);
  Object.freeze(project.calls);
  return Object.freeze(project);
}
