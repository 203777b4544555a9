/**
 * renderMarkdown, the reference renderer: the layout (header, quoted pointer,
 * numbered fences), what it tells the recorder, and the recorded emission
 * against the rendered text over the sample sequences; then its edges — the
 * hard cap at and around its value, the title, spans past the end of the
 * file, symbols in a header, fence languages and quoting, what the pointer
 * writer is told, and inputs that are only partly usable. Expected texts are
 * written out by hand.
 */
import { describe, expect, it } from 'vitest';
import {
  createEmissionRecorder,
  type PointerInput,
  parseRenderedResponse,
  type RenderablePlan,
  renderMarkdown,
} from '../src/adapter/index.js';
import { sampleProject, sampleSequence } from '../src/cli/sample.js';
import { fingerprint } from '../src/hash/fingerprint.js';
import type { LineRange } from '../src/index.js';
import {
  createLedger,
  ledgerReducer,
  mergeRanges,
  planCall,
  projectFromView,
  sessionView,
} from '../src/index.js';
import { fileEmission, ranges } from './_build.js';
import { shortLength } from './_short-length.js';

const content = 'alpha\nbeta\ngamma\ndelta\nepsilon';
const plan = (files: RenderablePlan[]) => ({ files });
const fp = fingerprint(content);

describe('renderMarkdown', () => {
  it('writes a header, the pointer as a quote, then numbered fences', () => {
    const recorder = createEmissionRecorder({ projectRoot: '/r', query: 'q' });
    const { text } = renderMarkdown({
      plan: plan([
        {
          path: 'src/x.ts',
          fingerprint: fp,
          render: 'partial',
          covered: ranges('1-2'),
          emit: ranges('4-5'),
        },
      ]),
      sources: [{ path: 'src/x.ts', content }],
      recorder,
      pointer: (p) => `POINTER ${p.path} ${p.covered.length} ${p.partial}`,
      title: 'Results',
    });
    expect(text).toBe(
      'Results\n\n**`src/x.ts`**\n> POINTER src/x.ts 1 true\n```ts\n4\tdelta\n5\tepsilon\n```\n',
    );
    // delta\n (6) + epsilon (7, the file's last line has no terminator)
    expect(recorder.finish(text.length).files).toEqual([fileEmission('src/x.ts', '4-5', 13, fp)]);
  });

  it('renders nothing for a skipped file and reports nothing for it', () => {
    const recorder = createEmissionRecorder({ projectRoot: '/r' });
    const { text } = renderMarkdown({
      plan: plan([
        {
          path: 'a.py',
          fingerprint: fp,
          render: 'skipped',
          covered: [],
          emit: ranges('1-3'),
        },
      ]),
      sources: [{ path: 'a.py', content }],
      recorder,
    });
    expect(text).toBe('');
    expect(recorder.finish(0).files).toEqual([]);
  });

  it('drops whole sections past the hard cap, reports drop, records only what survived', () => {
    const recorder = createEmissionRecorder({ projectRoot: '/r' });
    const files: RenderablePlan[] = [
      { path: 'a.ts', fingerprint: fp, render: 'full', covered: [], emit: ranges('1') },
      {
        path: 'big.ts',
        fingerprint: fp,
        render: 'full',
        covered: [],
        emit: ranges('1-5'),
      },
      { path: 'c.ts', fingerprint: fp, render: 'full', covered: [], emit: ranges('2') },
    ];
    const sources = files.map((f) => ({ path: f.path, content }));
    const { text, dropped } = renderMarkdown({
      plan: plan(files),
      sources,
      recorder,
      maxResponseChars: 60,
    });
    expect(text.length).toBeLessThanOrEqual(60);
    expect(dropped).toEqual(['big.ts']);
    expect(recorder.dropped()).toEqual(['big.ts']);
    expect(parseRenderedResponse(text).sections.map((s) => s.path)).toEqual(['a.ts', 'c.ts']);
    expect(recorder.finish(text.length).files.map((f) => f.path)).toEqual(['a.ts', 'c.ts']);
  });

  it('clips spans past the end of the file instead of inventing lines', () => {
    const recorder = createEmissionRecorder({ projectRoot: '/r' });
    const { text } = renderMarkdown({
      plan: plan([
        { path: 'a', fingerprint: fp, render: 'full', covered: [], emit: ranges('4-99') },
      ]),
      sources: [{ path: 'a', content }],
      recorder,
    });
    expect(parseRenderedResponse(text).sections[0]!.lines.map((l) => l.line)).toEqual([4, 5]);
    expect(recorder.finish(0).files[0]!.ranges).toEqual(ranges('4-5'));
  });
});

