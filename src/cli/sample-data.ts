/**
 * The bundled demo project, read from `fixtures/` when the CLI runs from
 * source. The build replaces this module with the same data embedded
 * (`scripts/embed-sample.ts`, a plugin of the CLI bundle), so the published
 * CLI reads no file and no generated copy is kept in the repository.
 */
import { fileURLToPath } from 'node:url';
import { readFixtures } from './fixtures.js';
import type { RecordedSequence } from './replay.js';

const sample = readFixtures(fileURLToPath(new URL('../../fixtures', import.meta.url)));

/** The files of the sample project (TypeScript and Python). */
export const SAMPLE_FILES: readonly { readonly path: string; readonly content: string }[] =
  sample.files;

/** The recorded query sequences over it. */
export const SAMPLE_SEQUENCES: readonly RecordedSequence[] = sample.sequences;
