/**
 * What can stop an HTTP front from starting, said in one line: the token
 * file, the bind address, the port. A server started by a person or a
 * supervisor prints the line and exits 2; a stack trace for "port in use"
 * helps nobody.
 */
import { readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { errorMessage } from '../error-message.js';
import { type TokenSet, tokenSet } from './rules.js';

/**
 * Why the HTTP front cannot listen (token file, address, port), whose message
 * is the one line to print. The proxy's own reasons are a `ProxyStartError`.
 */
export class FrontStartError extends Error {
  override readonly name = 'FrontStartError';
}

/**
 * The shortest token accepted: 22 chars, 128 bits when drawn from 64 symbols
 * (`openssl rand -base64 24`). A shorter one can be guessed by anyone who can
 * reach the port.
 */
const MIN_TOKEN_CHARS = 22;

/**
 * The bearer tokens in `path`: one per line; blank lines and lines starting
 * with `#` are skipped. Each token names its own principal, so two clients
 * given two tokens never reach each other's contexts. Read once, at start-up.
 *
 * @throws {FrontStartError} when the file cannot be read, holds no token, or
 *   holds a token shorter than 22 chars or with spaces in it.
 * @example
 * ```ts
 * import { mkdtempSync, writeFileSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 *
 * // one token a line, e.g. from `openssl rand -hex 32 > tokens && chmod 600 tokens`
 * const file = join(mkdtempSync(join(tmpdir(), 'explore-')), 'tokens');
 * writeFileSync(file, `${'1f'.repeat(16)}\n${'2e'.repeat(16)}\n`, { mode: 0o600 });
 * readTokenFile(file).entries.length; // 2
 * ```
 */
export function readTokenFile(path: string): TokenSet {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code ?? String(error);
    throw new FrontStartError(`cannot read the token file ${path}: ${code}`);
  }
  const tokens = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  if (tokens.length === 0) throw new FrontStartError(`the token file ${path} holds no token`);
  const weak = tokens.findIndex((token) => token.length < MIN_TOKEN_CHARS || /\s/.test(token));
  if (weak >= 0) {
    throw new FrontStartError(
      `token ${weak + 1} of ${path} is too short or has spaces: use at least ${MIN_TOKEN_CHARS} random chars (openssl rand -hex 32)`,
    );
  }
  return tokenSet(tokens);
}

/**
 * A warning line when the token file can be read by others than its owner,
 * else `null`.
 *
 * @example
 * ```ts
 * import { mkdtempSync, writeFileSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 *
 * const file = join(mkdtempSync(join(tmpdir(), 'explore-')), 'tokens');
 * writeFileSync(file, 'a-token\n', { mode: 0o600 });
 * tokenFileWarning(file); // null: only its owner can read it
 * writeFileSync(join(file, '..', 'open'), 'a-token\n', { mode: 0o644 });
 * tokenFileWarning(join(file, '..', 'open'))?.startsWith('warning: the token file'); // true
 * ```
 */
export function tokenFileWarning(path: string): string | null {
  try {
    const { mode } = statSync(path);
    return (mode & 0o077) === 0
      ? null
      : `warning: the token file ${path} is readable by other users (chmod 600 it)`;
  } catch {
    return null;
  }
}

/** Addresses that reach only this machine. */
const LOOPBACK_ADDRESSES = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * The address to listen on and, when it is not loopback, the warning to
 * print: such a server is reachable from other machines, and only a token
 * file keeps them out.
 *
 * @throws {FrontStartError} when `host` is not an IP address or `localhost`.
 * @example
 * ```ts
 * bindAddress(undefined); // { host: '127.0.0.1', warning: null }
 * bindAddress('0.0.0.0').warning;
 * // → 'warning: listening on 0.0.0.0, reachable from other machines, and nothing keeps them out: add --token-file'
 * ```
 */
export function bindAddress(
  host: string | undefined,
  authenticated = false,
): { host: string; warning: string | null } {
  const chosen = host ?? '127.0.0.1';
  if (chosen !== 'localhost' && isIP(chosen) === 0) {
    throw new FrontStartError(`cannot listen on ${JSON.stringify(chosen)}: give an IP address`);
  }
  if (LOOPBACK_ADDRESSES.has(chosen)) return { host: chosen, warning: null };
  const guard = authenticated
    ? 'only the token file keeps them out'
    : 'and nothing keeps them out: add --token-file';
  return {
    host: chosen,
    warning: `warning: listening on ${chosen}, reachable from other machines, ${guard}`,
  };
}

/** `host` as a URL, a `Host` header or an `Origin` spells it: an IPv6 address in brackets. */
export function hostInUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** What the usual `listen` failures mean, by error code. */
const LISTEN_FAILURES: Readonly<Record<string, string>> = {
  EADDRINUSE: 'the port is in use',
  EACCES: 'permission denied',
  EADDRNOTAVAIL: 'no such address on this machine',
};

/** The one line for a `listen` failure. */
export function listenFailure(error: unknown, host: string, port: number): FrontStartError {
  const why = LISTEN_FAILURES[(error as { code?: string }).code ?? ''];
  const said = why ?? errorMessage(error);
  return new FrontStartError(`cannot listen on ${hostInUrl(host)}:${port}: ${said}`);
}
