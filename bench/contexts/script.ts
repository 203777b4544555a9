/**
 * The fixed script of the context simulator, the same for every arm: a
 * parent context makes a sequence's calls; after its second call it spawns
 * one subagent that asks the parent's first two queries on the same
 * connection, then the parent goes on; every context compacts (drops all but
 * its last response) after every third scripted call it makes.
 *
 * Recovery calls (a `refresh`, a file read) are what an arm adds to the
 * script, so they do not move a compaction: every arm meets the same
 * compactions at the same points.
 */
import type { RecordedCall, RecordedSequence } from '../../src/cli/replay.js';

/** The two agent contexts of a sequence: both talk to the tool over one connection. */
export type ContextName = 'parent' | 'subagent';

/** One step of the script. */
export type Step =
  | { readonly kind: 'call'; readonly context: ContextName; readonly call: RecordedCall }
  | { readonly kind: 'compact'; readonly context: ContextName };

/** Scripted calls a context makes between two compactions. */
export const COMPACT_EVERY = 3;
/** The parent's call after which the subagent is spawned. */
export const SPAWN_AFTER = 2;
/** How many of the parent's first queries the subagent asks. */
export const SUBAGENT_QUERIES = 2;

/**
 * The steps for `sequence`, in order. Pure: the same sequence gives the same
 * script.
 *
 * A five-call sequence gives: parent 1, parent 2, subagent 1, subagent 2,
 * parent 3, compact parent, parent 4, parent 5.
 */
export function contextScript(sequence: RecordedSequence): Step[] {
  const steps: Step[] = [];
  const made: Record<ContextName, number> = { parent: 0, subagent: 0 };
  const call = (context: ContextName, c: RecordedCall) => {
    steps.push({ kind: 'call', context, call: c });
    made[context] += 1;
    if (made[context] % COMPACT_EVERY === 0) steps.push({ kind: 'compact', context });
  };
  sequence.calls.forEach((c, i) => {
    call('parent', c);
    if (i + 1 === SPAWN_AFTER) {
      for (const asked of sequence.calls.slice(0, SUBAGENT_QUERIES)) call('subagent', asked);
    }
  });
  return steps;
}
