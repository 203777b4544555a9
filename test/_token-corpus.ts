/**
 * The token corpus (test/fixtures/tokens/<kind>/<sample>.txt) and the count it
 * is held against: o200k, the GPT-4o vocabulary, as gpt-tokenizer encodes it.
 * Shared by the estimator's test and its benchmark, so both speak of one set
 * of samples and one reference count.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

/** Resolved from the repository root, where both `vitest` and `npm run bench` run. */
export const CORPUS_DIR = resolve('test', 'fixtures', 'tokens');

export interface TokenSample {
  readonly kind: string;
  readonly name: string;
  readonly text: string;
  /** o200k's exact count of `text`. */
  readonly o200k: number;
}

/** o200k's count of `text`; special-token spellings count as plain text. */
export function o200kCount(text: string): number {
  return encode(text, { disallowedSpecial: new Set() }).length;
}

/** Every sample of the corpus, kind by kind (folders), in file-name order. */
export function loadTokenCorpus(): TokenSample[] {
  const samples: TokenSample[] = [];
  const kinds = readdirSync(CORPUS_DIR, { withFileTypes: true }).filter((e) => e.isDirectory());
  for (const kind of kinds.map((e) => e.name).sort()) {
    for (const name of readdirSync(join(CORPUS_DIR, kind)).sort()) {
      const text = readFileSync(join(CORPUS_DIR, kind, name), 'utf8');
      samples.push({ kind, name, text, o200k: o200kCount(text) });
    }
  }
  return samples;
}

/** The samples grouped by kind, in kind order. */
export function byKind(samples: readonly TokenSample[]): Map<string, TokenSample[]> {
  const kinds = new Map<string, TokenSample[]>();
  for (const s of samples) kinds.set(s.kind, [...(kinds.get(s.kind) ?? []), s]);
  return kinds;
}

/** `estimate` against `reference`, as a signed fraction: -0.1 is 10% under. */
export const relativeError = (estimate: number, reference: number): number =>
  (estimate - reference) / reference;
