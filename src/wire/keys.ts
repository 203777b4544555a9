/**
 * The two property names that carry ledger data through a tool call. Plain
 * string keys, because a Symbol or a closure does not survive a structured
 * clone into or out of a worker thread.
 */

/**
 * The argument property that carries the server's `SessionView` into a tool call.
 */
export const VIEW_KEY = '_spanLedgerView';

/**
 * The result property that carries a call's `Emission` back to the host.
 */
export const EMISSION_KEY = '_spanLedgerEmission';
