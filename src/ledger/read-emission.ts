/**
 * Reading an emission — what a renderer reported it sent, carried
 * back from a tool (possibly out of a worker) or handed to the reducer in a
 * `recorded` event — into the ledger's plain shapes. Reads defensively (a
 * getter that throws, a proxy, a revoked proxy all read as "absent"), copies
 * into fresh plain objects, and bounds every collection by the limits.
 * Under-reports, never invents: what cannot be read is dropped, nothing is
 * widened or guessed.
 */
import { at, count, isPositiveInteger, listOf, prop, shortString } from '../boundary/read.js';
import { coalesceRanges } from '../ranges/coalesce.js';
import { readRanges } from '../ranges/read.js';
import { addCounts } from './counts.js';
import { freezeEmission } from './frozen.js';
import { readGeneration } from './random.js';
import type { CallRecord, Emission, FileEmission, LedgerLimits } from './types.js';

/** Longer roots are not keys anyone spells: such an emission is ignored. */
export const MAX_ROOT_CHARS = 4096;
/** Longer paths are not a file a renderer sent: such a file is dropped (under-report). */
export const MAX_PATH_CHARS = 4096;
/** The query is for diagnostics only; longer ones keep their first chars. */
export const MAX_QUERY_CHARS = 1024;
/** Fingerprints are ~30 chars; a longer one is not ours and proves nothing. */
export const MAX_FINGERPRINT_CHARS = 256;

/**
 * A fingerprint as the ledger and the planner take one: a non-empty string of
 * at most {@link MAX_FINGERPRINT_CHARS}, else `undefined` (the file is never
 * withheld on its say-so).
 */
export function readFingerprint(x: unknown): string | undefined {
  return shortString(x, MAX_FINGERPRINT_CHARS);
}

/** One path's entries of an emission, being merged. */
interface Acc {
  readonly path: string;
  readonly first: number;
  chars: number;
  fingerprint: string | undefined;
  /** Every entry so far carried the same non-empty fingerprint. */
  agree: boolean;
  truncated: boolean;
  ranges: unknown[];
}

/**
 * The files of an emission as the ledger keeps them: unreadable, non-string or
 * empty paths dropped; entries with one path merged (chars added, spans joined,
 * fingerprint kept only when every entry carried the same one); the
 * `maxFilesPerCall` with the most chars kept, in the order they were reported;
 * each file's spans coalesced to `maxRangesPerFile`.
 */
export function sanitizeFiles(raw: unknown, limits: LedgerLimits): FileEmission[] {
  const { list, length } = listOf(raw);
  const byPath = new Map<string, Acc>();
  const order: Acc[] = [];
  for (let i = 0; i < length; i++) {
    const file = at(list, i);
    const path = shortString(prop(file, 'path'), MAX_PATH_CHARS);
    if (path === undefined) continue;
    const chars = count(prop(file, 'chars'));
    const fingerprint = readFingerprint(prop(file, 'fingerprint'));
    const truncated = prop(file, 'rangesTruncated') === true;
    const ranges = prop(file, 'ranges');
    const acc = byPath.get(path);
    if (acc === undefined) {
      const fresh: Acc = {
        path,
        first: order.length,
        chars,
        fingerprint,
        agree: fingerprint !== undefined,
        truncated,
        ranges: [ranges],
      };
      byPath.set(path, fresh);
      order.push(fresh);
    } else {
      acc.chars = addCounts(acc.chars, chars);
      acc.agree &&= fingerprint !== undefined && fingerprint === acc.fingerprint;
      acc.truncated ||= truncated;
      acc.ranges.push(ranges);
    }
  }
  let kept = order;
  if (order.length > limits.maxFilesPerCall) {
    // Most chars first; on a tie the file reported first (the sort is stable).
    // Then back to report order.
    kept = [...order]
      .sort((a, b) => b.chars - a.chars)
      .slice(0, limits.maxFilesPerCall)
      .sort((a, b) => a.first - b.first);
  }
  return kept.map((acc) => {
    // Each reported list read into fresh valid ranges; the cut then sees only those.
    const { ranges, truncated } = coalesceRanges(
      acc.ranges.flatMap((list) => readRanges(list)),
      limits.maxRangesPerFile,
    );
    const file: { -readonly [K in keyof FileEmission]: FileEmission[K] } = {
      path: acc.path,
      ranges,
      chars: acc.chars,
    };
    if (acc.agree && acc.fingerprint !== undefined) file.fingerprint = acc.fingerprint;
    if (truncated || acc.truncated) file.rangesTruncated = true;
    return file;
  });
}

/**
 * A plain, bounded copy of an emission, or `null` when it has no usable
 * `projectRoot` (a non-empty string of sane length). Counts that are not
 * finite and non-negative read as 0; a query that is not a string reads as ''.
 */
export function sanitizeEmission(raw: unknown, limits: LedgerLimits): Emission | null {
  const projectRoot = shortString(prop(raw, 'projectRoot'), MAX_ROOT_CHARS);
  if (projectRoot === undefined) return null;
  const query = prop(raw, 'query');
  const emission: { -readonly [K in keyof Emission]: Emission[K] } = {
    projectRoot,
    query: typeof query === 'string' ? query.slice(0, MAX_QUERY_CHARS) : '',
    files: sanitizeFiles(prop(raw, 'files'), limits),
    sourceChars: count(prop(raw, 'sourceChars')),
    responseChars: count(prop(raw, 'responseChars')),
  };
  // The number the response printed, and its tag: kept only when well formed,
  // else the emission carries none (and a reserving ledger then records it under none).
  const index = prop(raw, 'index');
  if (isPositiveInteger(index)) {
    emission.index = index;
    const generation = readGeneration(prop(raw, 'generation'));
    if (generation !== undefined) emission.generation = generation;
  }
  return freezeEmission(emission);
}

/**
 * A call record read from outside (a view in a worker): an emission plus a
 * positive index. A record carries no numbering tag of its own: its entry's
 * is the one it was printed in.
 */
export function sanitizeRecord(raw: unknown, limits: LedgerLimits): CallRecord | null {
  const emission = sanitizeEmission(raw, limits);
  if (emission?.index === undefined) return null;
  const { generation: _, ...record } = emission;
  return record as CallRecord;
}

/**
 * @internal `project` given the numbering `raw` carries, each part only when
 * well formed: its numbering tag (`generation`) and, with `callIndex`, the
 * number reserved for the call being planned. For a prior and a view alike.
 */
export function withNumbering<T extends { generation?: string; callIndex?: number }>(
  project: T,
  raw: unknown,
  callIndex = true,
): T {
  const generation = readGeneration(prop(raw, 'generation'));
  if (generation !== undefined) project.generation = generation;
  const index = prop(raw, 'callIndex');
  if (callIndex && isPositiveInteger(index)) project.callIndex = index;
  return project;
}
