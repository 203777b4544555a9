/**
 * `span-ledger-proxy install claude` and `uninstall claude`: the hook entries
 * that let Claude Code itself key every context and report every compaction
 * (see `hook.ts`), merged into its settings and taken out again.
 *
 * The entries are `mcp_tool` hooks: Claude Code calls the proxy's hook tool
 * over the MCP connection it already holds, so a hook costs a round trip on
 * that connection, not a process. The pure half (`mergeClaudeHooks`,
 * `removeClaudeHooks`, `proxiedServers`) decides; `runInstall` reads and
 * writes the files, and never writes a file it could not read whole.
 *
 * Not the hook's answers: those are `hook.ts`'s.
 */
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { HOOK_TOOL, toolPrefixOf } from './hook.js';
import { isObject } from './json.js';

/** What `install`/`uninstall` were asked, as `parseInstallLine` reads it. */
export interface InstallOptions {
  readonly action: 'install' | 'uninstall';
  readonly harness: 'claude' | 'opencode';
  /** `--user`: the user's settings; else the project's (`--dir`, default the working directory). */
  readonly scope: 'project' | 'user';
  /** The project directory, absolute. */
  readonly dir: string;
  /** `--server NAME`; `null`: read from the MCP configuration. */
  readonly server: string | null;
  /** `--print`: write to stdout, touch no file. */
  readonly print: boolean;
}

/** The events the hook answers (the matcher each is installed under is in `claudeHookEntries`). */
const EVENTS = ['PreToolUse', 'PreCompact', 'SessionStart'] as const;

/**
 * How long Claude Code waits for the hook tool: the proxy answers it from
 * memory (a transcript read on a compaction at most), so 10 s only bounds a
 * proxy that stopped answering; the call then goes on as the model made it.
 */
const HOOK_TIMEOUT_SECONDS = 10;

/** `${name}`: what Claude Code replaces with that field of its hook input. */
const field = (name: string) => `\${${name}}`;

/**
 * The arguments Claude Code sends the hook tool, from its hook input
 * (`${path}` is replaced by that field; an absent one by `''`, an object by
 * its JSON).
 */
const HOOK_INPUT = {
  event: field('hook_event_name'),
  session_id: field('session_id'),
  agent_id: field('agent_id'),
  tool_name: field('tool_name'),
  tool_input: field('tool_input'),
  transcript_path: field('transcript_path'),
  source: field('source'),
} as const;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/**
 * The hook entries for the proxied server `server`, by event, as they go
 * into a settings file's `hooks`.
 *
 * @example
 * ```ts
 * const hooks = claudeHookEntries('codegraph');
 * hooks.PreToolUse[0].matcher;       // 'mcp__codegraph__.*'
 * hooks.SessionStart[0].matcher;     // 'compact|clear|resume|fork'
 * hooks.PreCompact[0].hooks[0].tool; // 'span_ledger_hook'
 * ```
 */
export function claudeHookEntries(server: string): Record<(typeof EVENTS)[number], JsonObject[]> {
  const hook = (): JsonObject => ({
    type: 'mcp_tool',
    server,
    tool: HOOK_TOOL,
    input: { ...HOOK_INPUT, server },
    timeout: HOOK_TIMEOUT_SECONDS,
  });
  const escaped = toolPrefixOf(server).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return {
    PreToolUse: [{ matcher: `${escaped}.*`, hooks: [hook()] }],
    PreCompact: [{ hooks: [hook()] }],
    SessionStart: [{ matcher: 'compact|clear|resume|fork', hooks: [hook()] }],
  };
}

/** Whether a hook entry is ours (for `server`, or for any server when `null`). */
const isOurs = (hook: unknown, server: string | null) =>
  isObject(hook) &&
  hook.type === 'mcp_tool' &&
  hook.tool === HOOK_TOOL &&
  (server === null || hook.server === server);

/** What a merge or a removal decided. */
export type SettingsChange =
  | { readonly kind: 'changed'; readonly settings: JsonObject }
  | { readonly kind: 'unchanged'; readonly message: string }
  | { readonly kind: 'refused'; readonly message: string };

/** The settings' `hooks` as an event → groups map, or a sentence on why it cannot be read as one. */
function hooksOf(settings: unknown, name: string): Record<string, Json[]> | string {
  if (!isObject(settings)) return `${name} does not hold a JSON object`;
  const hooks = settings.hooks;
  if (hooks === undefined) return {};
  if (!isObject(hooks)) return `${name}: "hooks" is not an object`;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) return `${name}: "hooks.${event}" is not a list`;
  }
  return hooks as Record<string, Json[]>;
}

/** The groups of one event that hold a hook of ours for `server`. */
const oursIn = (groups: readonly Json[], server: string | null) =>
  groups.filter(
    (group) =>
      isObject(group) && Array.isArray(group.hooks) && group.hooks.some((h) => isOurs(h, server)),
  );

