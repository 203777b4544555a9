/**
 * esbuild plugins for the CLI bundle: the import of `./sample-data.js`
 * (which reads `fixtures/` from disk when the CLI runs from source) resolves
 * to a module with the fixtures embedded, generated at build time by the
 * same reader, and the import of `./version.js` (which reads package.json)
 * to the version as a constant. The published package ships `dist/` only,
 * and nothing generated is committed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Options } from 'tsup';
import { embeddedSampleModule, readFixtures } from '../src/cli/fixtures.js';

const NAMESPACE = 'span-ledger-sample';
const VERSION_NAMESPACE = 'span-ledger-version';

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

/**
 * The plugin that embeds the version of `manifest` (a package.json, relative
 * to the working directory) in place of `src/cli/version.ts`.
 *
 * @example
 * ```ts
 * defineConfig({ entry: { cli: 'src/cli/main.ts' }, esbuildPlugins: [embedVersion('package.json')] });
 * ```
 */
export function embedVersion(manifest: string): Plugin {
  return {
    name: 'embed-version',
    setup(build) {
      build.onResolve({ filter: /^\.\/version\.js$/ }, () => ({
        path: 'version',
        namespace: VERSION_NAMESPACE,
      }));
      build.onLoad({ filter: /.*/, namespace: VERSION_NAMESPACE }, () => {
        const { version } = JSON.parse(readFileSync(join(process.cwd(), manifest), 'utf8'));
        return { contents: `export const VERSION = ${JSON.stringify(version)};`, loader: 'js' };
      });
    },
  };
}
