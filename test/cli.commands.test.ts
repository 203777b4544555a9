/**
 * The command line's argument handling, help, demo output and the last-resort
 * error path, asked the way a user meets them at a terminal.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../src/cli/run.js';
import { runCliCaptured as run } from './_cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'span-ledger-cli-run-'));
// One response, two numbered lines: `1\tabc` (4 chars) and `2\tde` (3 chars).
const response = join(tmp, 'one.md');
writeFileSync(response, '**`a.ts`**\n```ts\n1\tabc\n2\tde\n```\n');

describe('span-ledger help', () => {
  it('with no command, prints the help to stderr and exits 2', () => {
    const r = run();
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^span-ledger — /);
    expect(r.err).toMatch(/Usage:/);
    expect(r.out).toBe('');
  });

  it.each([['help'], ['--help'], ['-h']])('"%s" prints the help to stdout and exits 0', (arg) => {
    const r = run(arg);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Usage:/);
    expect(r.err).toBe('');
  });

  it.each([['--version'], ['-v']])('"%s" prints the package version alone and exits 0', (arg) => {
    const { version } = JSON.parse(
      readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
    );
    const r = run(arg);
    expect(r.code).toBe(0);
    expect(r.out).toBe(version);
    expect(r.err).toBe('');
  });

  it.each([
    ['demo', '-h'],
    ['demo', '--help'],
    ['measure', 'x.md', '-h'],
  ])('"%s %s" asks for the help instead of running', (...args) => {
    const r = run(...args);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Usage:/);
    expect(r.out).not.toMatch(/span-ledger demo: /);
  });

  it('names an unknown command', () => {
    const r = run('frobnicate');
    expect(r.code).toBe(2);
    expect(r.err).toBe('span-ledger: unknown command frobnicate (see span-ledger --help)');
  });
});

describe('span-ledger measure arguments', () => {
  it('measure without a PATH says it needs one', () => {
    const r = run('measure');
    expect(r.code).toBe(2);
    expect(r.err).toBe('span-ledger: measure needs a PATH (see span-ledger --help)');
  });

  it('measure rejects a second PATH, by name', () => {
    const r = run('measure', response, 'extra.md');
    expect(r.code).toBe(2);
    expect(r.err).toBe('span-ledger: unexpected argument extra.md (see span-ledger --help)');
  });

  it('measure --json takes no value', () => {
    const r = run('measure', response, '--json=yes');
    expect(r.code).toBe(2);
    expect(r.err).toBe('span-ledger: --json takes no value (see span-ledger --help)');
  });

  it('measure takes every argument after -- as a PATH, even one that looks like an option', () => {
    const r = run('measure', '--', '--json');
    expect(r.code).toBe(1);
    expect(r.err).toBe('span-ledger: cannot read --json: no such file or directory');
  });

  it('measure --json -- PATH reads the PATH after -- and still prints JSON', () => {
    const r = run('measure', '--json', '--', response);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ responses: 1, sourceChars: 7, duplicateChars: 0 });
  });

  it('measure -- PATH EXTRA rejects the extra argument after --', () => {
    const r = run('measure', '--', response, 'extra.md');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unexpected argument extra\.md/);
  });

  it('measure names an unknown option as the user typed it, short or long', () => {
    expect(run('measure', response, '-x').err).toBe(
      'span-ledger: unknown option -x (see span-ledger --help)',
    );
    expect(run('measure', response, '--jsn=1').err).toBe(
      'span-ledger: unknown option --jsn (see span-ledger --help)',
    );
  });

  it('measure reads a lone "-" as a PATH, not as an option', () => {
    const r = run('measure', '-');
    expect(r.code).toBe(1);
    expect(r.err).toBe('span-ledger: cannot read -: no such file or directory');
  });
});

describe('span-ledger demo arguments', () => {
  it('demo --sequence without a NAME says it needs a value', () => {
    const r = run('demo', '--sequence');
    expect(r.code).toBe(2);
    expect(r.err).toBe('span-ledger: --sequence needs a value (see span-ledger --help)');
    expect(r.out).toBe('');
  });

  it('demo --sequence=NAME reads the inline value', () => {
    const r = run('demo', '--sequence=restock');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^span-ledger demo: "restock"/);
  });

  it('demo --full takes no value', () => {
    const r = run('demo', '--full=yes');
    expect(r.code).toBe(2);
    expect(r.err).toBe('span-ledger: --full takes no value (see span-ledger --help)');
    expect(r.out).toBe('');
  });

  it('demo takes no PATH', () => {
    const r = run('demo', 'somewhere');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unexpected argument somewhere/);
  });
});

describe('span-ledger demo output', () => {
  it('opens with the sequence, its call count, the project size and the budget', () => {
    // fixtures/sequences/checkout.json: 3 calls, budget { maxChars: 3600, maxFiles: 4 };
    // fixtures/sample holds 6 files (4 under src/, 2 under tools/).
    const checkout = run('demo').out.split('\n');
    expect(checkout.slice(0, 2)).toEqual([
      'span-ledger demo: "checkout", 3 calls over the bundled sample project (6 files, TypeScript and Python)',
      'budget per call: 3,600 source chars, 4 files',
    ]);
    // fixtures/sequences/restock.json: 3 calls, budget { maxChars: 3000, maxFiles: 3 }.
    const restock = run('demo', '--sequence', 'restock').out.split('\n');
    expect(restock[1]).toBe('budget per call: 3,000 source chars, 3 files');
  });

  it('abridges each fence to three lines unless --full', () => {
    const abridged = run('demo');
    // Call 1 renders src/checkout.ts from line 9 (PaymentProvider); line 12 is its
    // closing brace, the fourth line of that fence.
    expect(abridged.out).toMatch(
      /^11\t {2}refund\(chargeId: string, amount: Money\): Promise<void>;$/m,
    );
    expect(abridged.out).not.toMatch(/^12\t\}$/m);
    expect(abridged.out).toMatch(/^… \d+ more lines?$/m);

    const full = run('demo', '--full');
    expect(full.code).toBe(0);
    expect(full.out).toMatch(/^12\t\}$/m);
    expect(full.out).not.toMatch(/^… \d+ more lines?$/m);
  });

  it('separates each call with a blank line after its response', () => {
    const lines = run('demo').out.split('\n');
    const second = lines.indexOf('── call 2 with dedup ──────────────────────────────');
    expect(second).toBeGreaterThan(0);
    // The abridged response ends with its closing fence; one empty line follows.
    expect(lines.slice(second - 2, second)).toEqual(['```', '']);
  });

  it.each([['checkout'], ['restock']])(
    'the %s table counts no withheld unseen line in either arm',
    (sequence) => {
      const out = run('demo', '--sequence', sequence).out.split('\n');
      for (const arm of ['without dedup', 'with dedup']) {
        expect(out.find((l) => l.startsWith(`${arm} `))).toMatch(/ 0$/);
      }
    },
  );

  it('ends with a table whose columns are named, and says how it measured', () => {
    const lines = run('demo').out.split('\n');
    const header = lines.find((l) => l.includes('response chars'));
    // The first column holds the arm names; its header is blank, 13 wide ("without dedup").
    expect(header).toMatch(
      /^ {13} {2,}response chars {2,}source chars {2,}unique chars {2,}duplicate chars {2,}duplicate share {2,}withheld unseen lines$/,
    );
    expect(lines.slice(-4)).toEqual([
      'Measured by parsing the rendered responses: a source line is duplicate when an earlier',
      'response delivered the same file, line and text; a withheld unseen line is one a pointer',
      'stood for (or folded away, unless it carries no code) that no earlier response delivered.',
      'Try `span-ledger measure` on your own.',
    ]);
  });
});

describe('span-ledger on a fault of its own', () => {
  function failingOut(thrown: unknown): { code: number; err: string[] } {
    const err: string[] = [];
    const io: CliIo = {
      out: () => {
        throw thrown;
      },
      err: (t) => err.push(t),
    };
    return { code: runCli(['--help'], io), err };
  }

  it('reports an unexpected error as one "internal error" line and exits 1', () => {
    expect(failingOut(new Error('write EPIPE\n    at somewhere'))).toEqual({
      code: 1,
      err: ['span-ledger: internal error: write EPIPE'],
    });
  });

  it('reports a thrown non-Error by its text', () => {
    expect(failingOut('stdout closed')).toEqual({
      code: 1,
      err: ['span-ledger: internal error: stdout closed'],
    });
  });
});
