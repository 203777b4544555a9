/**
 * Hostile input across every export. Every function of every entry point is
 * called with each hostile value in each argument position (the others filled
 * with a sensible sample). Tool-path functions never throw; the few
 * developer-facing entry points may throw, but only a TypeError that names the
 * argument. Then: nothing the ledger, the carriers or the planner return holds a
 * path, line or fingerprint the input did not contain.
 *
 * The bulk checks run one test per function, so a mutation-testing run only
 * re-runs the functions a mutant can reach.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as adapter from '../src/adapter/index.js';
import type { Emission, LineRange, ProjectState } from '../src/index.js';
import * as main from '../src/index.js';
import * as shared from '../src/shared/index.js';
import * as testing from '../src/testing/index.js';
import {
  hostileEmissionArb,
  hostileLedgerEventArb,
  hostileRangeSetArb,
  ledgerEventArb,
  linesOf,
} from '../src/testing/index.js';
import * as wire from '../src/wire/index.js';
import { emission as emissionWith, fileEmission, ranges } from './_build.js';

type Fn = (...args: unknown[]) => unknown;

/** A revoked proxy: even `Array.isArray` and `typeof`-guarded reads of it throw. */
function revoked(array: boolean): object {
  const { proxy, revoke } = Proxy.revocable(array ? [] : {}, {});
  revoke();
  return proxy;
}

/** A proxy that throws on every string-keyed read (and on `length` when it poses as an array). */
function throwing(array: boolean): object {
  const boom = (): never => {
    throw new Error('hostile read');
  };
  return new Proxy(array ? [] : {}, {
    get: (_t, k) => (typeof k === 'symbol' ? undefined : boom()),
    has: boom,
    ownKeys: boom,
    getOwnPropertyDescriptor: boom,
  });
}

function getters(): object {
  const o = {};
  for (const key of [
    'start',
    'end',
    'path',
    'ranges',
    'files',
    'projectRoot',
    'type',
    'emission',
    'projects',
    'calls',
    'content',
    'intended',
    'prior',
    'version',
    'length',
    'chars',
    'fingerprint',
    'sessionId',
    'covered',
    'maxChars',
  ]) {
    Object.defineProperty(o, key, {
      enumerable: true,
      get(): never {
        throw new Error(`hostile getter ${key}`);
      },
    });
  }
  return o;
}

function cyclic(): object {
  const o: Record<string, unknown> = {
    start: 1,
    end: 3,
    path: 'a.ts',
    projectRoot: '/r',
    type: 'recorded',
  };
  o.self = o;
  o.files = [o];
  o.ranges = [o];
  o.emission = o;
  o.projects = [o];
  o.calls = [o];
  return o;
}

const MB = 'x'.repeat(1 << 20);
// biome-ignore lint/suspicious/noSparseArray: sparse arrays are the point
const SPARSE = [, { start: 1, end: 3 }, , , { start: 5, end: 5 }];

/** Each hostile value, named. */
const HOSTILE: readonly [string, () => unknown][] = [
  ['NaN', () => Number.NaN],
  ['Infinity', () => Number.POSITIVE_INFINITY],
  ['-Infinity', () => Number.NEGATIVE_INFINITY],
  ['-0', () => -0],
  ['2^53', () => 2 ** 53],
  ['1.5', () => 1.5],
  ['"7"', () => '7'],
  ['__proto__', () => '__proto__'],
  ['constructor', () => 'constructor'],
  ['hasOwnProperty', () => 'hasOwnProperty'],
  ['1 MB string', () => MB],
  ['null', () => null],
  ['undefined', () => undefined],
  ['a symbol', () => Symbol('x')],
  ['a bigint', () => 7n],
  ['a function', () => () => 1],
  ['a sparse array', () => SPARSE],
  ['getters that throw', getters],
  [
    'a frozen object',
    () => Object.freeze({ start: 1, end: 3, path: 'a.ts', files: Object.freeze([]) }),
  ],
  ['a cyclic object', cyclic],
  ['a proxy that throws', () => throwing(false)],
  ['an array proxy whose length throws', () => throwing(true)],
  ['a revoked proxy', () => revoked(false)],
  ['a revoked array proxy', () => revoked(true)],
  ['an object with a null prototype', () => Object.create(null)],
  [
    'an object whose __proto__ key is own',
    () => JSON.parse('{"__proto__": {"start": 1}, "start": 2, "end": 1}'),
  ],
];

