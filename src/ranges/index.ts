export { type CoalescedRanges, coalesceRanges } from './coalesce.js';
export { countLines, rangesCover } from './cover.js';
export { type DedupedRange, dedupeRange } from './dedupe.js';
export { formatSpans } from './format.js';
export { mergeRanges } from './merge.js';
export { isLineRange, type LineRange } from './range.js';
export { intersectRange, intersectRanges, subtractRange, subtractRanges } from './setops.js';
