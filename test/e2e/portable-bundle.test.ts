/**
 * The entry points a browser or worker may load must not reach for a Node
 * built-in at import time: no `node:` specifier, no `require` of a built-in,
 * no static import of one. The native hash is found at run time through
 * `process.getBuiltinModule`, which this check deliberately allows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { describe, expect, it } from 'vitest';

const DIST = new URL('../../dist/', import.meta.url);
// Every bundle a library user can load (entries and their shared chunks); the
// bin is Node-only.
const BUNDLES = readdirSync(DIST).filter((f) => /\.(c?js)$/.test(f) && f !== 'cli.cjs');
const BUILTINS = builtinModules.filter((m) => !m.startsWith('_')).join('|');
const SPECIFIER = `(?:node:[\\w/]+|(?:${BUILTINS})(?:/[\\w/]+)?)`;
const PATTERNS = [
  new RegExp(`\\bfrom\\s*['"]${SPECIFIER}['"]`),
  new RegExp(`\\bimport\\s*\\(?\\s*['"]${SPECIFIER}['"]`),
  new RegExp(`\\brequire\\s*\\(\\s*['"]${SPECIFIER}['"]\\s*\\)`),
  /['"]node:/,
];

function offending(source: string): string[] {
  return source.split('\n').filter((line) => PATTERNS.some((p) => p.test(line)));
}

describe('browser-safe bundles', () => {
  it('the patterns catch each way a built-in can be imported', () => {
    const bad = [
      `import { createHash } from "node:crypto";`,
      `import fs from 'fs';`,
      `const c = require("crypto");`,
      `const p = await import('node:path');`,
      `var import_crypto = require('crypto/webcrypto');`,
    ];
    expect(bad.filter((line) => offending(line).length === 0)).toEqual([]);
    expect(offending(`const crypto = proc?.getBuiltinModule?.('crypto');`)).toEqual([]);
  });

  it('covers the three entry points in both formats', () => {
    for (const name of ['index', 'adapter', 'testing']) {
      expect(BUNDLES).toContain(`${name}.js`);
      expect(BUNDLES).toContain(`${name}.cjs`);
    }
  });

  it.each(BUNDLES)('dist/%s imports no Node built-in', (file) => {
    const source = readFileSync(new URL(file, DIST), 'utf8');
    expect(offending(source)).toEqual([]);
  });
});
