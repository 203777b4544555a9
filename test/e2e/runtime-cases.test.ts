/**
 * The browser's cases, run on Node against the same built bundle: with
 * `scripts/browser-test.mjs` this shows both runtimes compute identical
 * results (Node through its native hash, the browser through the portable one)
 * on the same shared vectors.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CASES, type Library, runCases } from '../browser/cases.js';

const BUNDLE = new URL('../../dist/index.js', import.meta.url);

describe('the built ESM bundle on Node', () => {
  it('exists (npm test builds it first)', () => {
    expect(existsSync(BUNDLE), 'dist/index.js is missing: run `npm run build`').toBe(true);
  });

  it('passes every shared case whose exports it has', async () => {
    const entry = (name: string) => import(new URL(`../../dist/${name}.js`, import.meta.url).href);
    const lib: Library = {
      ...(await entry('testing')),
      ...(await entry('adapter')),
      ...(await import(BUNDLE.href)),
    };
    const results = runCases(lib, { runtime: 'node' });
    expect(results.filter((r) => r.status === 'failed')).toEqual([]);
    expect(results.filter((r) => r.status === 'passed').length).toBeGreaterThanOrEqual(24);
    expect(results.length).toBe(CASES.filter((c) => c.only !== 'browser').length);
  });
});
