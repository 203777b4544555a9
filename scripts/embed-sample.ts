/**
 * An esbuild plugin for the CLI bundle: the import of `./sample-data.js`
 * (which reads `fixtures/` from disk when the CLI runs from source) resolves
 * to a module with the fixtures embedded, generated at build time by the
 * same reader. The published package ships `dist/` only, and nothing
 * generated is committed.
 */
import { join } from 'node:path';
import type { Options } from 'tsup';
import { embeddedSampleModule, readFixtures } from '../src/cli/fixtures.js';

const NAMESPACE = 'span-ledger-sample';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * The plugin; `fixturesDir` (relative to the working directory: the package
 * root under npm scripts) holds `sample/` and `sequences/`.
 *
 * @example
 * ```ts
 * defineConfig({ entry: { cli: 'src/cli/main.ts' }, esbuildPlugins: [embedSample('fixtures')] });
 * ```
 */
export function embedSample(fixturesDir: string): Plugin {
  return {
    name: 'embed-sample',
    setup(build) {
      build.onResolve({ filter: /^\.\/sample-data\.js$/ }, () => ({
        path: 'sample',
        namespace: NAMESPACE,
      }));
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, () => {
        const root = join(process.cwd(), fixturesDir);
        return { contents: embeddedSampleModule(readFixtures(root)), loader: 'js' };
      });
    },
  };
}
