/**
 * `npm run fixtures:embed`: writes `src/cli/_sample.ts` from `fixtures/`, so
 * the published CLI carries the demo project inside its bundle (the package
 * ships `dist/` only). A test fails when the two drift apart.
 *
 * A maintenance script, not part of the CLI bundle.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const sampleDir = join(root, 'fixtures', 'sample');
const sequenceDir = join(root, 'fixtures', 'sequences');

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = join(dir, name);
      return statSync(full).isDirectory() ? walk(full) : [full];
    });
}

const files = walk(sampleDir).map((full) => ({
  path: relative(sampleDir, full).split('\\').join('/'),
  content: readFileSync(full, 'utf8'),
}));
const sequences = readdirSync(sequenceDir)
  .filter((n) => n.endsWith('.json'))
  .sort()
  .map((n) => JSON.parse(readFileSync(join(sequenceDir, n), 'utf8')));

const out = `// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are source files
/**
 * The bundled demo project and its recorded query sequences, generated from
 * \`fixtures/\` by \`npm run fixtures:embed\`. Do not edit: edit the fixtures.
 */
import type { RecordedSequence } from './replay.js';

/** The files of the sample project (TypeScript and Python). */
export const SAMPLE_FILES: readonly { readonly path: string; readonly content: string }[] = ${JSON.stringify(files, null, 2)};

/** The recorded query sequences over it. */
export const SAMPLE_SEQUENCES: readonly RecordedSequence[] = ${JSON.stringify(sequences, null, 2)};
`;
writeFileSync(join(root, 'src', 'cli', '_sample.ts'), out);
console.log(`embedded ${files.length} files and ${sequences.length} sequences`);
