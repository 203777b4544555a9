/**
 * The tarball as users get it: `npm pack`, install it offline into a fresh
 * project, then load every entry point through `require` and `import` and run
 * the `span-ledger` bin. Catches what in-repo tests cannot see: a file left out
 * of `files`, an `exports` condition pointing at nothing, a CJS/ESM pair that
 * disagrees, a bin without its shebang.
 *
 * Needs a built `dist/` (npm test builds first). No network: the package has
 * no runtime dependencies, and the optional peer `fast-check` is linked from
 * this repository for the `testing` entry.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRIES, REPO } from './_mcp-explore.js';

const NPM_ENV = {
  ...process.env,
  // Under `npm test`, npm hands the repository's .npmrc allow-scripts down as this variable, and
  // npm refuses it in another project's install as if it were --allow-scripts: that project has none.
  npm_config_allow_scripts: '',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

let dir = '';
let project = '';
let packed: { files: { path: string }[]; size: number; filename: string };

function node(args: string[]) {
  return spawnSync(process.execPath, args, { cwd: project, encoding: 'utf8' });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'span-ledger-pack-'));
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
    cwd: REPO,
    encoding: 'utf8',
    env: NPM_ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  [packed] = JSON.parse(out);
  project = join(dir, 'consumer');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  execFileSync(
    'npm',
    ['install', '--offline', '--ignore-scripts', '--no-package-lock', join(dir, packed.filename)],
    { cwd: project, encoding: 'utf8', env: NPM_ENV },
  );
  symlinkSync(
    join(REPO, 'node_modules', 'fast-check'),
    join(project, 'node_modules', 'fast-check'),
    'dir',
  );
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('holds only dist (without source maps), README, LICENSE, CHANGELOG and package.json', () => {
    const outside = packed.files
      .map((f) => f.path)
      .filter(
        (p) =>
          !p.startsWith('dist/') &&
          !['README.md', 'LICENSE', 'CHANGELOG.md', 'package.json'].includes(p),
      );
    expect(outside).toEqual([]);
    // No source maps: the bundles are unminified, and no src/ ships for a map to lead to.
    expect(packed.files.filter((f) => f.path.endsWith('.map'))).toEqual([]);
    const paths = packed.files.map((f) => f.path);
    for (const file of [
      'dist/index.js',
      'dist/index.cjs',
      'dist/index.d.ts',
      'dist/index.d.cts',
      'dist/cli.cjs',
    ]) {
      expect(paths).toContain(file);
    }
  });

  it('names no source map in any bundle, so no tool looks for a file the tarball lacks', () => {
    const dist = join(project, 'node_modules', 'span-ledger', 'dist');
    const naming = readdirSync(dist)
      .filter((name) => /\.(c|m)?js$/.test(name))
      .filter((name) => readFileSync(join(dist, name), 'utf8').includes('sourceMappingURL'));
    expect(naming).toEqual([]);
  });

  it('installs with nothing but the package itself', () => {
    const installed = readdirSync(join(project, 'node_modules')).filter((n) => !n.startsWith('.'));
    expect(installed.sort()).toEqual(['fast-check', 'span-ledger']);
  });

  it('loads through require and import with the same exports, and computes the same fingerprint', () => {
    const script = `
      const { createRequire } = require('node:module');
      (async () => {
        const out = {};
        for (const id of ${JSON.stringify(ENTRIES)}) {
          const cjs = require(id);
          const esm = await import(id);
          out[id] = { cjs: Object.keys(cjs).sort(), esm: Object.keys(esm).filter((k) => k !== 'default').sort() };
        }
        const { fingerprint } = require('span-ledger');
        const esm = await import('span-ledger');
        out.fingerprints = [fingerprint('abc'), esm.fingerprint('abc')];
        out.merged = esm.mergeRanges([{ start: 5, end: 9 }, { start: 10, end: 12 }]);
        process.stdout.write(JSON.stringify(out));
      })().catch((e) => { console.error(e); process.exit(1); });
    `;
    const run = node(['-e', script]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout);
    for (const id of ENTRIES) expect(out[id].esm, id).toEqual(out[id].cjs);
    expect(out['span-ledger'].esm).toContain('fingerprint');
    expect(out['span-ledger'].esm).toContain('mergeRanges');
    expect(out['span-ledger/redis'].esm).toContain('redisBackend');
    expect(out['span-ledger/shared'].esm).toEqual([
      'createMemoryBackend',
      'createSharedSessionStore',
    ]);
    expect(out['span-ledger/wire'].esm).toEqual([
      'EMISSION_KEY',
      'VIEW_KEY',
      'attachEmission',
      'readSessionView',
      'takeEmission',
      'withSessionView',
    ]);
    // FIPS 180 "abc": a9993e36 4706816a …
    expect(out.fingerprints).toEqual(['3:a9993e364706816a', '3:a9993e364706816a']);
    expect(out.merged).toEqual([{ start: 5, end: 12 }]);
  });

  it('loads from an ES module file, the way an ESM project imports it', () => {
    writeFileSync(
      join(project, 'smoke.mjs'),
      `import { fingerprint } from 'span-ledger';
       import * as adapter from 'span-ledger/adapter';
       import * as testing from 'span-ledger/testing';
       import pkg from 'span-ledger/package.json' with { type: 'json' };
       console.log(JSON.stringify([fingerprint(''), typeof adapter, typeof testing, pkg.name]));`,
    );
    const run = node(['smoke.mjs']);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([
      '0:da39a3ee5e6b4b0d',
      'object',
      'object',
      'span-ledger',
    ]);
  });

  it("runs the README's hello (examples/hello/hello.mjs) with node, as pasted, and prints what the README shows", () => {
    writeFileSync(
      join(project, 'hello.mjs'),
      readFileSync(join(REPO, 'examples/hello/hello.mjs'), 'utf8'),
    );
    const run = node(['hello.mjs']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const shown = /<!-- printed by examples\/hello\/hello\.mjs -->\n````text\n([\s\S]*?)````/.exec(
      readme,
    )?.[1];
    expect(shown).toMatch(/^Response #2\n/);
    expect(run.stdout).toContain(shown);
    expect(run.stdout).toContain('Sent in response #1 of this conversation: `src/cart.ts` L1-20.');
  });

  it('installs the span-ledger bin, executable, and it answers --help with its usage', () => {
    const bin = join(project, 'node_modules', '.bin', 'span-ledger');
    expect(statSync(bin).mode & 0o111).not.toBe(0);
    const run = spawnSync(bin, ['--help'], { cwd: project, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/span-ledger/);
    expect(run.stdout).toMatch(/demo/);
    expect(run.stdout).toMatch(/measure/);
    expect(run.status).toBe(0);
  });

  it('answers --version and -v with the version it was packed as', () => {
    const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    for (const flag of ['--version', '-v']) {
      const run = spawnSync(join(project, 'node_modules', '.bin', 'span-ledger'), [flag], {
        cwd: project,
        encoding: 'utf8',
      });
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe(`${version}\n`);
      expect(run.status).toBe(0);
    }
  });

  it("runs the bin's demo from the installed tarball, away from the repository", () => {
    const run = spawnSync(join(project, 'node_modules', '.bin', 'span-ledger'), ['demo'], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(0);
  });
});

/** The lifecycle scripts npm runs when a package is installed (`prepare` too, for a git or folder dependency). */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];
/** What a published manifest leaves out: the repository's tooling. */
const REPOSITORY_ONLY = ['scripts', 'workspaces', 'devDependencies', 'allowScripts', 'size-limit'];

