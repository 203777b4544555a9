/**
 * The package's version, as its manifest states it: what `--version` prints
 * and what the proxy names itself with when it initializes the upstream.
 */
import { createRequire } from 'node:module';

/**
 * The version in `package.json` (read when asked: `--help` and usage errors never need it).
 *
 * @example
 * ```ts
 * packageVersion(); // e.g. '0.1.0'
 * ```
 */
export function packageVersion(): string {
  const manifest = createRequire(import.meta.url)('../package.json') as { version: string };
  return manifest.version;
}
