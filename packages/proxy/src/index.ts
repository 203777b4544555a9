/**
 * span-ledger-proxy: span-ledger in front of MCP servers nobody here wrote.
 *
 * This file only re-exports; the command itself is `span-ledger-proxy`.
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
