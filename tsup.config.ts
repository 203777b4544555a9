import { defineConfig } from 'tsup';
import { embedSample, embedVersion } from './scripts/embed-sample.js';

// No source maps: the bundles are unminified, so a stack trace already points at readable
// code, and the tarball ships no src/ for a map to lead to.
export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      adapter: 'src/adapter/index.ts',
      shared: 'src/shared/index.ts',
      wire: 'src/wire/index.ts',
      testing: 'src/testing/index.ts',
      redis: 'src/redis/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    target: 'es2022',
    platform: 'neutral',
    treeshake: true,
    external: ['fast-check'],
  },
  {
    entry: { cli: 'src/cli/main.ts' },
    format: ['cjs'],
    platform: 'node',
    target: 'node18',
    banner: { js: '#!/usr/bin/env node' },
    // The demo project and the version, embedded at build time (src/cli/sample-data.ts and
    // src/cli/version.ts read them from disk when the CLI runs from source).
    esbuildPlugins: [embedSample('fixtures'), embedVersion('package.json')],
  },
]);
