/**
 * The response parser and the duplicate measure: sections, pointers and
 * numbered lines read back from rendered text, where a fence opens and
 * closes, what counts as a header or a numbered line, and lists read only as
 * far as their length.
 */
import { describe, expect, it } from 'vitest';
import { measureDuplicates, parseRenderedResponse } from '../src/adapter/index.js';
import { ranges } from './_build.js';
import { shortLength } from './_short-length.js';

const lines = (text: string) =>
  parseRenderedResponse(text).sections.map((s) => [s.path, s.lines.map((l) => l.line)]);

const response = [
  'Results for "cart"',
  '',
  '**`src/a.ts`** — Cart, totals',
  '> Sent earlier in this conversation: `src/a.ts` L10-30, L40 (Cart). Only the lines not sent before follow.',
  '```ts',
  '31\t  totals(): number {',
  '32\t    return 1;',
  '```',
  'some prose between sections',
  '```',
  'not numbered, ignored',
  '```',
  '',
  '**`tools/b.py`**',
  '```python',
  '7\tdef f():',
  '8\t    return "```"',
  '9\t',
  '```',
].join('\n');

describe('parseRenderedResponse', () => {
  it('reads headers, numbered fence lines, pointers and the spans they name', () => {
    expect(parseRenderedResponse(response)).toEqual({
      sections: [
        {
          path: 'src/a.ts',
          pointer: true,
          pointed: ranges('10-30, 40'),
          lines: [
            { line: 31, text: '  totals(): number {' },
            { line: 32, text: '    return 1;' },
          ],
        },
        {
          path: 'tools/b.py',
          pointer: false,
          pointed: [],
          lines: [
            { line: 7, text: 'def f():' },
            { line: 8, text: '    return "```"' },
            { line: 9, text: '' },
          ],
        },
      ],
    });
  });

  it('ignores fences before any header and non-strings; a CR stays in its numbered line', () => {
    const text = '```ts\r\n1\tx\r\n```\r\n**`a.ts`**\r\n```ts\r\n2\ty\r\n```\r\n';
    // Headers and fences read through a CRLF; a source line keeps its CR (a CRLF file's line holds it).
    expect(parseRenderedResponse(text).sections).toEqual([
      { path: 'a.ts', pointer: false, pointed: [], lines: [{ line: 2, text: 'y\r' }] },
    ]);
    expect(parseRenderedResponse(42 as never)).toEqual({ sections: [] });
    expect(parseRenderedResponse('')).toEqual({ sections: [] });
  });

  it('does not take line 0 or a header-less number for source', () => {
    const text = '**`a.ts`**\n```\n0\tzero\n3\tthree\n```';
    expect(parseRenderedResponse(text).sections[0]!.lines).toEqual([{ line: 3, text: 'three' }]);
  });
});

describe('measureDuplicates', () => {
  it('counts a line as duplicate when an earlier response sent the same path, line and text', () => {
    const first = '**`a.ts`**\n```ts\n1\tabc\n2\tde\n```';
    const second = '**`a.ts`**\n```ts\n2\tde\n3\tf\n```\n**`b.ts`**\n```ts\n1\tabc\n```';
    // chars per line = text + 1: first 4 + 3 = 7; second: 3 (dup) + 2 + 4.
    expect(measureDuplicates([first, second])).toEqual({
      responses: 2,
      responseChars: first.length + second.length,
      sourceChars: 16,
      uniqueChars: 13,
      duplicateChars: 3,
      duplicateShare: 3 / 16,
    });
  });

  it('counts an edited line as new source', () => {
    const before = '**`a.ts`**\n```\n1\told\n```';
    const after = '**`a.ts`**\n```\n1\tnew\n```';
    expect(measureDuplicates([before, after]).duplicateChars).toBe(0);
    expect(measureDuplicates([before, before]).duplicateChars).toBe(4);
  });

  it('reports a zero share when there is no source', () => {
    expect(measureDuplicates(['just prose'])).toMatchObject({
      responses: 1,
      sourceChars: 0,
      duplicateShare: 0,
    });
    expect(measureDuplicates([])).toMatchObject({ responses: 0, responseChars: 0 });
  });
});

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

describe('what the parser and the measure return is frozen', () => {
  it('sections, their lines and pointed spans, and the report', () => {
    const text = '**`a.ts`**\n> Sent earlier: L1-2.\n```ts\n3\tx\n```\n';
    const parsed = parseRenderedResponse(text);
    const [section] = parsed.sections;
    for (const part of [parsed, parsed.sections, section, section!.lines, section!.lines[0]]) {
      expect(Object.isFrozen(part)).toBe(true);
    }
    expect(section!.pointed).toEqual(ranges('1-2'));
    expect(Object.isFrozen(section!.pointed)).toBe(true);
    expect(Object.isFrozen(section!.pointed[0])).toBe(true);
    expect(Object.isFrozen(parseRenderedResponse(7 as never).sections)).toBe(true);
    expect(Object.isFrozen(measureDuplicates([text]))).toBe(true);
  });
});
