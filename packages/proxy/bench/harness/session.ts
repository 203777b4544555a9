/**
 * One session of the real Claude Code binary (the native `claude` of the
 * platform package packages/claude-code-binary pins), run as a user runs it
 * with `-p`, offline: a fresh HOME, `ANTHROPIC_BASE_URL` at the scripted model
 * on 127.0.0.1, one MCP server (Codegraph, alone or behind the proxy) given
 * with `--mcp-config --strict-mcp-config`, and, for the arms that have them,
 * the hooks the proxy's own installer writes into the project's
 * `.claude/settings.json`. Returns the model's log (every request body) and
 * what Claude Code's debug log says each proxied call's `PreToolUse` hook took.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BIN, REPO } from '../../test/_bin.js';
import { type Plan, scriptedAgent } from './agent.js';
import { type Logged, startScriptedModel } from './model.js';
import { MARK } from './requests.js';

const require = createRequire(import.meta.url);

/** The MCP server's name in the config: its tools are `mcp__codegraph__…`. */
export const SERVER = 'codegraph';
export const TOOL = 'codegraph_explore';
export const CODEGRAPH = join(REPO, 'node_modules/.bin/codegraph');

/** The native Claude Code binary of this platform, from the platform package packages/claude-code-binary pins. */
export function claudeBinary(): string {
  const platform = `@anthropic-ai/claude-code-${process.platform}-${process.arch}`;
  let dir: string;
  try {
    dir = dirname(require.resolve(`${platform}/package.json`));
  } catch {
    throw new Error(
      `${platform} is not installed: the harness runs Claude Code's native binary from it`,
    );
  }
  const bin = join(dir, process.platform === 'win32' ? 'claude.exe' : 'claude');
  if (!existsSync(bin)) throw new Error(`${bin} is missing`);
  return bin;
}

/** zod's v4 sources in node_modules: a real code base nobody here wrote. */
export const ZOD = join(dirname(require.resolve('zod/package.json')), 'src/v4');

/**
 * Copies each source folder to its place in a new project (`{ 'src/core':
 * folder }`, tests and locales left out) and builds Codegraph's index there.
 * Returns the project's folder.
 */
export function prepareProject(scratch: string, parts: Readonly<Record<string, string>>): string {
  const project = join(scratch, 'project');
  for (const [to, from] of Object.entries(parts)) {
    cpSync(from, join(project, to), {
      recursive: true,
      filter: (src: string) => !/[/\\](tests|locales)([/\\]|$)/.test(src),
    });
  }
  const init = spawnSync(CODEGRAPH, ['init', '.'], {
    cwd: project,
    env: { ...process.env, CODEGRAPH_TELEMETRY: '0', CODEGRAPH_NO_DAEMON: '1' },
    stdio: 'ignore',
    timeout: 120_000,
  });
  if (init.status !== 0) throw new Error(`codegraph init failed (status ${init.status})`);
  return project;
}

/** One arm: what serves the tools, what the model does, what the harness adds. */
export interface ArmSpec {
  readonly name: string;
  /** The proxy in front of Codegraph (else Codegraph alone). */
  readonly proxied: boolean;
  /** Extra environment of the MCP server (e.g. `CODEGRAPH_EXPLORE_DEDUP`). */
  readonly serverEnv?: Readonly<Record<string, string>>;
  readonly echo: boolean;
  /** The hooks `span-ledger-proxy install claude --project` writes. */
  readonly hooks: boolean;
  /** `MAX_MCP_OUTPUT_TOKENS` in Claude Code's environment. */
  readonly maxOutputTokens?: number;
}

export interface SessionOptions {
  /** An indexed project (`prepareProject`); each session runs in a copy of it. */
  readonly project: string;
  readonly plan: Plan;
  readonly compaction: 'error' | 'window';
  readonly timeoutMs?: number;
  readonly maxRequests?: number;
  /** Keep the session's scratch folder (its HOME, transcript, debug log) for a look. */
  readonly keep?: boolean;
}

export interface SessionRun {
  readonly log: readonly Logged[];
  /** The session's copy of the project (the paths the responses name are under it). */
  readonly root: string;
  /** Claude Code's exit status and output. */
  readonly status: number | null;
  readonly output: string;
  /** Each proxied call's `PreToolUse` hook time, as Claude Code's debug log states it. */
  readonly hookMs: readonly number[];
  readonly scratch: string;
}

