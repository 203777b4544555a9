/**
 * The harness's hooks, answered inside the proxy: Claude Code calls the
 * hidden tool `span_ledger_hook` (an `mcp_tool` hook, see `install.ts`) on
 * the connection it already holds, with the hook's own input.
 *
 * - `PreToolUse` of a re-rendered tool: the call's `context` becomes an id
 *   made from the session and the agent, whatever the model passed.
 * - `PreCompact`: the context is marked; its next call carries `refresh` for
 *   the responses the compaction dropped.
 * - `SessionStart` (`clear`, `resume`, `fork`): the session's contexts start over.
 *
 * Not the installer (`install.ts`), and never a reason to withhold more:
 * every answer here either changes nothing or makes a call send more.
 */
import { createHash } from 'node:crypto';

/** The hook tool's name: called by the harness, never listed to the model. */
export const HOOK_TOOL = 'span_ledger_hook';

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
