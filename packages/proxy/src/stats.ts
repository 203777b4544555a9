/**
 * What the proxy saved, counted per agent context and in total: the chars the
 * upstream answered, the chars the client was sent, the pointers written, the
 * refreshes asked for, and the sections the proxy could not prove (passed
 * through as they were). Offered as the `span-ledger://stats` resource and
 * summed up in one stderr line at exit; never added to a tool result.
 *
 * Contexts are shown by a label (`context 1`, …) in the order they first
 * called, never by their token or conversation id: those are keys, and the
 * resource may be read by a client that is not the context itself.
 */

/** The resource's URI. */
export const STATS_URI = 'span-ledger://stats';

/**
 * Contexts counted one by one; later ones are added to the total only (a
 * client minting a token per call must not grow the proxy without bound).
 */
const MAX_CONTEXTS = 256;

/** Latency samples kept for the percentiles (the most recent ones). */
const MAX_SAMPLES = 4096;

/** Calls listed one by one in the report, the most recent last. */
const RECENT_CALLS = 20;

/** The counters of one context (or of all of them). */
export interface Counters {
  /** Calls of the re-rendered tools answered. */
  calls: number;
  /** Chars of text the upstream answered those calls with. */
  upstreamChars: number;
  /** Chars of text the client was sent for them. */
  deliveredChars: number;
  /** Tokens of the upstream's text, estimated (span-ledger's `estimateTokens`). */
  upstreamTokens: number;
  /** Tokens of the text the client was sent, estimated the same way. */
  deliveredTokens: number;
  /** Pointers written in place of source. */
  pointers: number;
  /** Calls that asked for a `refresh`. */
  refreshes: number;
  /** File sections passed through as they were, because the proxy could not prove them from disk. */
  unproven: number;
  /**
   * Chars the calls that grew added: what re-rendering costs where nothing
   * was withheld (the response's number, the token, `cat -n` numbering).
   */
  addedChars: number;
  /**
   * Chars the calls that shrank saved: pointers in place of source, less the
   * numbering those same calls added (so it never overstates dedup).
   */
  withheldChars: number;
}

/** One call's figures, as the proxy adds them up. */
export interface CallFigures {
  readonly tool: string;
  readonly upstreamChars: number;
  readonly deliveredChars: number;
  readonly upstreamTokens: number;
  readonly deliveredTokens: number;
  readonly pointers: number;
  readonly refreshed: boolean;
  readonly unproven: number;
  /** How long the upstream took to answer, in ms (from the call going out to its answer coming in). */
  readonly upstreamMs: number;
  /** The proxy's own time on the call (checking, reading, proving, planning, rendering, recording), in ms. */
  readonly ownMs: number;
  /** The CPU time the proxy spent on the call, in ms (its own work, however loaded the machine is). */
  readonly cpuMs: number;
}

/** One recent call in the report, under the label of its context. */
export type RecentCall = { readonly context: string } & Pick<
  CallFigures,
  'tool' | 'upstreamChars' | 'deliveredChars' | 'pointers' | 'upstreamMs' | 'ownMs' | 'cpuMs'
>;

/** The resource's JSON. */
export interface StatsReport {
  readonly tokens: 'estimated (span-ledger estimateTokens)';
  readonly total: CountersReport;
  readonly contexts: readonly (CountersReport & { readonly context: string })[];
  /** The proxy's own time per call, in ms. */
  readonly ownMs: { readonly p50: number; readonly p95: number; readonly samples: number };
  /** The CPU time the proxy spent per call, in ms. */
  readonly cpuMs: { readonly p50: number; readonly p95: number };
  /** The last calls, most recent last. */
  readonly recent: readonly RecentCall[];
}

/** Counters with the derived figures. */
export interface CountersReport extends Readonly<Counters> {
  readonly savedChars: number;
  readonly savedTokens: number;
}

function zero(): Counters {
  const none = { upstreamChars: 0, deliveredChars: 0, upstreamTokens: 0, deliveredTokens: 0 };
  return {
    calls: 0,
    ...none,
    pointers: 0,
    refreshes: 0,
    unproven: 0,
    addedChars: 0,
    withheldChars: 0,
  };
}

function add(into: Counters, call: CallFigures): void {
  into.calls += 1;
  into.upstreamChars += call.upstreamChars;
  into.deliveredChars += call.deliveredChars;
  into.upstreamTokens += call.upstreamTokens;
  into.deliveredTokens += call.deliveredTokens;
  into.pointers += call.pointers;
  into.refreshes += call.refreshed ? 1 : 0;
  into.unproven += call.unproven;
  const change = call.deliveredChars - call.upstreamChars;
  if (change > 0) into.addedChars += change;
  else into.withheldChars -= change;
}

function report(c: Counters): CountersReport {
  return {
    ...c,
    savedChars: c.upstreamChars - c.deliveredChars,
    savedTokens: c.upstreamTokens - c.deliveredTokens,
  };
}

