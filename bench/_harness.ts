/**
 * A tiny side-by-side benchmark harness: peers run interleaved in one process,
 * several rounds each, and the median time per operation is compared as a
 * ratio. Ratios, not absolute times, are what the targets speak of: this
 * machine is shared and noisy, a ratio between neighbours much less so. The
 * data the benches share (a seeded PRNG, a ranked explore response) is made
 * here too, so two benches that speak of "a 24-file emission" mean one thing.
 */
import { loadavg } from 'node:os';
import type { Emission, FileEmission } from 'span-ledger';

export interface Peer {
  readonly name: string;
  /** One operation. Its return value is kept alive so the work is not optimized away. */
  readonly run: () => unknown;
}

export interface PeerResult {
  readonly name: string;
  /** Median milliseconds per operation over the rounds. */
  readonly ms: number;
}

let sink: unknown;

function timeOnce(peer: Peer, iterations: number): number {
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) sink = peer.run();
  return (performance.now() - t0) / iterations;
}

/** The middle of `xs` (the mean of the two middle values when their count is even). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The `q` quantile (nearest rank) of `values`: a value it holds, never between two; 0 when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Runs the peers interleaved for `rounds` rounds after a warm-up and returns the medians. */
export function comparePeers(peers: readonly Peer[], rounds = 15): PeerResult[] {
  // Calibrate: enough iterations per round for ~20 ms of work.
  const iterations = peers.map((p) => {
    timeOnce(p, 1);
    const one = Math.max(timeOnce(p, 1), 0.001);
    return Math.max(1, Math.round(20 / one));
  });
  for (const [i, p] of peers.entries()) timeOnce(p, iterations[i]!);
  // A peer that takes seconds per operation gets fewer rounds: its ratio is not close.
  const slowest = Math.max(...peers.map((p, i) => timeOnce(p, 1) * iterations[i]!));
  const roundsRun = slowest > 500 ? Math.min(rounds, 3) : rounds;
  const samples: number[][] = peers.map(() => []);
  for (let r = 0; r < roundsRun; r++) {
    for (const [i, p] of peers.entries()) samples[i]!.push(timeOnce(p, iterations[i]!));
  }
  if (sink === Symbol.for('never')) console.log(sink);
  return peers.map((p, i) => ({ name: p.name, ms: median(samples[i]!) }));
}

/** Each round's ratio, each side's median time per operation, the load average before and after. */
interface Alternation {
  readonly ratios: number[];
  readonly subjectMs: number;
  readonly peerMs: number;
  readonly load: string;
}

/**
 * `subject / peer` over `rounds` rounds of `samples` timed samples each,
 * taken in turns (the side that goes first alternates), after a warm-up of a
 * second or so per side. A round's ratio is the median of its subject samples
 * over the median of its peer samples: on a shared machine a burst of load
 * lands on a few samples of both sides, not on one side's whole round.
 */
function alternate(subject: Peer, peer: Peer, rounds = 11, samples = 9): Alternation {
  const loadBefore = load();
  const sides = [subject, peer];
  // Warm-up in turns until each side has run about a second, so both are
  // optimized before the first sample; then ~10 ms of work per sample.
  let spent = 0;
  let iterations = 1;
  while (spent < 2000) {
    spent += sides.reduce((sum, side) => sum + timeOnce(side, iterations) * iterations, 0);
    iterations = Math.min(iterations * 2, 1024);
  }
  const per = sides.map((side) => Math.max(1, Math.round(10 / timeOnce(side, 50))));
  const ratios: number[] = [];
  const ms: number[][] = [[], []];
  for (let r = 0; r < rounds; r++) {
    const taken: number[][] = [[], []];
    for (let k = 0; k < samples; k++) {
      for (const i of (r + k) % 2 === 0 ? [0, 1] : [1, 0]) {
        taken[i]!.push(timeOnce(sides[i]!, per[i]!));
      }
    }
    const [s, p] = taken.map((t) => median(t)) as [number, number];
    ratios.push(s / p);
    ms[0]!.push(s);
    ms[1]!.push(p);
  }
  if (sink === Symbol.for('never')) console.log(sink);
  return {
    ratios,
    subjectMs: median(ms[0]!),
    peerMs: median(ms[1]!),
    load: `${loadBefore} → ${load()}`,
  };
}

const load = (): string => loadavg()[0]!.toFixed(2);
const perOp = (ms: number): string =>
  ms >= 1 ? `${ms.toFixed(2)} ms/op` : `${(ms * 1000).toFixed(2)} µs/op`;

