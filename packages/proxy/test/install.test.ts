/**
 * `span-ledger-proxy install claude` / `uninstall claude`: the hook entries
 * merged into Claude Code's settings and taken out again, every other
 * setting and hook kept; a file it cannot read whole left as it was.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/args.js';
import { harnessContextId } from '../src/context.js';
import {
  claudeHookEntries,
  type InstallOptions,
  mergeClaudeHooks,
  opencodePlugin,
  proxiedServers,
  removeClaudeHooks,
  runInstall,
} from '../src/install.js';
import { runBin } from './_bin.js';

const scratches: string[] = [];
afterEach(() => {
  for (const dir of scratches.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project folder with `.mcp.json` running the proxy as `codegraph`, and `settings` when given. */
function project(settings?: string, mcp: unknown = PROXIED): string {
  const dir = mkdtempSync(join(tmpdir(), 'span-ledger-install-'));
  scratches.push(dir);
  writeFileSync(join(dir, '.mcp.json'), JSON.stringify(mcp));
  if (settings !== undefined) {
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude/settings.json'), settings);
  }
  return dir;
}

const PROXIED = {
  mcpServers: {
    codegraph: { command: 'npx', args: ['-y', 'span-ledger-proxy', '--', 'codegraph', 'serve'] },
    github: { command: 'github-mcp-server', args: ['stdio'] },
  },
};

/** Settings a user already has: a model, permissions, and hooks of their own on the same events. */
const THEIRS = `${JSON.stringify(
  {
    model: 'opus',
    permissions: { allow: ['Bash(npm test)'] },
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'audit.sh' }] }],
      SessionStart: [{ hooks: [{ type: 'command', command: 'echo hi' }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'notify.sh' }] }],
    },
  },
  null,
  2,
)}\n`;

const options = (dir: string, extra: Partial<InstallOptions> = {}): InstallOptions => ({
  action: 'install',
  harness: 'claude',
  scope: 'project',
  dir,
  server: null,
  print: false,
  ...extra,
});
const settingsOf = (dir: string) => readFileSync(join(dir, '.claude/settings.json'), 'utf8');
/** No HOME or CLAUDE_CONFIG_DIR of the machine running the tests. */
const env = (dir: string) => ({ CLAUDE_CONFIG_DIR: join(dir, 'claude-home') });

