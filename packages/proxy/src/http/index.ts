/**
 * span-ledger-proxy/http: the HTTP front both the proxy's `--http` mode and
 * the repository's example daemon serve MCP through — the transport's
 * security rules (Origin, Host, bearer tokens), per-client bounds, delivery
 * and cancellation of each call, and one-line start-up failures.
 *
 * This file only re-exports.
 */
export { type HttpCall, httpCallOf } from './calls.js';
export { type CancelRelay, type RedisPubSubLike, redisCancelRelay } from './cancellations.js';
export {
  HTTP_LIMITS,
  type HttpClient,
  type HttpLimits,
  type McpHttpFront,
  type McpHttpOptions,
  type McpServerLike,
  serveMcpHttp,
} from './front.js';
export {
  isAllowedHost,
  isAllowedOrigin,
  principalOf,
  type TokenSet,
  tokenSet,
} from './rules.js';
export {
  bindAddress,
  FrontStartError,
  listenFailure,
  readTokenFile,
  tokenFileWarning,
} from './startup.js';
