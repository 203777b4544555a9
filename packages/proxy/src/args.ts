/**
 * The command line of `span-ledger-proxy`, read into plain options. Pure: it
 * reads `argv` and the working directory it is given, touches no file, and
 * answers a usage error as one sentence instead of throwing, so the bin can
 * print one line and exit 2.
 *
 * Not the start-up checks that need the system (a root that does not exist, an
 * upstream that cannot start): those belong to the start-up itself.
 */
import { resolve } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { CAP_VARIABLE, DEFAULT_MAX_TOKENS, readTokenCount } from './cap.js';
import { errorMessage } from './error-message.js';
import type { InstallOptions } from './install.js';

/**
 * The profiles the proxy knows: which tools it re-renders and how it reads
 * their results. `generic` reads any tool whose text result carries numbered
 * fenced sections under a path heading.
 */
export const PROFILE_NAMES = ['codegraph', 'filesystem', 'generic'] as const;

/** One of {@link PROFILE_NAMES}. */
export type ProfileName = (typeof PROFILE_NAMES)[number];

/**
 * How long a call may wait for the upstream before it is answered with a tool
 * error and cancelled upstream: two minutes, longer than an explore of a large
 * repository takes and shorter than a client gives up on its own.
 */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** What a command line asks for. */
export type CommandLine =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'error'; readonly message: string }
  | ({ readonly kind: 'run' } & RunOptions)
  | ({ readonly kind: 'install' } & InstallOptions);

/** The options of a run: the upstream to start and how to front it. */
export interface RunOptions {
  /** `--profile`; `null`: chosen from the upstream's tool list. */
  readonly profile: ProfileName | null;
  /**
   * `--root`, absolute, once per `--root`: where sections are proved from
   * disk. `null`: from the upstream (the filesystem server's allowed
   * directories, the project Codegraph serves), else the working directory.
   */
  readonly root: readonly string[] | null;
  /** `--cwd`, absolute: where the upstream starts (default: the proxy's working directory). */
  readonly cwd: string;
  /** `--http PORT [--redis URL] [--token-file FILE] [--host ADDRESS]`; `null`: stdio. */
  readonly http: {
    readonly port: number;
    readonly redis: string | null;
    /** Bearer tokens, one per line, every request must carry one of; `null`: none required. */
    readonly tokenFile: string | null;
    /** The address to listen on; `null`: 127.0.0.1. */
    readonly host: string | null;
  } | null;
  /** `--timeout SECONDS`, in ms. */
  readonly timeoutMs: number;
  /** `--tools a,b`: the tools to re-render instead of the profile's; `null`: the profile's. */
  readonly tools: readonly string[] | null;
  /** `--max-tokens N`: the client's cap on a tool result when it passes none in `MAX_MCP_OUTPUT_TOKENS`; `null`: 25,000. */
  readonly maxTokens: number | null;
  /** The upstream command (the first word after the proxy's options, or after `--`) and its arguments. */
  readonly command: string;
  readonly args: readonly string[];
}

/** The `--help` text. */
export const HELP = `span-ledger-proxy [options] <upstream command> [arguments…]

Starts an MCP server (the upstream) as a child over stdio and answers its
clients in its place. For the tools its profile knows, source lines the asking
agent context was already sent come back as a pointer to the numbered response
that carried them; everything else is forwarded unchanged.

Options:
  --profile NAME     codegraph, filesystem or generic
                     (default: chosen from the upstream's tools)
  --root DIR         where sections are proved from disk; repeat for several
                     (default: the filesystem server's allowed directories, the
                     project Codegraph serves, else the working directory)
  --cwd DIR          where the upstream starts (default: the working directory)
  --http PORT        serve MCP over HTTP on 127.0.0.1:PORT, stateless, instead of stdio
  --redis URL        with --http: keep every context's ledger in Redis
  --token-file FILE  with --http: require a bearer token of FILE (one per line)
                     on every request (or SPAN_LEDGER_PROXY_TOKEN_FILE)
  --host ADDRESS     with --http: listen there instead of 127.0.0.1 (warned about)
  --timeout SECONDS  how long a call may wait for the upstream (default ${DEFAULT_TIMEOUT_MS / 1000})
  --tools A,B        the tools to re-render, instead of the profile's
  --max-tokens N     the client's cap on one tool result, in tokens, when its
                     environment has no ${CAP_VARIABLE} (default ${DEFAULT_MAX_TOKENS})
  -h, --help         this text
  -v, --version      the version

Harness hooks (the harness tells which agent context asks and what a
compaction dropped, so no model has to echo a token):
  span-ledger-proxy install claude [--project | --user] [--server NAME] [--dir DIR] [--print]
  span-ledger-proxy uninstall claude [--project | --user] [--server NAME] [--dir DIR] [--print]
                     add (remove) the hooks in .claude/settings.json of DIR (default:
                     the working directory) or, with --user, in ~/.claude/settings.json;
                     NAME defaults to the server of .mcp.json / ~/.claude.json that runs
                     span-ledger-proxy; --print writes to stdout and touches no file
  span-ledger-proxy install opencode [--project | --user] [--dir DIR] [--print]
                     write the opencode plugin that tells the proxy about compactions

Environment:
  SPAN_LEDGER_DEDUP=0  send every section in full (responses are still numbered)
  ${CAP_VARIABLE}=N
                       the client's cap on one tool result (Claude Code's, which
                       its MCP servers inherit): responses are sized under it

The upstream command starts at the first word that is not an option of the
proxy's; everything from there on is the upstream's own (a \`--\` before it
works too).

Examples:
  span-ledger-proxy codegraph serve --mcp
  span-ledger-proxy npx -y @modelcontextprotocol/server-filesystem ~/project
`;