const content = 'line one\nline two\nline three\n';
const fp = main.fingerprint(content);
const emission: Emission = emissionWith({
  files: [fileEmission('a.ts', '1-2', 18, fp)],
  sourceChars: 18,
  responseChars: 40,
});
const project: ProjectState = {
  projectRoot: '/repo',
  callCount: 1,
  responseChars: 40,
  calls: [{ ...emission, index: 1 }],
};

/** A response with one section of `a.ts`, the file it shows, and the section proved against it. */
const sectionText = '**`a.ts`**\n```ts\n1\tline one\n2\tline two\n```\n';
const sectionFile = () => adapter.fileSource('a.ts', content, fp);
const provenSections = () =>
  adapter.proveSections(adapter.findSections([sectionText]), [sectionFile()]);

/**
 * A sample call for every exported function: `[args, kind]`. `tool` must never
 * throw; `developer` may throw a TypeError naming an argument. A new export
 * without an entry here fails the completeness test below.
 */
const SAMPLES: Record<string, { args: () => unknown[]; kind: 'tool' | 'developer' }> = {
  // ranges
  isLineRange: { args: () => ranges('1-2'), kind: 'tool' },
  mergeRanges: { args: () => [ranges('1-2')], kind: 'tool' },
  coalesceRanges: { args: () => [ranges('1-2'), 3], kind: 'tool' },
  intersectRange: { args: () => [{ start: 1, end: 9 }, ranges('2-3')], kind: 'tool' },
  subtractRange: { args: () => [{ start: 1, end: 9 }, ranges('2-3')], kind: 'tool' },
  intersectRanges: { args: () => [ranges('1-9'), ranges('2-3')], kind: 'tool' },
  subtractRanges: { args: () => [ranges('1-9'), ranges('2-3')], kind: 'tool' },
  dedupeRange: { args: () => [{ start: 1, end: 20 }, ranges('2-15'), 8], kind: 'tool' },
  rangesCover: { args: () => [ranges('1-9'), 3], kind: 'tool' },
  countLines: { args: () => [ranges('1-9')], kind: 'tool' },
  formatSpans: { args: () => [ranges('1-9'), 4], kind: 'tool' },
  // fingerprint
  fingerprint: { args: () => [content], kind: 'developer' },
  fingerprintBackend: { args: () => [], kind: 'tool' },
  // tokens
  estimateTokens: { args: () => [content], kind: 'developer' },
  // ledger
  createLedger: { args: () => [{ maxProjects: 2 }], kind: 'developer' },
  createSessionStore: { args: () => [{ maxProjects: 2 }], kind: 'developer' },
  ledgerReducer: {
    args: () => [main.createLedger(), { type: 'recorded', emission, sessionId: 's1' }],
    kind: 'tool',
  },
  sessionView: { args: () => [main.createLedger(), 's1'], kind: 'tool' },
  projectKey: { args: () => ['/repo/./src/..', 'linux'], kind: 'developer' },
  projectFromView: { args: () => [{ version: 1, projects: [project] }, '/repo'], kind: 'tool' },
  servedRangesForFile: { args: () => [project, 'a.ts', fp], kind: 'tool' },
  servedBy: {
    args: () => [
      project,
      { path: 'a.ts', fingerprint: fp, ranges: ranges('1-3'), projectRoot: '/repo' },
    ],
    kind: 'tool',
  },
  normalizeSessionId: { args: () => ['s1'], kind: 'tool' },
  mintContextToken: { args: () => [], kind: 'tool' },
  // shared store
  createSharedSessionStore: {
    args: () => [shared.createMemoryBackend(), { ttlMs: 1000 }],
    kind: 'developer',
  },
  createMemoryBackend: { args: () => [{ now: () => 0 }], kind: 'developer' },
  // tool arguments
  readRefresh: { args: () => [{ refresh: [1, 2] }], kind: 'tool' },
  readContextToken: { args: () => [{ context: 'k7f3q2ab' }], kind: 'tool' },
  contextIdFromMeta: { args: () => [{ 'vscode.conversationId': 'c-1' }], kind: 'tool' },
  // wire
  withSessionView: { args: () => [{ q: 1 }, { version: 1, projects: [project] }], kind: 'tool' },
  readSessionView: {
    args: () => [{ [wire.VIEW_KEY]: { version: 1, projects: [project] } }],
    kind: 'tool',
  },
  attachEmission: { args: () => [{ content: [] }, emission], kind: 'tool' },
  takeEmission: { args: () => [{ content: [], [wire.EMISSION_KEY]: emission }], kind: 'tool' },
  recordSafely: {
    args: () => [main.createSessionStore(), { [wire.EMISSION_KEY]: emission }, { sessionId: 's1' }],
    kind: 'tool',
  },
  // dedup
  planFile: {
    args: () => [{ path: 'a.ts', content, intended: ranges('1-3'), prior: project }],
    kind: 'tool',
  },
  planCall: {
    args: () => [
      {
        files: [{ path: 'a.ts', content, intended: ranges('1-3') }],
        prior: project,
        budget: { maxChars: 100 },
      },
    ],
    kind: 'tool',
  },
  planRead: {
    args: () => [{ path: 'a.ts', content, range: { start: 1, end: 3 }, prior: project }],
    kind: 'tool',
  },
  dedupEnabledFromEnv: {
    args: () => [{ SPAN_LEDGER_DEDUP: 'off' }, { name: 'SPAN_LEDGER_DEDUP', default: false }],
    kind: 'tool',
  },
  formatPointer: {
    args: () => [
      { path: 'a.ts', covered: ranges('1-9'), symbols: ['f'], partial: true },
      { sent: 'Shown in {responses}: {what}.' },
    ],
    kind: 'tool',
  },
  symbolsInSpans: {
    args: () => [
      [{ name: 'f', kind: 'function', startLine: 1, endLine: 3 }],
      ranges('1-2'),
      { by: 'overlap' },
    ],
    kind: 'tool',
  },
  describeSession: { args: () => [project], kind: 'tool' },
  formatSessionBlock: { args: () => [main.describeSession(project)], kind: 'tool' },
  // adapter
  createEmissionRecorder: { args: () => [{ projectRoot: '/repo', query: 'q' }], kind: 'tool' },
  parseRenderedResponse: { args: () => ['## a.ts\n```\nx\n```\n'], kind: 'tool' },
  measureDuplicates: { args: () => [['a', 'b']], kind: 'tool' },
  renderMarkdown: {
    args: () => [
      {
        plan: {
          files: [
            {
              path: 'a.ts',
              fingerprint: fp,
              render: 'partial',
              emit: ranges('3'),
              covered: ranges('1-2'),
            },
          ],
        },
        sources: [{ path: 'a.ts', content }],
        recorder: adapter.createEmissionRecorder({ projectRoot: '/repo' }),
      },
    ],
    kind: 'tool',
  },
  renderRead: {
    args: () => [
      {
        plan: {
          path: 'a.ts',
          fingerprint: fp,
          render: 'partial',
          emit: ranges('3'),
          covered: ranges('1-2'),
          coveredBy: [1],
        },
        content,
        recorder: adapter.createEmissionRecorder({ projectRoot: '/repo' }),
        callIndex: 2,
      },
    ],
    kind: 'tool',
  },
  formatResponseHeader: {
    args: () => [{ callIndex: 2, context: 'k7f3q2ab', refreshArgument: 'yes' }],
    kind: 'tool',
  },
  formatRefreshOffer: { args: () => [[3, 1]], kind: 'tool' },
  formatCut: { args: () => ['a.ts', 12], kind: 'tool' },
  pointerOrLines: {
    args: () => [
      { path: 'a.ts', covered: ranges('1-2'), chars: 400, calls: [1], symbols: ['parse'] },
    ],
    kind: 'tool',
  },
  extractSymbols: { args: () => [content, 'a.ts'], kind: 'tool' },
  fileSource: { args: () => ['a.ts', content, fp], kind: 'developer' },
  exploreHeading: { args: () => ['**`a.ts`** — f'], kind: 'tool' },
  findSections: { args: () => [[sectionText], adapter.exploreHeading], kind: 'tool' },
  proveSections: {
    args: () => [adapter.findSections([sectionText]), [sectionFile()]],
    kind: 'tool',
  },
  filesToPlan: { args: () => [provenSections()], kind: 'tool' },
  rewriteReads: {
    args: () => [
      [{ text: content, file: sectionFile(), path: 'a.ts', first: 1 }],
      main.planCall({
        files: [{ path: 'a.ts', content, intended: ranges('1-3') }],
        prior: project,
      }),
      {
        header: 'Response #2',
        recorder: adapter.createEmissionRecorder({ projectRoot: '/repo' }),
        several: true,
      },
    ],
    kind: 'tool',
  },
  rewriteSections: {
    args: () => [
      [sectionText],
      provenSections(),
      main.planCall({ files: adapter.filesToPlan(provenSections()), prior: project }),
      { header: 'Response #2', recorder: adapter.createEmissionRecorder({ projectRoot: '/repo' }) },
    ],
    kind: 'tool',
  },
  // testing (developer-facing by nature; only the model is held to totality)
  linesOf: { args: () => [ranges('1-3')], kind: 'tool' },
  linesOfRange: { args: () => ranges('1-3'), kind: 'tool' },
  mergeModel: { args: () => [ranges('1-3')], kind: 'tool' },
  coalesceModel: { args: () => [ranges('1-3'), 2], kind: 'tool' },
  coversLineModel: { args: () => [ranges('1-3'), 2], kind: 'tool' },
  countLinesModel: { args: () => [ranges('1-3')], kind: 'tool' },
  dedupeLines: { args: () => [{ start: 1, end: 9 }, ranges('1-3'), 2], kind: 'tool' },
  checkRangeAlgebra: {
    args: () => [{ countLines: main.countLines }, { numRuns: 3 }],
    kind: 'developer',
  },
};