describe('install claude', () => {
  it('adds its groups after the hooks a settings file holds and uninstall gives the same bytes back', () => {
    const dir = project(THEIRS);
    const installed = runInstall(options(dir), env(dir));
    expect(installed).toMatchObject({ status: 0, stdout: '' });
    expect(installed.message).toMatch(/installed the span-ledger hooks for "codegraph" in /);
    const settings = JSON.parse(settingsOf(dir));
    expect(settings.model).toBe('opus');
    expect(settings.permissions).toEqual({ allow: ['Bash(npm test)'] });
    expect(settings.hooks.Stop).toEqual(JSON.parse(THEIRS).hooks.Stop);
    expect(settings.hooks.PreToolUse[0]).toEqual(JSON.parse(THEIRS).hooks.PreToolUse[0]);
    expect(settings.hooks.PreToolUse[1].matcher).toBe('mcp__codegraph__.*');
    expect(settings.hooks.PreToolUse[1].hooks[0]).toMatchObject({
      type: 'mcp_tool',
      server: 'codegraph',
      tool: 'span_ledger_hook',
    });
    expect(settings.hooks.PreCompact).toHaveLength(1);
    expect(settings.hooks.SessionStart).toHaveLength(2);

    const removed = runInstall(options(dir, { action: 'uninstall' }), env(dir));
    expect(removed.status).toBe(0);
    expect(settingsOf(dir)).toBe(THEIRS);
  });

  it('is idempotent: a second install leaves the file as the first wrote it', () => {
    const dir = project(THEIRS);
    runInstall(options(dir), env(dir));
    const once = settingsOf(dir);
    const again = runInstall(options(dir), env(dir));
    expect(again.status).toBe(0);
    expect(again.message).toMatch(/already holds the hooks for "codegraph"/);
    expect(settingsOf(dir)).toBe(once);
  });

  it('creates .claude/settings.json when there is none, and uninstall leaves an empty object', () => {
    const dir = project();
    expect(runInstall(options(dir), env(dir)).status).toBe(0);
    expect(Object.keys(JSON.parse(settingsOf(dir)).hooks)).toEqual([
      'PreToolUse',
      'PreCompact',
      'SessionStart',
    ]);
    runInstall(options(dir, { action: 'uninstall' }), env(dir));
    expect(JSON.parse(settingsOf(dir))).toEqual({});
  });

  it.each([
    ['malformed JSON', '{"model": "opus",', /is not valid JSON .*left untouched/],
    ['a list', '[1, 2]', /does not hold a JSON object/],
    ['hooks that are not an object', '{"hooks": []}', /"hooks" is not an object/],
    ['an event that is not a list', '{"hooks": {"Stop": {}}}', /"hooks.Stop" is not a list/],
  ])('leaves %s untouched with one line and status 2', (_name, text, message) => {
    const dir = project(text);
    const outcome = runInstall(options(dir), env(dir));
    expect(outcome.status).toBe(2);
    expect(outcome.message).toMatch(message);
    expect(outcome.message).not.toContain('\n');
    expect(settingsOf(dir)).toBe(text);
  });

  it('writes a settings file back with the indentation it uses, and uninstall gives its bytes back', () => {
    const tabbed = `${JSON.stringify(JSON.parse(THEIRS), null, '\t')}\n`;
    const dir = project(tabbed);
    expect(runInstall(options(dir), env(dir)).status).toBe(0);
    expect(settingsOf(dir)).toMatch(/\n\t\t"PreToolUse"/);
    expect(runInstall(options(dir, { action: 'uninstall' }), env(dir)).status).toBe(0);
    expect(settingsOf(dir)).toBe(tabbed);
  });

  it('leaves a read-only settings file untouched', () => {
    const dir = project(THEIRS);
    chmodSync(join(dir, '.claude/settings.json'), 0o444);
    const outcome = runInstall(options(dir), env(dir));
    expect(outcome).toMatchObject({ status: 2 });
    expect(outcome.message).toMatch(/is read-only; left untouched/);
    expect(settingsOf(dir)).toBe(THEIRS);
  });

  it('refuses a file holding other span-ledger hooks for the server: uninstall first', () => {
    const dir = project(THEIRS);
    runInstall(options(dir), env(dir));
    const edited = JSON.parse(settingsOf(dir));
    edited.hooks.PreToolUse[1].hooks[0].timeout = 99;
    const text = `${JSON.stringify(edited, null, 2)}\n`;
    writeFileSync(join(dir, '.claude/settings.json'), text);
    const outcome = runInstall(options(dir), env(dir));
    expect(outcome.status).toBe(2);
    expect(outcome.message).toMatch(/holds other span-ledger hooks for "codegraph"/);
    expect(settingsOf(dir)).toBe(text);
    expect(runInstall(options(dir, { action: 'uninstall' }), env(dir)).status).toBe(0);
    expect(settingsOf(dir)).toBe(THEIRS);
  });

  it('keeps the hooks of a second proxied server when one is uninstalled by name', () => {
    const dir = project(THEIRS);
    runInstall(options(dir, { server: 'codegraph' }), env(dir));
    runInstall(options(dir, { server: 'fs' }), env(dir));
    runInstall(options(dir, { action: 'uninstall', server: 'codegraph' }), env(dir));
    const left = JSON.parse(settingsOf(dir));
    expect(left.hooks.PreToolUse.map((g: { matcher?: string }) => g.matcher)).toEqual([
      'Bash',
      'mcp__fs__.*',
    ]);
  });

  it('--print writes the entries to stdout and touches no file', () => {
    const dir = project(THEIRS);
    const outcome = runInstall(options(dir, { print: true }), env(dir));
    expect(outcome.status).toBe(0);
    expect(JSON.parse(outcome.stdout)).toEqual({ hooks: claudeHookEntries('codegraph') });
    expect(settingsOf(dir)).toBe(THEIRS);
  });

  it('names the server only where the MCP configuration runs the proxy, else asks for --server', () => {
    expect(proxiedServers(PROXIED)).toEqual(['codegraph']);
    expect(
      proxiedServers(
        { projects: { '/app': { mcpServers: { cg: { command: '/opt/bin/span-ledger-proxy' } } } } },
        '/app',
      ),
    ).toEqual(['cg']);
    const none = project(undefined, { mcpServers: { github: { command: 'gh-mcp' } } });
    expect(runInstall(options(none), env(none))).toMatchObject({ status: 2 });
    expect(runInstall(options(none), env(none)).message).toMatch(/name it with --server NAME/);
    const two = project(undefined, {
      mcpServers: { a: { command: 'span-ledger-proxy' }, b: { command: 'span-ledger-proxy' } },
    });
    expect(runInstall(options(two), env(two)).message).toMatch(/more than one .*\(a, b\)/);
  });

  it('--user writes the settings under CLAUDE_CONFIG_DIR and reads its .claude.json', () => {
    const dir = project();
    const home = join(dir, 'claude-home');
    mkdirSync(home);
    writeFileSync(join(home, '.claude.json'), JSON.stringify(PROXIED));
    expect(runInstall(options(dir, { scope: 'user' }), env(dir)).status).toBe(0);
    expect(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')).hooks.PreCompact).toEqual(
      claudeHookEntries('codegraph').PreCompact,
    );
  });

  it('escapes a server name in the matcher and maps it as Claude Code names its tools', () => {
    expect(claudeHookEntries('my.server').PreToolUse[0]!.matcher).toBe('mcp__my_server__.*');
    const merged = mergeClaudeHooks({}, 'x', 's.json');
    expect(merged.kind).toBe('changed');
    expect(removeClaudeHooks({ model: 'opus' }, null, 's.json').kind).toBe('unchanged');
  });
});

