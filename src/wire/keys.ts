/**
 * The two property names that carry ledger data through a tool call. Plain
 * string keys, because a Symbol or a closure does not survive a structured
 * clone into or out of a worker thread.
 */

/**
 * The argument property that carries the server's `SessionView` into a tool call.
 *
 * @example
 * ```ts
 * worker.postMessage(withSessionView(args, store.view())); // args[VIEW_KEY] is the view
 * ```
 */
export const VIEW_KEY = '_spanLedgerView';

/**
 * The result property that carries a call's `Emission` back to the host.
 *
 * @example
 * ```ts
 * const { result, emission } = takeEmission(raw); // result has no EMISSION_KEY
 * ```
 */
export const EMISSION_KEY = '_spanLedgerEmission';
