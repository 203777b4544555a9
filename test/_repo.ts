/**
 * The repository's root, found above this file wherever it was bundled to:
 * the benchmarks bundle test helpers into `.bench/`, where a path worked out
 * from the file's own place would point outside the repository.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRepo(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'packages/proxy/package.json'))) {
    const up = dirname(dir);
    if (up === dir)
      throw new Error('the tests and benchmarks run inside the span-ledger repository');
    dir = up;
  }
  return dir;
}

/** The repository root. */
export const REPO = findRepo();
