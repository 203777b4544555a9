/**
 * Reading the bundled demo project from `fixtures/`: the files under
 * `fixtures/sample/` (paths relative to it, `/`-separated, in name order) and
 * the recorded query sequences under `fixtures/sequences/*.json`.
 *
 * Used twice, with one result: from source (tests, `npm run demo`) the sample
 * is read from disk when the CLI loads it; in the published bundle the build
 * runs this same reader once and embeds its result (the package ships `dist/`
 * only). Nothing here is part of the library.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { RecordedSequence } from './replay.js';

/**
 * The demo project and its sequences.
 */
export interface SampleFixtures {
  /** The files of the sample project (TypeScript and Python). */
  readonly files: readonly { readonly path: string; readonly content: string }[];
  /** The recorded query sequences over it, by file name. */
  readonly sequences: readonly RecordedSequence[];
}

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = join(dir, name);
      return statSync(full).isDirectory() ? walk(full) : [full];
    });
}

/**
 * Reads the sample project and its sequences from a `fixtures/` directory.
 *
 * @example
 * ```ts
 * readFixtures('/repo/fixtures').files[0]?.path; // 'src/cart.ts'
 * ```
 */
export function readFixtures(root: string): SampleFixtures {
  const sampleDir = join(root, 'sample');
  const sequenceDir = join(root, 'sequences');
  const files = walk(sampleDir).map((full) => ({
    path: relative(sampleDir, full).replaceAll(sep, '/'),
    content: readFileSync(full, 'utf8'),
  }));
  const sequences = readdirSync(sequenceDir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(sequenceDir, name), 'utf8')) as RecordedSequence);
  return { files, sequences };
}

/**
 * The module the build puts in place of `sample-data.ts`: the fixtures as
 * constants, so the bundled CLI reads no file.
 *
 * @example
 * ```ts
 * embeddedSampleModule(readFixtures('fixtures'));
 * // 'export const SAMPLE_FILES = [...];\nexport const SAMPLE_SEQUENCES = [...];\n'
 * ```
 */
export function embeddedSampleModule(fixtures: SampleFixtures): string {
  return (
    `export const SAMPLE_FILES = ${JSON.stringify(fixtures.files)};\n` +
    `export const SAMPLE_SEQUENCES = ${JSON.stringify(fixtures.sequences)};\n`
  );
}
