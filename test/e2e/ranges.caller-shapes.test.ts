/**
 * What loading the library does to the caller's own ranges: nothing. V8 gives
 * every `{ start, end }` object literal in a process one hidden class, whoever
 * wrote it, and a single end outside the small integers (a "whole file" written as
 * `Number.MAX_SAFE_INTEGER`) turns that class's `end` into a boxed double for
 * every such object from then on: the caller's ranges, the sets it hands to
 * the range algebra and every range the library returns. A line number read
 * back from a Float64Array before V8 optimizes the loop that reads it is such
 * a value too, however small. The checks run in a fresh Node started with
 * `--allow-natives-syntax` (V8's `%HaveSameMap` says whether two objects share
 * a hidden class), loading each entry from src/.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENTRIES, REPO } from './_mcp-explore.js';

const scratch = mkdtempSync(join(tmpdir(), 'span-ledger-caller-shapes-'));

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

let probes = 0;

/**
 * Runs `body` in a fresh Node after `const caller = { start: 1, end: 2 }`;
 * `body` prints a JSON value with `console.log`, which is returned.
 */
function probe(body: string): unknown {
  probes += 1;
  const file = join(scratch, `probe-${probes}.mjs`);
  writeFileSync(
    file,
    `const caller = { start: 1, end: 2 };
     const sameClass = () => %HaveSameMap(caller, { start: 3, end: 4 });
     ${body}`,
  );
  const run = spawnSync(
    process.execPath,
    ['--allow-natives-syntax', '--import', join(REPO, 'scripts/from-source.mjs'), file],
    { cwd: scratch, encoding: 'utf8' },
  );
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout);
}

describe("a caller's { start, end } objects keep their hidden class", () => {
  it('when each entry of span-ledger loads', () => {
    const changedBy = probe(
      `const changedBy = [];
       for (const id of ${JSON.stringify(ENTRIES)}) {
         await import(id);
         if (!sameClass()) changedBy.push(id);
       }
       console.log(JSON.stringify(changedBy));`,
    );
    expect(changedBy).toEqual([]);
  });

  it('when each range function runs once on ordinary sets', () => {
    // Once each, before V8 optimizes anything: unsorted, sorted, and long
    // enough for the radix sort (2,048 members and more).
    const changedBy = probe(
      `const lib = await import('span-ledger');
       const wide = Array.from({ length: 3000 }, (_, i) => ({ start: 6000 - 2 * i, end: 6000 - 2 * i }));
       const a = [{ start: 20, end: 30 }, { start: 1, end: 10 }];
       const b = [{ start: 5, end: 25 }];
       const calls = {
         mergeRanges: () => lib.mergeRanges(a),
         'mergeRanges (sorted)': () => lib.mergeRanges(b),
         'mergeRanges (radix sort)': () => lib.mergeRanges(wide),
         intersectRanges: () => lib.intersectRanges(a, b),
         subtractRanges: () => lib.subtractRanges(a, b),
         intersectRange: () => lib.intersectRange({ start: 1, end: 40 }, a),
         subtractRange: () => lib.subtractRange({ start: 1, end: 40 }, a),
         dedupeRange: () => lib.dedupeRange({ start: 1, end: 40 }, [{ start: 1, end: 20 }], 8),
         coalesceRanges: () => lib.coalesceRanges(a, 1),
       };
       const changedBy = [];
       for (const [name, call] of Object.entries(calls)) {
         call();
         if (!sameClass()) changedBy.push(name);
       }
       console.log(JSON.stringify(changedBy));`,
    );
    expect(changedBy).toEqual([]);
  });
});
