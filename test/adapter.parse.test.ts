/**
 * The response parser and the duplicate measure: sections, pointers and
 * numbered lines read back from rendered text, where a fence opens and
 * closes, what counts as a header or a numbered line, which file a read
 * response's lines belong to, how tokens are counted, and lists read only as
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

  it('does not take a number past the safe integers for a line number', () => {
    const huge = '9007199254740993';
    const fenced = `**\`a.ts\`**\n\`\`\`\n${huge}\tfar\n4\tfour\n\`\`\``;
    expect(parseRenderedResponse(fenced).sections[0]!.lines).toEqual([{ line: 4, text: 'four' }]);
    const read = `${huge}\tfar\n     5\tfive\n`;
    expect(parseRenderedResponse(read).sections[0]!.lines).toEqual([{ line: 5, text: 'five' }]);
  });

  it('a numbered line outside the fences of a rendered section is not source', () => {
    const text = '**`a.ts`**\n     7\tbetween\n```ts\n8\tinside\n```\n9\tafter';
    expect(lines(text)).toEqual([['a.ts', [8]]]);
  });

  it('a fence closes only on a line of backticks alone', () => {
    const text = '**`a.ts`**\n```\nnot numbered ```\n2\ttwo\n```\n3\tafter';
    expect(lines(text)).toEqual([['a.ts', [2]]]);
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

describe('parseRenderedResponse: read responses', () => {
  const paths = (text: string, readPath?: string) =>
    parseRenderedResponse(text, readPath).sections.map((s) => [s.path, s.lines.map((l) => l.line)]);

  it('names a read without a path line or pointer by readPath, else the empty path', () => {
    expect(paths('     1\tx\n     2\ty\n', 'src/a.ts')).toEqual([['src/a.ts', [1, 2]]]);
    expect(paths('     1\tx\n')).toEqual([['', [1]]]);
    expect(paths('     1\tx\n', 42 as never)).toEqual([['', [1]]]);
  });

  it('does not take cat -n line 0 for source', () => {
    expect(paths('     0\tzero\n     1\tone\n', 'a.ts')).toEqual([['a.ts', [1]]]);
  });

  it('names each file of a several-file read by its path line; after a --- without one, none', () => {
    const text = 'a.ts:\n     1\tx\n---\nb.ts:\n     1\tx\n     2\ty\n---\n     3\tz\n';
    expect(paths(text, 'given.ts')).toEqual([
      ['a.ts', [1]],
      ['b.ts', [1, 2]],
      ['', [3]],
    ]);
  });

  it('reads the path lines and separators of a read saved with CRLF line ends', () => {
    const text = 'a.ts:\r\n     1\tx\r\n---\r\nb.ts:\r\n     1\tx\r\n';
    expect(parseRenderedResponse(text).sections).toEqual([
      { path: 'a.ts', pointer: false, pointed: [], lines: [{ line: 1, text: 'x\r' }] },
      { path: 'b.ts', pointer: false, pointed: [], lines: [{ line: 1, text: 'x\r' }] },
    ]);
  });

  it('a pointer names the spans after its path, not those of the prose before it', () => {
    const text = 'Seen at L9: `a.ts` L1-5, L7. The file is unchanged since.\n     8\tx\n';
    expect(parseRenderedResponse(text).sections).toEqual([
      { path: 'a.ts', pointer: true, pointed: ranges('1-5, 7'), lines: [{ line: 8, text: 'x' }] },
    ]);
  });

  it('measures the same line of two files read apart as two lines, not a duplicate', () => {
    const read = '     1\texport const x = 1;\n';
    expect(
      measureDuplicates([
        { text: read, path: 'a.ts' },
        { text: read, path: 'b.ts' },
      ]).duplicateChars,
    ).toBe(0);
    expect(measureDuplicates([read, read]).duplicateChars).toBe(20);
  });
});

describe('measureDuplicates: tokens', () => {
  const a = '**`a.ts`**\n```ts\n1\tx\n2\ty\n```';
  const fields = (report: object) =>
    Object.keys(report).filter((k) => k === 'sourceTokens' || k === 'duplicateTokens');

  it('counts with countTokens line by line, and has no token fields without it', () => {
    expect(measureDuplicates([a, a], () => 5)).toMatchObject({
      sourceTokens: 20,
      duplicateTokens: 10,
    });
    expect(fields(measureDuplicates([a, a]))).toEqual([]);
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('tokenizer down');
      },
    ],
    ['returns -1', () => -1],
    ['returns 1.5', () => 1.5],
    ['returns NaN', () => Number.NaN],
    ['returns 2 ** 53', () => 2 ** 53],
    ['returns a string', () => '4' as never],
  ])(
    'a countTokens that %s gives no token fields, the rest of the report as without it',
    (_, count) => {
      const report = measureDuplicates([a, a], count);
      expect(fields(report)).toEqual([]);
      expect(report).toEqual({
        responses: 2,
        responseChars: 2 * a.length,
        sourceChars: 8,
        uniqueChars: 4,
        duplicateChars: 4,
        duplicateShare: 0.5,
      });
    },
  );

  it('a countTokens wrong on one line gives no token fields, not a count of the others', () => {
    const count = (line: string) => (line === 'y\n' ? -1 : 5);
    expect(fields(measureDuplicates([a, a], count))).toEqual([]);
  });

  it('a count of 0 is a count', () => {
    expect(measureDuplicates([a, a], () => 0)).toMatchObject({
      sourceTokens: 0,
      duplicateTokens: 0,
    });
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
