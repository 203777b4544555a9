/**
 * Which store key a context token names: the rule a tool call and a
 * harness hook share, and the ids a harness hook makes (one per agent of a
 * harness session), which the proxy tells from a token a model echoed.
 */
import { createHash } from 'node:crypto';

/**
 * The store key of the context a token names, under the caller's principal
 * (an HTTP bearer) when there is one: the one rule a call and a hook share.
 *
 * @example
 * ```ts
 * tokenKey('k7f3q2ab', undefined); // 't:k7f3q2ab'
 * tokenKey('k7f3q2ab', 'ab12');    // 'p:ab12/t:k7f3q2ab'
 * ```
 */
export function tokenKey(token: string, principal: string | undefined): string {
  return `${principal === undefined ? '' : `p:${principal}/`}t:${token}`;
}

/**
 * The principal part of a store key (`''` for none): whose bound a context
 * counts against in the proxy's own ledger.
 *
 * @example
 * ```ts
 * principalPart(tokenKey('k7f3q2ab', 'ab12')); // 'p:ab12/'
 * principalPart('m:conversation-7');           // ''
 * ```
 */
export function principalPart(sessionId: string | undefined): string {
  if (sessionId === undefined || !sessionId.startsWith('p:')) return '';
  return sessionId.slice(0, sessionId.indexOf('/') + 1);
}

/** What every harness-made context id starts with. */
const HARNESS_ID_PREFIX = 'cc-';

/**
 * The context id of one agent of one harness session: `cc-` and the
 * base64url SHA-256 of the session id and the agent id (`main` for the main
 * agent), 46 chars of `A-Za-z0-9_-` — a valid context token, and one with
 * more than 128 bits, so it keys a shared store too.
 *
 * @example
 * ```ts
 * harnessContextId('3f1c…', null) === harnessContextId('3f1c…', null); // true
 * harnessContextId('3f1c…', 'a7b2').length;                            // 46
 * ```
 */
export function harnessContextId(sessionId: string, agentId: string | null): string {
  const who = agentId === null ? 'main' : `agent:${agentId}`;
  const digest = createHash('sha256')
    .update(`${sessionId}\u0000${who}`, 'utf8')
    .digest('base64url');
  return `${HARNESS_ID_PREFIX}${digest}`;
}

/**
 * Whether `token` is an id `harnessContextId` makes: the harness carries it,
 * so a response need not ask the model to pass it on.
 *
 * @example
 * ```ts
 * isHarnessContextId(harnessContextId('s', null)); // true
 * isHarnessContextId('k7f3q2ab');                  // false
 * ```
 */
export function isHarnessContextId(token: string | null): boolean {
  return token !== null && token.length === 46 && /^cc-[A-Za-z0-9_-]{43}$/.test(token);
}
