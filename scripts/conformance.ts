/**
 * Writes the conformance vectors, `conformance/<suite>.json`, and their JSON
 * Schema, `conformance/schema.json`, from the reference (src/cli/conform/vectors.ts).
 * `test/conformance.vectors.test.ts` fails when the checked-in files differ
 * from what this writes.
 *
 *   npx tsx scripts/conformance.ts          # rewrite conformance/
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as fc from 'fast-check';
import { SUITES } from '../src/cli/conform/reference.js';
import { buildSuites, SCHEMA } from '../src/cli/conform/vectors.js';

/** The files of `conformance/`, name → text. */
export function conformanceFiles(): Record<string, string> {
  const suites = buildSuites(fc);
  const files: Record<string, string> = { 'schema.json': `${JSON.stringify(SCHEMA, null, 2)}\n` };
  for (const suite of SUITES)
    files[`${suite}.json`] = `${JSON.stringify(suites[suite], null, 2)}\n`;
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = fileURLToPath(new URL('../conformance/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(conformanceFiles())) writeFileSync(dir + name, text);
  process.stdout.write(`wrote ${Object.keys(conformanceFiles()).length} files to conformance/\n`);
}
