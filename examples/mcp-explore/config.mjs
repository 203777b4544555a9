/**
 * The daemon's settings, read once from the environment at start-up. Every
 * bound has a default a host can live with; a value that is not a positive
 * integer stops the server with one line naming the variable, rather than
 * running with a limit nobody chose.
 */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dedupEnabledFromEnv } from 'span-ledger';

const here = dirname(fileURLToPath(import.meta.url));

/** The MCP SDK's own bound on a request body (4 MiB): ours is never larger. */
export const SDK_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The longest `query` accepted: a question names a few symbols, not a file. */
export const MAX_QUERY_CHARS = 2000;

/** Thrown for a setting that cannot be used; its message is the one line the server prints. */
export class ConfigError extends Error {}

/** A positive integer setting, `fallback` when unset (`undefined`: no bound). */
function positiveInt(env, name, fallback) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new ConfigError(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  }
  return n;
}

/** `root` when it is a directory; else the one line that says why it cannot be served. */
function checkRoot(root) {
  let stat;
  try {
    stat = statSync(root);
  } catch (error) {
    throw new ConfigError(`EXPLORE_ROOT ${root} cannot be read: ${error.code ?? error.message}`);
  }
  if (!stat.isDirectory()) throw new ConfigError(`EXPLORE_ROOT ${root} is not a directory`);
  return root;
}

/** The settings of one server process, from `env` (default `process.env`). */
export function readConfig(env = process.env) {
  const root = checkRoot(resolve(env.EXPLORE_ROOT ?? resolve(here, '../../fixtures/sample')));
  return {
    root,
    /** Dedup on or off (`SPAN_LEDGER_DEDUP=0` turns it off). */
    enabled: dedupEnabledFromEnv(env),
    /**
     * What one call may spend: source tokens (20,000 by default, under the
     * 25,000 a client like Claude Code takes from an MCP tool), source chars
     * when asked, and file sections. Files past it are cut by rank, and the
     * response says so.
     */
    budget: {
      maxTokens: positiveInt(env, 'EXPLORE_MAX_TOKENS', 20_000),
      maxChars: positiveInt(env, 'EXPLORE_MAX_CHARS', undefined),
      maxFiles: 4,
    },
    /** The hard cap on a whole response, headers and pointers included. */
    maxResponseChars: positiveInt(env, 'EXPLORE_MAX_RESPONSE_CHARS', 100_000),
    workers: positiveInt(env, 'EXPLORE_WORKERS', 2),
    /** A call still rendering after this long is abandoned and its worker replaced. */
    callTimeoutMs: positiveInt(env, 'EXPLORE_CALL_TIMEOUT_MS', 10_000),
    /** Calls waiting for a worker beyond this are refused with a "busy" tool error. */
    maxQueue: positiveInt(env, 'EXPLORE_MAX_QUEUE', 64),
    /** Open HTTP sessions beyond this are refused at `initialize`. */
    maxSessions: positiveInt(env, 'EXPLORE_MAX_SESSIONS', 1000),
    /** An HTTP session with no request for this long is closed and its ledger freed. */
    idleMs: positiveInt(env, 'EXPLORE_IDLE_MS', 30 * 60_000),
    /** An HTTP session that never made a tool call is closed after this long idle. */
    unusedIdleMs: positiveInt(env, 'EXPLORE_UNUSED_IDLE_MS', 60_000),
    /** Tool calls in flight per context (a session, or a stateless context); past it: busy. */
    maxCallsPerContext: positiveInt(env, 'EXPLORE_MAX_CALLS_PER_CONTEXT', 8),
    /** Bearer tokens, one per line: with it, every HTTP request needs one (`--token-file` wins). */
    tokenFile: env.EXPLORE_TOKEN_FILE === '' ? undefined : env.EXPLORE_TOKEN_FILE,
    /**
     * How long one read or write of the shared store may take before the call
     * goes on without it (nothing recorded, an empty view): long enough for a
     * busy Redis, short enough that a stalled one never holds a call up.
     */
    storeTimeoutMs: positiveInt(env, 'EXPLORE_STORE_TIMEOUT_MS', 2000),
    maxBodyBytes: Math.min(
      SDK_MAX_BODY_BYTES,
      positiveInt(env, 'EXPLORE_MAX_BODY_BYTES', 1024 * 1024),
    ),
    /** The worker module (tests put one that misbehaves on purpose here). */
    workerUrl:
      env.EXPLORE_WORKER === undefined || env.EXPLORE_WORKER === ''
        ? new URL('./worker.mjs', import.meta.url)
        : pathToFileURL(resolve(env.EXPLORE_WORKER)),
  };
}
