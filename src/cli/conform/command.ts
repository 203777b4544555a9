/**
 * `span-ledger conform [--suite NAME] [--runs N] [--seed S] [--timeout MS] -- <command…>`:
 * starts an implementation, runs the fixed vectors through it, then random
 * cases per suite drawn by fast-check against the reference, shrinking any
 * disagreement through the pipe. Exit 0 when it agrees, 1 when it does not,
 * 2 when it could not be run (usage, no fast-check, a broken protocol).
 */
import type * as FC from 'fast-check';
import { fingerprint } from '../../hash/fingerprint.js';
import { formatSpans } from '../../ranges/format.js';
import type { LineRange } from '../../ranges/range.js';
import { readArgs, UsageError } from '../run.js';
import { type Case, caseArb } from './cases.js';
import { Implementation, type Received, type Reply } from './child.js';
import {
  type Ask,
  PROTOCOL_VERSION,
  RANDOM_SUITES,
  readScenario,
  SUITES,
  type Suite,
} from './reference.js';
import { judgeScenario } from './safety.js';
import { buildSuites, type Expected, expectedOf, type SuiteFile } from './vectors.js';

export interface ConformIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

export interface ConformOptions {
  readonly command: readonly string[];
  readonly suites: readonly Suite[] | null;
  readonly runs: number;
  readonly seed: number;
  readonly timeoutMs: number;
  /** Milliseconds between progress lines (on stderr) during the random phase. */
  readonly progressMs?: number;
  /** The fast-check module (default: loaded on first use). */
  readonly fc?: typeof FC;
}

/** The protocol broke: the run cannot go on. */
class Broken extends Error {}

/** How an answer reads in a report. */
function shown(x: Received | Expected): string {
  if ('ok' in x)
    return x.ok ? JSON.stringify({ output: x.output }) : JSON.stringify({ error: x.code });
  return JSON.stringify('error' in x ? { error: x.error } : { output: x.output });
}