describe('installing runs nothing, and the manifests say only what a user needs', () => {
  it('the packed package.json of span-ledger and of span-ledger-proxy has no script and no repository tooling, and names the repository', () => {
    const core = JSON.parse(
      readFileSync(join(project, 'node_modules', 'span-ledger', 'package.json'), 'utf8'),
    );
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
      cwd: join(REPO, 'packages', 'proxy'),
      encoding: 'utf8',
      env: NPM_ENV,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const [proxyPack] = JSON.parse(out) as { filename: string }[];
    const proxy = JSON.parse(
      execFileSync('tar', ['-xzOf', join(dir, proxyPack!.filename), 'package/package.json'], {
        encoding: 'utf8',
      }),
    );
    for (const manifest of [core, proxy]) {
      const scripts = Object.keys(manifest.scripts ?? {});
      expect(
        scripts.filter((s) => INSTALL_SCRIPTS.includes(s)),
        manifest.name,
      ).toEqual([]);
      // What only the repository reads stays there (scripts/published-manifest.mjs, run by prepack).
      expect(
        Object.keys(manifest).filter((key) => REPOSITORY_ONLY.includes(key)),
        manifest.name,
      ).toEqual([]);
      // Where it comes from and where to say what is wrong, in both.
      expect(manifest.repository?.url, manifest.name).toBe(
        'git+https://github.com/span-ledger/span-ledger.git',
      );
      expect(manifest.bugs?.url, manifest.name).toBe(
        'https://github.com/span-ledger/span-ledger/issues',
      );
      expect(manifest.homepage, manifest.name).toMatch(/^https:\/\/github\.com\/span-ledger\//);
      expect(manifest.license, manifest.name).toBe('MIT');
    }
  });

  it('an install of the tarball with scripts allowed runs no script of span-ledger', () => {
    const fresh = join(dir, 'with-scripts');
    mkdirSync(fresh);
    writeFileSync(join(fresh, 'package.json'), JSON.stringify({ name: 'fresh', private: true }));
    const run = spawnSync(
      'npm',
      [
        'install',
        '--offline',
        '--ignore-scripts=false',
        '--foreground-scripts',
        '--no-package-lock',
        join(dir, packed.filename),
      ],
      { cwd: fresh, encoding: 'utf8', env: NPM_ENV },
    );
    expect(run.status).toBe(0);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/^> span-ledger@/m);
  });
});
