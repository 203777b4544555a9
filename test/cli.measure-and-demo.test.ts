import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured as run } from './_cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'span-ledger-cli-'));
const a = '**`a.ts`**\n```ts\n1\tabc\n2\tde\n```\n';
const b = 'Again:\n\n**`a.ts`**\n```ts\n2\tde\n3\tf\n```\n';
const c = '**`a.ts`**\n```ts\n1\tabc\n```\n';

describe('span-ledger measure', () => {
  it('reads a directory of .md responses in natural order and prints --json', () => {
    const dir = join(tmp, 'session');
    mkdirSync(dir);
    // Natural order: 2 before 10. Lexical order would put 10.md (c) first.
    writeFileSync(join(dir, '1.md'), a);
    writeFileSync(join(dir, '2.md'), b);
    writeFileSync(join(dir, '10.md'), c);
    writeFileSync(join(dir, 'notes.txt'), 'ignored');
    const r = run('measure', dir, '--json');
    expect(r.code).toBe(0);
    // a: abc(4) de(3); b: de(3, dup) f(2); c: abc(4, dup) → 16 source, 7 duplicate.
    expect(JSON.parse(r.out)).toEqual({
      responses: 3,
      responseChars: a.length + b.length + c.length,
      sourceChars: 16,
      uniqueChars: 9,
      duplicateChars: 7,
      duplicateShare: 7 / 16,
      // estimateTokens, line by line: abc, de, de, f, abc (each with its newline).
      sourceTokens: 15,
      duplicateTokens: 6,
    });
  });

  it('reads JSONL with one { "text" } per call and prints a table', () => {
    const file = join(tmp, 'calls.jsonl');
    writeFileSync(file, `${JSON.stringify({ text: a })}\n\n${JSON.stringify({ text: a })}\n`);
    const r = run('measure', file);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/duplicate share/);
    expect(r.out).toMatch(/50\.0%/);
  });

  it.each([
    ['a missing path', () => [join(tmp, 'nope')], /cannot read .*nope: no such file or directory/],
    ['an empty directory', () => [mkdtempSync(join(tmp, 'empty-'))], /no \.md responses in/],
    ['an empty file', () => [writeTo('empty.jsonl', '\n \n')], /is empty/],
    [
      'a line that is not JSON',
      () => [writeTo('bad.jsonl', '{"text":"x"}\nnope\n')],
      /bad\.jsonl:2: not JSON/,
    ],
    [
      'a line without text',
      () => [writeTo('notext.jsonl', '{"body":"x"}\n')],
      /notext\.jsonl:1: expected an object with a string "text"/,
    ],
    [
      'responses without numbered source',
      () => [writeTo('prose.jsonl', '{"text":"hello"}\n')],
      /no numbered source in 1 response/,
    ],
  ])('fails with exit code 1 and one line on %s', (_, args, message) => {
    const r = run('measure', ...args());
    expect(r.code).toBe(1);
    expect(r.err).toMatch(message);
    expect(r.err.split('\n')).toHaveLength(1);
    expect(r.out).toBe('');
  });

  it('exits 2 on usage errors', () => {
    expect(run('measure').code).toBe(2);
    expect(run('measure', 'x', 'y').code).toBe(2);
    expect(run('measure', 'x', '--yaml').err).toMatch(/unknown option --yaml/);
    expect(run('frobnicate').code).toBe(2);
    expect(run().code).toBe(2);
  });
});

function writeTo(name: string, text: string): string {
  const file = join(tmp, name);
  writeFileSync(file, text);
  return file;
}

describe('span-ledger --help and demo', () => {
  it('prints help with exit code 0', () => {
    for (const args of [['--help'], ['-h'], ['measure', '--help']]) {
      const r = run(...args);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/Usage:/);
      expect(r.out).toMatch(/Exit codes/);
    }
  });

  it('replays the sample sequence and shows both arms', () => {
    const r = run('demo');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/call 3 with dedup/);
    expect(r.out).toMatch(/Sent in response #1 of this conversation/);
    const without = r.out.split('\n').find((l) => l.startsWith('without dedup'))!;
    const withDedup = r.out.split('\n').find((l) => l.startsWith('with dedup'))!;
    // The share is the cell before the last (the withheld unseen lines).
    const share = (row: string) => Number(row.trim().split(/\s+/).at(-2)!.replace('%', ''));
    expect(share(without)).toBeGreaterThan(10);
    expect(share(withDedup)).toBeLessThan(share(without) / 10);
  });

  it('says the result in words, and each call with and without dedup side by side', () => {
    const lines = run('demo').out.split('\n');
    expect(lines.find((l) => l.startsWith('In words: '))).toBe(
      'In words: with dedup the agent was sent 21% fewer response chars (13,142 → 10,416) and 26% more source it had not seen before (6,317 → 7,977 unique chars); no line it had not seen was withheld.',
    );
    const header = lines.findIndex((l) => l.startsWith('call  chars without dedup'));
    expect(lines.slice(header + 2, header + 5).map((l) => l.split(/\s+/)[0])).toEqual([
      '1',
      '2',
      '3',
    ]);
  });

  it('shows a header with its context token, and one refresh call that brings back what response #1 sent', () => {
    const out = run('demo').out;
    expect(out).toContain(
      'Response #3 · context k7f3q2ab (send "context": "k7f3q2ab" with your later calls to this tool)',
    );
    expect(out).toContain('call this tool again with `refresh: [2, 1]`.');
    const refreshed = out.slice(out.indexOf('── call 4: call 3 again, with refresh: [1]'));
    expect(refreshed).toMatch(/^Response #4 · context k7f3q2ab/m);
    // No pointer of call 4 cites #1: what only #1 carried is source again.
    expect(refreshed.split('\n').filter((l) => l.startsWith('> ') && /#1(?!\d)/.test(l))).toEqual(
      [],
    );
    expect(refreshed).toMatch(/^45\texport async function checkout\($/m);
    expect(out).toMatch(
      /^In words: call 3 had 2 pointers citing response #1; call 4, with refresh: \[1\], has none: those lines came back as source \([\d,]+ chars\)/m,
    );
  });

  it('rejects an unknown sequence with exit code 2', () => {
    const r = run('demo', '--sequence', 'nope');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown sequence nope \(one of: checkout, restock\)/);
  });
});
