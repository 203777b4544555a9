/**
 * Reading the responses `span-ledger measure` measures: a directory of `.md`
 * files in call order (natural sort of the names), a single `.md` file, or a
 * JSONL file with one `{ "text": …, "path"?: … }` per call.
 *
 * Every failure becomes an `InputError` with a one-line message; the command
 * turns it into exit code 1. Nothing here prints.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { MeasuredResponse } from '../adapter/parse.js';
import { parseJson } from '../boundary/read.js';

/** The largest file `measure` reads: a transcript, not a disk image. */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

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

/** The file's text, refused with one line before it is read when it is over {@link MAX_INPUT_BYTES}. */
function readText(path: string): string {
  const bytes = onDisk('read', path, () => statSync(path).size);
  if (bytes > MAX_INPUT_BYTES) {
    throw new InputError(
      `${path} is ${(bytes / 1024 / 1024).toFixed(1)} MiB, over the ${MAX_INPUT_BYTES / 1024 / 1024} MiB measure reads`,
    );
  }
  return onDisk('read', path, () => readFileSync(path, 'utf8'));
}

/**
 * The responses at `path`, in call order.
 *
 * @example
 * ```ts
 * readResponseFiles('transcripts/session-1');   // 1.md, 2.md, …, 10.md, in that order
 * readResponseFiles('session.jsonl');           // one { "text": …, "path"?: … } per line
 * ```
 */
export function readResponseFiles(path: string): (string | MeasuredResponse)[] {
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

function parseJsonl(path: string, text: string): (string | MeasuredResponse)[] {
  const responses: (string | MeasuredResponse)[] = [];
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
    const record = value as { text?: unknown; path?: unknown } | null;
    const body = record?.text;
    if (typeof body !== 'string') {
      throw new InputError(`${path}:${i + 1}: expected an object with a string "text"`);
    }
    // The file a read response is of ("path"), when the text does not name it.
    responses.push(typeof record!.path === 'string' ? { text: body, path: record!.path } : body);
  }
  return responses;
}
