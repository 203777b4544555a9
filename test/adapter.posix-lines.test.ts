/**
 * The adapter counts lines the POSIX way (DESIGN.md rev 2, "Lines"): a final
 * '\n' ends the last line instead of starting an empty one, '' has no lines,
 * a '\r' stays part of its line, and the chars of all lines add up to the
 * content's length. Checked on the renderer, the response parser, the
 * duplicate measure and the replay.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createEmissionRecorder,
  measureDuplicates,
  parseRenderedResponse,
  type RenderablePlan,
  renderMarkdown,
} from '../src/adapter/index.js';
import { type ProjectFile, replaySequence } from '../src/cli/replay.js';
import { fileEmission, ranges } from './_build.js';

/** Renders `emit` of one file `a.ts` in full and returns the text and what was recorded. */
function renderAll(content: string, emit = ranges('1-1000')) {
  const recorder = createEmissionRecorder({ projectRoot: '/r' });
  const file: RenderablePlan = {
    path: 'a.ts',
    fingerprint: 'fp',
    render: 'full',
    covered: [],
    emit,
  };
  const { text } = renderMarkdown({
    plan: { files: [file] },
    sources: [{ path: 'a.ts', content }],
    recorder,
  });
  return { text, files: recorder.finish(text.length).files };
}

describe('renderMarkdown on POSIX lines', () => {
  it('a final newline ends the last line: {1,1000} of "a\\nb\\nc\\n" shows 3 lines, no empty 4', () => {
    const { text, files } = renderAll('a\nb\nc\n');
    expect(text).toBe('**`a.ts`**\n```ts\n1\ta\n2\tb\n3\tc\n```\n');
    expect(files).toEqual([fileEmission('a.ts', '1-3', 6, 'fp')]);
  });

  it('without a final newline the last line has no terminator to count', () => {
    const { text, files } = renderAll('a\nb\nc');
    expect(text).toBe('**`a.ts`**\n```ts\n1\ta\n2\tb\n3\tc\n```\n');
    expect(files[0]?.chars).toBe(5);
  });

  it('an empty file has no lines: nothing renders and nothing is recorded', () => {
    expect(renderAll('')).toEqual({ text: '', files: [] });
  });

  it('a file that is one newline has one empty line of one char', () => {
    const { text, files } = renderAll('\n');
    expect(text).toBe('**`a.ts`**\n```ts\n1\t\n```\n');
    expect(files[0]).toMatchObject({ ranges: ranges('1'), chars: 1 });
  });

  it('a CR stays part of its line, in the fence and in the count', () => {
    const { text, files } = renderAll('a\r\nb\r\n');
    expect(text).toBe('**`a.ts`**\n```ts\n1\ta\r\n2\tb\r\n```\n');
    expect(files[0]?.chars).toBe(6);
  });

  it('a span that starts on the line a final newline would have opened is past the end', () => {
    expect(renderAll('a\nb\n', ranges('3'))).toEqual({ text: '', files: [] });
  });

  const SEED = 15_001;
  it(`the chars recorded for a whole file are its length, and the fences give it back (seed ${SEED})`, () => {
    const contentArb = fc
      .array(fc.constantFrom('a', 'bc', ' ', '\n', '\r', '\r\n', '\t'), { maxLength: 30 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(contentArb, (content) => {
        const { text, files } = renderAll(content, ranges('1-100'));
        const recorded = files[0]?.chars ?? 0;
        expect(recorded).toBe(content.length);
        const shown = parseRenderedResponse(text).sections.flatMap((s) => s.lines);
        const rebuilt = shown.map((l) => l.text).join('\n') + (content.endsWith('\n') ? '\n' : '');
        expect(rebuilt).toBe(content);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});

describe('parseRenderedResponse and measureDuplicates on POSIX lines', () => {
  it('read a CR at the end of a numbered line as part of the source', () => {
    const text = '**`a.ts`**\r\n```ts\r\n1\ta\r\n2\tb\r\n```\r\n';
    expect(parseRenderedResponse(text).sections[0]?.lines).toEqual([
      { line: 1, text: 'a\r' },
      { line: 2, text: 'b\r' },
    ]);
    // Each line counts its text and one newline: 'a\r' + '\n' = 3, twice.
    expect(measureDuplicates([text]).sourceChars).toBe(6);
  });
});

describe('the replay on POSIX lines', () => {
  const content = 'l1\nl2\nl3\n';
  const project = new Map<string, ProjectFile>([['a.ts', { path: 'a.ts', content, symbols: [] }]]);

  it('renders and measures a newline-terminated file without a phantom last line', () => {
    const arm = replaySequence(
      project,
      {
        name: 'posix',
        budget: { maxChars: 10_000 },
        calls: [{ query: 'a', files: [{ path: 'a.ts', intended: ranges('1-50') }] }],
      },
      { dedup: false },
    );
    const [call] = arm.calls;
    expect(parseRenderedResponse(call!.text).sections[0]?.lines.map((l) => l.line)).toEqual([
      1, 2, 3,
    ]);
    expect(call!.emission.sourceChars).toBe(content.length);
    expect(arm.report.sourceChars).toBe(content.length);
  });
});
