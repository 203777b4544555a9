/**
 * The targets of `bench:contexts`, summed over all sequences (issue 14):
 * (d) no stale pointer and no file read; (e) no stale pointer in a subagent,
 * no read, no more duplicates than (c); (c) no read, every response with
 * stale pointers recovered by one `refresh`, at most half of (a)'s
 * duplicates; (c), (d), (e) deliver at least (a)'s unique source. (b) has
 * no target: it is shown as the failure it is.
 */
import type { ArmName } from './hosts.js';
import { type ArmFigures, type ContextRow, totalOf } from './run.js';

/** A target's verdict. */
export interface Verdict {
  readonly target: string;
  readonly met: boolean;
  readonly detail: string;
}

/** The verdicts over `rows`. */
export function contextVerdicts(rows: readonly ContextRow[]): Verdict[] {
  const t = (arm: ArmName) => totalOf(rows, arm);
  const check = (
    target: string,
    arms: readonly ArmFigures[],
    test: (...xs: ArmFigures[]) => { met: boolean; detail: string },
  ): Verdict => ({ target, ...test(...arms) });
  const [a, c, d, e] = [t('a'), t('c'), t('d'), t('e')];
  return [
    check('(d) 0 stale pointers, 0 reads', [d], (x) => ({
      met: x.stalePointers === 0 && x.fileReads === 0,
      detail: `${x.stalePointers} stale, ${x.fileReads} reads`,
    })),
    check('(e) 0 stale pointers in subagents, 0 reads', [e], (x) => ({
      met: x.subagentStalePointers === 0 && x.fileReads === 0,
      detail: `${x.subagentStalePointers} stale, ${x.fileReads} reads`,
    })),
    check('(e) duplicate chars ≤ (c)', [e, c], (x, y) => ({
      met: x.duplicateChars <= y.duplicateChars,
      detail: `${x.duplicateChars} vs ${y.duplicateChars}`,
    })),
    check('(c) 0 reads', [c], (x) => ({ met: x.fileReads === 0, detail: `${x.fileReads} reads` })),
    check('(c) each stale response recovered by one refresh', [c], (x) => ({
      met: x.recoveredByOneCall === x.staleResponses,
      detail: `${x.recoveredByOneCall} of ${x.staleResponses}`,
    })),
    check('(c) duplicate chars ≤ 0.5 × (a)', [c, a], (x, y) => ({
      met: x.duplicateChars <= 0.5 * y.duplicateChars,
      detail: `${x.duplicateChars} vs ${y.duplicateChars}`,
    })),
    ...(['c', 'd', 'e'] as const).map((arm) =>
      check(`(${arm}) unique source ≥ (a)`, [t(arm), a], (x, y) => ({
        met: x.uniqueChars >= y.uniqueChars,
        detail: `${x.uniqueChars} vs ${y.uniqueChars}`,
      })),
    ),
  ];
}
