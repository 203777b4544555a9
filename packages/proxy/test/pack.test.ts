/**
 * span-ledger-proxy as users get it: both packages packed and unpacked into a
 * fresh project's node_modules, with the proxy's declared dependencies (and
 * only those) linked in from this repository — a test may not reach the
 * registry — and the installed bin run: its help, and a real session in front
 * of the filesystem server. Catches what the in-repo tests cannot see: a file
 * left out of `files`, a dependency the package uses but does not declare, a
 * bin that does not start.
 *
 * Needs the built `dist/` of both packages (npm test builds first).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE, REPO } from './_bin.js';
import { closeAll, readResponse, startProxy, testEnv, textOf } from './_proxy.js';

const require = createRequire(import.meta.url);
const fsManifest = require('@modelcontextprotocol/server-filesystem/package.json') as {
  bin: Record<string, string>;
};
const SERVER = require.resolve(
  `@modelcontextprotocol/server-filesystem/${fsManifest.bin['mcp-server-filesystem']}`,
);

let dir = '';
let project = '';
let files: string[] = [];

function pack(cwd: string): { filename: string; files: { path: string }[] } {
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(out)[0];
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'span-ledger-proxy-pack-'));
  const core = pack(REPO);
  const proxy = pack(PACKAGE);
  files = proxy.files.map((f) => f.path);
  project = join(dir, 'consumer');
  const modules = join(project, 'node_modules');
  mkdirSync(join(modules, '.bin'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  const unpack = (tarball: string, name: string) => {
    mkdirSync(join(modules, name));
    execFileSync('tar', [
      '-xzf',
      join(dir, tarball),
      '-C',
      join(modules, name),
      '--strip-components=1',
    ]);
  };
  unpack(core.filename, 'span-ledger');
  unpack(proxy.filename, 'span-ledger-proxy');
  const manifest = JSON.parse(
    readFileSync(join(modules, 'span-ledger-proxy/package.json'), 'utf8'),
  );
  for (const dependency of Object.keys(manifest.dependencies)) {
    if (dependency === 'span-ledger') continue;
    mkdirSync(join(modules, dependency, '..'), { recursive: true });
    symlinkSync(join(REPO, 'node_modules', dependency), join(modules, dependency), 'dir');
  }
  symlinkSync(
    '../span-ledger-proxy/bin/span-ledger-proxy.js',
    join(modules, '.bin/span-ledger-proxy'),
  );
}, 120_000);

afterAll(async () => {
  await closeAll();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed span-ledger-proxy', () => {
  it('holds its bin, dist (without source maps), README, LICENSE and package.json', () => {
    expect(files.filter((p) => !p.startsWith('dist/') && !p.startsWith('bin/')).sort()).toEqual([
      'LICENSE',
      'README.md',
      'package.json',
    ]);
    expect(files.filter((p) => p.endsWith('.map'))).toEqual([]);
    const entries = ['bin/span-ledger-proxy.js', 'dist/cli.js', 'dist/index.js', 'dist/index.d.ts'];
    expect(files).toEqual(expect.arrayContaining(entries));
  });

  it('is required from a CommonJS project: the same exports as import, from the .cjs build', () => {
    // A CommonJS consumer (no "type": "module") on any supported Node, without require(esm).
    // Its types (.d.cts) under module node16 from CommonJS are checked by attw in npm test.
    const run = spawnSync(
      process.execPath,
      [
        '-e',
        `const esm = import('span-ledger-proxy');
         esm.then((m) => console.log(JSON.stringify([Object.keys(require('span-ledger-proxy')).sort(), Object.keys(m).filter((k) => k !== 'default').sort(), typeof require('span-ledger-proxy/http').serveMcpHttp])));`,
      ],
      { cwd: project, encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    const [cjs, esm, serve] = JSON.parse(run.stdout);
    expect(cjs).toEqual(esm);
    expect(cjs).toContain('startProxy');
    expect(serve).toBe('function');
  });

  it('installs a bin that answers --help', () => {
    const run = spawnSync(join(project, 'node_modules/.bin/span-ledger-proxy'), ['--help'], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^span-ledger-proxy \[options\] <upstream command>/);
  });

  it('proxies the filesystem server from the installed package', async () => {
    const root = join(dir, 'root');
    mkdirSync(root);
    writeFileSync(
      join(root, 'a.ts'),
      `${Array.from({ length: 30 }, (_, i) => `export const v${i} = ${i};`).join('\n')}\n`,
    );
    const proxy = await startProxy([process.execPath, SERVER, root], {
      cwd: root,
      env: testEnv(),
      bin: join(project, 'node_modules/span-ledger-proxy/bin/span-ledger-proxy.js'),
    });
    const read = async (args: Record<string, unknown>) =>
      readResponse(
        textOf(await proxy.client.callTool({ name: 'read_text_file', arguments: args })),
        'a.ts',
      );
    const first = await read({ path: 'a.ts' });
    expect(first.lines.get('a.ts')?.size).toBe(30);
    const again = await read({ path: 'a.ts', context: first.token });
    expect(again.pointers).toEqual([{ path: 'a.ts', calls: [1], spans: [{ start: 1, end: 30 }] }]);
  });
});
