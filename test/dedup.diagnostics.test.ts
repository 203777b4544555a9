import { describe, expect, it } from 'vitest';
import {
  createLedger,
  describeSession,
  formatSessionBlock,
  ledgerReducer,
  projectFromView,
  sessionView,
} from '../src/index.js';
import { emission, fileEmission, ranges } from './_build.js';

describe('describeSession', () => {
  it('is absent, not zeroed, when nobody tracks the call', () => {
    expect(describeSession(null)).toBeUndefined();
  });

  it('says call #1 for a tracked project with no history', () => {
    const project = projectFromView({ version: 1, projects: [] }, '/repo');
    expect(describeSession(project)).toEqual({
      callIndex: 1,
      priorCalls: 0,
      priorChars: 0,
      priorFiles: [],
    });
  });

  it('unions served spans and chars per path, most recent call first', () => {
    let ledger = createLedger();
    const record = (
      files: { path: string; ranges: { start: number; end: number }[]; chars: number }[],
      responseChars: number,
    ) => {
      ledger = ledgerReducer(ledger, {
        type: 'recorded',
        emission: emission({ files, sourceChars: 0, responseChars }),
      });
    };
    record([fileEmission('a.ts', '1-40', 1200), fileEmission('b.ts', '5-9', 150)], 2000);
    record([fileEmission('a.ts', '41-60', 600)], 1500);
    record([fileEmission('c.ts', '1-3', 90)], 300);
    const d = describeSession(projectFromView(sessionView(ledger), '/repo'))!;
    expect(d.callIndex).toBe(4);
    expect(d.priorCalls).toBe(3);
    expect(d.priorChars).toBe(3800);
    expect(d.priorFiles.map((f) => f.path)).toEqual(['c.ts', 'a.ts', 'b.ts']);
    const a = d.priorFiles.find((f) => f.path === 'a.ts')!;
    expect(a.ranges).toEqual(ranges('1-60'));
    expect(a.chars).toBe(1800);
  });

  it('counts calls that left the retained window', () => {
    let ledger = createLedger({ maxCallsRetained: 2, maxViewCalls: 2 });
    for (let i = 0; i < 5; i++) {
      ledger = ledgerReducer(ledger, {
        type: 'recorded',
        emission: emission({ files: [], sourceChars: 0, responseChars: 10 }),
      });
    }
    const d = describeSession(projectFromView(sessionView(ledger), '/repo'))!;
    expect(d.priorCalls).toBe(5);
    expect(d.callIndex).toBe(6);
    expect(d.priorChars).toBe(50);
  });

  it('never throws on a malformed project', () => {
    for (const p of [
      {},
      { calls: 'x' },
      { calls: [null, { files: [null, { path: 1 }] }], callCount: -3 },
    ]) {
      const d = describeSession(p as never)!;
      expect(d.callIndex).toBeGreaterThanOrEqual(1);
      expect(d.priorFiles.every((f) => typeof f.path === 'string')).toBe(true);
    }
  });
});

describe('formatSessionBlock', () => {
  it('renders the call position, the prior calls and chars, and one line per file', () => {
    const text = formatSessionBlock({
      callIndex: 2,
      priorCalls: 1,
      priorChars: 18204,
      priorFiles: [fileEmission('src/pay/cycle.ts', '1-159', 4928)],
    });
    const lines = text.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('call #2');
    expect(lines[0]).toContain('1 earlier call ');
    expect(lines[0]).toContain('18,204 chars');
    expect(lines[1]).toContain('src/pay/cycle.ts');
    expect(lines[1]).toContain('4,928 chars');
    expect(lines[1]).toContain('L1-159');
  });

  it('says so when there were no earlier calls, and is empty when untracked', () => {
    expect(
      formatSessionBlock({ callIndex: 1, priorCalls: 0, priorChars: 0, priorFiles: [] }),
    ).toMatch(/call #1 .*no earlier calls/);
    expect(formatSessionBlock(undefined)).toBe('');
  });

  it('keeps the block short when many files were served', () => {
    const priorFiles = Array.from({ length: 20 }, (_, i) => fileEmission(`f${i}.ts`, '1-2', 10));
    const text = formatSessionBlock({ callIndex: 3, priorCalls: 2, priorChars: 100, priorFiles });
    const lines = text.split('\n');
    expect(lines.length).toBeLessThanOrEqual(10);
    expect(lines.at(-1)).toContain('+12 more files');
  });
});