/** Exports that are not plain functions of data (arbitrary builders, classes, runners). */
const NOT_CALLED = new Set(['RangeAlgebraLawError', 'runsOf', 'intersectLines', 'subtractLines']);

/** Functions of every entry point, by name. */
function exportedFunctions(): [string, Fn][] {
  const all = new Map<string, Fn>();
  for (const mod of [main, adapter, shared, wire, testing] as Record<string, unknown>[]) {
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value !== 'function' || NOT_CALLED.has(name) || name.endsWith('Arb')) continue;
      all.set(name, value as Fn);
    }
  }
  return [...all];
}

/** Calls `f` and classifies the outcome against the contract; returns a failure or null. */
function violation(
  name: string,
  f: Fn,
  args: unknown[],
  kind: 'tool' | 'developer',
): string | null {
  try {
    f(...args);
    return null;
  } catch (e) {
    if (kind === 'developer' && e instanceof TypeError && /\(/.test(e.message)) return null;
    return `${name} threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
  }
}

describe('hostile input across every export', () => {
  it('has a sample call for every exported function (a new export needs one)', () => {
    const missing = exportedFunctions()
      .map(([name]) => name)
      .filter((name) => !(name in SAMPLES));
    expect(missing).toEqual([]);
  });

  it('every sample call succeeds as it is', () => {
    const failures = exportedFunctions()
      .filter(([name]) => name in SAMPLES)
      .map(([name, f]) => {
        try {
          f(...SAMPLES[name]!.args());
          return null;
        } catch (e) {
          return `${name}: ${String(e)}`;
        }
      })
      .filter((x) => x !== null);
    expect(failures).toEqual([]);
  });

  const sampled = exportedFunctions().filter(([name]) => SAMPLES[name] !== undefined);

  /** Each function, each hostile value in each argument position: the contract, in bulk. */
  describe.each(sampled)('%s', (name, f) => {
    const sample = SAMPLES[name]!;

    it('never throws (or, at a developer entry point, throws a TypeError naming the argument)', () => {
      const failures: string[] = [];
      const width = Math.max(1, sample.args().length);
      for (let pos = 0; pos < width; pos++) {
        for (const [label, make] of HOSTILE) {
          const args = sample.args();
          args[pos] = make();
          const v = violation(name, f, args, sample.kind);
          if (v) failures.push(`${name}#${pos} ${label}: ${v}`);
        }
      }
      expect(failures).toEqual([]);
    });

    it('survives a hostile value in every position at once', () => {
      const failures: string[] = [];
      for (const [label, make] of HOSTILE) {
        const v = violation(name, f, [make(), make(), make()], sample.kind);
        if (v) failures.push(`${name}#* ${label}: ${v}`);
      }
      expect(failures).toEqual([]);
    });
  });
});

