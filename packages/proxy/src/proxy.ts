/**
 * The proxy: one upstream, one store, one profile, and as many client
 * servers as there are clients (one over stdio; one per request over
 * stateless HTTP). `startProxy` starts the upstream, lists its tools, picks
 * the profile and opens the store; `createServer` makes a server for one
 * client transport.
 *
 * For the HTTP front: each request gets `proxy.createServer({ principal })`,
 * connected to its own stateless transport and closed with the request. The
 * upstream, the store and the counters are shared, and a call's context is
 * its `_meta` conversation id or its context token, so no MCP session is
 * needed; pass `mintToken` a 128-bit minter when the store is shared.
 */
import { dedupEnabledFromEnv, mintContextToken } from 'span-ledger';
import { DEFAULT_TIMEOUT_MS, type ProfileName } from './args.js';
import { hasProxyArguments } from './call.js';
import { outputCap } from './cap.js';
import { openRoots, type Root } from './disk.js';
import { errorMessage } from './error-message.js';
import { filesystemProfile } from './filesystem.js';
import { createHookState } from './hook.js';
import type { Profile, ToolInfo } from './profile.js';
import { defaultRoot } from './roots.js';
import { codegraphProfile, genericProfile, PROXY_LIMITS } from './sectioned.js';
import { createRelay, type ProxyServer, type Relay, type RelayCore } from './server.js';
import { createStats, type StatsReport } from './stats.js';
import { localStore, type ProxyStore, redisStore } from './store.js';
import {
  type Answer,
  type Message,
  ProxyStartError,
  startUpstream,
  type Upstream,
} from './upstream.js';
import { packageVersion } from './version.js';
import { warmUp } from './warm.js';

const PROFILES: Readonly<Record<ProfileName, Profile>> = {
  codegraph: codegraphProfile,
  filesystem: filesystemProfile,
  generic: genericProfile,
};

/**
 * Options of {@link startProxy}.
 */
export interface ProxyOptions {
  /** The upstream command and its arguments. */
  readonly command: string;
  readonly args: readonly string[];
  /**
   * Where sections are proved from disk: one directory or several. Absent or
   * `null`: the upstream's own (the filesystem server's allowed directories,
   * the project Codegraph serves), else `cwd`.
   */
  readonly root?: string | readonly string[] | null | undefined;
  /** Where the upstream starts (default: this process's working directory). */
  readonly cwd?: string | undefined;
  /** The profile; absent or `null`: chosen from the upstream's tool list. */
  readonly profile?: ProfileName | null | undefined;
  /** The tools to re-render instead of the profile's. */
  readonly tools?: readonly string[] | null | undefined;
  /** How long a call may wait for the upstream (default `DEFAULT_TIMEOUT_MS`, 120 s). */
  readonly timeoutMs?: number | undefined;
  /** `redis://…`: the shared store (for several proxy processes behind one address); absent: this process. */
  readonly redis?: string | null | undefined;
  /**
   * Whether more than one client reaches the contexts (the HTTP front, a
   * shared store): then tokens are minted with 128 bits and a shorter one a
   * client sends keys nothing. Default: `true` with `redis`.
   */
  readonly shared?: boolean | undefined;
  /** Makes a context token (default: `mintContextToken`, 128-bit when `shared`). */
  readonly mintToken?: (() => string) | undefined;
  /**
   * The client's cap on one tool result, in tokens, when `env` has no
   * `MAX_MCP_OUTPUT_TOKENS` (`--max-tokens`; default 25,000).
   */
  readonly maxTokens?: number | null | undefined;
  /** `false` sends every section in full (default: `SPAN_LEDGER_DEDUP`, on unless `0`). */
  readonly enabled?: boolean | undefined;
  /**
   * The upstream's environment (default this process's): the client's, so
   * its `MAX_MCP_OUTPUT_TOKENS` is the cap responses are sized under.
   */
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** One line of the proxy's own for stderr (default: `span-ledger-proxy: …` on stderr). */
  readonly log?: ((line: string) => void) | undefined;
}

/**
 * A running proxy.
 */
export interface RunningProxy {
  /** The profile in use. */
  readonly profile: ProfileName;
  /** The directories sections are proved under, the first one first. */
  readonly roots: readonly string[];
  /** Where the roots came from, in words: `--root`, the filesystem server's allowed directories, … */
  readonly rootsFrom: string;
  /** The upstream tools re-rendered now. */
  tools(): readonly string[];
  /** A server for one client transport; `principal` keys its contexts apart from other callers'. */
  createServer(options?: { readonly principal?: string }): ProxyServer;
  /** The counters (the `span-ledger://stats` resource). */
  stats(): StatsReport;
  /** The counters in one line, as printed at exit. */
  summary(): string;
  /** Closes every server, stops the upstream (and what it started) and closes the store. */
  close(): Promise<void>;
}

