/**
 * The planner's line arithmetic, on contents small enough to count by hand:
 * where each line starts, how far an index reaches when it is given a limit,
 * clipping to the file, cutting a set to an allowance, and joining two sets.
 * A chars figure that is off by one line here is a budget overrun there.
 */
import { describe, expect, it } from 'vitest';
import {
  charsOf,
  charsOfLines,
  clipToFile,
  indexLines,
  takePrefix,
  unionSpans,
} from '../src/dedup/_lines.js';
import { fromSpans, type Spans, toSpans } from '../src/ranges/_spans.js';

const set = (...pairs: [number, number][]): Spans =>
  toSpans(pairs.map(([start, end]) => ({ start, end })));
const pairs = (spans: Spans): [number, number][] => fromSpans(spans).map((r) => [r.start, r.end]);

// Lines (each with its '\n' but the last): 'aa\n' 3, 'bbb\n' 4, 'cc\n' 3, 'd' 1.
const FOUR = 'aa\nbbb\ncc\nd';

describe('indexLines', () => {
  it('gives each line start and the end of the content', () => {
    const index = indexLines(FOUR);
    expect([...index.offsets.slice(0, 5)]).toEqual([0, 3, 7, 10, 11]);
    expect(index.lineCount).toBe(4);
    expect(index.complete).toBe(true);
  });

  it('stops at the limit when the file goes on, and says so', () => {
    const index = indexLines(FOUR, 2);
    expect(index.lineCount).toBe(2);
    expect(index.complete).toBe(false);
    expect([...index.offsets.slice(0, 3)]).toEqual([0, 3, 7]);
    expect(charsOfLines(index, 1, 2)).toBe(7);
  });

  it('indexes the whole file when the limit is its last line or past it', () => {
    for (const upTo of [3, 4, 5, 1000]) {
      const index = indexLines(FOUR, upTo);
      expect(index.complete).toBe(true);
      expect(index.lineCount).toBe(4);
      expect(charsOfLines(index, 1, 4)).toBe(FOUR.length);
    }
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])(
    'treats limit %s as no limit',
    (upTo) => {
      const index = indexLines(FOUR, upTo);
      expect(index.lineCount).toBe(4);
      expect(index.complete).toBe(true);
    },
  );

  it('grows past its first guess on a file of short lines', () => {
    // 200 empty lines, each ended by its '\n'.
    const content = '\n'.repeat(200);
    const index = indexLines(content);
    expect(index.lineCount).toBe(200);
    expect([...index.offsets.slice(0, 201)]).toEqual(Array.from({ length: 201 }, (_, i) => i));
    expect(charsOfLines(index, 1, 200)).toBe(200);
    expect(charsOfLines(index, 200, 200)).toBe(1);
  });

  it('reaches a limit deep into a file of short lines', () => {
    const content = 'x\n'.repeat(500);
    const index = indexLines(content, 300);
    expect(index.lineCount).toBe(300);
    expect(index.complete).toBe(false);
    expect(charsOfLines(index, 1, 300)).toBe(600);
    expect(charsOfLines(index, 300, 300)).toBe(2);
  });

  it('counts an empty content as no line at all', () => {
    const index = indexLines('');
    expect(index.lineCount).toBe(0);
    expect(index.complete).toBe(true);
  });

  it('ends the last line at a final newline instead of starting an empty one', () => {
    const index = indexLines('a\nb\n');
    expect(index.lineCount).toBe(2);
    expect(charsOfLines(index, 2, 2)).toBe(2);
    expect(indexLines('\n').lineCount).toBe(1);
    expect(indexLines('a\nb').lineCount).toBe(2);
  });

  it('finds the end of a file whose final newline sits right after the limit line', () => {
    // The scan reaches line 2's terminator, which ends the file: line 3 does not exist.
    const index = indexLines('a\nb\n', 1);
    expect(index.complete).toBe(false);
    expect(index.lineCount).toBe(1);
    const whole = indexLines('a\nb\n', 2);
    expect(whole.complete).toBe(true);
    expect(whole.lineCount).toBe(2);
  });
});
