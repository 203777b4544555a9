/**
 * What the proxy takes from span-ledger for pointers and the shared store, in
 * one place: the pointer's formatter, the recorder's pointer report, and the
 * shared store's constructor. Everything else comes straight from the public
 * entries where it is used.
 *
 * The proxy writes no wording of its own for a response's header or a
 * pointer: both are the library's, so a change there reaches every proxied
 * response.
 */
import { type FilePlan, formatPointer } from 'span-ledger';
import type { EmissionRecorder } from 'span-ledger/adapter';
import { createSharedSessionStore } from 'span-ledger/shared';

export { createSharedSessionStore, formatPointer };

/**
 * Tells the recorder a pointer was written (it records nothing for it).
 *
 * @example
 * ```ts
 * reportPointer(recorder, 'src/a.ts', [{ start: 1, end: 40 }], file.fingerprint);
 * ```
 */
export function reportPointer(
  recorder: EmissionRecorder,
  path: string,
  covered: FilePlan['covered'],
  fingerprint: string,
): void {
  recorder.pointer(path, covered, fingerprint);
}

/**
 * The line that ends a section the response's size cap cut: which line is
 * the first one not sent, and how to get the rest. The planner's own wording
 * for a cut replaces it once the library has one.
 *
 * @example
 * ```ts
 * formatCut('src/a.ts', 412);
 * // '`src/a.ts` from L412 on is not in this response (its size cap): call this tool again for that part.'
 * ```
 */
export function formatCut(path: string, firstNotSent: number): string {
  return `\`${path}\` from L${firstNotSent} on is not in this response (its size cap): call this tool again for that part.`;
}

/**
 * The line a response opens with (after its number) when the call's
 * `refresh` could not be read: said, never silently ignored. The library's
 * wording replaces it once `readRefresh` reports what it could not read.
 *
 * @example
 * ```ts
 * `${formatResponseHeader({ callIndex: 3 })}\n${formatRefreshUnread()}`;
 * ```
 */
export function formatRefreshUnread(): string {
  return '(`refresh` was not understood and nothing was refreshed: pass true, or the numbers of the responses to send again, e.g. [3].)';
}