/**
 * A context token for a store that more than one client can reach (the HTTP
 * front, the shared store): 128 random bits, 22 chars of `A-Za-z0-9_-`, so a
 * client cannot guess its way into another's context. Over stdio the 8-char
 * `mintContextToken` is enough: only the one client can use it.
 *
 * @example
 * ```ts
 * const token = mintSharedToken();    // e.g. 'Qm9yP1c3eXhKzT2vLw8sNA'
 * /^[A-Za-z0-9_-]{22}$/.test(token);  // true: 128 random bits
 * ```
 */
export function mintSharedToken(): string {
  return mintContextToken({ shared: true });
}

/** The profile the upstream's tools call for: Codegraph's, then the filesystem server's, by the tools each re-renders. */
function detect(tools: readonly ToolInfo[]): Profile {
  const listing = [codegraphProfile, filesystemProfile].find((p) => p.tools(tools).length > 0);
  return listing ?? genericProfile;
}

/** Every tool the upstream lists (all pages); `[]` when it lists none or fails to. */
async function listTools(request: (cursor: unknown) => Promise<Answer>): Promise<ToolInfo[]> {
  const tools: ToolInfo[] = [];
  let cursor: unknown;
  for (let page = 0; page < 100; page++) {
    const answer = await request(cursor);
    if (!('result' in answer)) return tools;
    const result = (answer.result ?? {}) as { tools?: unknown; nextCursor?: unknown };
    const listed: unknown[] = Array.isArray(result.tools) ? result.tools : [];
    for (const tool of listed) {
      if (typeof (tool as ToolInfo | null)?.name === 'string') tools.push(tool as ToolInfo);
    }
    if (typeof result.nextCursor !== 'string') return tools;
    cursor = result.nextCursor;
  }
  return tools;
}

/** The store: Redis when `redis` names one, else this process's. */
async function openStore(
  redis: string | null | undefined,
  log: (line: string) => void,
): Promise<ProxyStore> {
  if (typeof redis !== 'string') return localStore(PROXY_LIMITS);
  try {
    return await redisStore(redis, PROXY_LIMITS, log);
  } catch (error) {
    throw new ProxyStartError(errorMessage(error));
  }
}

/** `dirs` opened as one root; a {@link ProxyStartError} names the first that is not a directory. */
async function openedRoot(dirs: string | readonly string[]): Promise<Root> {
  const opened = await openRoots(typeof dirs === 'string' ? [dirs] : dirs);
  if ('problem' in opened) throw new ProxyStartError(opened.problem);
  return opened.root;
}

/** The upstream, whose notifications go to every client and whose requests to the latest one. */
async function connectUpstream(
  options: ProxyOptions,
  cwd: string,
  log: (line: string) => void,
  relays: ReadonlySet<Relay>,
): Promise<Upstream> {
  // Null until it has started: a notification during the handshake is relayed, never held.
  let upstream: Upstream | null = null;
  upstream = await startUpstream({
    command: options.command,
    args: options.args,
    cwd,
    env: options.env ?? process.env,
    initialize: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'span-ledger-proxy', version: packageVersion() },
    },
    log,
    onNotification: (message: Message) => {
      // A client that stopped reading holds the upstream until its transport has caught up.
      const behind = [...relays].map((relay) => relay.notify(message)).filter((d) => d !== null);
      if (behind.length > 0) upstream?.hold(Promise.all(behind));
    },
    onRequest: async (message: Message) => {
      const relay = [...relays].at(-1);
      if (relay !== undefined) return relay.ask(message);
      return { error: { code: -32601, message: 'no client is connected to span-ledger-proxy' } };
    },
  });
  return upstream;
}

/** The root the upstream serves when none was named, opened. */
async function upstreamRoot(
  profile: Profile,
  options: ProxyOptions,
  cwd: string,
  ask: (name: string) => Promise<Answer>,
): Promise<{ root: Root; from: string }> {
  const found = await defaultRoot(profile.name, options.args, cwd, ask);
  return { root: await openedRoot(found.dirs), from: found.from };
}

