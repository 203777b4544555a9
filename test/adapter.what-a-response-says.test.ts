/**
 * What the reference renderers say beside the source (DESIGN rev 3): compact
 * pointers for whole small sections, the refresh offer once per response
 * after its pointers, a cut that says where it is, files the budget left out,
 * a refresh the tool could not read, and the limits a plan's thresholds set
 * on its pointer. Real plans, rendered and read back.
 */
import { describe, expect, it } from 'vitest';
import {
  createEmissionRecorder,
  formatCut,
  formatResponseHeader,
  parseRenderedResponse,
  renderMarkdown,
  renderRead,
} from '../src/adapter/index.js';
import {
  fingerprint,
  type LineRange,
  type PlanCallFile,
  planCall,
  planRead,
} from '../src/index.js';
import { callRecord, projectState, span as r } from './_build.js';

const lines = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `const ${tag}${i + 1} = compute(${i + 1}); // ${tag}\n`).join(
    '',
  );
const a = lines(80, 'a');
const b = lines(80, 'b');
const c = lines(80, 'c');

/** A prior in which response #`index` served each `[path, content, ranges]`. */
function prior(...served: [string, string, LineRange[], number][]) {
  return projectState(
    served.map(([path, content, ranges, index]) => ({
      ...callRecord([{ path, ranges, chars: 1, fingerprint: fingerprint(content) }]),
      index,
    })),
  );
}

function markdown(files: PlanCallFile[], p: ReturnType<typeof prior> | null, extra = {}) {
  const plan = planCall({ files, prior: p, ...extra });
  const recorder = createEmissionRecorder({ projectRoot: '/repo' });
  const { text } = renderMarkdown({ plan, sources: files, recorder, refresh: true, ...extra });
  return { plan, text, emission: recorder.finish(text.length) };
}

describe('renderMarkdown: pointers and the refresh offer', () => {
  it('writes a whole small section as a compact pointer, and offers refresh once, after the pointers', () => {
    const { text } = markdown(
      [
        { path: 'a.ts', content: a, intended: [r(10, 14), r(30, 60)] },
        { path: 'b.ts', content: b, intended: [r(1, 30)] },
        { path: 'c.ts', content: c, intended: [r(1, 5)] },
      ],
      prior(['a.ts', a, [r(10, 14)], 2], ['b.ts', b, [r(1, 30)], 3]),
    );
    const out = text.split('\n');
    expect(out).toContain('> `a.ts` L10-14: unchanged, sent in #2.');
    expect(out).toContain(
      '> Sent in response #3 of this conversation: `b.ts` L1-30. The file is unchanged since.',
    );
    expect(text.match(/refresh/g)).toHaveLength(1);
    expect(out.at(-1)).toBe(
      'If responses #3 and #2 are no longer in your context, call this tool again with `refresh: [3, 2]`.',
    );
    // Read back, each pointer belongs to its file.
    const sections = parseRenderedResponse(text).sections;
    expect(sections.map((s) => [s.path, s.pointer, s.pointed])).toEqual([
      ['a.ts', true, [r(10, 14)]],
      ['b.ts', true, [r(1, 30)]],
      ['c.ts', false, []],
    ]);
  });

  it('says nothing of refresh when no pointer was written', () => {
    const { text } = markdown([{ path: 'c.ts', content: c, intended: [r(1, 5)] }], prior());
    expect(text).not.toMatch(/refresh/);
  });

  it('maxSpansInPointer and maxSymbolsInPointer given to planCall reach the rendered pointer', () => {
    const symbols = [3, 20, 40, 60].map((start, i) => ({
      name: `S${i}`,
      kind: 'function' as const,
      start,
      end: start + 5,
    }));
    const files = [
      { path: 'a.ts', content: a, intended: [r(1, 10), r(20, 30), r(40, 50), r(60, 70)] },
    ];
    const p = prior(['a.ts', a, [r(1, 80)], 1]);
    const render = (thresholds?: object) => {
      const plan = planCall({ files, prior: p, thresholds, holdBack: false });
      const recorder = createEmissionRecorder({ projectRoot: '/repo' });
      return renderMarkdown({ plan, sources: [{ ...files[0]!, symbols }], recorder }).text;
    };
    expect(render()).toContain('L1-10, L20-30, L40-50, L60-70 (S0, S1, S2, S3)');
    expect(render({ maxSpansInPointer: 1, maxSymbolsInPointer: 2 })).toContain(
      'L1-10, +3 more spans (S0, S1, +2 more)',
    );
  });
});

