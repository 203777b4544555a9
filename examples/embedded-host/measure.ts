/**
 * What each layer buys, measured on the bundled sample: every recorded
 * sequence's queries, one conversation per sequence, through the stock host
 * with the ledger only (layer 1), with citing pointers from its own loop
 * (layer 2) and with planCall (layer 3). `npx tsx --tsconfig tsconfig.json
 * examples/embedded-host/measure.ts` prints the table docs/adopting.md shows.
 */
import type { SessionStore } from 'span-ledger';
import { createSpanDedup } from './dedup.js';
import { createExploreHost } from './host.js';
import { createLedgerOnly } from './ledger-only.js';
import { createPlannedHost } from './planned.js';
import { sampleFiles, sampleQueries } from './sample.js';

const ROOT = '/sample';

/** One layer's totals over every sequence. */
export interface LayerFigures {
  readonly layer: string;
  readonly responseChars: number;
  readonly sourceLines: number;
  /** Source lines a response sent that an earlier response of the conversation had sent from the same content. */
  readonly resentLines: number;
  readonly pointers: number;
}

type Explore = (args: { query: string; sessionId: string }) => string;

function run(layer: string, make: () => { explore: Explore; store: SessionStore }): LayerFigures {
  let responseChars = 0;
  let sourceLines = 0;
  let resentLines = 0;
  let pointers = 0;
  for (const { name, queries } of sampleQueries()) {
    const { explore, store } = make();
    for (const query of queries) {
      const text = explore({ query, sessionId: name });
      responseChars += text.length;
      pointers += text.split('\n').filter((l) => l.startsWith('> ')).length;
    }
    const held = new Map<string, Set<number>>();
    for (const call of store.entry(ROOT, name)?.calls ?? []) {
      for (const file of call.files) {
        const key = `${file.path}@${file.fingerprint}`;
        const seen = held.get(key) ?? new Set<number>();
        for (const r of file.ranges) {
          for (let n = r.start; n <= r.end; n++) {
            sourceLines++;
            if (seen.has(n)) resentLines++;
          }
        }
        for (const r of file.ranges) for (let n = r.start; n <= r.end; n++) seen.add(n);
        held.set(key, seen);
      }
    }
  }
  return { layer, responseChars, sourceLines, resentLines, pointers };
}

/** The three layers' figures. */
export function measureLayers(): LayerFigures[] {
  const files = sampleFiles();
  const host = (seam: Parameters<typeof createExploreHost>[0]['dedup']) =>
    createExploreHost({ root: ROOT, files, dedup: seam });
  return [
    run('1. ledger only', () => {
      const { seam, store } = createLedgerOnly();
      return { explore: (a) => host(seam).explore(a), store };
    }),
    run('2. citing pointers + refresh', () => {
      const { seam, store } = createSpanDedup({ env: { HOST_DEDUP: '1' } });
      return { explore: (a) => host(seam).explore(a), store };
    }),
    run('3. planCall', () => {
      const planned = createPlannedHost({ root: ROOT, files });
      return { explore: (a) => planned.explore(a), store: planned.store };
    }),
  ];
}

/** The figures as the markdown table of docs/adopting.md. */
export function formatLayers(rows: readonly LayerFigures[]): string {
  const lines = [
    '| layer | response chars | source lines sent | of them re-sent | new lines | pointers |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => {
      const fresh = r.sourceLines - r.resentLines;
      return `| ${r.layer} | ${r.responseChars} | ${r.sourceLines} | ${r.resentLines} | ${fresh} | ${r.pointers} |`;
    }),
  ];
  return lines.join('\n');
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  console.log(formatLayers(measureLayers()));
}
