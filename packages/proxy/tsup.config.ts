import { defineConfig } from 'tsup';

/**
 * The bin (`dist/cli.js`, started by `bin/span-ledger-proxy.js`), the
 * programmatic entry (`dist/index.js`) and the HTTP front (`dist/http.js`,
 * which the repository's example daemon serves through too), for Node only.
 * The two library entries are built twice, ESM and CommonJS with types for
 * each (`.d.ts`, `.d.cts`), so a CommonJS TypeScript project under
 * `module: node16`/`nodenext` can `require` them on every Node the package
 * supports, without relying on `require(esm)`. `span-ledger` and the MCP SDK
 * stay external (they are dependencies, both dual). No source maps, as the
 * core: the bundles are unminified and the tarball ships no src/.
 */
const common = {
  target: 'node18',
  platform: 'node',
  splitting: true,
  treeshake: true,
} as const;

export default defineConfig([
  {
    ...common,
    entry: { index: 'src/index.ts', cli: 'src/cli.ts', http: 'src/http/index.ts' },
    format: ['esm'],
    // The core's types come from its built entries, as a user's install has them: the
    // repository's tsconfig paths (which point span-ledger at src/ for the examples) are off here.
    dts: {
      entry: { index: 'src/index.ts', http: 'src/http/index.ts' },
      compilerOptions: { paths: {} },
    },
    // Each build cleans only its own files: the two run at once.
    clean: ['*.js', '*.d.ts'],
  },
  {
    ...common,
    entry: { index: 'src/index.ts', http: 'src/http/index.ts' },
    format: ['cjs'],
    dts: { compilerOptions: { paths: {} } },
    clean: ['*.cjs', '*.d.cts'],
    shims: true,
  },
]);
