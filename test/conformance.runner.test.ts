/**
 * The runner against the reference and against broken implementations: the
 * TypeScript adapter agrees on every vector and random case; an
 * implementation that breaks the protocol ends the run with one line naming
 * the case, exit 2, within the per-case limit, and is never left running.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAnswer } from '../src/cli/conform/child.js';
import { runConform as runConformCommand } from '../src/cli/conform/command.js';
import { runConform, TS_ADAPTER } from './_conform.js';

const dir = mkdtempSync(join(tmpdir(), 'conform-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A node script that answers the handshake, then `then(request, n)` for each request after it. */
function fake(name: string, then: string, suites = "['algebra']"): string[] {
  const pidFile = join(dir, `${name}.pid`);
  const file = join(dir, `${name}.cjs`);
  writeFileSync(
    file,
    `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
let n = 0;
const say = (x) => process.stdout.write(typeof x === 'string' ? x : JSON.stringify(x) + '\\n');
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line);
  if (request.op === 'hello') return say({ id: request.id, output: { protocol: 1, suites: ${suites} } });
  n++;
  ${then}
});`,
  );
  return [process.execPath, file];
}

function isGone(name: string): boolean {
  const pid = Number(readFileSync(join(dir, `${name}.pid`), 'utf8'));
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

describe('the reference through the stdio runner', () => {
  it('agrees with every vector, and with 50 random cases per suite that draws them', async () => {
    const run = await runConform(TS_ADAPTER, { runs: 50, seed: 20_261_202 });
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    for (const suite of ['algebra', 'lines', 'fingerprint', 'plan', 'ledger', 'scenario']) {
      expect(run.out).toMatch(new RegExp(`${suite}: (\\d+)/\\1 vectors agree`));
      expect(run.out).toContain(`${suite}: 50 random cases agree`);
    }
    expect(run.out).toMatch(
      /contract: (\d+)\/\1 vectors agree\ncontract: vectors only, no random cases/,
    );
  });
});

describe('an implementation that breaks the protocol: exit 2, one line naming the case', () => {
  const cases: [string, string, RegExp, string?][] = [
    [
      'garbage',
      "say('hello world\\n');",
      /vector algebra\.isLineRange\.1: .*not JSON: "hello world"/,
    ],
    [
      'wrong-id',
      'say({ id: request.id + 1, output: true });',
      /vector algebra\.isLineRange\.1: .*answered id 3, not 2/,
    ],
    ['hang', '', /vector algebra\.isLineRange\.1: .*no answer within 300 ms/],
    [
      'exits',
      'if (n === 3) process.exit(3); say({ id: request.id, output: true });',
      /vector algebra\.isLineRange\.3: .*exited \(code 3\) without answering/,
    ],
    [
      'twice',
      'say({ id: request.id, output: true }); say({ id: request.id, output: true });',
      /vector algebra\.isLineRange\.2: .*a line nobody asked for/,
    ],
    ['neither', 'say({ id: request.id });', /neither or both of "output" and "error"/],
    [
      'unknown-suite',
      'say({ id: request.id, output: true });',
      /handshake: .*declares suite "colors"/,
      "['algebra', 'colors']",
    ],
  ];
  for (const [name, then, message, suites] of cases) {
    it(name, async () => {
      // Only the hang waits out its limit; the others answer at once, so a loaded machine never turns them into timeouts.
      const run = await runConform(fake(name, then, suites), {
        timeoutMs: name === 'hang' ? 300 : 10_000,
      });
      expect(run.code).toBe(2);
      expect(run.err.split('\n')).toHaveLength(1);
      expect(run.err).toMatch(message);
      expect(isGone(name)).toBe(true);
    });
  }

  it('a suite the implementation does not declare, asked for by name', async () => {
    const run = await runConform(fake('undeclared', 'say({ id: request.id, output: true });'), {
      suites: ['scenario'],
    });
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/does not declare suite scenario \(it declares algebra\)/);
    expect(isGone('undeclared')).toBe(true);
  });

  it('a command that does not exist', async () => {
    const run = await runConform([join(dir, 'no-such-command')]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/handshake: the implementation could not be started/);
  });

  it('an error answer where the reference has an output is a disagreement (exit 1)', async () => {
    const run = await runConform(
      fake('errs', "say({ id: request.id, error: { code: 'internal', message: 'boom' } });"),
    );
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/✗ algebra\.isLineRange\.1 a valid range/);
    expect(run.out).toContain('got:      {"error":"internal"}');
  });
});

describe('span-ledger conform arguments', () => {
  const usage = async (...args: string[]) => {
    const err: string[] = [];
    const code = await runConformCommand(args, { out: () => {}, err: (t) => err.push(t) });
    return { code, err: err.join('\n') };
  };
  it('needs a command after --, a known suite and whole numbers: exit 2 with the reason', async () => {
    expect(await usage('--runs', '5')).toEqual({
      code: 2,
      err: 'span-ledger: conform needs the command to run after -- (see span-ledger --help)',
    });
    expect((await usage('--suite', 'algebra,colors', '--', 'x')).err).toContain(
      'unknown suite colors',
    );
    expect((await usage('--runs', '-1', '--', 'x')).err).toContain(
      '--runs needs a whole number of at least 0, got -1',
    );
    expect((await usage('--timeout', '0', '--', 'x')).err).toContain(
      '--timeout needs a whole number of at least 1',
    );
    expect((await usage('--bogus', '--', 'x')).err).toContain('unknown option --bogus');
  });

  it('reads every repeated --suite, as the help promises, not only the last', async () => {
    expect((await usage('--suite', 'colors', '--suite', 'algebra', '--', 'x')).err).toContain(
      'unknown suite colors',
    );
  });
});

describe('reading one answer line', () => {
  it('takes an output or an error code, and names what is wrong otherwise', () => {
    expect(readAnswer('{"id":4,"output":[1]}', 4)).toEqual({ answer: { ok: true, output: [1] } });
    expect(readAnswer('{"id":4,"error":{"code":"invalid-input"}}', 4)).toEqual({
      answer: { ok: false, code: 'invalid-input', message: '' },
    });
    expect(readAnswer('[1]', 4)).toEqual({ failure: 'printed [1] where an answer object belongs' });
    expect(readAnswer('{"id":4,"error":"x"}', 4)).toEqual({
      failure: 'answered an error without a string "code"',
    });
  });
});
