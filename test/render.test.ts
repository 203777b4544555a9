import { describe, expect, it } from 'vitest';
import {
  createEmissionRecorder,
  parseRenderedResponse,
  type RenderablePlan,
  renderMarkdown,
} from '../src/adapter/index.js';
import { sampleProject, sampleSequence } from '../src/cli/sample.js';
import { planCall } from '../src/dedup/index.js';
import { fingerprint } from '../src/fingerprint/index.js';
import { createLedger, ledgerReducer, projectFromView, sessionView } from '../src/ledger/index.js';
import type { LineRange } from '../src/ranges/index.js';
import { mergeRanges } from '../src/ranges/index.js';

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
          covered: [{ start: 1, end: 2 }],
          emit: [{ start: 4, end: 5 }],
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
    expect(recorder.finish(text.length).files).toEqual([
      {
        path: 'src/x.ts',
        ranges: [
          { start: 1, end: 2 },
          { start: 4, end: 5 },
        ],
        chars: 13,
        fingerprint: fp,
      },
    ]);
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
          emit: [{ start: 1, end: 3 }],
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
      { path: 'a.ts', fingerprint: fp, render: 'full', covered: [], emit: [{ start: 1, end: 1 }] },
      {
        path: 'big.ts',
        fingerprint: fp,
        render: 'full',
        covered: [],
        emit: [{ start: 1, end: 5 }],
      },
      { path: 'c.ts', fingerprint: fp, render: 'full', covered: [], emit: [{ start: 2, end: 2 }] },
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
        { path: 'a', fingerprint: fp, render: 'full', covered: [], emit: [{ start: 4, end: 99 }] },
      ]),
      sources: [{ path: 'a', content }],
      recorder,
    });
    expect(parseRenderedResponse(text).sections[0]!.lines.map((l) => l.line)).toEqual([4, 5]);
    expect(recorder.finish(0).files[0]!.ranges).toEqual([{ start: 4, end: 5 }]);
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

        expect(emission.files.map((f) => f.path)).toEqual(sections.map((s) => s.path));
        expect(emission.responseChars).toBe(text.length);
        let sourceChars = 0;
        for (const section of sections) {
          const file = emission.files.find((f) => f.path === section.path)!;
          const fileLines = project.get(section.path)!.content.split('\n');
          for (const l of section.lines) expect(l.text).toBe(fileLines[l.line - 1]);
          const shown: LineRange[] = section.lines.map((l) => ({ start: l.line, end: l.line }));
          expect(file.ranges).toEqual(mergeRanges([...shown, ...section.pointed]));
          const chars = charsOfShown(section.lines, fileLines.length);
          expect(file.chars).toBe(chars);
          expect(file.fingerprint).toBe(fingerprint(project.get(section.path)!.content));
          sourceChars += chars;
          if (section.pointer) pointers++;
        }
        expect(emission.sourceChars).toBe(sourceChars);
        ledger = ledgerReducer(ledger, { type: 'recorded', emission });
      }
      expect(pointers).toBeGreaterThan(0);
    });
  }
});
