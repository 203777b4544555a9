/**
 * span-ledger/adapter: how a renderer reports the spans it emits (the
 * emission recorder), a reference markdown renderer built on it, and the
 * parser that reads rendered responses back to measure them.
 */
export type { Emission, FileEmission } from '../ledger/types.js';
export {
  type DuplicateReport,
  measureDuplicates,
  parseRenderedResponse,
  type RenderedLine,
  type RenderedResponse,
  type RenderedSection,
} from './parse.js';
export {
  createEmissionRecorder,
  type EmissionRecorder,
  type EmissionRecorderOptions,
} from './recorder.js';
export {
  type PointerInput,
  type RenderablePlan,
  type RenderedMarkdown,
  type RenderMarkdownOptions,
  type RenderSource,
  renderMarkdown,
} from './render.js';
