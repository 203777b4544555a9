/**
 * The glue: span-ledger in the host's dedup seam, through public entries
 * only. The host keeps its ranking, render loop and allocator; this file
 * numbers its responses, turns source the conversation holds into citing
 * pointers in the host's own words, honours `refresh`, and records what each
 * response sent. Dedup is opt-in (`HOST_DEDUP=1`), as the host ships it.
 */
import {
  createSessionStore,
  dedupEnabledFromEnv,
  fingerprint,
  formatPointer,
  type LedgerLimits,
  type PointerWords,
  readRefresh,
  servedBy,
  subtractRanges,
  symbolsInSpans,
} from 'span-ledger';
import {
  createEmissionRecorder,
  formatRefreshOffer,
  formatResponseHeader,
} from 'span-ledger/adapter';
import type { DedupSeam, HostFile, Lines, ResponseDedup } from './host.js';
import { charsOf } from './ledger-only.js';

/** The host's pointer sentence, as its instructions quote it. */
export const HOST_WORDS: PointerWords = {
  sent: 'Already in {responses}: {what}.',
  unchanged: 'Not changed since.',
  partial: 'Not changed since; only new lines below.',
};

/**
 * The seam filled with span-ledger (`seam` is `undefined` while dedup is
 * off: the host runs stock), and the store, for the host's diagnostics.
 * `minLines` is the host's own rule: the shortest held run worth a pointer.
 */
export function createSpanDedup(
  options: { env?: Record<string, string>; limits?: Partial<LedgerLimits>; minLines?: number } = {},
) {
  const store = createSessionStore(options.limits);
  const { minLines = 6 } = options;
  const seam: DedupSeam = {
    begin({ root, query, sessionId, refresh }): ResponseDedup {
      const lost = readRefresh({ refresh });
      if (lost !== null) store.prune({ projectRoot: root, sessionId, ...lost });
      const number = store.reserve(root, sessionId);
      const prior = store.entry(root, sessionId);
      const generation = number?.generation ?? null;
      const recorder = createEmissionRecorder({ projectRoot: root, query });
      recorder.numbered(number?.callIndex ?? null, generation);
      const cited = new Set<number>();
      const header = { callIndex: number?.callIndex, generation, refreshArgument: refresh };
      return {
        header: () => formatResponseHeader(header),
        section(file: HostFile, spans: readonly Lines[]) {
          const fp = fingerprint(file.content);
          const asked = { path: file.path, fingerprint: fp, projectRoot: root };
          const held = servedBy(prior, { ...asked, ranges: spans }).covered;
          const covered = held.filter((r) => r.end - r.start + 1 >= minLines);
          if (covered.length === 0) return { show: spans, pointer: null };
          const calls = servedBy(prior, { ...asked, ranges: covered }).coveredBy;
          for (const n of calls) cited.add(n);
          const show = subtractRanges(spans, covered);
          const symbols = symbolsInSpans(file.symbols, covered, { by: 'overlap' });
          const parts = { path: file.path, covered, symbols, calls, generation };
          const pointer = formatPointer({ ...parts, partial: show.length > 0 }, HOST_WORDS);
          return { show, pointer };
        },
        sent(file: HostFile, shown: readonly Lines[]) {
          const chars = charsOf(file.content, shown);
          recorder.source(file.path, shown, chars, fingerprint(file.content));
        },
        finish(text: string) {
          const calls = [...cited].sort((a, b) => b - a);
          const offer = calls.length > 0 ? `${formatRefreshOffer(calls, generation)}\n` : '';
          store.record(recorder.finish(text.length + offer.length), sessionId);
          return text + offer;
        },
      };
    },
  };
  const on = dedupEnabledFromEnv(options.env, { name: 'HOST_DEDUP', default: false });
  return { seam: on ? seam : undefined, store };
}
