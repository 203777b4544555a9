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
 */
import { createSessionStore, takeEmission, VIEW_KEY, withSessionView } from 'span-ledger';
import { PoolError } from './pool.mjs';

/** What one client connection owns: its ledger. It lives and dies with the connection. */
export function createSession() {
  return { spans: createSessionStore() };
}

/**
 * Strips the emission off `raw` and records it into `store` unless `signal`
 * has fired; a recording fault never fails the call. (span-ledger's own
 * `recordSafely` does exactly this.)
 */
function recordSafely(store, raw, { signal } = {}) {
  const { result, emission } = takeEmission(raw);
  if (emission === null || signal?.aborted) return result;
  try {
    store.record(emission);
  } catch {
    // Bookkeeping only: the answer already exists and goes out as it is.
  }
  return result;
}

/** A tool error the agent can act on. */
export function toolError(text) {
  return { isError: true, content: [{ type: 'text', text }] };
}

/**
 * The shared handler: `execute(args, session, { signal })` answers one call of
 * `session`. `args` are the tool's validated arguments; `signal` is the call's
 * abort signal (the SDK's, joined with the connection's where the transport
 * knows more).
 */
export function createExploreHandler({ pool, log }) {
  return {
    async execute(args, session, { signal } = {}) {
      if (args !== null && typeof args === 'object' && Object.hasOwn(args, VIEW_KEY)) {
        log(`explore: discarded a client-supplied ${VIEW_KEY}`);
      }
      // Only the arguments the tool defines cross into the worker, and the
      // server's own view: nothing else a client sent is cloned or trusted.
      const request = { query: typeof args?.query === 'string' ? args.query : '' };
      let raw;
      try {
        raw = await pool.run(withSessionView(request, session.spans.view()), { signal });
      } catch (error) {
        const reason = error instanceof PoolError ? error.message : 'rendering failed';
        return toolError(`explore could not answer: ${reason}.`);
      }
      // Recorded only if the answer is still going out: a cancelled call was never delivered.
      return recordSafely(session.spans, raw, { signal });
    },
  };
}
