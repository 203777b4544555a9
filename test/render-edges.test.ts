/**
 * renderMarkdown at its edges: the hard cap at and around its value, the
 * title, spans that lie past the end of the file, the symbols in a header,
 * what the pointer writer and the recorder are told, and inputs that are only
 * partly usable. Expected texts are written out by hand.
 */
import { describe, expect, it } from 'vitest';
import {
  createEmissionRecorder,
  type PointerInput,
  type RenderablePlan,
  renderMarkdown,
} from '../src/adapter/index.js';
import type { LineRange } from '../src/ranges/index.js';

const content = 'alpha\nbeta\ngamma\ndelta\nepsilon';

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

/** An array that says it is `length` long while holding more entries past that. */
function shortLength<T>(items: T[], length: number): T[] {
  return new Proxy(items, {
    get(target, key, receiver) {
      return key === 'length' ? length : Reflect.get(target, key, receiver);
    },
  });
}

describe('renderMarkdown: the hard cap', () => {
  it('keeps a section that reaches the cap exactly', () => {
    expect(sectionA1).toHaveLength(29);
    expect(render([full('a.ts', [{ start: 1, end: 1 }])], { maxResponseChars: 29 })).toEqual({
      text: sectionA1,
      dropped: [],
      recorded: ['a.ts'],
    });
  });

  it('a cap of 0 drops every section', () => {
    expect(render([full('a.ts', [{ start: 1, end: 1 }])], { maxResponseChars: 0 })).toEqual({
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
    expect(render([full('a.ts', [{ start: 1, end: 1 }])], { maxResponseChars })).toEqual({
      text: sectionA1,
      dropped: [],
      recorded: ['a.ts'],
    });
  });
});

describe('renderMarkdown: text between sections', () => {
  it('an empty title adds no first line', () => {
    expect(render([full('a.ts', [{ start: 1, end: 1 }])], { title: '' }).text).toBe(sectionA1);
  });

  it('a file whose spans all lie past the end renders nothing, not even its header', () => {
    const out = render([
      full('a.ts', [{ start: 1, end: 1 }]),
      full('b.ts', [{ start: 99, end: 120 }]),
      full('c.ts', [{ start: 2, end: 2 }]),
    ]);
    expect(out.text).toBe(`${sectionA1}\n${sectionC2}`);
    expect(out.recorded).toEqual(['a.ts', 'c.ts']);
  });

  it('a span past the end is left out, not rendered as an empty fence', () => {
    expect(
      render([
        full('a.ts', [
          { start: 1, end: 1 },
          { start: 99, end: 120 },
        ]),
      ]).text,
    ).toBe(sectionA1);
  });

  it('a path without an extension gets a bare fence, even when its name is a language', () => {
    expect(render([full('go', [{ start: 1, end: 1 }])]).text).toBe(
      '**`go`**\n```\n1\talpha\n```\n',
    );
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
    expect(render([full(path, [{ start: 1, end: 1 }])]).text).toBe(
      `**\`${path}\`**\n\`\`\`${lang}\n1\talpha\n\`\`\`\n`,
    );
  });

  it('a path that is only an extension still names its language', () => {
    expect(render([full('.py', [{ start: 1, end: 1 }])]).text).toBe(
      '**`.py`**\n```python\n1\talpha\n```\n',
    );
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
            render: 'backref',
            covered: [{ start: 1, end: 5 }],
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
      { path: 'a.ts', covered: [{ start: 1, end: 5 }], symbols: [], partial: false },
    ]);
  });

  it('a file without a string fingerprint is reported with an empty one', () => {
    const calls: unknown[][] = [];
    const spy = {
      source: (...args: unknown[]) => calls.push(['source', ...args]),
      backref: (...args: unknown[]) => calls.push(['backref', ...args]),
      drop: (...args: unknown[]) => calls.push(['drop', ...args]),
    };
    renderMarkdown({
      plan: {
        files: [
          {
            path: 'a.ts',
            fingerprint: 7 as never,
            render: 'partial',
            covered: [{ start: 1, end: 2 }],
            emit: [{ start: 4, end: 4 }],
          },
        ],
      },
      sources: [{ path: 'a.ts', content }],
      recorder: spy as never,
    });
    // delta + its newline: 6 chars.
    expect(calls).toEqual([
      ['backref', 'a.ts', [{ start: 1, end: 2 }], ''],
      ['source', 'a.ts', { start: 4, end: 4 }, 6, ''],
    ]);
  });

  it.each([['source'], ['backref'], ['drop']])(
    'a recorder without %s renders nothing',
    (missing) => {
      const real = createEmissionRecorder({ projectRoot: '/r' });
      const methods: Record<string, unknown> = {
        source: real.source,
        backref: real.backref,
        drop: real.drop,
      };
      delete methods[missing];
      const out = renderMarkdown({
        plan: { files: [full('a.ts', [{ start: 1, end: 1 }])] },
        sources: [{ path: 'a.ts', content }],
        recorder: methods as never,
      });
      expect(out).toEqual({ text: '', dropped: [] });
    },
  );
});

describe('renderMarkdown on partly usable input', () => {
  it('reads the plan only as far as its length', () => {
    const files = shortLength(
      [full('a.ts', [{ start: 1, end: 1 }]), full('c.ts', [{ start: 2, end: 2 }])],
      1,
    );
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
      plan: { files: [full('a.ts', [{ start: 1, end: 1 }]), full('c.ts', [{ start: 2, end: 2 }])] },
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
      plan: { files: [{ ...full('a.ts', [{ start: 1, end: 1 }]), path: path as never }] },
      sources: [{ path: path as never, content }],
      recorder,
    });
    expect(out).toEqual({ text: '', dropped: [] });
    expect(recorder.finish(0).files).toEqual([]);
  });
});
