/**
 * The emission recorder: what a render loop calls at the moment it pushes
 * source into a response, writes a pointer, or loses a section to the hard
 * cap. `finish` turns what survived into the `Emission` the ledger records.
 *
 * It is not a renderer and does not decide anything: it only writes down what
 * the render loop says it did. Reporting from the loop itself (rather than from
 * a function that re-derives the spans) is what keeps the record honest: a
 * mirror drifts, and an over-reported span makes a later call withhold source
 * the agent never saw.
 */

import { count, isNonEmptyString, isPositiveInteger } from '../boundary/read.js';
import { freezeEmission, withGeneration } from '../ledger/frozen.js';
import { readGeneration } from '../ledger/random.js';
import { readFingerprint } from '../ledger/read-emission.js';
import type { Emission, FileEmission } from '../ledger/types.js';
import { mergeRanges } from '../ranges/merge.js';
import type { LineRange } from '../ranges/range.js';
import { readRecorderOptions, readReportedRanges } from './read-options.js';

/**
 * Where and why a recorder is collecting: copied into the `Emission`.
 */
export interface EmissionRecorderOptions {
  /** The resolved project root the call is answered from. */
  readonly projectRoot: string;
  /** The query as the tool understood it (diagnostics only). */
  readonly query?: string;
}

/**
 * The calls a render loop makes while it builds one response.
 */
export interface EmissionRecorder {
  /**
   * Source was pushed into the response: `ranges` of `path`, `chars` source
   * characters (no header, no fence), cut from content with `fingerprint`.
   * Without a fingerprint the file is recorded but never withheld later.
   */
  source(
    path: string,
    ranges: LineRange | readonly LineRange[],
    chars: number,
    fingerprint?: string,
  ): void;
  /**
   * A pointer to spans an earlier call sent was written instead of source.
   * Nothing is recorded for it: the ledger claims what a response delivered,
   * and a pointer delivers no source. Were its spans recorded, a later pointer
   * could cite this response for lines it never carried, and once the
   * response that did carry them was compacted away or refreshed, the agent
   * would be pointed at a copy it no longer holds. The lines stay held
   * through the record of the response that sent them.
   */
  pointer(path: string, covered: readonly LineRange[], fingerprint: string): void;
  /**
   * The section of `path` was cut by the hard response cap: whatever this
   * call recorded for it is forgotten, since the agent never received it.
   */
  drop(path: string): void;
  /**
   * The response opened with this number (and numbering tag): `finish` puts
   * them on the emission, and the ledger then records it under that number,
   * or not at all. `renderMarkdown` and `renderRead` call it as they print
   * the header; a tool with its own layout calls it beside
   * `formatResponseHeader`. A number that is not a positive safe integer
   * (`null`: the header printed none) reports nothing, and a tag that is not
   * 1 to 8 lower-case letters reports no tag.
   */
  numbered(callIndex: number | null, generation?: string | null): void;
  /** The paths dropped so far, in order (for diagnostics). */
  dropped(): readonly string[];
  /** The `Emission` for the response the agent received (`responseChars` long). */
  finish(responseChars: number): Emission;
}

interface Entry {
  ranges: LineRange[];
  chars: number;
  /** `undefined` until a report sets it; `null` once reports disagree or one had none. */
  fingerprint: string | null | undefined;
}

/**
 * A recorder for one response. Every method ignores bad input (empty path,
 * invalid ranges, non-finite chars) rather than throwing: bookkeeping must
 * never fail a tool call. Reports for the same path are merged; the file keeps
 * a fingerprint only when every report carried the same one. Options that
 * cannot be read or hold no non-empty `projectRoot` give an inert recorder:
 * it records nothing, and `finish` returns an emission with no files (one the
 * ledger ignores).
 *
 * @example
 * ```ts
 * const rec = createEmissionRecorder({ projectRoot: '/repo', query: 'cart totals' });
 * rec.source('src/cart.ts', { start: 10, end: 40 }, 912, '4000:0123456789abcdef');
 * rec.pointer('src/money.ts', [{ start: 1, end: 30 }], '800:0123456789abcdef'); // a pointer: not recorded
 * rec.source('src/big.ts', { start: 1, end: 400 }, 15000, '15000:0123456789abcdef');
 * rec.drop('src/big.ts');                                         // cut by the cap: never sent
 * rec.finish(1200);
 * // → { projectRoot: '/repo', query: 'cart totals', sourceChars: 912, responseChars: 1200,
 * //     files: [{ path: 'src/cart.ts', ranges: [{ start: 10, end: 40 }], chars: 912, fingerprint: '4000:0123456789abcdef' }] }
 * ```
 */
export function createEmissionRecorder(options: EmissionRecorderOptions): EmissionRecorder {
  const { projectRoot, query } = readRecorderOptions(options);
  const entries = new Map<string, Entry>();
  const droppedPaths: string[] = [];
  /** The number the response printed, and its tag: none until `numbered` is told one. */
  let number: { readonly index?: number; readonly generation?: string } = {};

  function report(path: unknown, ranges: LineRange[], chars: number, fp: unknown): void {
    if (projectRoot === '' || !isNonEmptyString(path) || ranges.length === 0) return;
    let entry = entries.get(path);
    if (!entry) {
      entry = { ranges: [], chars: 0, fingerprint: undefined };
      entries.set(path, entry);
    }
    for (const r of ranges) entry.ranges.push(r);
    entry.chars += chars;
    const given = readFingerprint(fp) ?? null;
    if (entry.fingerprint === undefined) entry.fingerprint = given;
    else if (entry.fingerprint !== given) entry.fingerprint = null;
  }

  return {
    source(path, ranges, chars, fp) {
      report(path, readReportedRanges(ranges), count(chars), fp);
    },
    pointer() {},
    numbered(callIndex, generation) {
      if (!isPositiveInteger(callIndex)) return;
      number = withGeneration({ index: callIndex }, readGeneration(generation));
    },
    drop(path) {
      if (!isNonEmptyString(path)) return;
      entries.delete(path);
      droppedPaths.push(path);
    },
    dropped() {
      return [...droppedPaths];
    },
    finish(responseChars) {
      const files: FileEmission[] = [];
      let sourceChars = 0;
      for (const [path, entry] of entries) {
        sourceChars += entry.chars;
        const file = { path, ranges: mergeRanges(entry.ranges), chars: entry.chars };
        const { fingerprint } = entry;
        files.push(typeof fingerprint === 'string' ? { ...file, fingerprint } : file);
      }
      // Frozen through, as the ledger freezes a record: a caller cannot widen what was recorded after the fact.
      return freezeEmission({
        projectRoot,
        query,
        files,
        sourceChars,
        responseChars: count(responseChars),
        ...number,
      });
    },
  };
}
