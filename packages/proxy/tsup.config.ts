import { defineConfig } from 'tsup';

/**
 * The bin (`dist/cli.js`, started by `bin/span-ledger-proxy.js`), the
 * programmatic entry (`dist/index.js`) and the HTTP front (`dist/http.js`,
 * which the repository's example daemon serves through too). ESM for Node
 * only; `span-ledger` and the MCP SDK stay external (they are dependencies),
 * so the core's entries are the ones its own build made. No source maps, as
 * the core: the bundles are unminified and the tarball ships no src/.
 */
export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts', http: 'src/http/index.ts' },
  format: ['esm'],
  // The core's types come from its built entries, as a user's install has them: the
  // repository's tsconfig paths (which point span-ledger at src/ for the examples) are off here.
  dts: {
    entry: { index: 'src/index.ts', http: 'src/http/index.ts' },
    compilerOptions: { paths: {} },
  },
  clean: true,
  target: 'node18',
  platform: 'node',
  splitting: true,
  treeshake: true,
});