/**
 * `subject / peer` in alternating rounds, printed: each side's median time,
 * each round's ratio, their median and spread, the load average. Returns
 * whether the median is at most `max`; without `max` it is for reference.
 */
export function reportRatio(label: string, subject: Peer, peer: Peer, max?: number): boolean {
  const r = alternate(subject, peer);
  const sorted = [...r.ratios].sort((x, y) => x - y);
  const ratio = median(r.ratios);
  const met = max === undefined || ratio <= max;
  const verdict =
    max === undefined ? '(for reference)' : `(target ≤ ${max}×) ${met ? 'met' : 'MISSED'}`;
  console.log(`  ${subject.name.padEnd(52)} ${perOp(r.subjectMs).padStart(12)}`);
  console.log(`  ${peer.name.padEnd(52)} ${perOp(r.peerMs).padStart(12)}`);
  console.log(`    per round: ${r.ratios.map((x) => x.toFixed(3)).join(' ')}`);
  console.log(
    `  ratio ${label}: ${ratio.toFixed(3)}× (median of ${sorted.length} alternating rounds, spread ${sorted[0]!.toFixed(3)}–${sorted.at(-1)!.toFixed(3)}, load average ${r.load}) ${verdict}`,
  );
  return met;
}

/** A target on the ratio `subject / peer`: at most `max` (smaller is better); no `max` prints it for reference. */
export interface RatioTarget {
  readonly subject: string;
  readonly peer: string;
  readonly max?: number;
  readonly label: string;
}

/** Prints a table of the peers and each target's ratio with a verdict; returns whether all met. */
export function report(
  title: string,
  results: readonly PeerResult[],
  targets: readonly RatioTarget[],
): boolean {
  console.log(`\n## ${title}`);
  for (const r of results) console.log(`  ${r.name.padEnd(52)} ${fmtMs(r.ms).padStart(12)}`);
  let ok = true;
  for (const t of targets) {
    const a = results.find((r) => r.name === t.subject);
    const b = results.find((r) => r.name === t.peer);
    if (!a || !b) throw new Error(`unknown peer in target ${t.label}`);
    const ratio = a.ms / b.ms;
    if (t.max === undefined) {
      console.log(`  ratio ${t.label}: ${ratio.toFixed(3)}× (for reference)`);
      continue;
    }
    const met = ratio <= t.max;
    ok &&= met;
    console.log(
      `  ratio ${t.label}: ${ratio.toFixed(3)}× (target ≤ ${t.max}×) ${met ? 'met' : 'MISSED'}`,
    );
  }
  return ok;
}

function fmtMs(ms: number): string {
  if (ms >= 1) return `${ms.toFixed(2)} ms/op`;
  return `${(ms * 1000).toFixed(2)} µs/op`;
}

/** A small deterministic PRNG (mulberry32) so every run benchmarks the same data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Where an explore response was made, what was asked, and how its files are fingerprinted. */
export interface ExploreShape {
  readonly projectRoot: string;
  readonly query: string;
  /** The fingerprint of a file of `chars` chars, from `draw`, one value of the PRNG in [0, 1). */
  readonly fingerprint: (chars: number, draw: number) => string;
}

/** A 24-file emission like a ranked explore response: six spans per file, fingerprinted. */
export function exploreEmission(seed: number, shape: ExploreShape): Emission {
  const rand = prng(seed);
  const files: FileEmission[] = [];
  let sourceChars = 0;
  for (let f = 0; f < 24; f++) {
    const ranges = [];
    let line = 1;
    for (let r = 0; r < 6; r++) {
      const start = line + Math.floor(rand() * 40);
      const end = start + Math.floor(rand() * 30);
      ranges.push({ start, end });
      line = end + 2;
    }
    const chars = 200 + Math.floor(rand() * 4000);
    sourceChars += chars;
    const path = `src/module-${Math.floor(rand() * 500)}/file-${f}.ts`;
    files.push({ path, ranges, chars, fingerprint: shape.fingerprint(chars, rand()) });
  }
  return {
    projectRoot: shape.projectRoot,
    query: shape.query,
    files,
    sourceChars,
    responseChars: sourceChars + 2400,
  };
}

/** `draw` (in [0, 1)) as `bits` random bits, in at least 16 hex digits. */
export function hexDigits(draw: number, bits: number): string {
  return Math.floor(draw * 2 ** bits)
    .toString(16)
    .padStart(16, '0');
}
