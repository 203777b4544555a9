/**
 * Numbered responses and pointers that cite them (DESIGN.md rev 2, "Context
 * truth"): renderMarkdown opens a response with its number — the plan's
 * `callIndex`, or the `callIndex` option — and, when the host passes one, the
 * context token to echo; each pointer is told the responses that served its
 * lines (`coveredBy`) and whether the tool takes `refresh`. Junk in any of
 * these prints nothing, never a wrong number.
 */
import { describe, expect, it } from 'vitest';
import {
  createEmissionRecorder,
  formatRefreshOffer,
  formatResponseHeader,
  measureDuplicates,
  type PointerInput,
  parseRenderedResponse,
  type RenderablePlan,
  renderMarkdown,
} from '../src/adapter/index.js';
import {
  createLedger,
  ledgerReducer,
  planCall,
  projectFromView,
  sessionView,
} from '../src/index.js';
import { ranges } from './_build.js';

const content = 'alpha\nbeta\ngamma\n';
const HINT = '(send "context": "k7f3q2ab" with your later calls to this tool)';

const full: RenderablePlan = {
  path: 'a.ts',
  fingerprint: 'fp',
  render: 'full',
  covered: [],
  emit: ranges('1'),
};
const section = '**`a.ts`**\n```ts\n1\talpha\n```\n';

function render(
  plan: { files: RenderablePlan[]; callIndex?: unknown },
  extra: Record<string, unknown> = {},
) {
  const told: PointerInput[] = [];
  const recorder = createEmissionRecorder({ projectRoot: '/r' });
  const out = renderMarkdown({
    plan: plan as never,
    sources: [{ path: 'a.ts', content }],
    recorder,
    pointer: (input) => {
      told.push(input);
      return 'POINTER';
    },
    ...extra,
  });
  return { ...out, told, emission: recorder.finish(out.text.length) };
}

describe('renderMarkdown numbers the response', () => {
  it("opens with the plan's callIndex, before the title", () => {
    expect(render({ files: [full], callIndex: 4 }, { title: 'Results' }).text).toBe(
      `Response #4\nResults\n\n${section}`,
    );
  });

  it('the callIndex option overrides the plan; null prints no number', () => {
    expect(render({ files: [full], callIndex: 4 }, { callIndex: 7 }).text).toBe(
      `Response #7\n\n${section}`,
    );
    expect(render({ files: [full], callIndex: 4 }, { callIndex: null }).text).toBe(section);
  });

  it('a plan without a callIndex (untracked, or written by hand) prints no number', () => {
    expect(render({ files: [full] }).text).toBe(section);
  });

  it.each([
    ['zero', 0],
    ['negative', -3],
    ['a fraction', 1.5],
    ['a string', '4'],
    ['NaN', Number.NaN],
    ['past the safe integers', 2 ** 53],
  ])('a callIndex that is %s prints no number', (_label, callIndex) => {
    expect(render({ files: [full], callIndex }).text).toBe(section);
  });

  it('prints the context token with how to send it back', () => {
    expect(render({ files: [full], callIndex: 1 }, { context: 'k7f3q2ab' }).text).toBe(
      `Response #1 · context k7f3q2ab ${HINT}\n\n${section}`,
    );
  });

  it('a token without a number still prints', () => {
    expect(render({ files: [full] }, { context: 'k7f3q2ab' }).text).toBe(
      `Context k7f3q2ab ${HINT}\n\n${section}`,
    );
  });

  it.each([
    ['too short', 'abc12'],
    ['too long', 'a'.repeat(65)],
    ['a path', '../x/yy'],
    ['with a space', 'k7f3 q2ab'],
    ['not a string', 12345678],
  ])('a context token that is %s prints nothing', (_label, context) => {
    expect(render({ files: [full], callIndex: 2 }, { context }).text).toBe(
      `Response #2\n\n${section}`,
    );
  });

  it('the longest and shortest tokens print', () => {
    const long = `${'A'.repeat(63)}_`;
    expect(render({ files: [full] }, { context: long }).text.split('\n')[0]).toContain(long);
    expect(render({ files: [full] }, { context: 'a-b_c9' }).text.split('\n')[0]).toBe(
      'Context a-b_c9 (send "context": "a-b_c9" with your later calls to this tool)',
    );
  });

  it('the header counts toward the hard cap', () => {
    const withNumber = `Response #4\n\n${section}`;
    expect(
      render({ files: [full], callIndex: 4 }, { maxResponseChars: withNumber.length }).dropped,
    ).toEqual([]);
    expect(
      render({ files: [full], callIndex: 4 }, { maxResponseChars: withNumber.length - 1 }),
    ).toMatchObject({ text: 'Response #4\n', dropped: ['a.ts'] });
  });

  it('the parser and the measure read past the header: it is no section and no source', () => {
    const { text } = render({ files: [full], callIndex: 4 }, { context: 'k7f3q2ab' });
    expect(parseRenderedResponse(text).sections.map((s) => s.path)).toEqual(['a.ts']);
    expect(measureDuplicates([text])).toMatchObject({ sourceChars: 6, responseChars: text.length });
  });
});

