/**
 * The command line: what `span-ledger-proxy` answers before it starts
 * anything — its help, its version, and one line with exit 2 for a command
 * line it cannot run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/args.js';
import { PACKAGE, runBin } from './_bin.js';

describe('the bin', () => {
  it('answers --help with the usage on stdout and exit 0', () => {
    const run = runBin(['--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^span-ledger-proxy \[options\] <upstream command>/);
    expect(run.stdout).toContain('--profile NAME');
    expect(run.stderr).toBe('');
  });

  it('answers --version with the package version', () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8'));
    const run = runBin(['-v']);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${manifest.version}\n`);
  });

  it.each([
    [['--frobnicate', '--', 'x'], /Unknown option '--frobnicate'/],
    [['--profile', 'git', '--', 'x'], /--profile must be one of codegraph, filesystem, generic/],
    [[], /name the upstream command after the options/],
    [['--root'], /^span-ledger-proxy: --root needs a directory after it \(see --help\)\n$/],
    [['--root', '--', 'x'], /^span-ledger-proxy: --root needs a directory after it/],
    [['--root', '--profile', 'generic', 'x'], /--root needs a directory after it/],
    [['--redis', 'redis://127.0.0.1:1', '--', 'x'], /--redis needs --http/],
    [['--max-tokens', '2k', '--', 'x'], /--max-tokens takes a whole number of tokens above 0/],
  ])('refuses %j with one line on stderr and exit 2', (args, message) => {
    const run = runBin(args);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^span-ledger-proxy: /);
    expect(run.stderr).toMatch(message);
  });
});

describe('a run that cannot start', () => {
  it.each([
    [
      ['--', 'no-such-upstream-command-xyz'],
      /^span-ledger-proxy: cannot start the upstream `no-such-upstream-command-xyz`: command not found on PATH \(.+\), started in \/.+\n$/,
    ],
    [
      ['./node_modules/.bin/no-such-server'],
      /^span-ledger-proxy: cannot start the upstream `\.\/node_modules\/\.bin\/no-such-server`: no such file \/.+\/node_modules\/\.bin\/no-such-server \(a relative command is read from \/.+; --cwd sets it\)\n$/,
    ],
    [
      ['--cwd', 'no/such/dir', 'x'],
      /^span-ledger-proxy: cannot start the upstream `x`: its working directory .+no\/such\/dir is not a directory that exists \(--cwd sets it\)\n$/,
    ],
    [
      ['--root', 'package.json', '--', process.execPath],
      /^span-ledger-proxy: the root .+package\.json is a file; a root is the directory files are read under\n$/,
    ],
    [
      ['--', process.execPath, '-e', 'process.exit(3)'],
      /^span-ledger-proxy: the upstream `.+ -e process.exit\(3\)` exited \(exit code 3\) before it answered initialize\n$/,
    ],
    [
      ['--root', 'no/such/dir', '--', process.execPath],
      /^span-ledger-proxy: the root .+no\/such\/dir is not a directory that exists\n$/,
    ],
    [
      ['--http', '0', '--token-file', '/no/such/tokens', '--', process.execPath],
      /^span-ledger-proxy: cannot read the token file \/no\/such\/tokens: ENOENT\n$/,
    ],
  ])('%j: one line on stderr, exit 2, nothing left running', (args, message) => {
    const run = runBin(args);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
  });
});

describe('parseCommandLine', () => {
  it('leaves everything after -- to the upstream, its own options included', () => {
    expect(
      parseCommandLine(['--root', 'app', '--', 'codegraph', 'serve', '--mcp'], '/home/me'),
    ).toEqual({
      kind: 'run',
      profile: null,
      root: ['/home/me/app'],
      cwd: '/home/me',
      http: null,
      timeoutMs: 120_000,
      tools: null,
      maxTokens: null,
      command: 'codegraph',
      args: ['serve', '--mcp'],
    });
  });

  it('starts the upstream command at the first word that is not an option of the proxy', () => {
    const line = parseCommandLine(
      ['--profile', 'codegraph', '--timeout=5', 'codegraph', 'serve', '--mcp', '--', '-x'],
      '/home/me',
    );
    expect(line).toMatchObject({
      kind: 'run',
      profile: 'codegraph',
      timeoutMs: 5000,
      root: null,
      cwd: '/home/me',
      command: 'codegraph',
      args: ['serve', '--mcp', '--', '-x'],
    });
    expect(parseCommandLine(['npx', '-y', 'srv', '--root', 'x'], '/')).toMatchObject({
      command: 'npx',
      args: ['-y', 'srv', '--root', 'x'],
      root: null,
    });
  });

  it('takes --root once per directory and --cwd, both against the working directory', () => {
    expect(
      parseCommandLine(['--root', 'a', '--root', '/b', '--cwd', 'srv', 'x'], '/home/me'),
    ).toMatchObject({ root: ['/home/me/a', '/b'], cwd: '/home/me/srv', command: 'x' });
  });

  it('reads --http with --redis, --timeout and --tools', () => {
    const line = parseCommandLine(
      [
        '--http',
        '8080',
        '--redis',
        'redis://127.0.0.1:6379',
        '--timeout',
        '2.5',
        '--tools',
        'a, b,',
        '--',
        'srv',
      ],
      '/',
    );
    expect(line).toMatchObject({
      kind: 'run',
      http: { port: 8080, redis: 'redis://127.0.0.1:6379' },
      timeoutMs: 2500,
      tools: ['a', 'b'],
    });
  });

  it('reads --max-tokens as the cap when the environment gives none', () => {
    expect(parseCommandLine(['--max-tokens', '2000', '--', 'srv'], '/')).toMatchObject({
      kind: 'run',
      maxTokens: 2000,
    });
  });

  it('reads --token-file and --host with --http, and refuses them without it', () => {
    const line = parseCommandLine(
      ['--http', '1', '--token-file', 't', '--host', '0.0.0.0', '--', 'srv'],
      '/',
    );
    expect(line).toMatchObject({ http: { port: 1, redis: null, tokenFile: 't', host: '0.0.0.0' } });
    expect(parseCommandLine(['--token-file', 't', '--', 'srv'], '/')).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/--token-file and --host need --http/),
    });
  });

  it.each([
    [['--http', '80a', '--', 'x'], /--http takes a port number/],
    [['--http', '70000', '--', 'x'], /--http takes a port number/],
    [
      ['--http', '1', '--redis', 'http://user:secret@host', '--', 'x'],
      /^--redis takes a redis:\/\/ or rediss:\/\/ URL$/,
    ],
    [['--timeout', '0', '--', 'x'], /--timeout takes a number of seconds above 0/],
    [['--timeout', '', '--', 'x'], /--timeout takes a number of seconds above 0/],
    [['--tools', ' , ', '--', 'x'], /--tools takes tool names/],
    [['--max-tokens', '0', '--', 'x'], /--max-tokens takes a whole number of tokens above 0/],
    [['--max-tokens=-5', '--', 'x'], /--max-tokens takes a whole number/],
    [['--max-tokens', '1.5', '--', 'x'], /--max-tokens takes a whole number/],
    [['--max-tokens', '', '--', 'x'], /--max-tokens takes a whole number/],
    [['--root'], /^--root needs a directory after it$/],
    [['--http'], /^--http needs a port number after it$/],
  ])('answers %j with a usage error', (args, message) => {
    const line = parseCommandLine(args, '/');
    expect(line.kind).toBe('error');
    expect(line.kind === 'error' && line.message).toMatch(message);
  });

  it('never echoes a --redis value it refuses (it may hold a password)', () => {
    const line = parseCommandLine(['--http', '1', '--redis', 'http://u:hunter2@h', '--', 'x'], '/');
    expect(JSON.stringify(line)).not.toContain('hunter2');
  });
});
