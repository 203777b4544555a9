/**
 * span-ledger-proxy the way a user runs it before it is published: both
 * packages packed (`npm pack`), installed globally into a temporary prefix
 * (`npm install -g --prefix`), and the installed bin run from a directory
 * that is neither the project nor the prefix — as a client starts it — in
 * Claude Code's config form (`"command": "span-ledger-proxy", "args": [the
 * upstream command]`, no `--`, no `--root`): its `--help`, `--redis` without
 * the optional `redis` package (one line, exit 2), then a session in front of
 * the filesystem server where the second read of a file points.
 *
 * Reaches the registry for the proxy's dependencies (`--prefer-offline`: the
 * npm cache first), so it is a CI step (`npm run test:packed`), not a unit
 * test. Needs the built `dist/` of both packages (`npm run build`). Prints
 * one line per step; exits 1 on the first that fails. About 40 s.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const REPO = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const SERVER = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

const dir = mkdtempSync(join(tmpdir(), 'span-ledger-packed-'));
const step = (line) => process.stdout.write(`try-packed: ${line}\n`);
const fail = (line) => {
  process.stderr.write(`try-packed: FAILED: ${line}\n`);
  process.exitCode = 1;
};

try {
  const pack = (cwd) =>
    JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
        cwd,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    )[0].filename;
  const tarballs = [pack(REPO), pack(join(REPO, 'packages/proxy'))].map((name) => join(dir, name));
  step(`packed ${tarballs.map((t) => t.slice(dir.length + 1)).join(', ')}`);
  const prefix = join(dir, 'prefix');
  execFileSync(
    'npm',
    [
      'install',
      '-g',
      '--prefix',
      prefix,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      ...tarballs,
    ],
    { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const bin = join(prefix, 'bin/span-ledger-proxy');
  step(`installed into ${prefix}`);

  const help = execFileSync(bin, ['--help'], { encoding: 'utf8' });
  if (!help.startsWith('span-ledger-proxy [options] <upstream command>')) {
    throw new Error(`--help printed ${JSON.stringify(help.split('\n')[0])}`);
  }
  step('span-ledger-proxy --help answers');

  // `redis` is an optional peer, not installed with the proxy: --redis says so in one line, exit 2.
  let said = '';
  try {
    execFileSync(bin, ['--http', '0', '--redis', 'redis://127.0.0.1:9', process.execPath], {
      encoding: 'utf8',
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (error) {
    said = `${error.status}: ${error.stderr}`;
  }
  if (!said.startsWith('2: span-ledger-proxy: --redis needs the redis package')) {
    throw new Error(`--redis without the redis package said ${JSON.stringify(said)}`);
  }
  step(`--redis without the redis package: ${said.trim()}`);

  const project = join(dir, 'project');
  const elsewhere = join(dir, 'elsewhere');
  mkdirSync(project);
  mkdirSync(elsewhere);
  const lines = Array.from({ length: 30 }, (_, i) => `export const v${i} = ${i};`);
  writeFileSync(join(project, 'a.ts'), `${lines.join('\n')}\n`);
  const transport = new StdioClientTransport({
    command: bin,
    args: [process.execPath, SERVER, project],
    cwd: elsewhere,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const client = new Client({ name: 'try-packed', version: '1.0.0' });
  await client.connect(transport);
  const read = async (context) => {
    const result = await client.callTool({
      name: 'read_text_file',
      arguments: { path: join(project, 'a.ts'), ...(context ? { context } : {}) },
    });
    return result.content[0].text;
  };
  const first = await read();
  const token = /context ([A-Za-z0-9_-]{6,64})/.exec(first)?.[1];
  const second = await read(token);
  await client.close();
  if (!/unchanged/.test(second) || !/#1/.test(second)) {
    throw new Error(`the second read did not point at #1:\n${second}\n--- stderr:\n${stderr}`);
  }
  step(`a second read from ${elsewhere} points: ${second.split('\n')[1]}`);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
