/**
 * The read proxy's dedup: answers `read_text_file` and `read_multiple_files`
 * from what the upstream filesystem server returned, planned against this
 * session's ledger with `planRead` and printed with `renderRead`.
 *
 * - A window (`head`, `tail`) or the whole file is planned as one read: lines
 *   the session was already sent from this same content come back as a
 *   pointer naming the response that carried them; only the new lines follow.
 * - An unchanged re-read answers with the pointer alone.
 * - A file edited since (another content fingerprint) comes back whole.
 * - Whatever the upstream answers with an error — a path outside its root, a
 *   missing file, `head` and `tail` together — goes back to the client
 *   exactly as the upstream wrote it, and nothing is recorded for it.
 * - `refresh` (`true`, or the numbers of responses the agent no longer holds)
 *   makes the ledger forget those responses before planning, so their lines
 *   come back in full.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { describeSession, planRead, readRefresh } from 'span-ledger';
import {
  createEmissionRecorder,
  extractSymbols,
  formatResponseHeader,
  renderRead,
} from 'span-ledger/adapter';

/**
 * A recorder that records the lines a read sends and not the ones its pointer
 * stands for. The ledger then claims only what each response really carried,
 * so a pointer cites the response that delivered its lines, and `refresh` of
 * that response brings them back even when later responses pointed at them
 * too (a pointer-only record would go on claiming them).
 */
function sentOnly(recorder) {
  return { ...recorder, backref() {} };
}

/** A positive whole number of lines, or `null` (absent, 0, or not a count: the upstream decides). */
function lineCount(raw) {
  return Number.isSafeInteger(raw) && raw > 0 ? raw : null;
}

/** POSIX lines of `content` (a final newline ends the last line). */
function linesIn(content) {
  if (content === '') return 0;
  let n = 1;
  for (let i = content.indexOf('\n'); i !== -1; i = content.indexOf('\n', i + 1)) n++;
  return content.endsWith('\n') ? n - 1 : n;
}

/** The window `head`/`tail` ask for, or `undefined` for the whole file. */
function windowOf(content, head, tail) {
  if (head !== null) return { start: 1, end: head };
  if (tail !== null) {
    const last = linesIn(content);
    return { start: Math.max(1, last - tail + 1), end: Math.max(1, last) };
  }
  return undefined;
}

/**
 * The proxy's handlers over one upstream connection. `root` is the upstream's
 * allowed directory (and the ledger's project root); `enabled` switches dedup.
 */
export function createReadHandlers({ upstream, root, enabled = true, log = () => {} }) {
  /** The ledger key and display name of a path: relative to the root when inside it. */
  const nameOf = (path) => {
    const rel = relative(root, resolve(root, path));
    return rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel) ? path : rel;
  };

  /** Prunes what the agent says it lost, then returns the session's state for the root. */
  const priorFor = (store, args, sessionId) => {
    const refresh = readRefresh(args);
    if (refresh !== null) store.prune({ sessionId, projectRoot: root, ...refresh });
    return store.project(root, sessionId);
  };

  /** Plans and renders one file; reports to `recorder`. */
  const renderOne = (prior, path, content, range, recorder, callIndex) => {
    const name = nameOf(path);
    const plan = planRead({ path: name, content, range, prior, enabled });
    const { text } = renderRead({
      plan,
      content,
      symbols: extractSymbols(content, name),
      recorder,
      callIndex,
      refresh: true,
    });
    return text;
  };

  const record = (store, recorder, text, sessionId, signal) => {
    // Record only what goes out: a call the client cancelled records nothing.
    if (signal?.aborted) return;
    try {
      store.record(recorder.finish(text.length), sessionId);
    } catch (error) {
      log(`recording failed: ${error instanceof Error ? error.message : error}`);
    }
  };

  return {
    async readTextFile(args, store, { sessionId, signal } = {}) {
      const path = typeof args?.path === 'string' ? args.path : '';
      const head = lineCount(args?.head);
      const tail = lineCount(args?.tail);
      // Anything the proxy does not plan (both windows, counts the upstream rejects) is the
      // upstream's to answer, with only the fields it knows.
      const odd =
        (args?.head !== undefined && args?.head !== 0 && head === null) ||
        (args?.tail !== undefined && args?.tail !== 0 && tail === null);
      if ((head !== null && tail !== null) || odd) {
        const forwarded = { path };
        if (args?.head !== undefined) forwarded.head = args.head;
        if (args?.tail !== undefined) forwarded.tail = args.tail;
        return upstream.readRaw(forwarded);
      }
      const got = await upstream.readWhole(path);
      if (got.result !== undefined) return got.result;
      const prior = priorFor(store, args, sessionId);
      const callIndex = describeSession(prior)?.callIndex ?? null;
      const recorder = sentOnly(
        createEmissionRecorder({ projectRoot: root, query: `read ${path}` }),
      );
      const range = windowOf(got.content, head, tail);
      let text = renderOne(prior, path, got.content, range, recorder, callIndex);
      if (text === '')
        text = `${formatResponseHeader({ callIndex })}\n(${path} has no lines there)\n`;
      record(store, recorder, text, sessionId, signal);
      return { content: [{ type: 'text', text }] };
    },

    async readMultipleFiles(args, store, { sessionId, signal } = {}) {
      const paths = Array.isArray(args?.paths)
        ? args.paths.filter((p) => typeof p === 'string')
        : [];
      const got = await Promise.all(paths.map((p) => upstream.readOneOfMany(p)));
      const prior = priorFor(store, args, sessionId);
      const callIndex = describeSession(prior)?.callIndex ?? null;
      const recorder = sentOnly(
        createEmissionRecorder({ projectRoot: root, query: 'read_multiple_files' }),
      );
      const sections = got.map((file, i) => {
        // A per-file error is the upstream's own text, unchanged.
        if (file.error !== undefined) return file.error;
        const body = renderOne(prior, paths[i], file.content, undefined, recorder, null);
        return `${paths[i]}:\n${body}`;
      });
      const header = formatResponseHeader({ callIndex });
      const text = `${header === '' ? '' : `${header}\n`}${sections.join('\n---\n')}`;
      record(store, recorder, text, sessionId, signal);
      return { content: [{ type: 'text', text }] };
    },
  };
}
