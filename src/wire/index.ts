/**
 * span-ledger/wire: how the view goes into a tool call and the emission comes
 * back, for hosts that run their tools in a worker pool (where a structured
 * clone is the only way across). A host that calls its tool in process needs
 * none of it: `recordSafely` (main entry) strips and records in one step.
 */
export {
  attachEmission,
  type TakenEmission,
  takeEmission,
} from './emission.js';
export { EMISSION_KEY, VIEW_KEY } from './keys.js';
export { readSessionView, type WithSessionView, withSessionView } from './view.js';
