/**
 * readResponseFiles when the file system refuses: errors the test machine cannot
 * produce for real (a permission denied, to a root user), injected into
 * node:fs. Each becomes one line naming the path.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InputError, readResponseFiles } from '../src/cli/inputs.js';

const fault = vi.hoisted(() => ({ stat: undefined as unknown, readdir: undefined as unknown }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    statSync: (...args: Parameters<typeof fs.statSync>) => {
      if (fault.stat !== undefined) throw fault.stat;
      return fs.statSync(...args);
    },
    readdirSync: (...args: Parameters<typeof fs.readdirSync>) => {
      if (fault.readdir !== undefined) throw fault.readdir;
      return fs.readdirSync(...args);
    },
  };
});

afterEach(() => {
  fault.stat = undefined;
  fault.readdir = undefined;
});

const tmp = mkdtempSync(join(tmpdir(), 'span-ledger-inputs-faults-'));
const file = join(tmp, 'one.md');
writeFileSync(file, '**`a.ts`**\n```ts\n1\tx\n```\n');
const dir = join(tmp, 'session');
mkdirSync(dir);
writeFileSync(join(dir, '1.md'), 'one');

function message(path: string): string {
  try {
    readResponseFiles(path);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error(`readResponseFiles(${path}) did not throw`);
}

describe('readResponseFiles when the file system refuses', () => {
  it.each([['EACCES'], ['EPERM']])('%s on the path reads "permission denied"', (code) => {
    fault.stat = Object.assign(new Error(`${code}: operation not permitted`), { code });
    expect(message(file)).toBe(`cannot read ${file}: permission denied`);
  });

  it('an error with another code reads as its own first line', () => {
    fault.stat = Object.assign(new Error('EIO: i/o error\n    at stat'), { code: 'EIO' });
    expect(message(file)).toBe(`cannot read ${file}: EIO: i/o error`);
  });

  it('a thrown non-error, even null, reads as its text', () => {
    fault.stat = null;
    expect(message(file)).toBe(`cannot read ${file}: null`);
    fault.stat = 'disk on fire';
    expect(message(file)).toBe(`cannot read ${file}: disk on fire`);
  });

  it('a directory that cannot be listed says so', () => {
    fault.readdir = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    expect(message(dir)).toBe(`cannot list ${dir}: permission denied`);
  });

  it('the directory lists again once the fault is gone', () => {
    expect(readResponseFiles(dir)).toEqual(['one']);
  });
});
