/**
 * span-ledger-proxy: span-ledger in front of MCP servers nobody here wrote.
 *
 * This file only re-exports. The command is `span-ledger-proxy`; what is
 * here is for hosts that run the proxy in their own process (and for the
 * HTTP front: one `createServer()` per request).
 */
export {
  type CommandLine,
  DEFAULT_TIMEOUT_MS,
  HELP,
  PROFILE_NAMES,
  type ProfileName,
  parseCommandLine,
  type RunOptions,
} from './args.js';
export { DEFAULT_MAX_TOKENS } from './cap.js';
export {
  mintSharedToken,
  type ProxyOptions,
  ProxyStartError,
  type RunningProxy,
  startProxy,
} from './proxy.js';
export { INSTRUCTIONS, type ProxyServer } from './server.js';
export { type CountersReport, STATS_URI, type StatsReport } from './stats.js';