describe('developer entry points name the argument', () => {
  it.each(
    HOSTILE.filter(([l]) => !l.includes('revoked')).filter(
      ([label]) =>
        !label.includes('1 MB') &&
        !label.includes('__proto__') &&
        !label.includes('constructor') &&
        !label.includes('hasOwnProperty') &&
        label !== '"7"',
    ),
  )('fingerprint(%s) throws a TypeError naming content', (_label, make) => {
    expect(() => main.fingerprint(make() as string)).toThrow(TypeError);
    expect(() => main.fingerprint(make() as string)).toThrow(/content/);
  });

  it.each([
    ['a number', 3],
    ['a string', 'big'],
    ['NaN maxProjects', { maxProjects: Number.NaN }],
    ['negative maxCallsRetained', { maxCallsRetained: -1 }],
    ['fractional maxViewCalls', { maxViewCalls: 1.5 }],
    ['Infinity maxFilesPerCall', { maxFilesPerCall: Number.POSITIVE_INFINITY }],
    ['a string maxRangesPerFile', { maxRangesPerFile: '24' }],
    [
      'a getter that throws',
      Object.defineProperty({}, 'maxProjects', {
        enumerable: true,
        get(): never {
          throw new Error('hostile');
        },
      }),
    ],
  ])('createLedger(%s) throws a TypeError naming limits', (_label, limits) => {
    expect(() => main.createLedger(limits as never)).toThrow(TypeError);
    expect(() => main.createLedger(limits as never)).toThrow(/limits/);
  });

  it('createLedger accepts a frozen limits object and an empty one', () => {
    expect(main.createLedger(Object.freeze({ maxProjects: 2 })).limits.maxProjects).toBe(2);
    expect(main.createLedger({}).limits).toEqual(main.DEFAULT_LIMITS);
  });
});

