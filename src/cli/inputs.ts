/**
 * Reading the responses `span-ledger measure` measures: a directory of `.md`
 * files in call order (natural sort of the names), a single `.md` file, or a
 * JSONL file with one `{ "text": … }` per call.
 *
 * Every failure becomes an `InputError` with a one-line message; the command
 * turns it into exit code 1. Nothing here prints.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseJson } from '../boundary/read.js';

/**
 * A problem with the input the user pointed at (exit code 1, one line).
 */
export class InputError extends Error {
  override name = 'InputError';
}

const naturalOrder = /* @__PURE__ */ new Intl.Collator('en', {
  numeric: true,
  sensitivity: 'base',
});

function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}

/** What `call` returns, or an `InputError` saying which step failed on `path`, and why. */
function onDisk<T>(step: 'read' | 'list', path: string, call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw new InputError(`cannot ${step} ${path}: ${describe(error)}`);
  }
}

function readText(path: string): string {
  return onDisk('read', path, () => readFileSync(path, 'utf8'));
}

/**
 * The responses at `path`, in call order.
 *
 * @example
 * ```ts
 * readResponses('transcripts/session-1');   // 1.md, 2.md, …, 10.md, in that order
 * readResponses('session.jsonl');           // one { "text": … } per line
 * ```
 */
export function readResponses(path: string): string[] {
  if (onDisk('read', path, () => statSync(path).isDirectory())) {
    const responses = onDisk('list', path, () => readdirSync(path))
      .filter((name) => name.toLowerCase().endsWith('.md'))
      .sort(naturalOrder.compare)
      .map((name) => readText(join(path, name)));
    if (responses.length === 0) throw new InputError(`no .md responses in ${path}`);
    return responses;
  }
  const text = readText(path);
  if (text.trim() === '') throw new InputError(`${path} is empty`);
  if (path.toLowerCase().endsWith('.md')) return [text];
  return parseJsonl(path, text);
}

function parseJsonl(path: string, text: string): string[] {
  const responses: string[] = [];
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    // JSON never parses to `undefined`: that is what text that is not JSON reads as.
    const value = parseJson(line);
    if (value === undefined) {
      throw new InputError(
        `${path}:${i + 1}: not JSON (expected a directory of .md files or JSONL of { "text": … })`,
      );
    }
    // Only an object can hold a string "text": null, numbers, strings and arrays all fail here.
    const body = (value as { text?: unknown } | null)?.text;
    if (typeof body !== 'string') {
      throw new InputError(`${path}:${i + 1}: expected an object with a string "text"`);
    }
    responses.push(body);
  }
  return responses;
}