/** The Codegraph environment every arm shares (telemetry and daemon off). */
const CODEGRAPH_ENV = { CODEGRAPH_TELEMETRY: '0', CODEGRAPH_NO_DAEMON: '1' };

/** A command hook's line: `Hooks: PreToolUse:mcp__codegraph__… [command] finished with status 0 (12ms)`. */
const COMMAND_HOOK = new RegExp(`Hooks: PreToolUse:mcp__${SERVER}__\\S+ \\[.*\\((\\d+)ms\\)$`);
/** An `mcp_tool` hook starts (`Hooks: mcp_tool calling server/tool …`) … */
const MCP_HOOK_START = /Hooks: mcp_tool calling /;
/** … and ends with the hook's outcome for a proxied tool. */
const MCP_HOOK_END = new RegExp(`Hook PreToolUse:mcp__${SERVER}__\\S+ \\(PreToolUse\\)`);

/**
 * Each proxied call's `PreToolUse` hook time, from Claude Code's debug log:
 * a command hook's time as the log states it; an `mcp_tool` hook's from the
 * line that starts the call to the line that reports its outcome.
 */
export function hookTimes(debugLog: string): number[] {
  const times: number[] = [];
  let started: number | null = null;
  for (const line of debugLog.split('\n')) {
    const at = Date.parse(line.slice(0, 24));
    const command = COMMAND_HOOK.exec(line);
    if (command !== null) times.push(Number(command[1]));
    else if (MCP_HOOK_START.test(line)) started = at;
    else if (started !== null && MCP_HOOK_END.test(line)) {
      times.push(at - started);
      started = null;
    }
  }
  return times;
}

/** Runs one arm's session to its end (or its time bound) and returns what the model received. */
export async function runArm(arm: ArmSpec, options: SessionOptions): Promise<SessionRun> {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-harness-'));
  const root = join(scratch, 'project');
  const home = join(scratch, 'home');
  mkdirSync(home);
  cpSync(options.project, root, { recursive: true });
  const config = join(scratch, 'mcp.json');
  const upstream = [CODEGRAPH, 'serve', '--mcp'];
  const command = arm.proxied ? [process.execPath, BIN, '--', ...upstream] : upstream;
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        [SERVER]: {
          command: command[0],
          args: command.slice(1),
          env: { ...CODEGRAPH_ENV, ...arm.serverEnv },
        },
      },
    }),
  );
  const harnessEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    ANTHROPIC_API_KEY: 'dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    ...(arm.maxOutputTokens !== undefined
      ? { MAX_MCP_OUTPUT_TOKENS: String(arm.maxOutputTokens) }
      : {}),
    ...(options.compaction === 'window' ? { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '200000' } : {}),
  };
  if (arm.hooks) {
    const install = spawnSync(
      process.execPath,
      [BIN, 'install', 'claude', '--project', '--server', SERVER],
      { cwd: root, env: harnessEnv, encoding: 'utf8', timeout: 30_000 },
    );
    if (install.status !== 0) {
      rmSync(scratch, { recursive: true, force: true });
      throw new Error(
        `span-ledger-proxy install claude failed (status ${install.status}): ${install.stderr.trim()}`,
      );
    }
  }
  const model = await startScriptedModel({
    answer: scriptedAgent({
      plan: options.plan,
      server: SERVER,
      tool: TOOL,
      echo: arm.echo,
      refresh: true,
      compaction: options.compaction,
      root,
    }),
    maxRequests: options.maxRequests ?? 60,
    timeoutMs: options.timeoutMs ?? 240_000,
  });
  const debug = join(scratch, 'debug.log');
  const child = spawn(
    claudeBinary(),
    [
      '-p',
      `${MARK.main} Explore how zod parses input and builds object schemas.`,
      '--mcp-config',
      config,
      '--strict-mcp-config',
      '--allowedTools',
      `mcp__${SERVER}__${TOOL},Agent`,
      '--debug-file',
      debug,
    ],
    {
      cwd: root,
      env: { ...harnessEnv, ANTHROPIC_BASE_URL: model.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 240_000);
  const status = await new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  clearTimeout(timer);
  await model.close();
  const hookMs = existsSync(debug) ? hookTimes(readFileSync(debug, 'utf8')) : [];
  if (options.keep === true)
    writeFileSync(join(scratch, 'requests.json'), JSON.stringify(model.log));
  else rmSync(scratch, { recursive: true, force: true });
  return { log: model.log, root, status, output, hookMs, scratch };
}
