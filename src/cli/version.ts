/**
 * The package's version, read from package.json when the CLI runs from
 * source. The build replaces this module with the version embedded
 * (`scripts/embed-sample.ts`), as it does the sample project, so the
 * published CLI prints the version it was built as and reads no file for it.
 */
import { readFileSync } from 'node:fs';

const manifest = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');

/** What `span-ledger --version` prints. */
export const VERSION: string = JSON.parse(manifest).version;
