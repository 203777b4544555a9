/**
 * The `explore` tool's work, as it runs inside a rendering worker: read the
 * view the host put in the arguments, rank the project's files for the query,
 * plan the call against what this session was already served, render it, and
 * hand the emission back on the result.
 *
 * It holds no state between calls. Everything it knows about the conversation
 * arrives in the arguments (`_spanLedgerView`, and the `context` token to
 * print when the host keys this context by one), and everything it did leaves
 * on the result (`_spanLedgerEmission`): plain data that survives the
 * structured clone in and out of the worker.
 */
import { planCall, projectFromView, readContextToken } from 'span-ledger';
import { createEmissionRecorder, renderMarkdown } from 'span-ledger/adapter';
import { attachEmission, readSessionView } from 'span-ledger/wire';
import { rankFiles, readProject } from './project.mjs';

/** How much of the query a title repeats: enough to recognise it, never a payload. */
const ECHO_CHARS = 80;

function echo(query) {
  return query.length > ECHO_CHARS ? `${query.slice(0, ECHO_CHARS)}…` : query;
}

/**
 * Answers one call. `config` is the worker's fixed setup: `root` (the
 * resolved project root, also the ledger's project key), `enabled` (dedup on
 * or off), `budget` (a `planCall` budget, in tokens) and `maxResponseChars`
 * (the cap on the whole response).
 */
export function explore(args, config) {
  const query = typeof args?.query === 'string' ? args.query : '';
  const { root, enabled, budget, maxResponseChars } = config;

  // Only what the host attached survives `withSessionView`; a view that does not
  // validate reads as "untracked" (null) and nothing is withheld.
  const view = readSessionView(args);
  const prior = projectFromView(view, root);

  const files = rankFiles(readProject(root), query).slice(0, 8);
  const plan = planCall({ files, prior, enabled, budget });
  const recorder = createEmissionRecorder({ projectRoot: root, query });
  const title =
    files.length > 0
      ? `Results for "${echo(query)}"`
      : `No symbol in this project matches "${echo(query)}". Try a name from the code.`;
  const { text } = renderMarkdown({
    plan,
    sources: files,
    recorder,
    title,
    maxResponseChars,
    // The response's number and numbering tag come with the plan: the number
    // the host reserved for this call (in the view), which later pointers
    // cite and the record is kept under. Then the token to echo.
    context: readContextToken(args),
    // The tool takes `refresh`: the response says once how to get lines back,
    // and says so when the client sent a `refresh` it could not read.
    refresh: true,
    refreshArgument: args?.refresh,
  });
  const result = { content: [{ type: 'text', text }] };
  return attachEmission(result, recorder.finish(text.length));
}
