/**
 * Layer 3: planCall. The host keeps its ranking and hands span-ledger the
 * rest of the call: the gates (size, delta), the hold-back, the budget
 * (in chars, where the host's allocator counted bytes), and the reference
 * renderer's layout. What the host gives up is its own render loop.
 */
import { createSessionStore, planCall, readRefresh } from 'span-ledger';
import { createEmissionRecorder, renderMarkdown } from 'span-ledger/adapter';
import { type ExploreArgs, type HostFile, rank } from './host.js';

export function createPlannedHost(options: {
  root: string;
  files: readonly HostFile[];
  maxBytes?: number;
  maxFiles?: number;
}) {
  const { root, files, maxBytes = 6000, maxFiles = 4 } = options;
  const store = createSessionStore();
  return {
    store,
    explore({ query, sessionId, refresh }: ExploreArgs): string {
      const lost = readRefresh({ refresh });
      if (lost !== null) store.prune({ projectRoot: root, sessionId, ...lost });
      const ranked = rank(files, query);
      const plan = planCall({
        files: ranked.map(({ file, spans }) => ({ ...file, intended: spans })),
        prior: store.reserve(root, sessionId)?.prior ?? null,
        budget: { maxChars: maxBytes, maxFiles },
      });
      const recorder = createEmissionRecorder({ projectRoot: root, query });
      const sources = ranked.map(({ file }) => file);
      const options = { plan, sources, recorder, refresh: true, refreshArgument: refresh };
      const { text } = renderMarkdown({ ...options, title: `Explore: ${query}` });
      store.record(recorder.finish(text.length), sessionId);
      return text;
    },
  };
}