/** The chars a section's lines stand for in the file: text + terminator, the last line without. */
function charsOfShown(lines: readonly { line: number; text: string }[], lineCount: number): number {
  return lines.reduce((sum, l) => sum + l.text.length + (l.line < lineCount ? 1 : 0), 0);
}

describe('the recorded emission matches the rendered text exactly', () => {
  const project = sampleProject();
  for (const name of ['checkout', 'restock']) {
    it(`over the "${name}" sequence, call by call, with dedup and a hard cap`, () => {
      const sequence = sampleSequence(name)!;
      let ledger = createLedger();
      let pointers = 0;
      for (const [i, call] of sequence.calls.entries()) {
        const files = call.files.map((f) => ({
          ...f,
          content: project.get(f.path)!.content,
          symbols: project.get(f.path)!.symbols,
        }));
        const prior = projectFromView(sessionView(ledger), '/sample');
        const planned = planCall({ files, prior, budget: sequence.budget });
        const recorder = createEmissionRecorder({ projectRoot: '/sample', query: call.query });
        // The last call gets a cap that cuts something, so drop is exercised too.
        const cap = i === sequence.calls.length - 1 ? 2500 : undefined;
        const { text, dropped } = renderMarkdown({
          plan: planned,
          sources: files,
          recorder,
          maxResponseChars: cap,
        });
        if (cap !== undefined) expect(dropped.length).toBeGreaterThan(0);
        const emission = recorder.finish(text.length);
        const sections = parseRenderedResponse(text).sections;
        // A pointer delivers no source: only sections that carry lines are recorded.
        const sent = sections.filter((s) => s.lines.length > 0);

        expect(emission.files.map((f) => f.path)).toEqual(sent.map((s) => s.path));
        expect(emission.responseChars).toBe(text.length);
        let sourceChars = 0;
        for (const section of sections) {
          if (section.pointer) pointers++;
          if (section.lines.length === 0) continue;
          const file = emission.files.find((f) => f.path === section.path)!;
          const fileLines = project.get(section.path)!.content.split('\n');
          for (const l of section.lines) expect(l.text).toBe(fileLines[l.line - 1]);
          const shown: LineRange[] = section.lines.map((l) => ({ start: l.line, end: l.line }));
          expect(file.ranges).toEqual(mergeRanges(shown));
          const chars = charsOfShown(section.lines, fileLines.length);
          expect(file.chars).toBe(chars);
          expect(file.fingerprint).toBe(fingerprint(project.get(section.path)!.content));
          sourceChars += chars;
        }
        expect(emission.sourceChars).toBe(sourceChars);
        ledger = ledgerReducer(ledger, { type: 'recorded', emission });
      }
      expect(pointers).toBeGreaterThan(0);
    });
  }
});

function full(path: string, emit: LineRange[]): RenderablePlan {
  return { path, fingerprint: 'fp', render: 'full', covered: [], emit };
}

/** `a.ts` line 1, as rendered: 10 + 1 + 5 + 1 + 7 + 1 + 3 + 1 = 29 chars. */
const sectionA1 = '**`a.ts`**\n```ts\n1\talpha\n```\n';
/** `c.ts` line 2, as rendered. */
const sectionC2 = '**`c.ts`**\n```ts\n2\tbeta\n```\n';