/** The proxy's own options; `value` is what one that takes a value takes, for the line that says it is missing. */
const OPTIONS = {
  profile: { type: 'string', value: 'a profile name' },
  root: { type: 'string', multiple: true, value: 'a directory' },
  cwd: { type: 'string', value: 'a directory' },
  http: { type: 'string', value: 'a port number' },
  redis: { type: 'string', value: 'a redis:// URL' },
  'token-file': { type: 'string', value: 'a file' },
  host: { type: 'string', value: 'an address' },
  timeout: { type: 'string', value: 'a number of seconds' },
  tools: { type: 'string', value: 'tool names separated by commas' },
  'max-tokens': { type: 'string', value: 'a number of tokens' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/** What option `name` takes when it takes a value, else `undefined`. */
function valueTaken(name: string): string | undefined {
  const option = Object.hasOwn(OPTIONS, name) ? OPTIONS[name as keyof typeof OPTIONS] : undefined;
  return option !== undefined && 'value' in option ? option.value : undefined;
}

function error(message: string): CommandLine {
  return { kind: 'error', message };
}

/**
 * Where the proxy's own options end: at `--` (dropped), or at the first
 * word that is neither an option nor an option's value. A value option
 * followed by nothing, by `--` or by another option is missing its value.
 */
function splitAt(
  argv: readonly string[],
): { own: string[]; upstream: string[] } | { missing: string } {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return { own: argv.slice(0, i), upstream: argv.slice(i + 1) };
    if (!word.startsWith('-') || word === '-') {
      return { own: argv.slice(0, i), upstream: argv.slice(i) };
    }
    const name = word.replace(/^--?/, '');
    if (word.startsWith('--') && name.includes('=')) continue;
    if (valueTaken(name) !== undefined && word.startsWith('--')) {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('-')) return { missing: name };
      i++;
    }
  }
  return { own: [...argv], upstream: [] };
}

/**
 * node:util's parseArgs, or its failure as a usage error: the message
 * without Node's advice on how to fix the call to parseArgs.
 */
function parse<O extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: O,
  allowPositionals: boolean,
) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals });
  } catch (thrown) {
    const text = errorMessage(thrown);
    return error(text.split('. To ')[0]!.replace(/\.$/, ''));
  }
}

/**
 * Reads a command line (`argv` without the node binary and script). The
 * upstream command starts at the first word that is not one of the proxy's
 * options (or after the first `--`), and from there on everything is the
 * upstream's, untouched: its own options (`serve --mcp`) are never read as
 * the proxy's. `cwd` resolves `--root` and `--cwd`.
 *
 * @example
 * ```ts
 * const line = parseCommandLine(['--root', 'app', 'codegraph', 'serve', '--mcp'], '/home/me');
 * line.kind;                                        // 'run'
 * line.kind === 'run' && [line.root, line.command]; // [['/home/me/app'], 'codegraph']
 * line.kind === 'run' && line.args;                 // ['serve', '--mcp']: the upstream's own
 * parseCommandLine(['--profile', 'git'], '/home/me');
 * // → { kind: 'error', message: '--profile must be one of codegraph, filesystem, generic (got "git")' }
 * ```
 */
export function parseCommandLine(argv: readonly string[], cwd: string): CommandLine {
  if (argv[0] === 'install' || argv[0] === 'uninstall') return parseInstallLine(argv, cwd);
  const split = splitAt(argv);
  if ('missing' in split) {
    return error(`--${split.missing} needs ${valueTaken(split.missing)} after it`);
  }
  const parsed = parse(split.own, OPTIONS, false);
  if ('kind' in parsed) return parsed;
  const { values } = parsed;
  if (values.help === true) return { kind: 'help' };
  if (values.version === true) return { kind: 'version' };
  try {
    return { kind: 'run', ...readRunOptions(values, split.upstream, cwd) };
  } catch (thrown) {
    if (thrown instanceof Misuse) return error(thrown.message);
    throw thrown;
  }
}

/** The proxy's own options, as node:util's parseArgs reads them. */
type RunValues = Exclude<ReturnType<typeof parse<typeof OPTIONS>>, CommandLine>['values'];

/** A command line the proxy cannot run, in one sentence; never leaves this module. */
class Misuse extends Error {}

