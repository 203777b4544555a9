/**
 * The `explore` tool handler, one per process, shared by every client
 * session, and what each session owns.
 *
 * The handler keeps no conversation state: a daemon shares it between all
 * its clients, so history kept here would mix them, and one agent would get
 * pointers to source only another agent was sent. Each session object owns its
 * ledger (`spans`); the handler receives the session with every call, sends
 * the session's view into the worker with the arguments, and records the
 * emission that comes back on the result into that same session.
 */
import { createSessionStore, takeEmission, VIEW_KEY, withSessionView } from 'span-ledger';

/** What one client connection owns: its ledger. It lives and dies with the connection. */
export function createSession() {
  return { spans: createSessionStore() };
}

/** The shared handler: `execute(args, session)` answers one call of `session`. */
export function createExploreHandler({ pool, log }) {
  return {
    async execute(args, session) {
      if (args !== null && typeof args === 'object' && Object.hasOwn(args, VIEW_KEY)) {
        log(`explore: discarded a client-supplied ${VIEW_KEY}`);
      }
      let raw;
      try {
        // The client's key is removed and the server's own view put in its place.
        raw = await pool.run(withSessionView(args, session.spans.view()));
      } catch (error) {
        log(`explore: rendering failed: ${error instanceof Error ? error.message : error}`);
        return { isError: true, content: [{ type: 'text', text: 'explore failed to render.' }] };
      }
      // The carrier is stripped whether or not recording works: the agent's bytes never depend on it.
      const { result, emission } = takeEmission(raw);
      if (emission !== null) {
        try {
          session.spans.record(emission);
        } catch (error) {
          // Bookkeeping only: the answer already exists and goes out as it is.
          log(`explore: recording failed: ${error instanceof Error ? error.message : error}`);
        }
      }
      return result;
    },
  };
}
