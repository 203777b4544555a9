/**
 * The planner's and the diagnostics' edges, one question each: what a
 * non-string path, an empty fingerprint or unreadable content plans as, where
 * the delta gate's threshold falls, what spans past the end of a file leave,
 * and how the session block counts calls and ranges that are not arrays.
 */
import { describe, expect, it } from 'vitest';
import { describeSession, fingerprint, planCall, planFile } from '../src/index.js';
import { callRecord, fileEmission, projectState, ranges } from './_build.js';

/** `n` lines of exactly 10 chars each (9 + '\n'). */
const tenCharLines = (n: number): string =>
  Array.from({ length: n }, (_, i) => `L${String(i + 1).padStart(7, '0')};\n`).join('');

const content = tenCharLines(40);
const fp = fingerprint(content);
/** A session that was sent lines 1-20 of `a.ts` from `text`. */
const heldFrom = (text: string) =>
  projectState([callRecord([fileEmission('a.ts', '1-20', 200, fingerprint(text))])]);
/** A session that was sent lines 1-20 of `a.ts` from this very content. */
const held = heldFrom(content);
const reason = (plan: ReturnType<typeof planFile>, gate: string) =>
  plan.gates.find((g) => g.gate === gate)?.reason;

describe('the content a plan is about', () => {
  it('says no-content when the content is not a string, and sends nothing', () => {
    const plan = planFile({
      path: 'a.ts',
      content: 42 as never,
      intended: ranges('1-30'),
      prior: held,
    });
    expect(reason(plan, 'content')).toBe('no-content');
    expect(plan.emit).toEqual([]);
    expect(plan.fingerprint).toBe('');
  });

  it('computes the fingerprint when the one passed in is empty', () => {
    const plan = planFile({
      path: 'a.ts',
      content,
      intended: ranges('1-30'),
      prior: held,
      fingerprint: '',
    });
    expect(plan.fingerprint).toBe(fp);
    expect(plan.covered).toEqual(ranges('1-20'));
  });

  it('skips a file whose path is not a string, and names no path for it', () => {
    const plan = planCall({
      files: [{ path: 42 as never, content, intended: ranges('1-5') }],
      prior: null,
    });
    expect(plan.files[0]!.render).toBe('skipped');
    expect(plan.files[0]!.path).toBe('');
    expect(plan.newChars).toBe(0);
  });
});

describe('the delta gate at its threshold', () => {
  /**
   * The whole of a file of 20 code lines and then `n` trivial lines of exactly
   * 10 chars (7 spaces, `};`, '\n'), planned for a session that holds lines 1-20.
   */
  const planClosing = (n: number) => {
    const text = tenCharLines(20) + '       };\n'.repeat(n);
    return planFile({
      path: 'a.ts',
      content: text,
      intended: [{ start: 1, end: 20 + n }],
      prior: heldFrom(text),
    });
  };

  it('keeps a trivial remainder of exactly minDeltaChars as source', () => {
    // Lines 21-36: 16 lines × 10 chars = 160 chars, the default minDeltaChars.
    const plan = planClosing(16);
    expect(reason(plan, 'delta')).toBe('delta-kept');
    expect(plan.emit).toEqual(ranges('21-36'));
    expect(plan.newChars).toBe(160);
  });

  it('folds a trivial remainder one line shorter into the pointer', () => {
    // Lines 21-35: 150 chars of closing braces, under 160.
    const plan = planClosing(15);
    expect(reason(plan, 'delta')).toBe('folded-small-delta');
    expect(plan.folded).toEqual(ranges('21-35'));
    expect(plan.foldedChars).toBe(150);
  });

  it('sends a remainder of code under minDeltaChars, however short', () => {
    // Lines 21-35 are code lines of 10 chars: 150 chars, under 160, yet never folded.
    const plan = planFile({
      path: 'a.ts',
      content,
      intended: ranges('1-35'),
      prior: held,
    });
    expect(reason(plan, 'delta')).toBe('delta-kept');
    expect(plan.render).toBe('partial');
    expect(plan.emit).toEqual(ranges('21-35'));
    expect(plan.folded).toEqual([]);
    expect(plan.foldedChars).toBe(0);
  });
});

describe('spans past the end of the file', () => {
  it('keeps only what lies within the file when several spans run past it', () => {
    const plan = planFile({
      path: 'b.ts',
      content: 'one\ntwo\nthree',
      intended: ranges('2, 3-9, 6-7, 12-20'),
      prior: null,
    });
    expect(plan.emit).toEqual(ranges('2-3'));
    // 'two\n' and 'three'.
    expect(plan.newChars).toBe(9);
  });
});

describe('describeSession on calls and ranges that are not arrays', () => {
  it('counts no call when calls is not an array and callCount says none', () => {
    expect(describeSession(projectState('calls', { callCount: 0 }))).toEqual({
      callIndex: 1,
      priorCalls: 0,
      priorChars: 0,
      priorFiles: [],
    });
  });

  it('keeps the chars of a file whose ranges are a number, and names no spans for it', () => {
    const d = describeSession(
      projectState([
        callRecord([
          { ...fileEmission('a.ts', '', 30), ranges: 7 },
          fileEmission('b.ts', '1-2', 12),
        ]),
      ]),
    );
    expect(d?.priorFiles).toEqual([fileEmission('a.ts', '', 30), fileEmission('b.ts', '1-2', 12)]);
  });
});
