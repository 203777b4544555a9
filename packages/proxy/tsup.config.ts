import { defineConfig } from 'tsup';

/**
 * The bin (`dist/cli.js`, started by `bin/span-ledger-proxy.js`) and the
 * programmatic entry (`dist/index.js`). ESM for Node only; `span-ledger` and
 * the MCP SDK stay external (they are dependencies), so the core's entries are
 * the ones its own build made. No source maps, as the core: the bundles are
 * unminified and the tarball ships no src/.
 */
export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  target: 'node18',
  platform: 'node',
  splitting: true,
  treeshake: true,
});
