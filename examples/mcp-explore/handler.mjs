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
 * Which agent context a call comes from, as a bucket key of the session's
 * ledger: the conversation id the client put in `_meta` (it knows its
 * conversations best), else the context token the agent echoed, else a fresh
 * token. A subagent sharing its parent's connection never saw the parent's
 * token, so it gets a bucket of its own and no pointer to source it never
 * received. `print` is the token the response shows for the agent to echo;
 * a client's conversation id is a key only and is never printed.
 *
 * Conversation ids are keyed as `meta:<id>` and tokens as themselves (a token
 * has no `:`), so an id a client chooses can never name a token's bucket; and
 * with a token file, both under the caller's principal, so one client cannot
 * reach another's context in a store they share. A `shared` session (the
 * stateless daemon's store) mints and accepts only 128-bit tokens.
 */
function contextOf(args, meta, principal, shared) {
  const scope = principal === null || principal === undefined ? '' : `${principal}/`;
  const conversation = contextIdFromMeta(meta);
  if (conversation !== null) return { sessionId: `${scope}meta:${conversation}`, print: null };
  // In a store other clients reach, a token is a secret: 128 bits, and a
  // shorter one a client sends (anyone could guess it) starts a new context.
  const token = readContextToken(args, { shared }) ?? mintContextToken({ shared });
  return { sessionId: `${scope}${token}`, print: token };
}

/** A tool error the agent can act on. */
export function toolError(text) {
  return { isError: true, content: [{ type: 'text', text }] };
}

/**
 * The shared handler over `root` (the project every call is answered from,
 * which the ledger keys its numbers by): `execute(args, session, { signal,
 * meta, call })` answers one call of `session`. `args` are the tool's arguments (`query`, and the
 * optional `refresh` and `context`, junk in those two reading as absent);
 * `signal` is the SDK's abort signal for the call; `meta` the request's
 * `_meta`; `call` what the HTTP front knows of the call (`httpCallOf`: its
 * principal, its lane in the pool, a hang-up or a cancellation seen on any
 * process, and whether the answer went out), `null` over stdio.
 */
export function createExploreHandler({ pool, log, root }) {
  return {
    async execute(args, session, { signal: sdkSignal, meta, call = null } = {}) {
      if (args !== null && typeof args === 'object' && Object.hasOwn(args, VIEW_KEY)) {
        log(`explore: discarded a client-supplied ${VIEW_KEY}`);
      }
      const signal =
        call === null || sdkSignal === undefined
          ? (sdkSignal ?? call?.signal)
          : AbortSignal.any([sdkSignal, call.signal]);
      const { sessionId, print } = contextOf(args, meta, call?.principal, session.shared === true);
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
      // The call's response number is taken now, before it is planned: calls
      // of one context that run in parallel never print the same one. A store
      // that cannot give one (Redis away) leaves the call untracked: no
      // number, nothing withheld, nothing recorded.
      const reservation = await session.spans.reserve(root, sessionId);
      const view = reservation === null ? null : reservation.view;
      let raw;
      try {
        // Each lane (a session, a context) waits its turn: one client's burst does not queue others out.
        raw = await pool.run(withSessionView(request, view), { signal, lane: call?.lane });
      } catch (error) {
        const reason = error instanceof PoolError ? error.message : 'rendering failed';
        return toolError(`explore could not answer: ${reason}.`);
      }
      // Recorded only if the answer is still going out (a cancelled call was
      // never delivered), and under the number it printed or not at all. The
      // record is awaited before the answer leaves, so the next call, on
      // whichever process shares the store, reads it; if the answer then does
      // not reach the client after all (a hang-up while it was written, a
      // cancellation that arrived meanwhile), the record is undone under its
      // own number — and a number never recorded is released the same way.
      // The undo is registered as soon as the record is on its way, not once
      // it landed: a hang-up while the store is slow queues the undo right
      // behind the record, ahead of any later call of the context, which then
      // plans without the response its client never received. An untracked
      // call (no number reserved) records nothing: it printed no number a
      // later pointer could cite.
      let recording = null;
      const sink = { record: (emission, id) => (recording = session.spans.record(emission, id)) };
      const result = recordSafely(reservation === null ? null : sink, raw, { sessionId, signal });
      if (reservation !== null && call !== null) {
        call.onUndelivered(() => {
          const undo = { sessionId, projectRoot: root, calls: [reservation.callIndex] };
          Promise.resolve(session.spans.prune(undo)).catch(() => {});
        });
      }
      await recording;
      return result;
    },
  };
}