/** Every (path, line) a list of emissions could justify: string paths, valid ranges. */
function justified(emissions: readonly unknown[]): {
  paths: Set<string>;
  lines: Map<string, Set<number>>;
  fps: Set<string>;
} {
  const paths = new Set<string>();
  const lines = new Map<string, Set<number>>();
  const fps = new Set<string>();
  for (const e of emissions) {
    let files: unknown;
    let length = 0;
    try {
      files = (e as { files?: unknown }).files;
      length = Array.isArray(files) ? files.length : 0;
    } catch {
      continue;
    }
    for (let i = 0; i < length; i++) {
      try {
        const f = (files as unknown[])[i] as {
          path?: unknown;
          ranges?: unknown;
          fingerprint?: unknown;
        };
        if (typeof f?.path !== 'string') continue;
        paths.add(f.path);
        const set = lines.get(f.path) ?? new Set<number>();
        for (const l of linesOf(Array.isArray(f.ranges) ? f.ranges : [])) set.add(l);
        lines.set(f.path, set);
        if (typeof f.fingerprint === 'string') fps.add(f.fingerprint);
      } catch {
        // a hostile file justifies nothing
      }
    }
  }
  return { paths, lines, fps };
}

/** Fails when `project` holds a path, line or fingerprint that `emissions` never contained. */
function expectNothingInvented(
  projects: readonly ProjectState[],
  emissions: readonly unknown[],
): void {
  const ok = justified(emissions);
  for (const p of projects) {
    for (const call of p.calls) {
      for (const file of call.files) {
        expect(ok.paths.has(file.path), `invented path ${file.path}`).toBe(true);
        const allowed = ok.lines.get(file.path) ?? new Set<number>();
        for (const line of linesOf(file.ranges))
          expect(allowed.has(line), `invented line ${line}`).toBe(true);
        if (file.fingerprint !== undefined) expect(ok.fps.has(file.fingerprint)).toBe(true);
      }
    }
  }
}