/** A canonical JSON text: object keys sorted, so two equal values print the same. */
function canonical(x: unknown): string {
  return JSON.stringify(x, (_k, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function agrees(got: Received, expected: Expected): boolean {
  if ('error' in expected) return !got.ok && got.code === expected.error;
  return got.ok && canonical(got.output) === canonical(expected.output);
}

/** Where two JSON values first differ, as a path, or `null` when they are equal. */
function firstDifference(a: unknown, b: unknown, at = ''): string | null {
  if (canonical(a) === canonical(b)) return null;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${at}[${i}]`);
      if (d !== null) return d;
    }
  } else if (
    typeof a === 'object' &&
    a !== null &&
    typeof b === 'object' &&
    b !== null &&
    !Array.isArray(a) &&
    !Array.isArray(b)
  ) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      const d = firstDifference(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        `${at}.${k}`,
      );
      if (d !== null) return d;
    }
  }
  return `${at === '' ? 'output' : `output${at}`}: expected ${JSON.stringify(a) ?? 'nothing'}, got ${JSON.stringify(b) ?? 'nothing'}`;
}

/** The line saying where an output answer first differs from the expected one, if both are outputs. */
function differenceLines(expected: Expected, got: Received): string[] {
  if ('error' in expected || !got.ok) return [];
  const d = firstDifference(expected.output, got.output);
  return d === null ? [] : [`  differs:  ${d}`];
}

/** The lines explaining a scenario answer that breaks the safety property. */
function safetyLines(suite: Suite, input: unknown, got: Received): string[] {
  const scenario = suite === 'scenario' ? readScenario(input) : null;
  if (scenario === null || !got.ok) return [];
  const safety = judgeScenario(scenario, got.output);
  return [
    ...safety.unheld.map(
      (v) =>
        `  unsafe: response ${v.response + 1} (${v.context}) withheld ${v.path} ${v.lines}, which that context does not hold with those bytes`,
    ),
    ...safety.uncited.map(
      (v) =>
        `  unsafe: response ${v.response + 1} (${v.context}) withheld ${v.path} ${v.lines} without citing a response that delivered them to it`,
    ),
  ];
}

/** A scenario's steps on one line, for a counterexample that prints its files in full. */
function stepsLine(input: unknown): string | null {
  const scenario = readScenario(input);
  if (scenario === null) return null;
  const asks = (list: readonly Ask[]) =>
    list.map((a) => `${a.path} ${formatSpans(a.intended as LineRange[])}`).join(', ');
  const told = (t: boolean) => (t ? 'told' : 'untold');
  return scenario.steps
    .map((step, i) => {
      const n = `${i + 1}.`;
      switch (step.do) {
        case 'call':
          return `${n} ${step.context} reads ${asks(step.files)}${step.refresh ? ` (refresh ${step.refresh.join(', ')})` : ''}`;
        case 'parallel':
          return `${n} ${step.context} reads in parallel ${step.calls.map((c) => `[${asks(c)}]`).join(' ')}`;
        case 'edit':
          return `${n} ${step.path} edited outside (now ${fingerprint(step.content)})`;
        case 'compact':
          return `${n} ${step.context} compacts (${told(step.told)})`;
        default:
          return `${n} ${step.context} rewinds to #${step.to} (${told(step.told)})`;
      }
    })
    .join(' · ');
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function loadFastCheck(): Promise<typeof FC | null> {
  return import('fast-check').then(
    (m) => m as typeof FC,
    () => null,
  );
}

/** Runs the conformance check; resolves to the exit code. */
export async function conform(options: ConformOptions, io: ConformIo): Promise<number> {
  const fc = options.fc ?? (await loadFastCheck());
  if (fc === null) {
    io.err(
      'span-ledger conform: fast-check is not installed; it draws the random cases (npm install --save-dev fast-check)',
    );
    return 2;
  }
  const impl = new Implementation(options.command);
  let id = 0;
  const ask: Asker = async (suite, op, input, label) => {
    // Starting an interpreter takes longer than answering a case: the handshake waits 10 s at least.
    const limit = id === 0 ? Math.max(options.timeoutMs, 10_000) : options.timeoutMs;
    const reply: Reply = await impl.ask({ id: ++id, suite, op, input }, limit);
    if ('failure' in reply) throw new Broken(`${label}: the implementation ${reply.failure}`);
    return reply.answer;
  };
  try {
    const run = await handshake(ask, options.suites, io);
    const files = buildSuites(fc);
    let failed = false;
    for (const suite of run) {
      if (!(await vectorPhase(files[suite].groups, suite, ask, io))) failed = true;
      if (options.runs > 0 && !RANDOM_SUITES.includes(suite)) {
        io.out(`${suite}: vectors only, no random cases`);
      } else if (options.runs > 0 && !(await randomPhase(fc, suite, options, ask, io))) {
        failed = true;
      }
    }
    return failed ? 1 : 0;
  } catch (e) {
    if (!(e instanceof Broken)) throw e;
    io.err(`span-ledger conform: ${e.message}`);
    return 2;
  } finally {
    await impl.close();
  }
}

/**
 * Says hello: checks the protocol and the suites the implementation
 * declares, prints them, and returns the suites to run (those asked for, or
 * every one it declares). Throws Broken when the two cannot go on.
 */
async function handshake(
  ask: Asker,
  asked: readonly Suite[] | null,
  io: ConformIo,
): Promise<Suite[]> {
  const hello = await ask(
    'conform',
    'hello',
    { protocol: PROTOCOL_VERSION, suites: [...SUITES] },
    'handshake',
  );
  if (!hello.ok) {
    throw new Broken(`handshake: the implementation answered error ${JSON.stringify(hello.code)}`);
  }
  const declared = hello.output as Record<string, unknown> | null;
  const protocol = declared?.protocol;
  const suites = declared?.suites;
  if (protocol !== PROTOCOL_VERSION) {
    throw new Broken(
      `handshake: the implementation speaks protocol ${JSON.stringify(protocol)}, this runner ${PROTOCOL_VERSION}`,
    );
  }
  if (!Array.isArray(suites) || suites.length === 0) {
    throw new Broken('handshake: the implementation declares no suites ("suites": [...])');
  }
  const unknown = suites.find((s) => !SUITES.includes(s as Suite));
  if (unknown !== undefined) {
    throw new Broken(
      `handshake: the implementation declares suite ${JSON.stringify(unknown)}, which this runner does not know (${SUITES.join(', ')})`,
    );
  }
  const missing = asked?.find((s) => !suites.includes(s));
  if (missing !== undefined) {
    throw new Broken(
      `the implementation does not declare suite ${missing} (it declares ${suites.join(', ')})`,
    );
  }
  const run = (asked ?? SUITES).filter((s) => suites.includes(s));
  const name = typeof declared?.name === 'string' ? `${declared.name}: ` : '';
  io.out(`${name}protocol ${PROTOCOL_VERSION}, suites ${run.join(', ')}`);
  return run;
}

/** The fixed vectors of one suite, the first five disagreements shown; false when any disagreed. */
async function vectorPhase(
  groups: SuiteFile['groups'],
  suite: Suite,
  ask: Asker,
  io: ConformIo,
): Promise<boolean> {
  let total = 0;
  let wrong = 0;
  for (const group of groups) {
    for (const vector of group.cases) {
      total++;
      const got = await ask(suite, group.op, vector.input, `vector ${vector.id}`);
      if (agrees(got, vector.expected)) continue;
      wrong++;
      if (wrong <= 5) {
        io.out(`✗ ${vector.id} ${vector.description}`);
        io.out(`  input:    ${JSON.stringify(vector.input)}`);
        io.out(`  expected: ${shown(vector.expected)}`);
        io.out(`  got:      ${shown(got)}`);
        for (const line of differenceLines(vector.expected, got)) io.out(line);
        for (const line of safetyLines(suite, vector.input, got)) io.out(line);
      }
    }
  }
  io.out(`${suite}: ${total - wrong}/${total} vectors agree`);
  return wrong === 0;
}

type Asker = (suite: string, op: string, input: unknown, label: string) => Promise<Received>;

/** The random cases of one suite; false when the implementation disagreed. */
async function randomPhase(
  fc: typeof FC,
  suite: Suite,
  options: ConformOptions,
  ask: Asker,
  io: ConformIo,
): Promise<boolean> {
  let broken: Broken | null = null;
  let n = 0;
  let lastProgress = Date.now();
  const every = options.progressMs ?? 2000;
  const last = new Map<string, Received>();
  const property = fc.asyncProperty(caseArb(fc, suite), async (x: Case) => {
    if (broken !== null) return true;
    n++;
    if (Date.now() - lastProgress >= every) {
      lastProgress = Date.now();
      io.err(`${suite}: ${n} random cases…`);
    }
    const got = await ask(suite, x.op, x.input, `random case ${n} of ${suite} (${x.op})`).then(
      (answer) => answer,
      (e: unknown) => {
        if (!(e instanceof Broken)) throw e;
        broken = e;
        return null;
      },
    );
    if (got === null) return true;
    last.set(canonical(x), got);
    return agrees(got, expectedOf(suite, x));
  });
  const started = Date.now();
  const result = await fc.check(property, { seed: options.seed, numRuns: options.runs });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (broken !== null) throw broken;
  if (!result.failed) {
    io.out(`${suite}: ${result.numRuns} random cases agree (seed ${options.seed}, ${seconds} s)`);
    return true;
  }
  const x = result.counterexample?.[0] as Case | undefined;
  if (x === undefined) {
    io.out(`${suite}: the random phase failed: ${String(result.errorInstance ?? 'unknown error')}`);
    return false;
  }
  const got = last.get(canonical(x));
  const found = result.numRuns;
  io.out(
    `✗ ${suite}: disagreement at random case ${found} (seed ${options.seed}), shrunk ${result.numShrinks} times to:`,
  );
  io.out(`  op:       ${x.op}`);
  io.out(`  input:    ${JSON.stringify(x.input)}`);
  const steps = suite === 'scenario' ? stepsLine(x.input) : null;
  if (steps !== null) io.out(`  steps:    ${steps}`);
  const expected = expectedOf(suite, x);
  io.out(`  expected: ${shown(expected)}`);
  if (got !== undefined) {
    io.out(`  got:      ${shown(got)}`);
    for (const line of differenceLines(expected, got)) io.out(line);
    for (const line of safetyLines(suite, x.input, got)) io.out(line);
  }
  io.out(
    `  replay:   span-ledger conform --suite ${suite} --runs ${found} --seed ${options.seed} --timeout ${options.timeoutMs} -- ${options.command.map(quote).join(' ')}`,
  );
  return false;
}

function count(flag: string, raw: unknown, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min) {
    throw new UsageError(`${flag} needs a whole number of at least ${min}, got ${String(raw)}`);
  }
  return n;
}

