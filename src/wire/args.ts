/**
 * Tool arguments a client sends for span-ledger's sake, read into plain
 * values: `refresh` (the agent lost responses and wants them again) and
 * `context` (the token that tells one agent context from another on a shared
 * connection), and the conversation id a client may put in a request's
 * `_meta`. Everything here comes from the client, so junk reads as absent and
 * nothing throws. The only thing a client can do with these is make the server
 * forget (re-send more), never make it withhold more.
 */

import { ownProp, positiveIntegers, prop } from '../boundary/read.js';
import { SHARED_TOKEN_CHARS } from './context-token.js';

/**
 * How many call numbers one `refresh` may name. A view holds at most
 * `maxViewCalls` records (256 with `READ_TOOL_LIMITS`), so a longer list names
 * calls no pointer can cite; it reads as junk rather than being scanned.
 */
export const MAX_REFRESH_CALLS = 1024;

/**
 * What a `refresh` argument asks for: `{}` — every response of this
 * conversation; `{ calls }` — those responses, by the number each one
 * printed (ascending, each once).
 */
export interface Refresh {
  readonly calls?: readonly number[];
}

const EVERYTHING: Refresh = /* @__PURE__ */ Object.freeze({});

/** `3`, `3,5`, `[3, 5]`: call numbers as a client that sends every argument as a string writes them. */
const NUMBERS = /^\[?\s*\d+(?:\s*,\s*\d+)*\s*\]?$/;

/**
 * @internal A `refresh` value: what it asks for; `undefined` when it asks
 * for nothing (absent, `null`, `false`, `'false'`, a blank string); `null`
 * when it was sent but cannot be read — the response says so.
 */
export function parseRefresh(raw: unknown): Refresh | null | undefined {
  if (raw === undefined || raw === null || raw === false) return undefined;
  let value: unknown = raw;
  if (typeof raw === 'string') {
    const text = raw.trim().toLowerCase();
    if (text === '' || text === 'false') return undefined;
    if (text === 'true') return EVERYTHING;
    value = NUMBERS.test(text) ? text.match(/\d+/g)!.map(Number) : null;
  }
  if (value === true) return EVERYTHING;
  const calls = positiveIntegers(value, MAX_REFRESH_CALLS);
  if (calls === null) return null;
  return Object.freeze({ calls: Object.freeze([...new Set(calls)].sort((a, b) => a - b)) });
}

/**
 * The `refresh` tool argument: `true` → `{}` (everything); an array of
 * positive safe integers (at most 1,024) → `{ calls }`, sorted and
 * deduplicated. A client that sends every argument as a string is met
 * halfway: `'true'`, `'3'`, `'3,5'` and `'[3, 5]'` read as `true`, `[3]` and
 * `[3, 5]`. Anything else (absent, `false`, `[0]`, `[1.5]`, `'yes'`, a longer
 * list, a value that cannot be read) → `null`, and nothing is refreshed; pass
 * the argument as it came to the renderer's `refreshArgument` and the
 * response says, in one line, that it was not understood. Only own
 * properties of `args` count. The host dispatches `pruned` with it before
 * planning, so the call sends those lines in full and the ledger stops
 * claiming them. Never throws; frozen.
 *
 * @example
 * ```ts
 * readRefresh({ refresh: true });        // {}
 * readRefresh({ refresh: [5, 3, 5] });   // { calls: [3, 5] }
 * readRefresh({ refresh: '[3, 5]' });    // { calls: [3, 5] }
 * readRefresh({ refresh: 'yes' });       // null
 * readRefresh({ refresh: [0] });         // null
 * const spans = createSessionStore();
 * const lost = readRefresh({ query: 'auth', refresh: [3] });
 * if (lost) spans.prune({ projectRoot: '/repo', ...lost }); // before planning the call
 * ```
 */
export function readRefresh(args: unknown): Refresh | null {
  return parseRefresh(ownProp(args, 'refresh')) ?? null;
}

/**
 * The JSON Schema of the `refresh` argument, to put in a tool's input schema
 * under `properties.refresh`. Its description says what a numbered response
 * and a pointer are, and when to pass it: the schema is all a subagent sees
 * (it gets no server instructions).
 */
