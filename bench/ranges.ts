/**
 * Range algebra and fingerprint against their peers: multi-integer-range, the
 * engine's typed-array sort (the floor for anything that must sort), and a
 * bare native SHA-1 digest.
 */
import { createHash } from 'node:crypto';
import * as mir from 'multi-integer-range';
import {
  fingerprint,
  intersectRanges,
  type LineRange,
  mergeRanges,
  subtractRanges,
} from 'span-ledger';
import { comparePeers, prng, report, reportRatio } from './_harness.js';

/** `count` spans with random starts over a file-sized domain and short random lengths. */
function randomSpans(count: number, seed: number, domain: number, maxLen: number): LineRange[] {
  const rand = prng(seed);
  const out: LineRange[] = [];
  for (let i = 0; i < count; i++) {
    const start = 1 + Math.floor(rand() * domain);
    out.push({ start, end: start + Math.floor(rand() * maxLen) });
  }
  return out;
}

/**
 * A normalized set of `count` spans, built here as plain objects (not by the
 * library): a gap of 1 to `maxGap` lines before each span, and each span 0 to
 * `maxSpan` lines past its start (0: a one-line span).
 */
function normalizedSet(count: number, seed: number, maxGap = 20, maxSpan = 29): LineRange[] {
  const rand = prng(seed);
  const out: LineRange[] = [];
  let end = 0;
  for (let i = 0; i < count; i++) {
    const start = end + 2 + Math.floor(rand() * maxGap);
    end = start + Math.floor(rand() * (maxSpan + 1));
    out.push({ start, end });
  }
  return out;
}

const toMir = (ranges: readonly LineRange[]): mir.MIR =>
  ranges.map((r) => [r.start, r.end] as const);

/**
 * `intersectRanges` on two dense normalized sets of 5,000 spans against
 * multi-integer-range's `intersect`, fed its own representation built once,
 * in alternating rounds; prints the median ratio and its spread, and the same
 * for `subtractRanges` (for reference).
 */
function denseSetOps(): boolean {
  // The density the target is stated for: two such sets overlap in most spans.
  const a = normalizedSet(5_000, 5, 60, 40);
  const b = normalizedSet(5_000, 6, 60, 40);
  const aMir = toMir(a);
  const bMir = toMir(b);
  console.log(
    '\n## intersect / subtract on two normalized sets of 5,000 spans with many overlaps (gaps of 1–60 lines, spans of 0–40)',
  );
  console.log(`  ${intersectRanges(a, b).length} pieces in the intersection`);
  const met = reportRatio(
    'intersectRanges / multi-integer-range',
    { name: 'span-ledger intersectRanges', run: () => intersectRanges(a, b) },
    { name: 'multi-integer-range intersect', run: () => mir.intersect(aMir, bMir) },
    1,
  );
  reportRatio(
    'subtractRanges / multi-integer-range',
    { name: 'span-ledger subtractRanges', run: () => subtractRanges(a, b) },
    { name: 'multi-integer-range subtract', run: () => mir.subtract(aMir, bMir) },
  );
  return met;
}

export function rangesBench(): boolean {
  let ok = true;

  const spans = randomSpans(200_000, 1, 4_000_000, 40);
  const spansMir = toMir(spans);
  const numbers = new Float64Array(spans.map((r) => r.start));
  // Two groups, not one: multi-integer-range's quadratic normalize takes
  // seconds per call, and the floor comparison needs many more rounds.
  ok =
    report(
      'mergeRanges on 200,000 random spans, against the typed-array sort floor',
      comparePeers([
        { name: 'span-ledger mergeRanges', run: () => mergeRanges(spans) },
        { name: 'Float64Array#sort of 200,000 numbers (floor)', run: () => numbers.slice().sort() },
      ]),
      [
        {
          label: 'mergeRanges / typed-array sort',
          subject: 'span-ledger mergeRanges',
          peer: 'Float64Array#sort of 200,000 numbers (floor)',
          max: 1.2,
        },
      ],
    ) && ok;
  ok =
    report(
      'mergeRanges on 200,000 random spans, against multi-integer-range',
      comparePeers([
        { name: 'span-ledger mergeRanges', run: () => mergeRanges(spans) },
        { name: 'multi-integer-range normalize', run: () => mir.normalize(spansMir) },
      ]),
      [
        {
          label: 'mergeRanges / multi-integer-range',
          subject: 'span-ledger mergeRanges',
          peer: 'multi-integer-range normalize',
          max: 1 / 10,
        },
      ],
    ) && ok;

  // Plain arrays of plain objects, as a caller or a JSON-parsed view holds
  // them: the library did not build them, so nothing about them is trusted.
  // Built and timed after `mergeRanges` has run, as in an application: V8
  // gives every `{ start, end }` literal one hidden class, so a boxed double
  // that `mergeRanges` (or a constant of the library) stored in one range
  // would box the ends of these sets and of every range the operations return.
  const a = normalizedSet(5_000, 2);
  const b = normalizedSet(5_000, 3);
  const aMir = toMir(a);
  const bMir = toMir(b);
  // What freezing every range of a result would add on its own: freezing as
  // many fresh ranges as the intersection returns. Results freeze the array
  // only; every function reads the sets it is given as foreign input, so a
  // frozen range would buy no safety for this cost.
  const pieces = intersectRanges(a, b).length;
  const freezeOnly = (): unknown => {
    const out: LineRange[] = [];
    for (let i = 1; i <= pieces; i++) out.push(Object.freeze({ start: i, end: i }));
    return Object.freeze(out);
  };
  console.log('\n## subtract / intersect on two normalized sets of 5,000 plain spans');
  const mirIntersect = {
    name: 'multi-integer-range intersect',
    run: () => mir.intersect(aMir, bMir),
  };
  ok =
    reportRatio(
      'subtractRanges / multi-integer-range',
      { name: 'span-ledger subtractRanges', run: () => subtractRanges(a, b) },
      { name: 'multi-integer-range subtract', run: () => mir.subtract(aMir, bMir) },
      1 / 2,
    ) && ok;
  ok =
    reportRatio(
      'intersectRanges / multi-integer-range',
      { name: 'span-ledger intersectRanges', run: () => intersectRanges(a, b) },
      mirIntersect,
      1,
    ) && ok;
  reportRatio(
    'freezing each range, were it done / multi-integer-range intersect',
    { name: `freezing ${pieces} fresh ranges (not done)`, run: freezeOnly },
    mirIntersect,
  );

  ok = denseSetOps() && ok;

  const rand = prng(4);
  let mib = '';
  while (mib.length < 1 << 20) mib += `const v${Math.floor(rand() * 1e9)} = "ünïcödé ${rand()}";\n`;
  mib = mib.slice(0, 1 << 20);
  ok =
    report(
      'fingerprint of a 1 MiB string',
      comparePeers([
        { name: 'span-ledger fingerprint', run: () => fingerprint(mib) },
        {
          name: "bare createHash('sha1') digest",
          run: () => createHash('sha1').update(mib).digest('hex'),
        },
      ]),
      [
        {
          label: 'fingerprint / bare hash',
          subject: 'span-ledger fingerprint',
          peer: "bare createHash('sha1') digest",
          max: 1.15,
        },
      ],
    ) && ok;
  return ok;
}