/**
 * `settings` with the hook entries for `server` added after every hook it
 * holds; every other key and hook kept as it was. Unchanged when they are
 * there already; refused when the file cannot be read as settings or holds
 * other entries of ours for `server` (an older install: uninstall it first).
 *
 * @example
 * ```ts
 * const change = mergeClaudeHooks({ model: 'opus' }, 'codegraph', 'settings.json');
 * change.kind === 'changed' && Object.keys(change.settings); // ['model', 'hooks']
 * mergeClaudeHooks('[1]', 'codegraph', 'settings.json').kind; // 'refused'
 * ```
 */
export function mergeClaudeHooks(settings: unknown, server: string, name: string): SettingsChange {
  const hooks = hooksOf(settings, name);
  if (typeof hooks === 'string') return { kind: 'refused', message: hooks };
  const entries = claudeHookEntries(server);
  const present = EVENTS.map((event) => oursIn(hooks[event] ?? [], server));
  if (present.every((groups) => groups.length === 0)) {
    const merged: Record<string, Json[]> = { ...hooks };
    for (const event of EVENTS) merged[event] = [...(hooks[event] ?? []), ...entries[event]];
    return { kind: 'changed', settings: { ...(settings as JsonObject), hooks: merged } };
  }
  const same = EVENTS.every(
    (event, i) => JSON.stringify(present[i]) === JSON.stringify(entries[event]),
  );
  return same
    ? { kind: 'unchanged', message: `${name} already holds the hooks for "${server}"` }
    : {
        kind: 'refused',
        message: `${name} holds other span-ledger hooks for "${server}": run \`span-ledger-proxy uninstall claude\` first`,
      };
}

/**
 * `settings` without the hook groups of ours (for `server`, or every
 * server's when `null`); an event left with no group, and a `hooks` left
 * empty, go too. Unchanged when there are none.
 *
 * @example
 * ```ts
 * const installed = mergeClaudeHooks({ model: 'opus' }, 'codegraph', 's.json');
 * const removed = installed.kind === 'changed' && removeClaudeHooks(installed.settings, null, 's.json');
 * removed && removed.kind === 'changed' && removed.settings; // { model: 'opus' }
 * ```
 */
export function removeClaudeHooks(
  settings: unknown,
  server: string | null,
  name: string,
): SettingsChange {
  const hooks = hooksOf(settings, name);
  if (typeof hooks === 'string') return { kind: 'refused', message: hooks };
  let removed = 0;
  const kept: Record<string, Json[]> = {};
  for (const [event, groups] of Object.entries(hooks)) {
    const ours = new Set(oursIn(groups, server));
    removed += ours.size;
    const left = groups.filter((group) => !ours.has(group));
    if (left.length > 0 || ours.size === 0) kept[event] = left;
  }
  if (removed === 0) {
    return { kind: 'unchanged', message: `${name} holds no span-ledger hooks` };
  }
  const { hooks: _hooks, ...rest } = settings as JsonObject;
  return {
    kind: 'changed',
    settings: Object.keys(kept).length === 0 ? rest : { ...rest, hooks: kept },
  };
}

/** Whether an MCP server entry starts span-ledger-proxy (directly, through npx, or its bin file). */
function runsProxy(entry: unknown): boolean {
  if (!isObject(entry)) return false;
  const words = [entry.command, ...(Array.isArray(entry.args) ? entry.args : [])];
  return words.some(
    (word) =>
      typeof word === 'string' && /^span-ledger-proxy(\.js)?(@.*)?$/.test(basename(word.trim())),
  );
}

/**
 * The names of the MCP servers in `config` (an `.mcp.json` or a
 * `~/.claude.json`) that run span-ledger-proxy: its `mcpServers`, and with
 * `project` the local-scope servers `~/.claude.json` keeps for that directory.
 *
 * @example
 * ```ts
 * proxiedServers({ mcpServers: {
 *   codegraph: { command: 'span-ledger-proxy', args: ['--', 'codegraph', 'serve', '--mcp'] },
 *   github: { command: 'github-mcp' },
 * } }); // ['codegraph']
 * ```
 */
export function proxiedServers(config: unknown, project?: string): string[] {
  if (!isObject(config)) return [];
  const scopes = [config.mcpServers];
  const projects = config.projects;
  if (project !== undefined && isObject(projects) && isObject(projects[project])) {
    scopes.push((projects[project] as JsonObject).mcpServers);
  }
  const names = new Set<string>();
  for (const servers of scopes) {
    if (!isObject(servers)) continue;
    for (const [name, entry] of Object.entries(servers)) if (runsProxy(entry)) names.add(name);
  }
  return [...names];
}

/** Where Claude Code keeps the user's files: `CLAUDE_CONFIG_DIR`, else `~/.claude`. */
function claudeHome(env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude');
}

