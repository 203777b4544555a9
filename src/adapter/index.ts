/**
 * span-ledger/adapter: how a renderer reports the spans it emits.
 */
export type { Emission, FileEmission } from '../ledger/types.js';