describe('renderMarkdown pointers cite the responses that served them', () => {
  const partial: RenderablePlan = {
    path: 'a.ts',
    fingerprint: 'fp',
    render: 'partial',
    covered: ranges('1-2'),
    emit: ranges('3'),
    coveredBy: [5, 3],
  };

  it('tells the pointer writer the plan’s coveredBy; the refresh offer follows the pointers once', () => {
    const { told, text } = render({ files: [partial], callIndex: 6 }, { refresh: true });
    expect(told).toEqual([
      {
        path: 'a.ts',
        covered: ranges('1-2'),
        symbols: [],
        partial: true,
        calls: [5, 3],
        generation: null,
        refresh: false,
        compact: true,
        maxSpansInPointer: 4,
        maxSymbolsInPointer: 5,
      },
    ]);
    expect(text.endsWith(`\n${formatRefreshOffer([5, 3])}`)).toBe(true);
  });

  it('offers refresh only when it is true', () => {
    for (const refresh of [undefined, false, 'true', 1]) {
      expect(render({ files: [partial] }, { refresh }).text).not.toMatch(/refresh/);
    }
  });

  it('a plan without coveredBy cites no response', () => {
    const { coveredBy: _, ...bare } = partial;
    expect(render({ files: [bare] }).told[0]?.calls).toEqual([]);
  });

  it('cites each valid number once, in the order the plan gives', () => {
    const junk = { ...partial, coveredBy: [3, 0, 'x', 3, -2, 2.5, 1] as never };
    expect(render({ files: [junk] }).told[0]?.calls).toEqual([3, 1]);
  });
});

describe('formatResponseHeader', () => {
  it('writes the number, the token, both or nothing', () => {
    expect(formatResponseHeader({ callIndex: 4 })).toBe('Response #4');
    expect(formatResponseHeader({ callIndex: 1, context: 'k7f3q2ab' })).toBe(
      `Response #1 · context k7f3q2ab ${HINT}`,
    );
    expect(formatResponseHeader({ context: 'k7f3q2ab' })).toBe(`Context k7f3q2ab ${HINT}`);
    expect(formatResponseHeader({})).toBe('');
    expect(formatResponseHeader(null as never)).toBe('');
  });
});

describe('what the renderer returns is frozen', () => {
  it('the rendered markdown and its dropped list', () => {
    const out = render({ files: [full] }, { maxResponseChars: 0 });
    expect(Object.isFrozen(out.dropped)).toBe(true);
    const direct = renderMarkdown({
      plan: { files: [full] },
      sources: [{ path: 'a.ts', content }],
      recorder: createEmissionRecorder({ projectRoot: '/r' }),
    });
    expect(Object.isFrozen(direct)).toBe(true);
    expect(Object.isFrozen(direct.dropped)).toBe(true);
    expect(Object.isFrozen(renderMarkdown(null as never))).toBe(true);
  });

  it('the emission, down to its ranges: a caller cannot widen what was recorded', () => {
    const { emission } = render({ files: [full] });
    expect(Object.isFrozen(emission)).toBe(true);
    expect(Object.isFrozen(emission.files)).toBe(true);
    expect(Object.isFrozen(emission.files[0])).toBe(true);
    expect(Object.isFrozen(emission.files[0]!.ranges)).toBe(true);
    expect(Object.isFrozen(emission.files[0]!.ranges[0])).toBe(true);
    expect(() => {
      (emission.files[0]!.ranges[0] as { end: number }).end = 99;
    }).toThrow(TypeError);
  });
});

describe('with the planner and the ledger: numbers in, citations out', () => {
  const file = Array.from({ length: 30 }, (_, i) => `export const c${i + 1} = ${i + 1};`).join(
    '\n',
  );
  const other = 'export const b = 1;\n';

  it('the second response is #2 and its pointer cites #1, with the refresh sentence', () => {
    let ledger = createLedger();
    const texts: string[] = [];
    for (const files of [
      [{ path: 'a.ts', content: file, intended: ranges('1-30') }],
      [
        { path: 'a.ts', content: file, intended: ranges('1-30') },
        { path: 'b.ts', content: other, intended: ranges('1') },
      ],
    ]) {
      const prior = projectFromView(sessionView(ledger), '/repo');
      const plan = planCall({ files, prior });
      const recorder = createEmissionRecorder({ projectRoot: '/repo' });
      const { text } = renderMarkdown({ plan, sources: files, recorder, refresh: true });
      texts.push(text);
      ledger = ledgerReducer(ledger, { type: 'recorded', emission: recorder.finish(text.length) });
    }
    expect(texts[0]!.split('\n')[0]).toBe('Response #1');
    const second = texts[1]!.split('\n');
    expect(second.slice(0, 3)).toEqual(['Response #2', '', '**`a.ts`**']);
    expect(second[3]).toMatch(/^> Sent in response #1 of this conversation: `a\.ts` L1-30\b/);
    expect(second[3]).not.toMatch(/refresh/);
    expect(second.at(-1)).toMatch(/call this tool again with `refresh: \[1\]`\.$/);
  });

  it('an untracked call (no prior) has no number', () => {
    const files = [{ path: 'a.ts', content: file, intended: ranges('1-2') }];
    const { text } = renderMarkdown({
      plan: planCall({ files, prior: null }),
      sources: files,
      recorder: createEmissionRecorder({ projectRoot: '/repo' }),
    });
    expect(text.startsWith('**`a.ts`**')).toBe(true);
  });
});
