/**
 * The `explore` tool handler, one per process, shared by every client
 * session, and what each session owns.
 *
 * The handler keeps no conversation state: a daemon shares it between all
 * its clients, so history kept here would mix them, and one agent would get
 * pointers to source only another agent was sent. Each session object owns its
 * ledger (`spans`); the handler receives the session with every call, sends
 * the session's view into the worker with the arguments, and records the
 * emission that comes back on the result into that same session — unless the
 * call was cancelled, because then the agent never received it.
 *
 * `spans` is a `createSessionStore()` (one connection's ledger, in this
 * process) or a `createSharedSessionStore()` (every conversation's, in Redis,
 * for daemons that scale out): the handler awaits what it is given, so the
 * same code serves both.
 */
import {
  contextIdFromMeta,
  createSessionStore,
  mintContextToken,
  readContextToken,
  readRefresh,
  recordSafely,
} from 'span-ledger';
import { VIEW_KEY, withSessionView } from 'span-ledger/wire';
import { PoolError } from './pool.mjs';

/**
 * What one client connection owns: its ledger. It lives and dies with the
 * connection. Inside it, each agent context on the connection has its own
 * bucket (see `contextOf`).
 */
export function createSession() {
  return { spans: createSessionStore() };
}

/**
 * Which agent context a call comes from, as a bucket key of the connection's
 * ledger: the conversation id the client put in `_meta` (it knows its
 * conversations best), else the context token the agent echoed, else a fresh
 * token. A subagent sharing its parent's connection never saw the parent's
 * token, so it gets a bucket of its own and no pointer to source it never
 * received. `print` is the token the response shows for the agent to echo;
 * a client's conversation id is a key only and is never printed.
 */
function contextOf(args, meta) {
  const conversation = contextIdFromMeta(meta);
  if (conversation !== null) return { sessionId: conversation, print: null };
  const token = readContextToken(args) ?? mintContextToken();
  return { sessionId: token, print: token };
}

/** A tool error the agent can act on. */
export function toolError(text) {
  return { isError: true, content: [{ type: 'text', text }] };
}

/**
 * The shared handler: `execute(args, session, { signal, meta })` answers one
 * call of `session`. `args` are the tool's arguments (`query`, and the
 * optional `refresh` and `context`, junk in those two reading as absent);
 * `signal` is the call's abort signal (the SDK's, joined with the
 * connection's where the transport knows more); `meta` the request's `_meta`.
 */
export function createExploreHandler({ pool, log }) {
  return {
    async execute(args, session, { signal, meta } = {}) {
      if (args !== null && typeof args === 'object' && Object.hasOwn(args, VIEW_KEY)) {
        log(`explore: discarded a client-supplied ${VIEW_KEY}`);
      }
      const { sessionId, print } = contextOf(args, meta);
      // The agent lost those responses: forget them first, so this call sends their source in full.
      const refresh = readRefresh(args);
      if (refresh !== null) await session.spans.prune({ sessionId, ...refresh });

      // Only the arguments the worker needs cross into it, with the server's
      // own view: nothing else a client sent is cloned or trusted. A `refresh`
      // that asked for nothing it could read goes along, so the response says so.
      const sentRefresh = refresh === null && Object.hasOwn(args ?? {}, 'refresh');
      const request = {
        query: typeof args?.query === 'string' ? args.query : '',
        ...(print === null ? {} : { context: print }),
        ...(sentRefresh ? { refresh: args.refresh } : {}),
      };
      const view = await session.spans.view(sessionId);
      let raw;
      try {
        raw = await pool.run(withSessionView(request, view), { signal });
      } catch (error) {
        const reason = error instanceof PoolError ? error.message : 'rendering failed';
        return toolError(`explore could not answer: ${reason}.`);
      }
      // Recorded only if the answer is still going out: a cancelled call was
      // never delivered. The record is awaited before the answer leaves, so
      // the next call, on whichever process shares the store, reads it.
      const recording = [];
      const sink = { record: (emission, id) => recording.push(session.spans.record(emission, id)) };
      const result = recordSafely(sink, raw, { sessionId, signal });
      await Promise.all(recording);
      return result;
    },
  };
}
