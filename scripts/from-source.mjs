/**
 * `node --import ./scripts/from-source.mjs <script>` runs a script of this
 * repository (the examples) against the library's sources, with no build
 * step and no dist/ that an edit to src/ left stale: tsx compiles the
 * TypeScript on the fly, and the `paths` of tsconfig.json resolve
 * `span-ledger` and `span-ledger/<entry>` to `src/index.ts` and
 * `src/<entry>/index.ts`.
 *
 * Registered here rather than with `--import tsx` because a worker thread
 * runs this module too (workers inherit the flag), and tsx registers itself
 * on the main thread only under Node 20: the examples' rendering workers
 * would not load the sources.
 */
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