function render(files: RenderablePlan[], extra: Record<string, unknown> = {}) {
  const recorder = createEmissionRecorder({ projectRoot: '/r' });
  const sources = files.map((f) => ({ path: f.path, content }));
  const out = renderMarkdown({ plan: { files }, sources, recorder, ...extra });
  return { ...out, recorded: recorder.finish(out.text.length).files.map((f) => f.path) };
}

describe('renderMarkdown: the hard cap', () => {
  it('keeps a section that reaches the cap exactly', () => {
    expect(sectionA1).toHaveLength(29);
    expect(render([full('a.ts', ranges('1'))], { maxResponseChars: 29 })).toEqual({
      text: sectionA1,
      dropped: [],
      recorded: ['a.ts'],
    });
  });

  it('a cap of 0 drops every section', () => {
    expect(render([full('a.ts', ranges('1'))], { maxResponseChars: 0 })).toEqual({
      text: '',
      dropped: ['a.ts'],
      recorded: [],
    });
  });

  it.each([
    ['negative', -1],
    ['not a number', '10'],
    ['NaN', Number.NaN],
  ])('a cap that is %s is no cap', (_label, maxResponseChars) => {
    expect(render([full('a.ts', ranges('1'))], { maxResponseChars })).toEqual({
      text: sectionA1,
      dropped: [],
      recorded: ['a.ts'],
    });
  });
});

describe('renderMarkdown: text between sections', () => {
  it('an empty title adds no first line', () => {
    expect(render([full('a.ts', ranges('1'))], { title: '' }).text).toBe(sectionA1);
  });

  it('a file whose spans all lie past the end renders nothing, not even its header', () => {
    const out = render([
      full('a.ts', ranges('1')),
      full('b.ts', ranges('99-120')),
      full('c.ts', ranges('2')),
    ]);
    expect(out.text).toBe(`${sectionA1}\n${sectionC2}`);
    expect(out.recorded).toEqual(['a.ts', 'c.ts']);
  });

  it('a span past the end is left out, not rendered as an empty fence', () => {
    expect(render([full('a.ts', ranges('1, 99-120'))]).text).toBe(sectionA1);
  });

  it('a path without an extension gets a bare fence, even when its name is a language', () => {
    expect(render([full('go', ranges('1'))]).text).toBe('**`go`**\n```\n1\talpha\n```\n');
  });

  it.each([
    ['x.tsx', 'tsx'],
    ['x.mts', 'ts'],
    ['x.cts', 'ts'],
    ['x.js', 'js'],
    ['x.mjs', 'js'],
    ['x.cjs', 'js'],
    ['x.go', 'go'],
    ['x.rs', 'rust'],
    ['X.PY', 'python'],
  ])('%s opens a %s fence', (path, lang) => {
    expect(render([full(path, ranges('1'))]).text).toBe(
      `**\`${path}\`**\n\`\`\`${lang}\n1\talpha\n\`\`\`\n`,
    );
  });

  it('a path that is only an extension still names its language', () => {
    expect(render([full('.py', ranges('1'))]).text).toBe('**`.py`**\n```python\n1\talpha\n```\n');
  });
});

describe('renderMarkdown: the symbols a source comes with', () => {
  const text = 'l1\nl2\nl3\nl4';
  const header = (symbols: unknown) => {
    const { text: out } = renderMarkdown({
      plan: { files: [full('a.ts', ranges('1-4'))] },
      sources: [{ path: 'a.ts', content: text, symbols: symbols as never }],
      recorder: createEmissionRecorder({ projectRoot: '/r' }),
    });
    return out.split('\n')[0];
  };

  it("reads lines given as { startLine, endLine } (Codegraph's shape) as well as { start, end }", () => {
    expect(
      header([
        { name: 'First', kind: 'function', startLine: 1, endLine: 2 },
        { name: 'Second', kind: 'class', start: 3, end: 4 },
      ]),
    ).toBe('**`a.ts`** — First, Second');
  });

  it('names a kind this library does not know; never an import or an export', () => {
    expect(
      header([
        { name: 'Point', kind: 'struct', start: 1, end: 1 },
        { name: 'fs', kind: 'import', start: 2, end: 2 },
        { name: 'x', kind: 'export', start: 3, end: 3 },
      ]),
    ).toBe('**`a.ts`** — Point');
  });

  it.each([
    ['a blank name', { name: '  ', kind: 'function', start: 1, end: 1 }],
    ['a name that is not a string', { name: 7, kind: 'function', start: 1, end: 1 }],
    ['reversed lines', { name: 'f', kind: 'function', start: 3, end: 1 }],
    ['no lines', { name: 'f', kind: 'function' }],
    ['start with endLine', { name: 'f', kind: 'function', start: 1, endLine: 2 }],
    ['not an object', 'f'],
  ])('a symbol with %s names nothing', (_label, symbol) => {
    expect(header([symbol])).toBe('**`a.ts`**');
  });
});

