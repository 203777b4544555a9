/**
 * `span-ledger measure` on a read tool's transcripts (DESIGN "Read tools"):
 * `cat -n` lines and the read pointer as `renderRead` prints them, the
 * `path:` line of a several-file read, a JSONL `path` for a read that names
 * no file; and the size it refuses before reading.
 */
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createEmissionRecorder,
  measureDuplicates,
  parseRenderedResponse,
  renderRead,
} from '../src/adapter/index.js';
import { createSessionStore, type LineRange, planRead, READ_TOOL_LIMITS } from '../src/index.js';
import { runCliCaptured as run } from './_cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'span-ledger-measure-reads-'));
const content = Array.from({ length: 60 }, (_, i) => `export const v${i + 1} = ${i + 1};\n`).join(
  '',
);

/** A read session through planRead and renderRead, with dedup on or off: the texts it printed. */
function readSession(dedup: boolean, windows: (LineRange | undefined)[]): string[] {
  const store = createSessionStore(READ_TOOL_LIMITS);
  return windows.map((range) => {
    const prior = dedup ? store.project('/repo') : null;
    const plan = planRead({ path: 'src/a.ts', content, range, prior, enabled: dedup });
    const recorder = createEmissionRecorder({ projectRoot: '/repo' });
    const { text } = renderRead({ plan, content, recorder, refresh: true });
    store.record(recorder.finish(text.length));
    return text;
  });
}

const windows = [{ start: 1, end: 30 }, { start: 20, end: 50 }, undefined];

describe('measure reads renderRead transcripts', () => {
  it('reads cat -n lines, and names the file from the read pointer', () => {
    const [, second] = readSession(true, windows);
    const sections = parseRenderedResponse(second!).sections;
    expect(sections).toHaveLength(1);
    expect(sections[0]!.path).toBe('src/a.ts');
    expect(sections[0]!.pointer).toBe(true);
    expect(sections[0]!.pointed).toEqual([{ start: 20, end: 30 }]);
    expect(sections[0]!.lines.map((l) => l.line)).toEqual(
      Array.from({ length: 20 }, (_, i) => 31 + i),
    );
    expect(sections[0]!.lines[0]!.text).toBe('export const v31 = 31;');
  });

  it('measures the duplicate share of a read session, with dedup and without', () => {
    const path = 'src/a.ts';
    const off = measureDuplicates(readSession(false, windows).map((text) => ({ text, path })));
    const on = measureDuplicates(readSession(true, windows).map((text) => ({ text, path })));
    // Dedup off re-sends L20-30, then all of L1-50 again with the rest of the file.
    const chars = (from: number, to: number) =>
      content
        .split('\n')
        .slice(from - 1, to)
        .join('\n').length + 1;
    expect(off.sourceChars).toBe(chars(1, 30) + chars(20, 50) + content.length);
    expect(off.duplicateChars).toBe(chars(20, 30) + chars(1, 50));
    expect(on.duplicateChars).toBe(0);
    expect(on.uniqueChars).toBe(content.length);
    expect(on.uniqueChars).toBe(off.uniqueChars);
  });

  it('names each file of a several-file read from its path: line', () => {
    const text = 'Response #3\na.ts:\n     1\tx\n---\nb.ts:\n     1\tx\n     2\ty\n';
    expect(parseRenderedResponse(text).sections.map((s) => [s.path, s.lines.length])).toEqual([
      ['a.ts', 1],
      ['b.ts', 2],
    ]);
  });

  it('reads a JSONL transcript whose records name the file of each read', () => {
    const file = join(tmp, 'reads.jsonl');
    const texts = readSession(false, windows);
    writeFileSync(file, texts.map((text) => JSON.stringify({ text, path: 'src/a.ts' })).join('\n'));
    const r = run('measure', file, '--json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.responses).toBe(3);
    expect(report.uniqueChars).toBe(content.length);
    expect(report.duplicateChars).toBeGreaterThan(0);
    expect(report.sourceTokens).toBeGreaterThan(report.duplicateTokens);
    expect(run('measure', file).out).toMatch(/source tokens \(est\.\)/);
  });
});

describe('measure refuses a file over 64 MiB', () => {
  it('with one line, before reading it', () => {
    const big = join(tmp, 'huge.md');
    // A sparse file: 65 MiB long, and nothing written to disk.
    writeFileSync(big, '');
    truncateSync(big, 65 * 1024 * 1024);
    const r = run('measure', big);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`span-ledger: ${big} is 65.0 MiB, over the 64 MiB measure reads`);
    expect(r.err.split('\n')).toHaveLength(1);
  });
});
