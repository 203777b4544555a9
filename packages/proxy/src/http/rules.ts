/**
 * The transport's security rules for a server on a developer's machine, as
 * pure checks on request headers: which `Origin` and `Host` a loopback server
 * answers, and who a bearer token names. Every local process and, through a
 * browser, every web page can reach a loopback port; these are what keep the
 * pages out (DNS rebinding, cross-origin POSTs) and one local client out of
 * another's contexts.
 *
 * Not a router and not an authorization server: there are no scopes, no
 * OAuth, only "a token from the token file, or nothing".
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** Host names a loopback server answers to, as a `Host` header spells them (without the port). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** `host` without its `:port`; `[::1]:3000` → `[::1]`. Lower-cased. */
function withoutPort(host: string): string {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith('[')) {
    const close = lower.indexOf(']');
    return close < 0 ? lower : lower.slice(0, close + 1);
  }
  const colon = lower.lastIndexOf(':');
  return colon < 0 ? lower : lower.slice(0, colon);
}

/**
 * Whether a `Host` header names this server: `localhost`, `127.0.0.1` or
 * `[::1]`, with any port, or one of `extra` (the address it was explicitly
 * bound to). Anything else — another name resolving to 127.0.0.1 is what DNS
 * rebinding looks like — is refused.
 *
 * @example
 * ```ts
 * isAllowedHost('localhost:3333');      // true
 * isAllowedHost('[::1]:3333');          // true
 * isAllowedHost('evil.example:3333');   // false
 * isAllowedHost(undefined);             // false
 * ```
 */
export function isAllowedHost(host: string | undefined, extra: readonly string[] = []): boolean {
  if (host === undefined || host === '') return false;
  const name = withoutPort(host);
  return LOOPBACK_HOSTS.has(name) || extra.includes(name);
}

/**
 * Whether a request's `Origin` may be answered: absent (not a browser, or a
 * same-origin navigation) or a loopback origin (`http://localhost:5173`, an
 * inspector on this machine). A present, non-loopback `Origin` — a web page
 * the user opened, `null` from a sandboxed frame or a file — is refused with
 * 403, as the MCP transport requires.
 *
 * @example
 * ```ts
 * isAllowedOrigin(undefined);                  // true
 * isAllowedOrigin('http://127.0.0.1:6274');    // true
 * isAllowedOrigin('http://evil.example');      // false
 * isAllowedOrigin('null');                     // false
 * ```
 */
export function isAllowedOrigin(
  origin: string | undefined,
  extra: readonly string[] = [],
): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const host = url.hostname.toLowerCase();
  return LOOPBACK_HOSTS.has(host) || extra.includes(host);
}

/**
 * The bearer tokens a server accepts, each naming one principal. Built by
 * `readTokenFile`; a principal is an opaque id derived from its token (never
 * the token itself), fit for a key prefix.
 */
export interface TokenSet {
  readonly entries: readonly { readonly digest: Buffer; readonly principal: string }[];
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * The {@link TokenSet} of `tokens`: each token's SHA-256, compared in constant
 * time, and its principal (`p:` and 16 hex digits of a second hash).
 *
 * @example
 * ```ts
 * tokenSet(['a-long-random-token-0123456789']).entries.length; // 1
 * ```
 */
export function tokenSet(tokens: readonly string[]): TokenSet {
  return {
    entries: tokens.map((token) => ({
      digest: digest(token),
      principal: `p:${createHash('sha256').update(`principal\0${token}`).digest('hex').slice(0, 16)}`,
    })),
  };
}

/**
 * Who an `Authorization` header authenticates: the principal of the token it
 * carries, or `null` when it carries none of `tokens` (absent, not `Bearer`,
 * or a token not in the set). Every token is compared, in constant time, so
 * neither the answer's timing nor which token matched leaks.
 *
 * @example
 * ```ts
 * const tokens = tokenSet(['s3cret-token']);
 * principalOf('Bearer s3cret-token', tokens)?.startsWith('p:'); // true
 * principalOf('Bearer another-token', tokens);                  // null: answer 401
 * principalOf(undefined, tokens);                               // null
 * ```
 */
export function principalOf(authorization: string | undefined, tokens: TokenSet): string | null {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  const given = digest(m?.[1] ?? '');
  let found: string | null = null;
  for (const entry of tokens.entries) {
    if (timingSafeEqual(given, entry.digest) && m !== null) found = entry.principal;
  }
  return found;
}
