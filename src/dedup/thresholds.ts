/**
 * The numbers dedup decides by, and the switch that turns it off.
 *
 * Not for deciding anything itself: the gates live in `plan-file.ts`, the
 * call-level rules in `plan-call.ts`.
 */
import { prop } from '../boundary/read.js';

/**
 * The thresholds the gates and the pointer use. See {@link DEDUP_THRESHOLDS}.
 */
export interface DedupThresholds {
  /**
   * Shortest run of held lines that earns a pointer (size gate). Once a file has
   * one, a shorter held run at the edge of a sent span joins it.
   */
  readonly minCoveredLines: number;
  /**
   * A new remainder shorter than this many chars, every line of it trivial (empty,
   * or only whitespace and `)]};,`), is folded into the pointer (delta gate).
   */
  readonly minDeltaChars: number;
  /** Spans a pointer names before it says `+N more spans`. */
  readonly maxSpansInPointer: number;
  /** Symbols a pointer names before it says `+N more`. */
  readonly maxSymbolsInPointer: number;
}

/**
 * The default thresholds.
 */
export const DEDUP_THRESHOLDS: DedupThresholds = /* @__PURE__ */ Object.freeze({
  // A pointer sentence costs about 140 chars, roughly 8 lines of code: a shorter
  // held run costs more as a pointer than as source, and riddles the span with
  // holes. (It joins a pointer the file already carries only at a span's edge.)
  minCoveredLines: 8,
  // About two lines: a fence holding only a trailing blank or a closing brace
  // reads as a broken response. Only such lines are folded, never code: an
  // unseen line that carries code costs the reader a re-read.
  minDeltaChars: 160,
  // Four spans fit on one line of a pointer; a longer list stops being read.
  maxSpansInPointer: 4,
  // Five names are enough to recognize which part of a file was sent.
  maxSymbolsInPointer: 5,
});

const OFF = /* @__PURE__ */ new Set(['0', 'false', 'off', 'no']);
const ON = /* @__PURE__ */ new Set(['1', 'true', 'on', 'yes']);

/** Options of {@link dedupEnabledFromEnv}. */
export interface DedupEnvOptions {
  /** The variable to read (default `SPAN_LEDGER_DEDUP`). */
  readonly name?: string | undefined;
  /**
   * What an unset variable means (default `true`). With `true`, only `0`,
   * `false`, `off` or `no` turn dedup off; with `false` (an opt-in host), only
   * `1`, `true`, `on` or `yes` turn it on.
   */
  readonly default?: boolean | undefined;
}

/**
 * Reads the dedup switch from an environment. By default dedup is on: unset
 * (or not a string) → on; `0`, `false`, `off` or `no`, trimmed and in any
 * case → off; anything else → on. A host whose dedup is opt-in passes
 * `default: false`: then only `1`, `true`, `on` or `yes` turn it on, and
 * anything else — unset, blank, a typo, a value that is not a string — leaves
 * it off. `env` defaults to `process.env` where there is one (no Node import
 * needed); the second argument is the options, or the variable's name alone.
 * Options that cannot be read keep their defaults.
 *
 * @example
 * ```ts
 * dedupEnabledFromEnv({});                             // true
 * dedupEnabledFromEnv({ SPAN_LEDGER_DEDUP: ' Off ' }); // false
 * dedupEnabledFromEnv({ MY_DEDUP: '0' }, 'MY_DEDUP');  // false
 * const optIn = { name: 'CODEGRAPH_DEDUP', default: false };
 * dedupEnabledFromEnv({}, optIn);                              // false
 * dedupEnabledFromEnv({ CODEGRAPH_DEDUP: 'maybe' }, optIn);    // false
 * dedupEnabledFromEnv({ CODEGRAPH_DEDUP: ' YES ' }, optIn);    // true
 * planCall({ files: [], prior: null, enabled: dedupEnabledFromEnv() }); // reads process.env
 * ```
 */
export function dedupEnabledFromEnv(
  env?: Readonly<Record<string, string | undefined>> | null,
  options: DedupEnvOptions | string = {},
): boolean {
  const given = typeof options === 'string' ? options : prop(options, 'name');
  const name = typeof given === 'string' ? given : 'SPAN_LEDGER_DEDUP';
  // No `process` (browsers), or a junk environment: no string found, so the default.
  const source = env ?? (globalThis as { process?: { env?: unknown } }).process?.env;
  const raw = prop(source, name);
  const value = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  return prop(options, 'default') === false ? ON.has(value) : !OFF.has(value);
}
