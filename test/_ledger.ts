/**
 * Test helpers for the ledger suites: a one-file emission to vary, recording
 * it, and reading back what one call kept.
 */
import {
  createLedger,
  type Emission,
  type FileEmission,
  type Ledger,
  ledgerReducer,
  sessionView,
} from '../src/index.js';

/** One call that sent L1-10 of `a.ts` (100 chars) from content `fp`, with `over` applied. */
export function emission(over: Partial<Emission> = {}): Emission {
  return {
    projectRoot: '/repo',
    query: 'q',
    files: [{ path: 'a.ts', ranges: [{ start: 1, end: 10 }], chars: 100, fingerprint: 'fp' }],
    sourceChars: 100,
    responseChars: 200,
    ...over,
  };
}

/** `ledger` with `e` recorded (raw: junk passes through to the reducer as it is). */
export function record(ledger: Ledger, e: unknown = emission(), sessionId?: unknown): Ledger {
  return ledgerReducer(ledger, {
    type: 'recorded',
    emission: e as Emission,
    sessionId: sessionId as string,
  });
}

/** The files of the single call recorded from `e` under `limits`. */
export function filesOf(
  e: unknown,
  limits: Parameters<typeof createLedger>[0] = {},
): FileEmission[] {
  const view = sessionView(record(createLedger(limits), e));
  return [...(view.projects[0]?.calls[0]?.files ?? [])];
}
