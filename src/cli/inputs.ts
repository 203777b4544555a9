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

/**
 * A problem with the input the user pointed at (exit code 1, one line).
 *
 * @example
 * ```ts
 * throw new InputError('no .md responses in transcripts/');
 * ```
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

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read ${path}: ${describe(error)}`);
  }
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
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (error) {
    throw new InputError(`cannot read ${path}: ${describe(error)}`);
  }
  if (isDirectory) {
    let names: string[];
    try {
      names = readdirSync(path);
    } catch (error) {
      throw new InputError(`cannot list ${path}: ${describe(error)}`);
    }
    const responses = names
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
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
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