function eventEmission(e: unknown): unknown {
  try {
    return (e as { emission?: unknown }).emission;
  } catch {
    return undefined;
  }
}

describe('nothing recorded that the input did not contain', () => {
  it('the reducer on hostile events: never throws, never invents a path, line or fingerprint (seed 4101)', () => {
    fc.assert(
      fc.property(fc.array(hostileLedgerEventArb(), { maxLength: 12 }), (events) => {
        let ledger = main.createLedger();
        for (const event of events) ledger = main.ledgerReducer(ledger, event as never);
        const emissions = events.map(eventEmission);
        expectNothingInvented(
          ledger.entries.map((e) => e.project),
          emissions,
        );
        for (const id of [undefined, 's1', 's2', '__proto__'] as const) {
          expectNothingInvented(main.sessionView(ledger, id).projects, emissions);
        }
        expect(() => structuredClone(ledger)).not.toThrow();
        expect(JSON.parse(JSON.stringify(ledger))).toEqual(ledger);
      }),
      { seed: 4101, numRuns: Math.min(60, fc.readConfigureGlobal().numRuns ?? 60) },
    );
  });

  it('a malformed event returns the same ledger object', () => {
    const ledger = main.ledgerReducer(main.createLedger(), { type: 'recorded', emission });
    // (the cyclic object HOSTILE builds is a well-formed event and emission: left out)
    const malformed = HOSTILE.filter(([l]) => l !== 'a cyclic object');
    for (const [label, make] of malformed) {
      expect(main.ledgerReducer(ledger, make() as never), label).toBe(ledger);
    }
    for (const [label, make] of malformed) {
      const event = { type: 'recorded', emission: make() };
      expect(main.ledgerReducer(ledger, event as never), label).toBe(ledger);
    }
  });

  it('a hostile session id never wipes the default bucket, and __proto__ is just a bucket', () => {
    let ledger = main.ledgerReducer(main.createLedger(), { type: 'recorded', emission });
    for (const [, make] of HOSTILE)
      ledger = main.ledgerReducer(ledger, { type: 'forgotten', sessionId: make() } as never);
    expect(main.sessionView(ledger).projects).toHaveLength(1);
    ledger = main.ledgerReducer(ledger, { type: 'recorded', emission, sessionId: '__proto__' });
    expect(main.sessionView(ledger, '__proto__').projects).toHaveLength(1);
    expect(main.sessionView(ledger, 'constructor').projects).toHaveLength(0);
    expect(({} as Record<string, unknown>).start).toBeUndefined();
  });

  it('a 1 MB session id is its own bucket, and one sharing its prefix is another', () => {
    const a = MB;
    const b = `${MB.slice(0, -1)}y`;
    let ledger = main.ledgerReducer(main.createLedger(), {
      type: 'recorded',
      emission,
      sessionId: a,
    });
    expect(main.sessionView(ledger, b).projects).toHaveLength(0);
    ledger = main.ledgerReducer(ledger, { type: 'forgotten', sessionId: b });
    expect(main.sessionView(ledger, a).projects).toHaveLength(1);
    expect(JSON.stringify(ledger)).not.toContain(MB.slice(0, 200));
  });

  it('readSessionView on a hostile view keeps only what the view contained (seed 4102)', () => {
    fc.assert(
      fc.property(fc.array(hostileEmissionArb(), { maxLength: 5 }), (emissions) => {
        const calls = emissions.map((e, i) => {
          try {
            return typeof e === 'object' && e !== null ? { ...e, index: i + 1 } : e;
          } catch {
            return e; // a getter that throws on spread: passed on as it is
          }
        });
        const args = {
          [wire.VIEW_KEY]: {
            version: 1,
            projects: [{ projectRoot: '/repo', callCount: 9, responseChars: 0, calls }],
          },
        };
        const view = wire.readSessionView(args);
        if (view !== null) expectNothingInvented(view.projects, emissions);
      }),
      { seed: 4102, numRuns: Math.min(150, fc.readConfigureGlobal().numRuns ?? 150) },
    );
  });

  it('takeEmission strips the key and keeps nothing the emission did not contain (seed 4103)', () => {
    fc.assert(
      fc.property(hostileEmissionArb(), (raw) => {
        const taken = wire.takeEmission({ text: 'x', [wire.EMISSION_KEY]: raw });
        expect(Object.keys(taken.result as object)).not.toContain(wire.EMISSION_KEY);
        if (taken.emission !== null)
          expectNothingInvented(
            [
              {
                projectRoot: '',
                callCount: 1,
                responseChars: 0,
                calls: [{ ...taken.emission, index: 1 }],
              },
            ],
            [raw],
          );
      }),
      { seed: 4103, numRuns: Math.min(150, fc.readConfigureGlobal().numRuns ?? 150) },
    );
  });

  it('planFile covers only lines a prior record with the same fingerprint served (seed 4104)', () => {
    fc.assert(
      fc.property(
        hostileRangeSetArb({ maxLine: 40 }),
        fc.array(
          ledgerEventArb({
            paths: ['a.ts'],
            fingerprints: [fp, '3:ffffffffffffffff'],
            roots: ['/repo'],
            maxLine: 40,
          }),
          { maxLength: 6 },
        ),
        (intended, events) => {
          let ledger = main.createLedger();
          for (const e of events) ledger = main.ledgerReducer(ledger, e as never);
          const prior = main.projectFromView(main.sessionView(ledger), '/repo');
          const file = 'l\n'.repeat(39);
          const plan = main.planFile({
            path: 'a.ts',
            content: file,
            intended: intended as LineRange[],
            prior,
            fingerprint: fp,
          });
          const served = linesOf(main.servedRangesForFile(prior, 'a.ts', fp));
          for (const line of linesOf(plan.covered)) expect(served.has(line)).toBe(true);
        },
      ),
      { seed: 4104, numRuns: Math.min(100, fc.readConfigureGlobal().numRuns ?? 100) },
    );
  });

  it("the store's methods never throw, and a hostile prune only ever forgets", () => {
    const store = main.createSessionStore();
    store.record(emission, 's1');
    for (const [label, make] of HOSTILE) {
      expect(() => store.record(make() as never, make() as never), label).not.toThrow();
      expect(() => store.view(make() as never), label).not.toThrow();
      expect(() => store.project(make() as never, make() as never), label).not.toThrow();
      expect(() => store.prune(make() as never), label).not.toThrow();
      expect(
        () => store.prune({ calls: make(), projectRoot: make() } as never),
        label,
      ).not.toThrow();
      expect(() => store.forget(make() as never), label).not.toThrow();
    }
    // Whatever the prunes did, the counters count every call answered.
    expect(store.project('/repo', 's1')?.callCount).toBe(1);
    expectNothingInvented(store.view('s1').projects, [emission]);
  });

  it('recordSafely never throws, whatever the store does', () => {
    const stores = [
      null,
      undefined,
      {
        record: () => {
          throw new Error('store down');
        },
      },
      throwing(false),
      main.createSessionStore(),
    ];
    for (const store of stores) {
      for (const [, make] of HOSTILE) {
        expect(() =>
          main.recordSafely(store as never, { [wire.EMISSION_KEY]: make() }),
        ).not.toThrow();
        expect(() => main.recordSafely(store as never, make())).not.toThrow();
      }
    }
  });
});
