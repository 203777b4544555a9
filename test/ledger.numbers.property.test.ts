/**
 * The numbering law over any interleaving of what hosts do — calls reserving
 * their numbers, finishing in any order, recording (or being undone) under
 * them, contexts forgotten and coming back, other contexts evicting them: no
 * label (number and tag) is ever handed out twice in one context, and a
 * record is only ever stored under the number its response printed, never
 * for a call undone before it recorded.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSessionStore, type Emission } from '../src/index.js';

const SEED = 20_261_202;
const CONTEXTS = ['a', 'b', 'c'] as const;

type Step =
  | { kind: 'reserve'; context: number }
  | { kind: 'finish'; pick: number; undo: boolean }
  | { kind: 'forget'; context: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('reserve' as const), context: fc.nat({ max: 2 }) }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('finish' as const),
      pick: fc.nat(),
      undo: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('forget' as const), context: fc.nat({ max: 2 }) }),
  },
);

function emission(index: number, generation: string | null): Emission {
  return {
    projectRoot: '/repo',
    query: '',
    files: [{ path: `f${index}.ts`, ranges: [{ start: 1, end: 3 }], chars: 30, fingerprint: 'fp' }],
    sourceChars: 30,
    responseChars: 60,
    index,
    ...(generation === null ? {} : { generation }),
  };
}

describe('response numbers', () => {
  it(`never repeat a label in a context, and records go under their own number only (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        // maxProjects 2 over three contexts: they evict each other.
        const store = createSessionStore({ maxProjects: 2 });
        const printed = CONTEXTS.map(() => new Set<string>());
        const inFlight: { context: number; index: number; generation: string | null }[] = [];
        for (const s of steps) {
          if (s.kind === 'reserve') {
            const r = store.reserve('/repo', CONTEXTS[s.context]);
            if (r === null) continue;
            const label = `${r.callIndex}/${r.generation}`;
            expect(printed[s.context]!.has(label)).toBe(false);
            printed[s.context]!.add(label);
            inFlight.push({ context: s.context, index: r.callIndex, generation: r.generation });
          } else if (s.kind === 'finish' && inFlight.length > 0) {
            const [call] = inFlight.splice(s.pick % inFlight.length, 1);
            const id = CONTEXTS[call!.context];
            if (s.undo) {
              // Undone before it recorded (cancelled, hung up): it must record nothing after.
              store.prune({ sessionId: id, projectRoot: '/repo', calls: [call!.index] });
              expect(store.record(emission(call!.index, call!.generation), id)).toBeNull();
            } else {
              const record = store.record(emission(call!.index, call!.generation), id);
              if (record !== null) expect(record.index).toBe(call!.index);
            }
          } else if (s.kind === 'forget') {
            store.forget(CONTEXTS[s.context]!);
          }
          // Every record a context holds carries its own file: never one moved to another number.
          for (const id of CONTEXTS) {
            for (const r of store.project('/repo', id)?.calls ?? []) {
              expect(r.files[0]!.path).toBe(`f${r.index}.ts`);
            }
          }
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});
