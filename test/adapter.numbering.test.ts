/**
 * Where a response's number shows, and what the record goes under: the
 * header and every pointer print the number with its numbering tag
 * (`#4/kqfz`), and the recorder puts the number the header printed on the
 * emission, so the ledger records it under that number or not at all.
 */
import { describe, expect, it } from 'vitest';
import {
  createEmissionRecorder,
  formatResponseHeader,
  renderMarkdown,
  renderRead,
} from '../src/adapter/index.js';
import { createSessionStore, formatPointer, planCall, planRead } from '../src/index.js';

const content = Array.from({ length: 30 }, (_, i) => `const v${i + 1} = ${i + 1};`).join('\n');
const files = [{ path: 'a.ts', content, intended: [{ start: 1, end: 30 }] }];

describe('the label', () => {
  it('prints the tag beside the number in the header, and in every pointer', () => {
    expect(formatResponseHeader({ callIndex: 4, generation: 'kqfz' })).toBe('Response #4/kqfz');
    expect(formatResponseHeader({ callIndex: 4, generation: 'KQFZ' })).toBe('Response #4');
    expect(formatResponseHeader({ callIndex: 4 })).toBe('Response #4');
    const text = formatPointer({
      path: 'a.ts',
      covered: [{ start: 1, end: 30 }],
      calls: [3, 1],
      generation: 'kqfz',
      refresh: true,
    });
    expect(text).toContain('responses #3/kqfz and #1/kqfz');
    // refresh takes the numbers alone.
    expect(text).toContain('`refresh: [3, 1]`');
  });
});

describe('a reserved number, end to end', () => {
  it('is what the response prints, what its pointers cite, and what the record goes under', () => {
    const store = createSessionStore();
    const first = store.reserve('/repo', 'ctx')!;
    const rec1 = createEmissionRecorder({ projectRoot: '/repo' });
    const one = renderMarkdown({
      plan: planCall({ files, prior: first.prior }),
      sources: files,
      recorder: rec1,
    });
    const tag = first.generation!;
    expect(one.text.startsWith(`Response #1/${tag}\n`)).toBe(true);
    const emission = rec1.finish(one.text.length);
    expect(emission).toMatchObject({ index: 1, generation: tag });
    expect(store.record(emission, 'ctx')?.index).toBe(1);

    const second = store.reserve('/repo', 'ctx')!;
    const rec2 = createEmissionRecorder({ projectRoot: '/repo' });
    const two = renderMarkdown({
      plan: planCall({ files, prior: second.prior, holdBack: false }),
      sources: files,
      recorder: rec2,
    });
    expect(two.text.startsWith(`Response #2/${tag}\n`)).toBe(true);
    expect(two.text).toContain(`response #1/${tag}`);
  });

  it('numbers a read the same way', () => {
    const store = createSessionStore();
    const r = store.reserve('/repo', 'ctx')!;
    const recorder = createEmissionRecorder({ projectRoot: '/repo' });
    const plan = planRead({ path: 'a.ts', content, prior: r.prior });
    const { text } = renderRead({
      plan,
      content,
      recorder,
      callIndex: r.callIndex,
      generation: r.generation,
    });
    expect(text.startsWith(`Response #1/${r.generation}\n`)).toBe(true);
    expect(recorder.finish(text.length)).toMatchObject({ index: 1, generation: r.generation });
  });

  it('gives a read the reserved number and tag on its plan, so renderRead needs neither passed', () => {
    const store = createSessionStore();
    const one = store.reserve('/repo', 'ctx')!;
    const two = store.reserve('/repo', 'ctx')!; // reserved while the first is still in flight
    const plan = planRead({ path: 'a.ts', content, prior: two.prior });
    expect(plan).toMatchObject({ callIndex: 2, generation: one.generation });
    expect(planCall({ files, prior: two.prior }).files[0]).toMatchObject({ callIndex: 2 });
    const recorder = createEmissionRecorder({ projectRoot: '/repo' });
    const { text } = renderRead({ plan, content, recorder });
    expect(text.startsWith(`Response #2/${one.generation}\n`)).toBe(true);
    expect(store.record(recorder.finish(text.length), 'ctx')?.index).toBe(2);
  });

  it('puts nothing on the emission when the header printed no number', () => {
    const recorder = createEmissionRecorder({ projectRoot: '/repo' });
    renderMarkdown({ plan: planCall({ files, prior: null }), sources: files, recorder });
    const emission = recorder.finish(10);
    expect('index' in emission).toBe(false);
    recorder.numbered(0);
    recorder.numbered(Number.NaN);
    expect('index' in recorder.finish(10)).toBe(false);
    recorder.numbered(3, 'NOT A TAG');
    expect(recorder.finish(10)).toMatchObject({ index: 3 });
    expect('generation' in recorder.finish(10)).toBe(false);
  });
});
