/**
 * Internal: deep-freezing what the ledger hands out, and what the adapter's
 * recorder hands the ledger. A view hands these very objects to a tool in the
 * same thread; a tool that wrote to one would otherwise rewrite what the
 * session was served, and a later call would withhold lines on its say-so.
 */
import { frozenEach } from '../boundary/freeze.js';
import type { Emission, EvictedCounters, LedgerEntry, ProjectState } from './types.js';

/** Freezes a fresh emission (or record) all the way down. */
export function freezeEmission<T extends Emission>(emission: T): T {
  for (const file of emission.files) {
    frozenEach(file.ranges);
    Object.freeze(file);
  }
  Object.freeze(emission.files);
  return Object.freeze(emission);
}

/** Freezes a fresh project state and its records all the way down. */
export function freezeProject(project: ProjectState): ProjectState {
  for (const call of project.calls) freezeEmission(call);
  Object.freeze(project.calls);
  return Object.freeze(project);
}

/** `fields`, frozen, with `generation` (the tag printed beside its numbers) when there is one. */
export function withGeneration<T extends object>(fields: T, generation: string | undefined): T {
  return Object.freeze(generation === undefined ? fields : { ...fields, generation });
}

/**
 * The counters an entry leaves behind when it is evicted past `maxProjects`
 * (by the reducer, or when a stored ledger is read back): whole, with its
 * generation.
 */
export function countersOf({ session, key, project }: LedgerEntry): EvictedCounters {
  const { callCount, responseChars, generation } = project;
  return withGeneration({ session, key, callCount, responseChars }, generation);
}