describe('renderMarkdown: symbols in the header', () => {
  const seven = 'l1\nl2\nl3\nl4\nl5\nl6\nl7';
  const symbols = [1, 2, 3, 4, 5, 6, 7].map((n) => ({
    name: `S${n}`,
    kind: 'function' as const,
    start: n,
    end: n,
  }));
  const header = (end: number) => {
    const recorder = createEmissionRecorder({ projectRoot: '/r' });
    const { text } = renderMarkdown({
      plan: { files: [full('a.ts', [{ start: 1, end }])] },
      sources: [{ path: 'a.ts', content: seven, symbols }],
      recorder,
    });
    return text.split('\n')[0];
  };

  it('names up to five symbols, comma-separated', () => {
    expect(header(5)).toBe('**`a.ts`** — S1, S2, S3, S4, S5');
  });

  it('past five, names five and counts the rest', () => {
    expect(header(7)).toBe('**`a.ts`** — S1, S2, S3, S4, S5, +2 more');
  });
});

describe('renderMarkdown: what the pointer writer and the recorder are told', () => {
  it('a pointer with nothing emitted after it is not partial', () => {
    const told: PointerInput[] = [];
    const recorder = createEmissionRecorder({ projectRoot: '/r' });
    const { text } = renderMarkdown({
      plan: {
        files: [
          {
            path: 'a.ts',
            fingerprint: 'fp',
            render: 'pointer',
            covered: ranges('1-5'),
            emit: [],
          },
        ],
      },
      sources: [{ path: 'a.ts', content }],
      recorder,
      pointer: (input) => {
        told.push(input);
        return 'SEEN';
      },
    });
    expect(text).toBe('**`a.ts`**\n> SEEN\n');
    expect(told).toEqual([
      {
        path: 'a.ts',
        covered: ranges('1-5'),
        symbols: [],
        partial: false,
        calls: [],
        generation: null,
        refresh: false,
        compact: true,
        maxSpansInPointer: 4,
        maxSymbolsInPointer: 5,
      },
    ]);
  });

  it('a file without a string fingerprint is reported with an empty one', () => {
    const calls: unknown[][] = [];
    const spy = {
      source: (...args: unknown[]) => calls.push(['source', ...args]),
      pointer: (...args: unknown[]) => calls.push(['pointer', ...args]),
      drop: (...args: unknown[]) => calls.push(['drop', ...args]),
      numbered: (...args: unknown[]) => calls.push(['numbered', ...args]),
    };
    renderMarkdown({
      plan: {
        files: [
          {
            path: 'a.ts',
            fingerprint: 7 as never,
            render: 'partial',
            covered: ranges('1-2'),
            emit: ranges('4'),
          },
        ],
      },
      sources: [{ path: 'a.ts', content }],
      recorder: spy as never,
    });
    // delta + its newline: 6 chars.
    expect(calls).toEqual([
      ['numbered', null, null],
      ['pointer', 'a.ts', ranges('1-2'), ''],
      ['source', 'a.ts', { start: 4, end: 4 }, 6, ''],
    ]);
  });

  it.each([['source'], ['pointer'], ['drop']])(
    'a recorder without %s renders nothing',
    (missing) => {
      const real = createEmissionRecorder({ projectRoot: '/r' });
      const methods: Record<string, unknown> = {
        source: real.source,
        pointer: real.pointer,
        drop: real.drop,
      };
      delete methods[missing];
      const out = renderMarkdown({
        plan: { files: [full('a.ts', ranges('1'))] },
        sources: [{ path: 'a.ts', content }],
        recorder: methods as never,
      });
      expect(out).toEqual({ text: '', dropped: [] });
    },
  );
});

