/**
 * The response parser and the emission recorder at their edges: where a fence
 * opens and closes, what counts as a header or a numbered line, lists that
 * claim a shorter length than they hold, and the recorder's inert and junk
 * paths read back field by field.
 */
import { describe, expect, it } from 'vitest';
import {
  createEmissionRecorder,
  measureDuplicates,
  parseRenderedResponse,
} from '../src/adapter/index.js';

/** An array that says it is `length` long while holding more entries past that. */
function shortLength<T>(items: T[], length: number): T[] {
  return new Proxy(items, {
    get(target, key, receiver) {
      return key === 'length' ? length : Reflect.get(target, key, receiver);
    },
  });
}

const lines = (text: string) =>
  parseRenderedResponse(text).sections.map((s) => [s.path, s.lines.map((l) => l.line)]);

describe('parseRenderedResponse: fences', () => {
  it('a shorter run of backticks does not close a longer fence', () => {
    const text = ['**`a.md`**', '````md', '1\t```', '```', '2\tb', '````'].join('\n');
    // Inside the four-backtick fence, "```" is text (line 1 holds it, the bare one is skipped).
    expect(lines(text)).toEqual([['a.md', [1, 2]]]);
  });

  it('a shorter run followed by spaces does not close a longer fence either', () => {
    const text = ['**`a.md`**', '````', '```  ', '2\tb', '````'].join('\n');
    expect(lines(text)).toEqual([['a.md', [2]]]);
  });

  it('a closing fence may carry trailing spaces', () => {
    const text = ['**`a.ts`**', '```', '1\ta', '```  ', '**`b.ts`**', '```', '1\tb', '```'].join(
      '\n',
    );
    expect(lines(text)).toEqual([
      ['a.ts', [1]],
      ['b.ts', [1]],
    ]);
  });

  it('a numbered line that ends in backticks stays source, it does not close the fence', () => {
    const text = ['**`a.ts`**', '```ts', '1\tconst s = ```', '2\tb', '```'].join('\n');
    expect(parseRenderedResponse(text).sections[0]!.lines).toEqual([
      { line: 1, text: 'const s = ```' },
      { line: 2, text: 'b' },
    ]);
  });

  it('a line that opens with backticks and goes on does not close the fence', () => {
    const text = ['**`a.md`**', '```', '```ts', '2\tb', '```'].join('\n');
    expect(lines(text)).toEqual([['a.md', [2]]]);
  });

  it('prose that ends in backticks does not open a fence', () => {
    const text = ['**`a.ts`**', 'see the ```', '**`b.ts`**', '```', '1\tb', '```'].join('\n');
    expect(lines(text)).toEqual([
      ['a.ts', []],
      ['b.ts', [1]],
    ]);
  });

  it('backticks followed by an info string with a backtick do not open a fence', () => {
    const text = ['**`a.ts`**', '```x`y', '**`b.ts`**', '```', '1\tb', '```'].join('\n');
    expect(lines(text)).toEqual([
      ['a.ts', []],
      ['b.ts', [1]],
    ]);
  });
});

describe('parseRenderedResponse: headers and numbered lines', () => {
  it('a header mentioned inside prose does not start a section', () => {
    const text = ['see **`b.ts`** for more', '```', '1\tb', '```'].join('\n');
    expect(parseRenderedResponse(text)).toEqual({ sections: [] });
  });

  it('a number not at the start of the line is not a line number', () => {
    const text = ['**`a.ts`**', '```', 'x1\tb', '2\tc', '```'].join('\n');
    expect(lines(text)).toEqual([['a.ts', [2]]]);
  });

  it('keeps the whole text of a line that holds a lone CR or a line separator', () => {
    const text = ['**`a.ts`**', '```', '1\told\rmac', '2\tconst s = "x\u2028y";', '```'].join('\n');
    expect(parseRenderedResponse(text).sections[0]!.lines).toEqual([
      { line: 1, text: 'old\rmac' },
      { line: 2, text: 'const s = "x\u2028y";' },
    ]);
    // 'old\rmac' is 7 chars + 1, the second line 16 + 1.
    expect(measureDuplicates([text]).sourceChars).toBe(25);
  });
});

describe('measureDuplicates reads a list only as far as its length', () => {
  it('an entry past the length is not a response', () => {
    const a = '**`a.ts`**\n```\n1\tx\n```';
    const b = '**`b.ts`**\n```\n1\tyy\n```';
    expect(measureDuplicates(shortLength([a, b], 1))).toMatchObject({
      responses: 1,
      responseChars: a.length,
      sourceChars: 2,
    });
  });
});

describe('createEmissionRecorder at its edges', () => {
  it('an inert recorder (empty root) does not read the query', () => {
    const rec = createEmissionRecorder({ projectRoot: '', query: 'cart totals' });
    expect(rec.finish(0).query).toBe('');
  });

  it('drop ignores a path that is not a non-empty string', () => {
    const rec = createEmissionRecorder({ projectRoot: '/repo' });
    rec.drop('' as never);
    rec.drop(42 as never);
    rec.drop('a.ts');
    expect(rec.dropped()).toEqual(['a.ts']);
  });

  it('a negative zero response size is recorded as plain 0', () => {
    const rec = createEmissionRecorder({ projectRoot: '/repo' });
    expect(rec.finish(-0).responseChars).toBe(0);
  });

  it('reads a list of ranges only as far as its length', () => {
    const rec = createEmissionRecorder({ projectRoot: '/repo' });
    rec.source(
      'a.ts',
      shortLength(
        [
          { start: 1, end: 2 },
          { start: 8, end: 9 },
        ],
        1,
      ),
      10,
      'fp',
    );
    expect(rec.finish(0).files[0]?.ranges).toEqual([{ start: 1, end: 2 }]);
  });
});
