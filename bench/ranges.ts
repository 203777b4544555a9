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
import { comparePeers, prng, report } from './_harness.js';

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

/** A normalized set of `count` spans with gaps, built here as plain objects (not by the library). */
function normalizedSet(count: number, seed: number): LineRange[] {
  const rand = prng(seed);
  const out: LineRange[] = [];
  let line = 1;
  for (let i = 0; i < count; i++) {
    const start = line + 1 + Math.floor(rand() * 20);
    const end = start + Math.floor(rand() * 30);
    out.push({ start, end });
    line = end + 1;
  }
  return out;
}

const toMir = (ranges: readonly LineRange[]): mir.MIR =>
  ranges.map((r) => [r.start, r.end] as const);

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
  ok =
    report(
      'subtract / intersect on two normalized sets of 5,000 plain spans',
      comparePeers([
        { name: 'span-ledger subtractRanges', run: () => subtractRanges(a, b) },
        { name: 'multi-integer-range subtract', run: () => mir.subtract(aMir, bMir) },
        { name: 'span-ledger intersectRanges', run: () => intersectRanges(a, b) },
        { name: 'multi-integer-range intersect', run: () => mir.intersect(aMir, bMir) },
        { name: `freezing ${pieces} fresh ranges (not done)`, run: freezeOnly },
      ]),
      [
        {
          label: 'subtractRanges / multi-integer-range',
          subject: 'span-ledger subtractRanges',
          peer: 'multi-integer-range subtract',
          max: 1 / 2,
        },
        {
          label: 'intersectRanges / multi-integer-range',
          subject: 'span-ledger intersectRanges',
          peer: 'multi-integer-range intersect',
          max: 1,
        },
        {
          label: 'freezing each range, were it done / multi-integer-range intersect',
          subject: `freezing ${pieces} fresh ranges (not done)`,
          peer: 'multi-integer-range intersect',
        },
      ],
    ) && ok;

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