/** The run's options from the values read and the upstream's words; throws Misuse. */
function readRunOptions(values: RunValues, upstream: readonly string[], cwd: string): RunOptions {
  const { profile } = values;
  if (profile !== undefined && !(PROFILE_NAMES as readonly string[]).includes(profile)) {
    throw new Misuse(
      `--profile must be one of ${PROFILE_NAMES.join(', ')} (got ${JSON.stringify(profile)})`,
    );
  }
  const http = readHttp(values);
  const timeoutMs = readTimeout(values.timeout);
  const tools = readTools(values.tools);
  const maxTokens = readMaxTokens(values['max-tokens']);
  const [command, ...args] = upstream;
  if (command === undefined || command === '') {
    throw new Misuse(
      'name the upstream command after the options, e.g. span-ledger-proxy codegraph serve --mcp',
    );
  }
  return {
    profile: (profile as ProfileName | undefined) ?? null,
    root: values.root?.map((root) => resolve(cwd, root)) ?? null,
    cwd: resolve(cwd, values.cwd ?? '.'),
    http,
    timeoutMs,
    tools,
    maxTokens,
    command,
    args,
  };
}

/** `--http` and the options that need it (`--redis`, `--token-file`, `--host`); throws Misuse. */
function readHttp(values: RunValues): RunOptions['http'] {
  const { redis } = values;
  if (values.http === undefined) {
    if (redis !== undefined) {
      throw new Misuse(
        '--redis needs --http: over stdio the ledger lives in the proxy, one per client',
      );
    }
    if (values['token-file'] !== undefined || values.host !== undefined) {
      throw new Misuse(
        '--token-file and --host need --http: over stdio only the client reaches the proxy',
      );
    }
    return null;
  }
  const port = Number(values.http);
  if (!/^\d+$/.test(values.http) || port > 65_535) {
    throw new Misuse(`--http takes a port number, 0 to 65535 (got ${JSON.stringify(values.http)})`);
  }
  if (redis !== undefined && !/^rediss?:\/\//.test(redis)) {
    // Not echoed: a URL pasted in the wrong place may hold a password.
    throw new Misuse('--redis takes a redis:// or rediss:// URL');
  }
  return {
    port,
    redis: redis ?? null,
    tokenFile: values['token-file'] ?? null,
    host: values.host ?? null,
  };
}

/** `--timeout SECONDS` in ms, or the default; throws Misuse. */
function readTimeout(timeout: RunValues['timeout']): number {
  if (timeout === undefined) return DEFAULT_TIMEOUT_MS;
  const seconds = Number(timeout);
  if (!Number.isFinite(seconds) || seconds <= 0 || timeout.trim() === '') {
    throw new Misuse(
      `--timeout takes a number of seconds above 0 (got ${JSON.stringify(timeout)})`,
    );
  }
  return Math.ceil(seconds * 1000);
}

/** `--tools A,B` as names, or `null` for the profile's; throws Misuse. */
function readTools(list: RunValues['tools']): string[] | null {
  if (list === undefined) return null;
  const tools = list
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (tools.length === 0) throw new Misuse('--tools takes tool names separated by commas');
  return tools;
}

/** `--max-tokens N`, or `null` when not given; throws Misuse. */
function readMaxTokens(given: RunValues['max-tokens']): number | null {
  if (given === undefined) return null;
  const maxTokens = readTokenCount(given);
  if (maxTokens === null) {
    throw new Misuse(
      `--max-tokens takes a whole number of tokens above 0 (got ${JSON.stringify(given)})`,
    );
  }
  return maxTokens;
}

const INSTALL_OPTIONS = {
  project: { type: 'boolean' },
  user: { type: 'boolean' },
  server: { type: 'string' },
  dir: { type: 'string' },
  print: { type: 'boolean' },
} as const;

/**
 * Reads `install <harness> …` and `uninstall <harness> …`.
 *
 * @example
 * ```ts
 * parseInstallLine(['install', 'claude', '--server', 'codegraph'], '/work/app');
 * // → { kind: 'install', action: 'install', harness: 'claude', scope: 'project',
 * //     dir: '/work/app', server: 'codegraph', print: false }
 * parseInstallLine(['install', 'cursor'], '/work/app').kind; // 'error'
 * ```
 */
export function parseInstallLine(argv: readonly string[], cwd: string): CommandLine {
  const action = argv[0] === 'uninstall' ? 'uninstall' : 'install';
  const parsed = parse(argv.slice(1), INSTALL_OPTIONS, true);
  if ('kind' in parsed) return parsed;
  const { values, positionals } = parsed;
  const [harness, ...extra] = positionals;
  if (harness !== 'claude' && harness !== 'opencode') {
    return error(
      `${action} takes the harness: claude or opencode (got ${JSON.stringify(harness ?? '')})`,
    );
  }
  if (extra.length > 0) return error(`${action} ${harness} takes no ${JSON.stringify(extra[0])}`);
  if (values.project === true && values.user === true) {
    return error('--project and --user: choose one');
  }
  const { server } = values;
  if (server !== undefined && !/^[^\s]{1,128}$/.test(server)) {
    return error(`--server takes the MCP server's name (got ${JSON.stringify(server)})`);
  }
  return {
    kind: 'install',
    action,
    harness,
    scope: values.user === true ? 'user' : 'project',
    dir: resolve(cwd, values.dir ?? '.'),
    server: server ?? null,
    print: values.print === true,
  };
}