describe('renderMarkdown: a cut says so', () => {
  it('a file the budget cut ends its section with the first line not sent', () => {
    const { text, plan } = markdown([{ path: 'a.ts', content: a, intended: [r(1, 80)] }], null, {
      budget: { maxChars: 400 },
    });
    const cutAt = plan.files[0]!.cutAt!;
    expect(cutAt).toBeGreaterThan(1);
    expect(text.trimEnd().split('\n').at(-1)).toBe(formatCut('a.ts', cutAt));
    expect(formatCut('a.ts', cutAt)).toBe(
      `\`a.ts\` from L${cutAt} on is not in this response (its budget): ask again for it, or more narrowly.`,
    );
    // Not read as a pointer, nor as source.
    expect(parseRenderedResponse(text).sections[0]!.pointer).toBe(false);
  });

  it('names the files the budget left out whole, by rank, in one line', () => {
    const { text } = markdown(
      [
        { path: 'a.ts', content: a, intended: [r(1, 10)] },
        { path: 'b.ts', content: b, intended: [r(1, 10)] },
        { path: 'c.ts', content: c, intended: [r(1, 10)] },
      ],
      null,
      { budget: { maxFiles: 1 } },
    );
    expect(text.trimEnd().split('\n').at(-1)).toBe(
      'Not in this response (its budget): `b.ts`, `c.ts`; ask again for them, or more narrowly.',
    );
  });

  it('an uncut response says nothing of a budget', () => {
    const { text } = markdown([{ path: 'a.ts', content: a, intended: [r(1, 10)] }], null, {
      budget: { maxChars: 10_000 },
    });
    expect(text).not.toMatch(/budget/);
  });
});

describe('a refresh the tool could not read', () => {
  it('is said in one line under the number; one it could read, or none, is not', () => {
    const note =
      '`refresh` was not understood, so nothing was sent again: pass true, or the numbers of the responses to send again, e.g. [3].';
    for (const junk of ['yes', '[0]', 3, { calls: [1] }, [1.5]]) {
      expect(formatResponseHeader({ callIndex: 4, refreshArgument: junk })).toBe(
        `Response #4\n${note}`,
      );
    }
    for (const fine of [undefined, null, false, 'false', '', true, 'true', '3', '[2, 3]', [2]]) {
      expect(formatResponseHeader({ callIndex: 4, refreshArgument: fine })).toBe('Response #4');
    }
    expect(formatResponseHeader({ refreshArgument: 'yes' })).toBe(note);
    const { text } = markdown([{ path: 'a.ts', content: a, intended: [r(1, 3)] }], prior(), {
      refreshArgument: 'yes',
    });
    expect(text.split('\n').slice(0, 2)).toEqual(['Response #1', note]);
  });
});

describe('a refresh or a context the tool has no use for', () => {
  it('says in one line which refresh numbers this context has not sent yet', () => {
    expect(formatResponseHeader({ callIndex: 3, refreshArgument: [1, 99] }).split('\n')).toEqual([
      'Response #3',
      '`refresh` named #99, which this context has not sent (this is #3): nothing was sent again for it.',
    ]);
    expect(formatResponseHeader({ callIndex: 3, refreshArgument: [3, 4] }).split('\n')[1]).toMatch(
      /named #3, #4, .* for them\.$/,
    );
    expect(formatResponseHeader({ callIndex: 3, refreshArgument: [1, 2] })).toBe('Response #3');
    expect(formatResponseHeader({ callIndex: 3, refreshArgument: true })).toBe('Response #3');
  });

  it('says in one line that a context it was sent is not a token it gave, and which to send', () => {
    expect(
      formatResponseHeader({ callIndex: 1, context: 'k7f3q2ab', contextArgument: 'x!' }).split(
        '\n',
      ),
    ).toEqual([
      'Response #1 · context k7f3q2ab (send "context": "k7f3q2ab" with your later calls to this tool)',
      '`context` "x!" is not a token a response of this tool gave, so this response starts a new context: send k7f3q2ab.',
    ]);
    for (const fine of [undefined, null, '', 'k7f3q2ab']) {
      expect(
        formatResponseHeader({ callIndex: 1, context: 'k7f3q2ab', contextArgument: fine }).split(
          '\n',
        ),
      ).toHaveLength(1);
    }
    expect(formatResponseHeader({ callIndex: 1, contextArgument: 'y'.repeat(80) })).toMatch(
      /^Response #1\n`context` "y{22}… is not a token a response of this tool gave\.$/,
    );
  });
});

describe('renderRead', () => {
  it('takes the response number from the plan, as renderMarkdown does; the callIndex option overrides it', () => {
    const p = prior(['a.ts', a, [r(1, 5)], 1]);
    const plan = planRead({ path: 'a.ts', content: a, range: r(1, 8), prior: p });
    const read = (extra = {}) =>
      renderRead({
        plan,
        content: a,
        recorder: createEmissionRecorder({ projectRoot: '/r' }),
        ...extra,
      }).text;
    expect(read().split('\n')[0]).toBe('Response #2');
    expect(read({ callIndex: 7 }).split('\n')[0]).toBe('Response #7');
    expect(read({ callIndex: null }).split('\n')[0]).not.toMatch(/Response/);
  });

  it('ends a window the budget cut with the first line not sent', () => {
    const plan = planRead({
      path: 'a.ts',
      content: a,
      range: r(1, 80),
      prior: null,
      budget: { maxChars: 200 },
    });
    const { text } = renderRead({
      plan,
      content: a,
      recorder: createEmissionRecorder({ projectRoot: '/r' }),
    });
    expect(text.trimEnd().split('\n').at(-1)).toBe(formatCut('a.ts', plan.cutAt!));
  });
});