/** The user's `.claude.json`: inside `CLAUDE_CONFIG_DIR` when set, else in the home directory. */
function claudeJson(env: NodeJS.ProcessEnv): string {
  return join(env.CLAUDE_CONFIG_DIR || homedir(), '.claude.json');
}

/** A file's text: `undefined` when absent; an Error saying why when it cannot be read. */
function readText(path: string): string | undefined | Error {
  if (!existsSync(path)) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    return new Error(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
}

/** A file read as JSON: `undefined` when absent; an Error when it cannot be read or parsed. */
function readJson(path: string, text = readText(path)): unknown {
  if (typeof text !== 'string') return text;
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return new Error(`${path} is not valid JSON (${(error as Error).message}); left untouched`);
  }
}

/** Whether a file may be written: its mode allows it (a file marked read-only stays so, even for root) and the process may. */
function writable(path: string): boolean {
  try {
    if ((statSync(path).mode & 0o222) === 0) return false;
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** What `runInstall` did: the lines to print, and the exit status. */
export interface InstallOutcome {
  readonly status: 0 | 2;
  /** For stdout (`--print`). */
  readonly stdout: string;
  /** One line for stderr. */
  readonly message: string;
}

/** The one server `names` (what the MCP configurations in `sources` proxy) holds, or why there is not one. */
function onlyServer(names: ReadonlySet<string>, sources: string): string | Error {
  if (names.size === 1) return [...names][0]!;
  return new Error(
    names.size === 0
      ? `no MCP server in ${sources} runs span-ledger-proxy: name it with --server NAME`
      : `more than one MCP server runs span-ledger-proxy (${[...names].join(', ')}): name one with --server NAME`,
  );
}

/** The server the hooks are for: `--server`, else the one proxied server the MCP configuration names. */
function serverFor(options: InstallOptions, env: NodeJS.ProcessEnv): string | Error {
  if (options.server !== null) return options.server;
  const project = options.scope === 'user' ? [] : [join(options.dir, '.mcp.json')];
  const sources = [...project, claudeJson(env)];
  // A file that cannot be read (an Error) has no `mcpServers`: it names none.
  const names = sources.flatMap((source) => proxiedServers(readJson(source), options.dir));
  return onlyServer(new Set(names), sources.join(' or '));
}

/** The server the opencode plugin is for: `--server`, else the one proxied server of `opencode.json(c)`. */
function opencodeServerFor(options: InstallOptions): string | Error {
  if (options.server !== null) return options.server;
  const configs = [join(options.dir, 'opencode.json'), join(options.dir, 'opencode.jsonc')];
  const names = new Set<string>();
  for (const file of configs) {
    const config = readJson(file);
    const mcp = isObject(config) ? config.mcp : undefined;
    if (!isObject(mcp)) continue;
    for (const [name, entry] of Object.entries(mcp)) {
      const command = isObject(entry) && Array.isArray(entry.command) ? entry.command : [];
      if (runsProxy({ command: command[0], args: command.slice(1) })) names.add(name);
    }
  }
  return onlyServer(names, configs[0]!);
}

/** An outcome with nothing for stdout: `message` for stderr, and the status. */
const said = (message: string, status: 0 | 2 = 0): InstallOutcome => ({
  status,
  stdout: '',
  message,
});

/** A file that could not be written. */
const unwritten = (path: string, error: unknown, after = ''): InstallOutcome =>
  said(
    `cannot write ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})${after}`,
    2,
  );

/**
 * Installs or uninstalls the Claude Code hooks as `options` ask, in the
 * settings file of the project or the user. The file is written only when
 * it changes, and only after it was read and parsed whole; a file that
 * cannot be (malformed, unreadable, read-only) is left as it was, with one
 * line and status 2.
 *
 * @example
 * ```ts
 * const outcome = runInstall({ action: 'install', harness: 'claude', scope: 'project',
 *   dir: '/work/app', server: null, print: false });
 * outcome.message; // 'installed the span-ledger hooks for "codegraph" in /work/app/.claude/settings.json'
 * ```
 */
export function runInstall(
  options: InstallOptions,
  env: NodeJS.ProcessEnv = process.env,
): InstallOutcome {
  if (options.harness === 'opencode') return runOpencodeInstall(options, env);
  const server =
    options.action === 'uninstall' && options.server === null ? null : serverFor(options, env);
  if (server instanceof Error) return said(server.message, 2);
  if (options.print && options.action === 'install') {
    const hooks = claudeHookEntries(server!);
    return { status: 0, stdout: `${JSON.stringify({ hooks }, null, 2)}\n`, message: '' };
  }
  const path =
    options.scope === 'user'
      ? join(claudeHome(env), 'settings.json')
      : join(options.dir, '.claude', 'settings.json');
  const current = readText(path);
  const settings = readJson(path, current);
  if (settings instanceof Error) return said(settings.message, 2);
  const change =
    options.action === 'install'
      ? mergeClaudeHooks(settings ?? {}, server!, path)
      : removeClaudeHooks(settings ?? {}, server, path);
  if (change.kind !== 'changed') return said(change.message, change.kind === 'refused' ? 2 : 0);
  // Written back with the indentation the file uses (its first indented line).
  const indent = /\n([ \t]+)\S/.exec(typeof current === 'string' ? current : '')?.[1] ?? 2;
  const text = `${JSON.stringify(change.settings, null, indent)}\n`;
  if (options.print) return { status: 0, stdout: text, message: '' };
  if (settings !== undefined && !writable(path))
    return said(`${path} is read-only; left untouched`, 2);
  try {
    if (settings === undefined) mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  } catch (error) {
    return unwritten(path, error, '; left untouched');
  }
  const whose = server === null ? '' : ` for "${server}"`;
  return said(
    options.action === 'install'
      ? `installed the span-ledger hooks${whose} in ${path}`
      : `removed the span-ledger hooks${whose} from ${path}`,
  );
}

/** The plugin file `install opencode` writes, by scope. */
function opencodePluginPath(options: InstallOptions, env: NodeJS.ProcessEnv): string {
  const config = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return options.scope === 'user'
    ? join(config, 'opencode', 'plugin', 'span-ledger.js')
    : join(options.dir, '.opencode', 'plugin', 'span-ledger.js');
}

/** What marks a plugin file as the one `install opencode` wrote. */
const OPENCODE_MARK = '// span-ledger-proxy: opencode plugin';

/**
 * The opencode plugin for the proxied server `server`: every call of its
 * tools gets `context` set to an id made from opencode's session id (a
 * subagent runs in a child session, so it gets its own), and after a
 * `session.compacted` event the session's calls carry `refresh: true` until a
 * numbered response comes back (opencode's compaction keeps no tool result).
 *
 * @example
 * ```ts
 * opencodePlugin('codegraph').includes('const SERVER = "codegraph";'); // true
 * ```
 */
export function opencodePlugin(server: string): string {
  return `${OPENCODE_MARK} (span-ledger-proxy install opencode; remove with uninstall opencode)
import { createHash } from "node:crypto";

const SERVER = ${JSON.stringify(server)};
const PREFIX = SERVER.replace(/[^a-zA-Z0-9_-]/g, "_") + "_";

/** The id the proxy knows as harness-made: one per opencode session, main agent. */
const contextOf = (sessionID) =>
  "cc-" + createHash("sha256").update(sessionID + "\\u0000main", "utf8").digest("base64url");

export const SpanLedger = async () => {
  const compacted = new Set();
  return {
    event: async ({ event }) => {
      if (event?.type === "session.compacted" && typeof event.properties?.sessionID === "string") {
        compacted.add(event.properties.sessionID);
      }
    },
    "tool.execute.before": async (input, output) => {
      if (typeof input?.tool !== "string" || !input.tool.startsWith(PREFIX)) return;
      if (typeof input.sessionID !== "string" || output?.args === null || typeof output?.args !== "object") return;
      // opencode calls the tool with this very object: change it in place.
      output.args.context = contextOf(input.sessionID);
      if (compacted.has(input.sessionID)) output.args.refresh = true;
    },
    "tool.execute.after": async (input, output) => {
      const text = Array.isArray(output?.content) ? output.content.map((c) => c?.text ?? "").join("") : String(output?.output ?? "");
      if (/^Response #\\d/.test(text)) compacted.delete(input?.sessionID);
    },
  };
};
`;
}

/** `install opencode` / `uninstall opencode`: the plugin file, written or removed. */
function runOpencodeInstall(options: InstallOptions, env: NodeJS.ProcessEnv): InstallOutcome {
  const path = opencodePluginPath(options, env);
  const current = readText(path);
  const notOurs = `${path} is not span-ledger's; left untouched`;
  // A file that cannot be read is not known to be ours: left as it is.
  const ours = typeof current === 'string' && current.startsWith(OPENCODE_MARK);
  if (options.action === 'uninstall') {
    if (current === undefined) return said(`${path} is not there`);
    if (!ours) return said(notOurs, 2);
    rmSync(path);
    return said(`removed ${path}`);
  }
  const server = opencodeServerFor(options);
  if (server instanceof Error) return said(server.message, 2);
  const text = opencodePlugin(server);
  if (options.print) return { status: 0, stdout: text, message: '' };
  if (current !== undefined && !ours) return said(notOurs, 2);
  if (current === text) return said(`${path} already holds the plugin for "${server}"`);
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  } catch (error) {
    return unwritten(path, error);
  }
  return said(`installed the span-ledger plugin for "${server}" in ${path}`);
}