const toHundredths = (ms: number) => Math.round(ms * 100) / 100;

/** The p50 and p95 of `samples` (nearest rank, to the hundredth); 0 for none. */
function percentiles(samples: readonly number[]): { readonly p50: number; readonly p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted.length === 0 ? 0 : toHundredths(sorted[Math.ceil(q * sorted.length) - 1]!);
  return { p50: at(0.5), p95: at(0.95) };
}

/** Appends `item`, dropping the oldest past `max`. */
function pushBounded<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max) list.shift();
}

/** One call as the report lists it, under the label of its context. */
function recentCallOf(context: string, call: CallFigures): RecentCall {
  return {
    context,
    tool: call.tool,
    upstreamChars: call.upstreamChars,
    deliveredChars: call.deliveredChars,
    pointers: call.pointers,
    upstreamMs: toHundredths(call.upstreamMs),
    ownMs: toHundredths(call.ownMs),
    cpuMs: toHundredths(call.cpuMs),
  };
}

/** The one line printed at exit, from the total's counters. */
function summaryLine(r: CountersReport): string {
  const calls = `${r.calls} ${r.calls === 1 ? 'call' : 'calls'}`;
  if (r.calls === 0) return `${calls} re-rendered`;
  const n = (x: number) => x.toLocaleString('en-US');
  const share = r.upstreamChars > 0 ? Math.round((100 * r.savedChars) / r.upstreamChars) : 0;
  const net =
    r.savedChars >= 0
      ? `${share}% fewer, ~${n(r.savedTokens)} tokens saved`
      : `${-share}% more, ~${n(-r.savedTokens)} tokens more`;
  return (
    `${calls}: ${n(r.upstreamChars)} chars from the upstream, ` +
    `${n(r.deliveredChars)} delivered (${net}; numbering added ${n(r.addedChars)} chars, dedup saved ${n(r.withheldChars)}), ` +
    `${r.pointers} ${r.pointers === 1 ? 'pointer' : 'pointers'}, ${r.refreshes} ${r.refreshes === 1 ? 'refresh' : 'refreshes'}, ` +
    `${r.unproven} unproven ${r.unproven === 1 ? 'section' : 'sections'}`
  );
}

/**
 * The proxy's counters.
 *
 * @example
 * ```ts
 * const stats = createStats();
 * stats.add('t:k7f3q2ab', {
 *   tool: 'codegraph_explore', upstreamChars: 900, deliveredChars: 300, upstreamTokens: 230,
 *   deliveredTokens: 80, pointers: 1, refreshed: false, unproven: 0, upstreamMs: 30, ownMs: 1, cpuMs: 1,
 * });
 * stats.summary();
 * // '1 call: 900 chars from the upstream, 300 delivered (67% fewer, ~150 tokens saved; numbering added 0 chars, dedup saved 600), …'
 * ```
 */
export function createStats() {
  const total = zero();
  /** Each context counted one by one, under its label (`context N`, in the order they first called). */
  const contexts = new Map<string, { readonly label: string; readonly counters: Counters }>();
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  const recent: RecentCall[] = [];
  /** Calls whose figures are counted once their answer is on its way (see `later`). */
  const pending: (() => void)[] = [];
  const flush = () => {
    for (const count of pending.splice(0)) count();
  };
  const stats = {
    /**
     * Adds one call of context `key` whose figures `figures` works out after
     * the current turn of the event loop (the answer goes out first); the
     * report and the summary count it in any case.
     */
    later(key: string, figures: () => CallFigures): void {
      if (pending.length === 0) setImmediate(flush);
      pending.push(() => stats.add(key, figures()));
    },
    /** Adds one answered call of context `key`. */
    add(key: string, call: CallFigures): void {
      add(total, call);
      let mine = contexts.get(key);
      if (mine === undefined && contexts.size < MAX_CONTEXTS) {
        mine = { label: `context ${contexts.size + 1}`, counters: zero() };
        contexts.set(key, mine);
      }
      if (mine !== undefined) add(mine.counters, call);
      pushBounded(samples, call.ownMs, MAX_SAMPLES);
      pushBounded(cpuSamples, call.cpuMs, MAX_SAMPLES);
      pushBounded(recent, recentCallOf(mine?.label ?? 'another context', call), RECENT_CALLS);
    },
    /** The resource's value. */
    report(): StatsReport {
      flush();
      return {
        tokens: 'estimated (span-ledger estimateTokens)',
        total: report(total),
        contexts: [...contexts.values()].map((c) => ({ context: c.label, ...report(c.counters) })),
        ownMs: { ...percentiles(samples), samples: samples.length },
        cpuMs: percentiles(cpuSamples),
        recent: [...recent],
      };
    },
    /** The one line printed at exit. */
    summary(): string {
      flush();
      return summaryLine(report(total));
    },
  };
  return stats;
}

/** The proxy's counters (see {@link createStats}). */
export type Stats = ReturnType<typeof createStats>;