const CONFORM_OPTIONS = {
  suite: { type: 'string', multiple: true },
  runs: { type: 'string' },
  seed: { type: 'string' },
  timeout: { type: 'string' },
} as const;

/** The suites `--suite` names (repeated or comma-separated), or `null` for every suite. */
function suitesOf(named: unknown): Suite[] | null {
  if (!Array.isArray(named)) return null;
  const suites = named.flatMap((s) => String(s).split(',')).map((s) => s.trim());
  const bad = suites.find((s) => !SUITES.includes(s as Suite));
  if (bad !== undefined) {
    throw new UsageError(`unknown suite ${bad} (one of: ${SUITES.join(', ')})`);
  }
  return suites as Suite[];
}

/** `span-ledger conform …` from its arguments (after the command name); resolves to the exit code. */
export async function runConform(args: readonly string[], io: ConformIo): Promise<number> {
  const split = args.indexOf('--');
  const runnerArgs = split === -1 ? args : args.slice(0, split);
  const command = split === -1 ? [] : args.slice(split + 1);
  try {
    const { values } = readArgs(runnerArgs, CONFORM_OPTIONS, 0);
    if (command.length === 0) throw new UsageError('conform needs the command to run after --');
    return await conform(
      {
        command,
        suites: suitesOf(values.suite),
        runs: count('--runs', values.runs, 100, 0),
        seed: count('--seed', values.seed, Date.now() % 2_147_483_647, 0),
        timeoutMs: count('--timeout', values.timeout, 5000, 1),
      },
      io,
    );
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`span-ledger: ${error.message} (see span-ledger --help)`);
    return 2;
  }
}