/** Which listed tools are re-rendered: the ones named, else the profile's; never one that already takes the proxy's arguments. */
function toolChooser(
  named: readonly string[] | null | undefined,
  profile: Profile,
  log: (line: string) => void,
): (tool: ToolInfo) => boolean {
  const names = named ? new Set(named) : null;
  const warned = new Set<string>();
  return (tool) => {
    const wanted = names !== null ? names.has(tool.name) : profile.tools([tool]).length > 0;
    if (!wanted) return false;
    if (!hasProxyArguments(tool.inputSchema?.properties)) return true;
    if (!warned.has(tool.name)) {
      warned.add(tool.name);
      log(
        `${tool.name} already takes a context or refresh argument: passed through, not re-rendered`,
      );
    }
    return false;
  };
}

/** Says once that a section lies outside every root. */
function outsideWarner(roots: readonly string[], from: string, log: (line: string) => void) {
  let told = false;
  return (path: string) => {
    if (told) return;
    told = true;
    log(
      `${path} is outside the ${roots.length === 1 ? 'root' : 'roots'} ${roots.join(', ')} (${from}): its sections pass through unproven, never pointed at; name the directory with --root DIR (repeat it for several)`,
    );
  };
}

/** Runs `step`, closing what was opened before it when it throws. */
async function orClose<T>(
  step: () => Promise<T>,
  ...opened: ({ close(): Promise<unknown> } | null)[]
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    for (const thing of opened) await thing?.close();
    throw error;
  }
}

/**
 * Starts the upstream, picks the profile from its tools (or takes the one
 * named), finds the root (or opens the one named) and opens the store.
 * Rejects with a {@link ProxyStartError} — one line to print before exit 2 —
 * when a root named is not a directory, Redis cannot be reached, or the
 * upstream cannot start.
 *
 * @example
 * ```ts
 * const proxy = await startProxy({
 *   command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/repo'],
 * });
 * proxy.profile; // 'filesystem'
 * proxy.roots;   // ['/repo']: the server's allowed directory
 * await proxy.close();
 * ```
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const log =
    options.log ?? ((line: string) => process.stderr.write(`span-ledger-proxy: ${line}\n`));
  const cwd = options.cwd ?? process.cwd();
  const named = options.root == null ? null : await openedRoot(options.root);
  const store = await openStore(options.redis, log);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const cap = outputCap(options.env ?? process.env, options.maxTokens ?? null);
  if (cap.warning !== null) log(cap.warning);
  const shared = options.shared ?? typeof options.redis === 'string';
  const relays = new Set<Relay>();
  // The warm-up runs while the upstream starts in its own process.
  const [upstream] = await Promise.all([
    orClose(() => connectUpstream(options, cwd, log, relays), store),
    warmUp(),
  ]);
  const listed = await listTools((cursor) =>
    upstream.request('tools/list', cursor === undefined ? {} : { cursor }, { timeoutMs }),
  );
  const profile = options.profile ? PROFILES[options.profile] : detect(listed);
  const ask = (name: string): Promise<Answer> =>
    listed.some((tool) => tool.name === name)
      ? upstream.request('tools/call', { name, arguments: {} }, { timeoutMs })
      : Promise.resolve({ result: null });
  const { root, from } =
    named === null
      ? await orClose(() => upstreamRoot(profile, options, cwd, ask), upstream, store)
      : { root: named, from: '--root' };
  const roots = root.dirs.map((dir) => dir.path);
  const choose = toolChooser(options.tools, profile, log);
  const stats = createStats();
  const proxied = new Set(listed.filter(choose).map((tool) => tool.name));
  const core: RelayCore = {
    upstream,
    stats,
    timeoutMs,
    relays,
    choose,
    proxied,
    hooks: { root, store, proxied, state: createHookState(), log },
    setup: {
      root,
      store,
      stats,
      profile,
      enabled: options.enabled ?? dedupEnabledFromEnv(),
      maxTokens: cap.tokens,
      mintToken: options.mintToken ?? (shared ? mintSharedToken : () => mintContextToken()),
      sharedTokens: shared,
      log,
      outside: outsideWarner(roots, from, log),
    },
  };
  return runningProxy(core, profile.name, roots, from, store);
}

/** The handle on a started proxy. */
function runningProxy(
  core: RelayCore,
  profile: ProfileName,
  roots: readonly string[],
  rootsFrom: string,
  store: ProxyStore,
): RunningProxy {
  let closing: Promise<void> | null = null;
  return {
    profile,
    roots,
    rootsFrom,
    tools: () => [...core.proxied],
    createServer: (serverOptions = {}) => createRelay(core, { principal: serverOptions.principal }),
    stats: () => core.stats.report(),
    summary: () => core.stats.summary(),
    close() {
      closing ??= (async () => {
        await Promise.all([...core.relays].map((relay) => relay.close()));
        await core.upstream.close();
        await store.close();
      })();
      return closing;
    },
  };
}

export { ProxyStartError };
