/**
 * The bundled sample project as the replay serves it: the embedded fixture
 * files with their symbols, and the recorded sequences by name.
 */
import { extractSymbols } from '../adapter/symbols.js';
import type { ProjectFile, RecordedSequence } from './replay.js';
import { SAMPLE_FILES, SAMPLE_SEQUENCES } from './sample-data.js';

/**
 * The sample project, by path.
 *
 * @example
 * ```ts
 * sampleProject().get('src/cart.ts')?.symbols[0]; // { name: 'CartLine', kind: 'interface', … }
 * ```
 */
export function sampleProject(): Map<string, ProjectFile> {
  return new Map(
    SAMPLE_FILES.map((f) => [
      f.path,
      { path: f.path, content: f.content, symbols: extractSymbols(f.content, f.path) },
    ]),
  );
}

/**
 * A recorded sequence over the sample project, or `undefined` for an unknown name.
 *
 * @example
 * ```ts
 * sampleSequence('checkout')?.calls.length; // 3
 * ```
 */
export function sampleSequence(name: string): RecordedSequence | undefined {
  return SAMPLE_SEQUENCES.find((s) => s.name === name);
}

/**
 * The names of the recorded sequences.
 *
 * @example
 * ```ts
 * sampleSequenceNames(); // ['checkout', 'restock']
 * ```
 */
export function sampleSequenceNames(): string[] {
  return SAMPLE_SEQUENCES.map((s) => s.name);
}
