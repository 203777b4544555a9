/**
 * renderRead, a read tool's renderer: `cat -n` numbering (the number
 * right-aligned in six columns, a tab, the text), the pointer above the new
 * lines, an unchanged re-read answered by the pointer alone, and every span
 * told to the recorder as it is pushed. Then its inputs when they are junk:
 * nothing renders that the input did not hold, and nothing throws.
 */
import { describe, expect, it } from 'vitest';
import {
  createEmissionRecorder,
  extractSymbols,
  type PointerInput,
  type RenderablePlan,
  renderRead,
} from '../src/adapter/index.js';
import { fingerprint } from '../src/hash/fingerprint.js';
import {
  createLedger,
  ledgerReducer,
  planRead,
  projectFromView,
  sessionView,
} from '../src/index.js';
import { fileEmission, ranges, throwingRecorder } from './_build.js';

const content = 'alpha\nbeta\ngamma\ndelta\nepsilon\n';

function plan(overrides: Partial<RenderablePlan>): RenderablePlan {
  return { path: 'a.ts', fingerprint: 'fp', render: 'full', emit: [], covered: [], ...overrides };
}

/** Renders with a real recorder and a pointer writer that says what it was told. */
function read(p: RenderablePlan, extra: Record<string, unknown> = {}) {
  const recorder = createEmissionRecorder({ projectRoot: '/r' });
  const told: PointerInput[] = [];
  const { text } = renderRead({
    plan: p,
    content,
    recorder,
    pointer: (input) => {
      told.push(input);
      return `POINTER ${input.covered.map((r) => `${r.start}-${r.end}`).join(',')}`;
    },
    ...extra,
  });
  return { text, told, emission: recorder.finish(text.length) };
}

