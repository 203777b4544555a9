/**
 * The replay behind the demo and the A/B benchmark, on a project small enough
 * to count by hand, and withheldUnseen — the check that a pointer only stands
 * for lines the agent already received — on responses written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { parseRenderedResponse } from '../src/adapter/index.js';
import {
  isTrivialLine,
  type ProjectFile,
  type RecordedSequence,
  type ReplayArm,
  replaySequence,
  withheldUnseen,
} from '../src/cli/replay.js';
import { fileEmission, ranges } from './_build.js';

function project(files: Record<string, string>): Map<string, ProjectFile> {
  return new Map(
    Object.entries(files).map(([path, content]) => [path, { path, content, symbols: [] }]),
  );
}

// 30 lines of 7 chars: 'line 01' … 'line 30', no newline after the last.
const thirty = Array.from({ length: 30 }, (_, i) => `line ${String(i + 1).padStart(2, '0')}`).join(
  '\n',
);

const twice: RecordedSequence = {
  name: 'twice',
  budget: { maxChars: 10_000 },
  calls: [
    { query: 'where is a', files: [{ path: 'a.ts', intended: ranges('1-30') }] },
    // A response is never pointers only: b.ts gives the second call something new to say.
    {
      query: 'where are a and b',
      files: [
        { path: 'a.ts', intended: ranges('1-30') },
        { path: 'b.ts', intended: ranges('1-3') },
      ],
    },
  ],
};

describe('replaySequence', () => {
  // b.ts: three lines of 2 chars.
  const files = project({ 'a.ts': thirty, 'b.ts': 'b1\nb2\nb3' });

  it('titles each response with its query', () => {
    const arm = replaySequence(files, twice, { dedup: false });
    expect(arm.calls[0]!.text.startsWith('Results for "where is a"\n\n**`a.ts`**\n')).toBe(true);
  });

  it('without dedup, sends the same 30 lines twice', () => {
    const arm = replaySequence(files, twice, { dedup: false });
    expect(parseRenderedResponse(arm.calls[1]!.text).sections.map((s) => s.lines.length)).toEqual([
      30, 3,
    ]);
    // A numbered line counts its text plus a newline: a.ts 30 × 8 = 240 per call, b.ts 3 × 3.
    expect(arm.report).toMatchObject({
      responses: 2,
      sourceChars: 489,
      uniqueChars: 249,
      duplicateChars: 240,
    });
  });

  it('with dedup, the second call points back to a.ts instead, and the pointer is honest', () => {
    const arm = replaySequence(files, twice, { dedup: true });
    const [second] = parseRenderedResponse(arm.calls[1]!.text).sections;
    expect(second).toMatchObject({ path: 'a.ts', pointer: true, pointed: ranges('1-30') });
    expect(arm.report).toMatchObject({ sourceChars: 249, duplicateChars: 0 });
    expect(withheldUnseen(arm, files)).toEqual([]);
  });

  it('records what each call sent, under a root named for the sequence unless given', () => {
    const arm = replaySequence(files, twice, { dedup: true });
    // The file's last line has no newline: 30 × 7 + 29 = 239 source chars.
    expect(arm.calls[0]!.emission).toMatchObject({
      projectRoot: '/replay/twice',
      query: 'where is a',
      files: [fileEmission('a.ts', '1-30', 239)],
      sourceChars: 239,
    });
    const rooted = replaySequence(files, twice, { dedup: true, projectRoot: '/elsewhere' });
    expect(rooted.calls[0]!.emission.projectRoot).toBe('/elsewhere');
  });

  it('leaves out a file the project does not have', () => {
    const sequence: RecordedSequence = {
      name: 'missing',
      budget: { maxChars: 10_000 },
      calls: [
        {
          query: 'q',
          files: [
            { path: 'gone.ts', intended: ranges('1-3') },
            { path: 'a.ts', intended: ranges('1-2') },
          ],
        },
      ],
    };
    const [call] = replaySequence(files, sequence, { dedup: true }).calls;
    expect(call!.plan.files.map((f) => f.path)).toEqual(['a.ts']);
    expect(call!.text).toBe(
      'Response #1\nResults for "q"\n\n**`a.ts`**\n```ts\n1\tline 01\n2\tline 02\n```\n',
    );
  });
});

describe('replaySequence numbers its responses', () => {
  const files = project({ 'a.ts': thirty, 'b.ts': 'b1\nb2\nb3' });

  it('with dedup each response opens with its number; without, none does', () => {
    const first = (arm: ReplayArm) => arm.calls.map((c) => c.text.split('\n')[0]);
    expect(first(replaySequence(files, twice, { dedup: true }))).toEqual([
      'Response #1',
      'Response #2',
    ]);
    expect(first(replaySequence(files, twice, { dedup: false }))).toEqual([
      'Results for "where is a"',
      'Results for "where are a and b"',
    ]);
  });
});

describe('withheldUnseen', () => {
  const files = project({ 'a.ts': 'one\ntwo\nthree\nfour' });
  const fence = (...lines: string[]) => ['```', ...lines, '```'].join('\n');
  const shown = (path: string, ...lines: string[]) => `**\`${path}\`**\n${fence(...lines)}\n`;
  const pointing = (path: string, spans: string) =>
    `**\`${path}\`**\n> Sent earlier: \`${path}\` ${spans}\n`;

  /** An arm of hand-written responses; `covered` is what each call's plan says it covered (or folded). */
  function arm(
    ...calls: {
      text: string;
      covered?: {
        path: string;
        covered: { start: number; end: number }[];
        folded?: { start: number; end: number }[];
      }[];
    }[]
  ): ReplayArm {
    return {
      calls: calls.map((c) => ({
        query: 'q',
        text: c.text,
        plan: { files: c.covered ?? [] } as never,
        emission: {} as never,
      })),
      report: {} as never,
    };
  }

  it('finds nothing when every line a pointer names came earlier with the same text', () => {
    const a = arm(
      { text: shown('a.ts', '1\tone', '2\ttwo') },
      { text: shown('a.ts', '3\tthree', '4\tfour') },
      { text: pointing('a.ts', 'L1-4') },
    );
    expect(withheldUnseen(a, files)).toEqual([]);
  });

  it('reports each line no earlier response delivered, with its call', () => {
    const a = arm({ text: shown('a.ts', '1\tone', '2\ttwo') }, { text: pointing('a.ts', 'L1-4') });
    expect(withheldUnseen(a, files)).toEqual([
      { call: 2, path: 'a.ts', line: 3 },
      { call: 2, path: 'a.ts', line: 4 },
    ]);
  });

  it('reports lines pointed at in a file no earlier response showed', () => {
    const a = arm({ text: 'nothing yet\n' }, { text: pointing('a.ts', 'L2') });
    expect(withheldUnseen(a, files)).toEqual([{ call: 2, path: 'a.ts', line: 2 }]);
  });

  it('a line delivered with other text (the file changed since) does not count', () => {
    const a = arm({ text: shown('a.ts', '1\tone', '2\tTWO') }, { text: pointing('a.ts', 'L1-2') });
    expect(withheldUnseen(a, files)).toEqual([{ call: 2, path: 'a.ts', line: 2 }]);
  });

  it('lines the plan says it covered count too, read from that file of the plan', () => {
    const a = arm(
      { text: shown('a.ts', '1\tone', '2\ttwo') },
      {
        text: pointing('a.ts', 'L1-2'),
        covered: [
          { path: 'b.ts', covered: ranges('1') },
          { path: 'a.ts', covered: ranges('3') },
        ],
      },
    );
    expect(withheldUnseen(a, files)).toEqual([{ call: 2, path: 'a.ts', line: 3 }]);
  });

  it('a section without a pointer is not checked, whatever its plan says', () => {
    const a = arm({
      text: shown('a.ts', '1\tone'),
      covered: [{ path: 'a.ts', covered: ranges('3-4') }],
    });
    expect(withheldUnseen(a, files)).toEqual([]);
  });

  it('lines shown in the same response as the pointer are not earlier', () => {
    const text = `**\`a.ts\`**\n> Sent earlier: \`a.ts\` L1-2\n${fence('1\tone', '2\ttwo')}\n`;
    expect(withheldUnseen(arm({ text }), files)).toEqual([
      { call: 1, path: 'a.ts', line: 1 },
      { call: 1, path: 'a.ts', line: 2 },
    ]);
  });

  it('a file the project does not have reads as empty lines', () => {
    const a = arm({ text: shown('gone.ts', '1\t') }, { text: pointing('gone.ts', 'L1-2') });
    expect(withheldUnseen(a, files)).toEqual([{ call: 2, path: 'gone.ts', line: 2 }]);
  });

  it('a folded line that carries code and was never delivered counts; one that carries none does not', () => {
    const code = project({ 'a.ts': 'one\ntwo\nreturn 3;\n  });\n' });
    const a = arm(
      { text: shown('a.ts', '1\tone', '2\ttwo') },
      {
        text: pointing('a.ts', 'L1-2'),
        covered: [{ path: 'a.ts', covered: ranges('1-2'), folded: ranges('3-4') }],
      },
    );
    expect(withheldUnseen(a, code)).toEqual([{ call: 2, path: 'a.ts', line: 3 }]);
  });

  it('a folded line delivered earlier with the same text is held', () => {
    const code = project({ 'a.ts': 'one\ntwo\nreturn 3;\n' });
    const a = arm(
      { text: shown('a.ts', '1\tone', '2\ttwo', '3\treturn 3;') },
      {
        text: pointing('a.ts', 'L1-2'),
        covered: [{ path: 'a.ts', covered: ranges('1-2'), folded: ranges('3') }],
      },
    );
    expect(withheldUnseen(a, code)).toEqual([]);
  });
});

