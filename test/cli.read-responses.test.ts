/**
 * readResponseFiles on a real file system: call order, which files are responses,
 * JSONL lines, and the one-line error for each input it cannot use.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, readResponseFiles } from '../src/cli/inputs.js';

const tmp = mkdtempSync(join(tmpdir(), 'span-ledger-inputs-'));

function write(name: string, text: string): string {
  const file = join(tmp, name);
  writeFileSync(file, text);
  return file;
}

/** The error `readResponseFiles(path)` throws. */
function failure(path: string): unknown {
  try {
    readResponseFiles(path);
  } catch (error) {
    return error;
  }
  throw new Error(`readResponseFiles(${path}) did not throw`);
}

describe('readResponseFiles on a directory', () => {
  it('returns the .md files in natural order of their names, whatever the case of .md', () => {
    const dir = join(tmp, 'natural');
    mkdirSync(dir);
    write('natural/10.md', 'ten');
    write('natural/2.MD', 'two');
    write('natural/1.md', 'one');
    write('natural/notes.txt', 'not a response');
    // Lexical order would read 1, 10, 2.
    expect(readResponseFiles(dir)).toEqual(['one', 'two', 'ten']);
  });

  it('names a .md entry that is a directory', () => {
    const dir = join(tmp, 'nested');
    mkdirSync(join(dir, 'a.md'), { recursive: true });
    const error = failure(dir);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(`cannot read ${join(dir, 'a.md')}: is a directory`);
  });
});

describe('readResponseFiles on a file', () => {
  it('reads a single .md file as one response, whatever the case of .md', () => {
    const text = '**`a.ts`**\n```ts\n1\tx\n```\n';
    expect(readResponseFiles(write('single.MD', text))).toEqual([text]);
  });

  it('skips JSONL lines that hold only whitespace', () => {
    const file = write('spaced.jsonl', '{"text":"a"}\n   \r\n\t\n{"text":"b"}\n');
    expect(readResponseFiles(file)).toEqual(['a', 'b']);
  });

  it.each([
    ['null', 'null'],
    ['a number', '7'],
    ['a string', '"text"'],
    ['an array', '["text"]'],
    ['an object whose text is not a string', '{"text":7}'],
  ])('rejects a JSONL line that is %s, by line number', (_label, line) => {
    const file = write('junk.jsonl', `{"text":"a"}\n${line}\n`);
    const error = failure(file);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(`${file}:2: expected an object with a string "text"`);
  });

  it('names a path under a file with the system message, first line only', () => {
    const file = write('plain.md', 'x');
    const under = join(file, 'child.md');
    const error = failure(under);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(
      `cannot read ${under}: ENOTDIR: not a directory, stat '${under}'`,
    );
  });

  it('its errors are named InputError', () => {
    expect((failure(join(tmp, 'missing.md')) as Error).name).toBe('InputError');
  });
});