describe('renderRead: the layout', () => {
  it('numbers lines cat -n style: right-aligned in six columns, a tab, the text', () => {
    const { text, emission } = read(plan({ emit: ranges('1-3') }));
    expect(text).toBe('     1\talpha\n     2\tbeta\n     3\tgamma\n');
    // alpha\n beta\n gamma\n: 6 + 5 + 6 chars.
    expect(emission.files).toEqual([fileEmission('a.ts', '1-3', 17, 'fp')]);
    expect(emission.sourceChars).toBe(17);
  });

  it('a number wider than six columns is printed whole', () => {
    const big = 'x\n'.repeat(1_000_000);
    const recorder = createEmissionRecorder({ projectRoot: '/r' });
    const { text } = renderRead({
      plan: plan({ emit: ranges('999999-1000000') }),
      content: big,
      recorder,
    });
    expect(text).toBe('999999\tx\n1000000\tx\n');
  });

  it('puts the pointer above the new lines and records only the new ones', () => {
    const { text, told, emission } = read(
      plan({
        render: 'partial',
        covered: ranges('1-2'),
        emit: ranges('3-5'),
        coveredBy: [3, 1],
      }),
      { refresh: true },
    );
    expect(text).toBe('POINTER 1-2\n     3\tgamma\n     4\tdelta\n     5\tepsilon\n');
    // One pointer a read: the refresh offer is its own last sentence.
    expect(told).toEqual([
      {
        path: 'a.ts',
        covered: ranges('1-2'),
        symbols: [],
        partial: true,
        calls: [3, 1],
        generation: null,
        refresh: true,
        compact: true,
        maxSpansInPointer: 4,
        maxSymbolsInPointer: 5,
      },
    ]);
    // Only what went out: gamma\n delta\n epsilon\n. The pointer delivers no source.
    expect(emission.files).toEqual([fileEmission('a.ts', '3-5', 20, 'fp')]);
  });

  it('an unchanged re-read (pointer) prints the pointer alone, not partial', () => {
    const { text, told, emission } = read(plan({ render: 'pointer', covered: ranges('1-5') }));
    expect(text).toBe('POINTER 1-5\n');
    expect(told[0]?.partial).toBe(false);
    expect(emission.files).toEqual([]);
  });

  it('a full read ignores covered lines: no pointer', () => {
    const { text, told } = read(plan({ covered: ranges('1-2'), emit: ranges('4') }));
    expect(text).toBe('     4\tdelta\n');
    expect(told).toEqual([]);
  });

  it('opens with the response number and the context token when given', () => {
    const { text } = read(plan({ emit: ranges('5') }), {
      callIndex: 4,
      context: 'k7f3q2ab',
    });
    expect(text).toBe(
      'Response #4 · context k7f3q2ab (send "context": "k7f3q2ab" with your later calls to this tool)\n' +
        '     5\tepsilon\n',
    );
  });

  it('names the symbols of the covered lines in the pointer', () => {
    const source = 'export function a() {\n  return 1;\n}\nexport const b = 2;\n';
    const told: PointerInput[] = [];
    renderRead({
      plan: plan({ render: 'pointer', covered: ranges('1-3') }),
      content: source,
      symbols: extractSymbols(source, 'a.ts'),
      recorder: createEmissionRecorder({ projectRoot: '/r' }),
      pointer: (input) => {
        told.push(input);
        return 'P';
      },
    });
    expect(told[0]?.symbols).toEqual(['a']);
  });

  it('clips a window past the end to the last line (POSIX: no empty line after a final newline)', () => {
    const { text, emission } = read(plan({ emit: ranges('4-1000') }));
    expect(text).toBe('     4\tdelta\n     5\tepsilon\n');
    expect(emission.files[0]?.ranges).toEqual(ranges('4-5'));
  });

  it.each([
    ['skipped', plan({ render: 'skipped', emit: ranges('1-2') })],
    ['wholly past the end', plan({ emit: ranges('6-9') })],
    ['with nothing to emit or point at', plan({})],
  ])('a plan %s prints nothing and records nothing', (_label, p) => {
    expect(read(p, { callIndex: 2 })).toMatchObject({ text: '', emission: { files: [] } });
  });

  it('with the default pointer, says the lines were sent earlier: compact for a short held window', () => {
    const recorder = createEmissionRecorder({ projectRoot: '/r' });
    const { text } = renderRead({
      plan: plan({ render: 'pointer', covered: ranges('1-5') }),
      content,
      recorder,
    });
    expect(text).toBe('`a.ts` L1-5: unchanged, sent earlier in this conversation.\n');
    const long = 'x\n'.repeat(20);
    const { text: held } = renderRead({
      plan: plan({ render: 'pointer', covered: [{ start: 1, end: 20 }], coveredBy: [2] }),
      content: long,
      recorder,
    });
    expect(held).toMatch(/^Sent in response #2 of this conversation: `a\.ts` L1-20\b/);
  });
});

describe('renderRead with a real plan and ledger', () => {
  const file = Array.from({ length: 40 }, (_, i) => `const v${i + 1} = ${i + 1};`).join('\n');

  /** Reads `windows` in turn as one session; returns each response. */
  function session(...windows: ({ start: number; end: number } | undefined)[]): string[] {
    let ledger = createLedger();
    return windows.map((range) => {
      const prior = projectFromView(sessionView(ledger), '/repo');
      const plan = planRead({ path: 'src/v.ts', content: file, range, prior });
      const recorder = createEmissionRecorder({ projectRoot: '/repo' });
      const { text } = renderRead({
        plan,
        content: file,
        recorder,
        callIndex: (prior?.callCount ?? 0) + 1,
        refresh: true,
      });
      ledger = ledgerReducer(ledger, { type: 'recorded', emission: recorder.finish(text.length) });
      return text;
    });
  }

  it('an overlapping window gets a pointer citing the first response, then only the new lines', () => {
    const [first, second] = session({ start: 1, end: 20 }, { start: 1, end: 30 });
    expect(first!.split('\n').slice(0, 2)).toEqual(['Response #1', '     1\tconst v1 = 1;']);
    const lines = second!.split('\n');
    expect(lines[0]).toBe('Response #2');
    expect(lines[1]).toMatch(/^Sent in response #1 of this conversation: `src\/v\.ts` L1-20\b/);
    expect(lines[1]).toMatch(/call this tool again with `refresh: \[1\]`\.$/);
    expect(lines.slice(2, -1)).toEqual(
      Array.from(
        { length: 10 },
        (_, i) => `${String(21 + i).padStart(6)}\tconst v${21 + i} = ${21 + i};`,
      ),
    );
  });

  it('an unchanged re-read of the whole file answers with the pointer alone', () => {
    const [, again] = session(undefined, undefined);
    expect(again!.split('\n')).toEqual([
      'Response #2',
      expect.stringMatching(/^Sent in response #1 of this conversation: `src\/v\.ts` L1-40\b/),
      '',
    ]);
  });

  it('the ledger holds what the reads sent, with the content fingerprint', () => {
    let ledger = createLedger();
    for (const range of ranges('1-20, 15-30')) {
      const prior = projectFromView(sessionView(ledger), '/repo');
      const plan = planRead({ path: 'src/v.ts', content: file, range, prior });
      const recorder = createEmissionRecorder({ projectRoot: '/repo' });
      const { text } = renderRead({ plan, content: file, recorder });
      ledger = ledgerReducer(ledger, { type: 'recorded', emission: recorder.finish(text.length) });
    }
    const held = projectFromView(sessionView(ledger), '/repo')!.calls.at(-1)!.files[0]!;
    expect(held).toMatchObject({
      ranges: ranges('15-30'),
      fingerprint: fingerprint(file),
    });
  });
});

describe('renderRead on junk', () => {
  const good = plan({ emit: ranges('1') });

  it.each([
    ['no recorder', { plan: good, content }],
    ['a recorder without methods', { plan: good, content, recorder: {} }],
    ['no plan', { content, recorder: createEmissionRecorder({ projectRoot: '/r' }) }],
    [
      'a plan with an unknown render',
      {
        plan: { ...good, render: 'all' },
        content,
        recorder: createEmissionRecorder({ projectRoot: '/r' }),
      },
    ],
    [
      'a plan without a path',
      {
        plan: { ...good, path: '' },
        content,
        recorder: createEmissionRecorder({ projectRoot: '/r' }),
      },
    ],
    [
      'content that is not a string',
      { plan: good, content: 7, recorder: createEmissionRecorder({ projectRoot: '/r' }) },
    ],
    ['options that are not an object', null],
  ])('%s: prints nothing', (_label, options) => {
    expect(renderRead(options as never)).toEqual({ text: '' });
  });

  it('response numbers that are not positive integers are not cited; repeats are cited once', () => {
    const { told } = read(
      plan({
        render: 'pointer',
        covered: ranges('1-2'),
        coveredBy: [0, -1, 1.5, '3', 3, Number.NaN, 3, 2] as never,
      }),
    );
    expect(told[0]?.calls).toEqual([3, 2]);
  });

  it('a refresh flag that is not true is off; a header that is not a number or token is left out', () => {
    const { text, told } = read(plan({ render: 'pointer', covered: ranges('1') }), {
      refresh: 'yes',
      callIndex: '4',
      context: '../x',
    });
    expect(text).toBe('POINTER 1-1\n');
    expect(told[0]?.refresh).toBe(false);
  });

  it('a pointer writer that throws gives way to the default wording; the lines still render', () => {
    const recorder = createEmissionRecorder({ projectRoot: '/r' });
    const { text } = renderRead({
      plan: plan({
        render: 'partial',
        covered: ranges('1-2'),
        emit: ranges('3'),
      }),
      content,
      recorder,
      pointer: () => {
        throw new Error('pointer down');
      },
    });
    expect(text.split('\n')).toEqual([
      '`a.ts` L1-2: unchanged, sent earlier in this conversation.',
      '     3\tgamma',
      '',
    ]);
  });

  it('a recorder that throws does not fail the read', () => {
    const { text } = renderRead({
      plan: good,
      content,
      recorder: throwingRecorder(),
    });
    expect(text).toBe('     1\talpha\n');
  });

  it('the result is frozen', () => {
    const out = renderRead({
      plan: good,
      content,
      recorder: createEmissionRecorder({ projectRoot: '/r' }),
    });
    expect(Object.isFrozen(out)).toBe(true);
    expect(Object.isFrozen(renderRead(null as never))).toBe(true);
  });
});