export const REFRESH_INPUT_SCHEMA = /* @__PURE__ */ Object.freeze({
  description:
    'Pass the numbers of earlier responses of this tool whose source is no longer in your context (e.g. [3] when a pointer cites #3), or true for all: this call then sends that source again in full instead of pointing at it.',
  anyOf: /* @__PURE__ */ Object.freeze([
    /* @__PURE__ */ Object.freeze({ type: 'boolean' }),
    /* @__PURE__ */ Object.freeze({
      type: 'array',
      items: /* @__PURE__ */ Object.freeze({ type: 'integer', minimum: 1 }),
      maxItems: MAX_REFRESH_CALLS,
    }),
  ]),
});

/** A context token: 6 to 64 chars of `A-Za-z0-9_-`. */
const TOKEN = /^[A-Za-z0-9_-]{6,64}$/;

/**
 * How {@link readContextToken} and {@link contextIdFromMeta} read.
 */
export interface ReadContextTokenOptions {
  /**
   * The token (or `_meta` id) keys state other clients reach: only one of at
   * least 22 chars (128 bits, as `mintContextToken({ shared: true })` makes)
   * is a key there; a shorter one, which anyone could guess, reads as absent.
   */
  readonly shared?: boolean | undefined;
}

/**
 * The `context` tool argument: the token an earlier response printed, which
 * the agent echoes so the host can tell its context from another on the same
 * connection (a subagent never saw its parent's token). A string of 6 to 64
 * chars of `A-Za-z0-9_-` (22 to 64 with `shared: true`), else `null` (absent,
 * empty, too long, `../x`, not a string, unreadable). Only an own property of
 * `args` counts. Never throws.
 *
 * @example
 * ```ts
 * readContextToken({ query: 'auth', context: 'k7f3q2ab' }); // 'k7f3q2ab'
 * readContextToken({ context: '../x' });                    // null
 * readContextToken({ query: 'auth' });                      // null: mint one
 * readContextToken({ context: 'k7f3q2ab' }, { shared: true }); // null: guessable where others reach
 * ```
 */
export function readContextToken(args: unknown, options?: ReadContextTokenOptions): string | null {
  const raw = ownProp(args, 'context');
  if (!isContextToken(raw)) return null;
  return prop(options, 'shared') === true && raw.length < SHARED_TOKEN_CHARS ? null : raw;
}

/** @internal Whether `raw` is a context token: the one rule the tool argument and the renderer's header share. */
export function isContextToken(raw: unknown): raw is string {
  return typeof raw === 'string' && TOKEN.test(raw);
}

/**
 * The JSON Schema of the `context` argument, to put in a tool's input schema
 * under `properties.context`. Its description says where the token is, what
 * it is for, and to echo it unchanged.
 */
export const CONTEXT_INPUT_SCHEMA = /* @__PURE__ */ Object.freeze({
  type: 'string',
  minLength: 6,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_-]{6,64}$',
  description:
    'The context token an earlier response of this tool gave you (on its first line), passed back unchanged, so pointers cite only what your context received. Leave it out when no response in your context gave you one.',
});

/** Longer conversation ids are not ids a client mints: read as absent. */
const MAX_CONVERSATION_ID = 1024;

/**
 * The `_meta` keys clients publish a conversation id under, in the order they
 * are tried: the clients' own (VS Code's, opencode's), then the generic one.
 */
const CONVERSATION_KEYS = ['vscode.conversationId', 'sessionID', 'conversationId'] as const;

/**
 * The conversation id a client sent in a request's `_meta`, or `null`: VS
 * Code's `vscode.conversationId` first, then opencode's `sessionID`, then a
 * generic `conversationId`. A
 * non-blank string of at most 1,024 chars (trimmed); anything else reads as
 * absent. It takes precedence over a context token: the client knows its
 * conversations better than an echoed token can. Use it as the `sessionId`.
 * With `shared: true` (state other clients reach), an id shorter than 22
 * chars reads as absent: another client could send it too. Never throws.
 *
 * @example
 * ```ts
 * contextIdFromMeta({ 'vscode.conversationId': 'c-81f2' }); // 'c-81f2'
 * contextIdFromMeta({ conversationId: '   ' });             // null
 * contextIdFromMeta(undefined);                             // null
 * contextIdFromMeta({ conversationId: '1' }, { shared: true }); // null: guessable where others reach
 * ```
 */
export function contextIdFromMeta(meta: unknown, options?: ReadContextTokenOptions): string | null {
  for (const key of CONVERSATION_KEYS) {
    const raw = ownProp(meta, key);
    if (typeof raw !== 'string') continue;
    const id = raw.trim();
    if (id === '' || id.length > MAX_CONVERSATION_ID) continue;
    return prop(options, 'shared') === true && id.length < SHARED_TOKEN_CHARS ? null : id;
  }
  return null;
}