describe('install opencode', () => {
  it('writes the plugin for the server opencode.json runs through the proxy, once, and uninstall removes it', () => {
    const dir = project();
    writeFileSync(
      join(dir, 'opencode.json'),
      JSON.stringify({
        mcp: {
          cg: { type: 'local', command: ['npx', '-y', 'span-ledger-proxy', '--', 'codegraph'] },
        },
      }),
    );
    const opencode = options(dir, { harness: 'opencode' });
    expect(runInstall(opencode, env(dir)).message).toMatch(
      /installed the span-ledger plugin for "cg"/,
    );
    const plugin = readFileSync(join(dir, '.opencode/plugin/span-ledger.js'), 'utf8');
    expect(plugin).toBe(opencodePlugin('cg'));
    expect(runInstall(opencode, env(dir)).message).toMatch(/already holds the plugin/);
    expect(runInstall({ ...opencode, action: 'uninstall' }, env(dir)).status).toBe(0);
    expect(existsSync(join(dir, '.opencode/plugin/span-ledger.js'))).toBe(false);
  });

  it('uninstall opencode says there is no plugin file, and leaves one that is not ours', () => {
    const dir = project();
    const path = join(dir, '.opencode/plugin/span-ledger.js');
    const uninstall = options(dir, { harness: 'opencode', action: 'uninstall' });
    expect(runInstall(uninstall, env(dir))).toMatchObject({
      status: 0,
      message: `${path} is not there`,
    });
    mkdirSync(join(dir, '.opencode/plugin'), { recursive: true });
    writeFileSync(path, 'export const Mine = 1;\n');
    expect(runInstall(uninstall, env(dir))).toMatchObject({ status: 2 });
    expect(readFileSync(path, 'utf8')).toBe('export const Mine = 1;\n');
  });

  it("leaves a plugin file that is not span-ledger's untouched", () => {
    const dir = project();
    mkdirSync(join(dir, '.opencode/plugin'), { recursive: true });
    writeFileSync(join(dir, '.opencode/plugin/span-ledger.js'), 'export const Mine = 1;\n');
    const outcome = runInstall(options(dir, { harness: 'opencode', server: 'cg' }), env(dir));
    expect(outcome.status).toBe(2);
    expect(readFileSync(join(dir, '.opencode/plugin/span-ledger.js'), 'utf8')).toBe(
      'export const Mine = 1;\n',
    );
  });

  it("sets the context of the server's tools from the session, in place, and refresh after a compaction", async () => {
    const dir = project();
    const file = join(dir, 'plugin.mjs');
    writeFileSync(file, opencodePlugin('cg'));
    const { SpanLedger } = await import(file);
    const hooks = await SpanLedger({});
    const args: Record<string, unknown> = { query: 'auth' };
    await hooks['tool.execute.before']({ tool: 'cg_explore', sessionID: 'ses_1' }, { args });
    expect(args.context).toBe(harnessContextId('ses_1', null));
    const other: Record<string, unknown> = {};
    await hooks['tool.execute.before'](
      { tool: 'github_search', sessionID: 'ses_1' },
      { args: other },
    );
    expect(other).toEqual({});
    await hooks.event({ event: { type: 'session.compacted', properties: { sessionID: 'ses_1' } } });
    const after: Record<string, unknown> = {};
    await hooks['tool.execute.before']({ tool: 'cg_explore', sessionID: 'ses_1' }, { args: after });
    expect(after.refresh).toBe(true);
    await hooks['tool.execute.after'](
      { sessionID: 'ses_1' },
      { content: [{ text: 'Response #4/kq' }] },
    );
    const later: Record<string, unknown> = {};
    await hooks['tool.execute.before']({ tool: 'cg_explore', sessionID: 'ses_1' }, { args: later });
    expect(later.refresh).toBeUndefined();
  });
});

describe('the install command line', () => {
  it.each([
    [['install', 'claude'], { scope: 'project', server: null, print: false }],
    [
      ['install', 'claude', '--user', '--server', 'cg', '--print'],
      { scope: 'user', server: 'cg', print: true },
    ],
    [['uninstall', 'claude', '--dir', 'app'], { action: 'uninstall', dir: '/work/app' }],
  ])('reads %j', (argv, want) => {
    expect(parseCommandLine(argv, '/work')).toMatchObject({ kind: 'install', ...want });
  });

  it.each([
    [['install'], /takes the harness: claude or opencode/],
    [['install', 'cursor'], /takes the harness/],
    [['install', 'claude', '--project', '--user'], /choose one/],
    [['install', 'claude', 'extra'], /takes no "extra"/],
    [['install', 'claude', '--frob'], /Unknown option '--frob'/],
  ])('refuses %j', (argv, message) => {
    const line = parseCommandLine(argv, '/work');
    expect(line.kind).toBe('error');
    expect(line.kind === 'error' && line.message).toMatch(message);
  });

  it('prints one line on stderr and exits 2 through the bin when the file is malformed', () => {
    const dir = project('{oops');
    const run = runBin(['install', 'claude'], dir);
    expect(run.status).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^span-ledger-proxy: .*is not valid JSON/);
    expect(settingsOf(dir)).toBe('{oops');
  });
});
