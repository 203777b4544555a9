/**
 * span-ledger/adapter: how a renderer reports the spans it emits (the
 * emission recorder), a reference markdown renderer built on it, the parser
 * that reads rendered responses back to measure them, and a heuristic symbol
 * extractor for hosts without an index of their own.
 */
export { formatRefreshOffer, type PointerInput, type PointerWords } from '../dedup/pointer.js';
export type { LineSymbolNode, SymbolKind, SymbolNode } from '../dedup/symbols.js';
export type { Emission, FileEmission } from '../ledger/types.js';
export { type FileSource, fileSource } from './file-source.js';
export {
  type DuplicateReport,
  type MeasuredResponse,
  measureDuplicates,
  parseRenderedResponse,
  type RenderedLine,
  type RenderedResponse,
  type RenderedSection,
} from './parse.js';
export { type PointerChoice, pointerOrLines } from './pointer-or-lines.js';
export {
  createEmissionRecorder,
  type EmissionRecorder,
  type EmissionRecorderOptions,
} from './recorder.js';
export {
  formatCut,
  formatResponseHeader,
  type RenderablePlan,
  type RenderedMarkdown,
  type RenderedRead,
  type RenderMarkdownOptions,
  type RenderReadOptions,
  type RenderSource,
  type ResponseHeaderInput,
  renderMarkdown,
  renderRead,
} from './render.js';
export {
  exploreHeading,
  filesToPlan,
  findSections,
  type Heading,
  type HeadingRule,
  type NumberedLine,
  type ProvenSection,
  proveSections,
  type ReadPart,
  rewriteReads,
  rewriteSections,
  type Section,
  type SectionBlock,
} from './sections.js';
export { extractSymbols } from './symbols.js';
