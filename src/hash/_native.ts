/**
 * Internal: finds the runtime's native synchronous SHA-1, without importing any
 * `node:` module (so browser and worker bundles never see one).
 *
 * Node ≥ 20.16 and Bun expose `process.getBuiltinModule`; there the hash is
 * OpenSSL's. Elsewhere this returns `undefined` and the portable SHA-1 is used.
 */

type HashFactory = (algorithm: string) => {
  update(data: string, encoding: 'utf8'): { digest(encoding: 'hex'): string };
};

/** The native `createHash`, or `undefined` on runtimes that have none. */
export function nativeCreateHash(): HashFactory | undefined {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } })
      .process;
    const crypto = proc?.getBuiltinModule?.('crypto') as { createHash?: HashFactory } | undefined;
    return typeof crypto?.createHash === 'function' ? crypto.createHash : undefined;
  } catch {
    return undefined;
  }
}
