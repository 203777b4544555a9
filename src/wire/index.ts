/**
 * Carriers: how the view goes into a tool call and the emission comes back,
 * across a worker boundary when there is one.
 */
export {
  attachEmission,
  type EmissionSink,
  type RecordOptions,
  recordSafely,
  type TakenEmission,
  takeEmission,
} from './emission.js';
export { EMISSION_KEY, VIEW_KEY } from './keys.js';
export { readSessionView, type WithSessionView, withSessionView } from './view.js';
