/**
 * Layer 1: the ledger only. The host's responses do not change; the seam
 * records what each one sent, so the host can say what a conversation holds
 * (`store.entry`), and forget it (`prune`, `forget`, `clear`).
 */
import { createSessionStore, fingerprint } from 'span-ledger';
import { createEmissionRecorder } from 'span-ledger/adapter';
import type { DedupSeam, HostFile, Lines } from './host.js';

/** UTF-16 chars of `spans` of `content` (span-ledger counts chars; the host counts bytes). */
export function charsOf(content: string, spans: readonly Lines[]): number {
  const lines = content.split('\n');
  return spans.reduce((n, s) => n + lines.slice(s.start - 1, s.end).join('\n').length, 0);
}

export function createLedgerOnly() {
  const store = createSessionStore();
  const seam: DedupSeam = {
    begin({ root, query, sessionId }) {
      const recorder = createEmissionRecorder({ projectRoot: root, query });
      return {
        header: () => '',
        section: (_file, spans) => ({ show: spans, pointer: null }),
        sent(file: HostFile, shown: readonly Lines[]) {
          const chars = charsOf(file.content, shown);
          recorder.source(file.path, shown, chars, fingerprint(file.content));
        },
        finish(text: string) {
          store.record(recorder.finish(text.length), sessionId);
          return text;
        },
      };
    },
  };
  return { seam, store };
}
