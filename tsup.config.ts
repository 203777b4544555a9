import { defineConfig } from 'tsup';
import { embedSample } from './scripts/embed-sample.js';

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
    sourcemap: true,
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
    sourcemap: true,
    banner: { js: '#!/usr/bin/env node' },
    // The demo project, embedded from fixtures/ at build time (src/cli/sample-data.ts reads it from disk).
    esbuildPlugins: [embedSample('fixtures')],
  },
]);