describe('withheldUnseen on folded lines at the edges of a span and the file', () => {
  const code = project({ 'a.ts': 'one\ntwo\nreturn 3;\n' });
  const folding = (folded: { start: number; end: number }[]) =>
    [
      { text: '**`a.ts`**\n```\n1\tone\n2\ttwo\n```\n' },
      {
        text: '**`a.ts`**\n> Sent earlier: `a.ts` L1-2\n',
        plan: { files: [{ path: 'a.ts', covered: ranges('1-2'), folded }] },
      },
    ].map((c) => ({
      query: 'q',
      text: c.text,
      plan: (c.plan ?? { files: [] }) as never,
      emission: {} as never,
    }));

  it('counts the last line of a folded span', () => {
    const arm = { calls: folding(ranges('3')), report: {} as never };
    expect(withheldUnseen(arm, code)).toEqual([{ call: 2, path: 'a.ts', line: 3 }]);
  });

  it('a folded line past the end of the file carries no code', () => {
    const arm = { calls: folding(ranges('9')), report: {} as never };
    expect(withheldUnseen(arm, code)).toEqual([]);
  });
});

describe('isTrivialLine', () => {
  it.each([[''], ['   '], ['\t});'], [')]};,'], ['  } \r']])('%j carries no code', (text) => {
    expect(isTrivialLine(text)).toBe(true);
  });

  it.each([['x'], ['  return;'], ['}) // done'], ['0'], ['  };\nx']])('%j carries code', (text) => {
    expect(isTrivialLine(text)).toBe(false);
  });
});