describe('renderMarkdown on partly usable input', () => {
  it.each<[string, LineRange[], string]>([
    [
      'a plan whose spans are out of order or overlap renders each line once, in order',
      ranges('3-4, 1-2, 2-3'),
      '**`a.ts`**\n```ts\n1\talpha\n2\tbeta\n3\tgamma\n4\tdelta\n```\n',
    ],
    [
      'spans that only touch are joined into one fence',
      ranges('1, 2'),
      '**`a.ts`**\n```ts\n1\talpha\n2\tbeta\n```\n',
    ],
    [
      'spans with a gap keep their two fences',
      ranges('1, 3'),
      '**`a.ts`**\n```ts\n1\talpha\n```\n```ts\n3\tgamma\n```\n',
    ],
  ])('%s', (_rule, spans, text) => {
    expect(render([full('a.ts', spans)]).text).toBe(text);
  });

  it('reads the plan only as far as its length', () => {
    const files = shortLength([full('a.ts', ranges('1')), full('c.ts', ranges('2'))], 1);
    const out = renderMarkdown({
      plan: { files },
      sources: [
        { path: 'a.ts', content },
        { path: 'c.ts', content },
      ],
      recorder: createEmissionRecorder({ projectRoot: '/r' }),
    });
    expect(out.text).toBe(sectionA1);
  });

  it('reads the sources only as far as their length', () => {
    const out = renderMarkdown({
      plan: { files: [full('a.ts', ranges('1')), full('c.ts', ranges('2'))] },
      sources: shortLength(
        [
          { path: 'a.ts', content },
          { path: 'c.ts', content },
        ],
        1,
      ),
      recorder: createEmissionRecorder({ projectRoot: '/r' }),
    });
    expect(out.text).toBe(sectionA1);
  });

  it.each([
    ['empty', ''],
    ['not a string', 7],
  ])('a plan file and a source whose paths are both %s render nothing', (_label, path) => {
    const recorder = createEmissionRecorder({ projectRoot: '/r' });
    const out = renderMarkdown({
      plan: { files: [{ ...full('a.ts', ranges('1')), path: path as never }] },
      sources: [{ path: path as never, content }],
      recorder,
    });
    expect(out).toEqual({ text: '', dropped: [] });
    expect(recorder.finish(0).files).toEqual([]);
  });
});

describe('renderMarkdown: fence languages and quoting', () => {
  const three = 'one\ntwo\nthree';

  it.each([
    ['src/a.ts', 'ts'],
    ['lib/b.PY', 'python'],
    ['notes.txt', ''],
    ['Makefile', ''],
  ])('fences %s as "%s"', (path, lang) => {
    const { text } = renderMarkdown({
      plan: {
        files: [{ path, fingerprint: 'fp', render: 'full', emit: ranges('1'), covered: [] }],
      },
      sources: [{ path, content: three }],
      recorder: createEmissionRecorder({ projectRoot: '/r' }),
    });
    expect(text).toBe(`**\`${path}\`**\n\`\`\`${lang}\n1\tone\n\`\`\`\n`);
  });

  it('quotes every pointer line: already-quoted lines kept, blank lines as ">"', () => {
    const { text } = renderMarkdown({
      plan: {
        files: [
          {
            path: 'a.ts',
            fingerprint: 'fp',
            render: 'pointer',
            emit: [],
            covered: ranges('1-3'),
          },
        ],
      },
      sources: [{ path: 'a.ts', content: three }],
      recorder: createEmissionRecorder({ projectRoot: '/r' }),
      pointer: () => 'Sent earlier.\n\n> kept as is\nlast',
    });
    expect(text).toBe('**`a.ts`**\n> Sent earlier.\n>\n> kept as is\n> last\n');
  });
});
