/**
 * The boundary on foreign views, ledgers and lists: the primitives every
 * reader is built from, `readSessionView`'s bounds, the selectors on views no
 * ledger built, lists read only up to their length, and malformed ledgers,
 * views and results. Malformed parts are dropped, never repaired.
 */
import { describe, expect, it } from 'vitest';
import {
  createLedger,
  createSessionStore,
  DEFAULT_LIMITS,
  type Ledger,
  ledgerReducer,
  projectFromView,
  servedRangesForFile,
  sessionView,
} from '../src/index.js';
import {
  attachEmission,
  EMISSION_KEY,
  readSessionView,
  takeEmission,
  VIEW_KEY,
  withSessionView,
} from '../src/wire/index.js';
import { callRecord, emission, fileEmission, filesOf, ranges, record } from './_build.js';

/** A view carried in args, ready for `readSessionView`. */
const wrap = (view: unknown) => ({ [VIEW_KEY]: view });

function rawProject(root: string, calls: unknown[] = [], callCount: unknown = calls.length) {
  return { projectRoot: root, callCount, responseChars: 0, calls };
}

function rawCall(index: number, files: unknown[] = []) {
  return callRecord(files, { index, query: '' });
}

/** The limits a ledger that went through JSON comes back with, once the reducer has read it. */
const limitsRead = (limits: unknown) =>
  record({ version: 1, limits, entries: [], evicted: [] } as unknown as Ledger).limits;

describe('the readers at the edge', () => {
  it('a carrier is looked for only among own keys, and not at all on what cannot be asked', () => {
    const { proxy, revoke } = Proxy.revocable({ a: 1 }, {});
    revoke();
    const taken = takeEmission(proxy);
    expect(taken.result).toBe(proxy);
    expect(taken.emission).toBeNull();
    const inherited = Object.create({ [EMISSION_KEY]: emission() });
    expect(takeEmission(inherited).result).toBe(inherited);
    expect(takeEmission(inherited).emission).toBeNull();
    expect(takeEmission({ a: 1, [EMISSION_KEY]: emission() }).emission).not.toBeNull();
  });

  it('a view is read only from an object carrying it', () => {
    const view = { version: 1, projects: [] };
    expect(readSessionView(Object.assign(() => 0, { [VIEW_KEY]: view }))).toBeNull();
    expect(readSessionView('abc')).toBeNull();
    expect(readSessionView(null)).toBeNull();
    expect(readSessionView(wrap(view))).toEqual(view);
  });

  it('a list whose length is not a safe integer, or cannot be read, holds nothing', () => {
    const lying = new Proxy([emission().files[0]!], {
      get: (target, key) => (key === 'length' ? 1.5 : Reflect.get(target, key)),
    });
    expect(filesOf(emission({ files: lying }))).toEqual([]);
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    expect(filesOf(emission({ files: proxy }))).toEqual([]);
    expect(filesOf(emission()).map((f) => f.path)).toEqual(['a.ts']);
  });

  it('an emission whose files list lies about its length keeps no files', () => {
    const files = new Proxy([fileEmission('a')], {
      get: (target, key) => (key === 'length' ? 0.5 : Reflect.get(target, key)),
    });
    expect(filesOf(emission({ files }))).toEqual([]);
  });

  it('a files list with an unreadable member keeps the rest', () => {
    const files = [fileEmission('a'), null, fileEmission('c', '', 3)];
    Object.defineProperty(files, 1, {
      get(): never {
        throw new Error('hostile file');
      },
    });
    expect(filesOf(emission({ files: files as never })).map((f) => f.path)).toEqual(['a', 'c']);
  });

  it('forwarded arguments are a plain copy of the own enumerable properties, symbols too', () => {
    const sym = Symbol('s');
    const source = Object.defineProperty({ a: 1, [VIEW_KEY]: 2, [sym]: 3 }, 'hidden', {
      value: 4,
      enumerable: false,
    });
    const out = withSessionView(source, null) as Record<PropertyKey, unknown>;
    expect(Reflect.ownKeys(out)).toEqual(['a', sym]);
    expect(out[sym]).toBe(3);
    expect(Object.getOwnPropertyDescriptor(out, 'a')).toEqual({
      value: 1,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it('an unreadable property: the arguments are not forwarded, the result goes out without it', () => {
    const bad = {
      enumerable: true,
      get(): never {
        throw new Error('hostile');
      },
    };
    const args = Object.defineProperty({ a: 1, b: 2 }, 'bad', bad);
    expect(withSessionView(args, null)).toEqual({});
    const result = Object.defineProperty({ a: 1, [EMISSION_KEY]: emission() }, 'bad', bad);
    expect(takeEmission(result).result).toEqual({ a: 1 });
    // The carrier key itself is skipped without being read.
    const carrier = Object.defineProperty({ a: 1, b: 2 }, VIEW_KEY, bad);
    expect(withSessionView(carrier, null)).toEqual({ a: 1, b: 2 });
  });
});

describe('readSessionView bounds', () => {
  it.each([
    [2, 1, ['/p0']],
    [2, 2, ['/p0', '/p1']],
    [2, 3, ['/p0', '/p1']],
    [0, 2, []],
  ])('maxProjects %i of %i projects → %j', (max, n, want) => {
    const projects = Array.from({ length: n }, (_, i) => rawProject(`/p${i}`));
    const view = readSessionView(wrap({ version: 1, projects }), { maxProjects: max });
    expect(view!.projects.map((p) => p.projectRoot)).toEqual(want);
  });

  it('a dropped or duplicate project does not use up the bound', () => {
    const projects = [
      null,
      rawProject(''),
      rawProject('/a'),
      rawProject('/a/'),
      rawProject('/b'),
      rawProject('/c'),
    ];
    const view = readSessionView(wrap({ version: 1, projects }), { maxProjects: 2 });
    expect(view!.projects.map((p) => p.projectRoot)).toEqual(['/a', '/b']);
  });

  it.each([
    [2, [1, 2], [1, 2]],
    [2, [1, 2, 3], [2, 3]],
    [3, [1, 2, 3], [1, 2, 3]],
    [1, [1, 2, 3], [3]],
  ])('maxViewCalls %i of calls %j → %j', (max, indexes, want) => {
    const calls = indexes.map((i) => rawCall(i));
    const view = readSessionView(wrap({ version: 1, projects: [rawProject('/repo', calls)] }), {
      maxViewCalls: max,
    });
    expect(view!.projects[0]!.calls.map((c) => c.index)).toEqual(want);
  });

  it('keeps a record with index 1, drops 0, negatives, fractions and strings', () => {
    const calls = [
      rawCall(1),
      rawCall(0),
      rawCall(-2),
      rawCall(1.5),
      { ...rawCall(4), index: '4' },
    ];
    const view = readSessionView(wrap({ version: 1, projects: [rawProject('/repo', calls)] }));
    expect(view!.projects[0]!.calls.map((c) => c.index)).toEqual([1]);
  });

  it('an invalid record does not use up the window', () => {
    const calls = [rawCall(1), rawCall(2), rawCall(0), { index: 3, projectRoot: '' }];
    const view = readSessionView(wrap({ version: 1, projects: [rawProject('/repo', calls)] }), {
      maxViewCalls: 2,
    });
    expect(view!.projects[0]!.calls.map((c) => c.index)).toEqual([1, 2]);
  });

  it.each([
    [1, 1],
    [7, 7],
    [0, 0],
    [-0, 0],
    [-3, 0],
    [2.5, 0],
    ['7', 0],
    [Number.POSITIVE_INFINITY, 0],
  ])('callCount %j reads as %d', (raw, want) => {
    const view = readSessionView(wrap({ version: 1, projects: [rawProject('/repo', [], raw)] }));
    expect(view!.projects[0]!.callCount).toBe(want);
  });

  it('bounds files and spans of a carried record by the limits given', () => {
    const files = [fileEmission('a', '1, 3-9'), fileEmission('b', '', 5), fileEmission('c', '', 3)];
    const view = readSessionView(
      wrap({ version: 1, projects: [rawProject('/repo', [rawCall(1, files)])] }),
      { maxFilesPerCall: 2, maxRangesPerFile: 1 },
    );
    expect(view!.projects[0]!.calls[0]!.files).toEqual([
      fileEmission('b', '', 5),
      fileEmission('c', '', 3),
    ]);
    const spans = readSessionView(
      wrap({ version: 1, projects: [rawProject('/repo', [rawCall(1, files)])] }),
      { maxRangesPerFile: 1 },
    );
    expect(spans!.projects[0]!.calls[0]!.files[0]).toEqual({
      ...fileEmission('a', '3-9'),
      rangesTruncated: true,
    });
  });

  it('a view read back keeps responseChars and the records’ fields', () => {
    const project = {
      projectRoot: '/repo',
      callCount: 3,
      responseChars: 77,
      calls: [{ ...rawCall(3), query: 'auth', sourceChars: 5, responseChars: 9 }],
    };
    expect(readSessionView(wrap({ version: 1, projects: [project] }))).toEqual({
      version: 1,
      projects: [
        {
          projectRoot: '/repo',
          callCount: 3,
          responseChars: 77,
          calls: [callRecord([], { index: 3, query: 'auth', sourceChars: 5, responseChars: 9 })],
        },
      ],
    });
  });
});

describe('the selectors on views no ledger built', () => {
  const served = {
    path: 'a.ts',
    fingerprint: 'fp',
    ranges: ranges('3-4'),
  };
  const project = (calls: unknown) =>
    ({ projectRoot: '/r', callCount: 1, responseChars: 0, calls }) as never;
  const empty = (projectRoot: unknown) => ({
    projectRoot,
    callCount: 0,
    responseChars: 0,
    calls: [],
  });

  it('projectFromView: a view that is not an object is untracked', () => {
    expect(projectFromView(undefined as never, '/r')).toBeNull();
    expect(projectFromView('view' as never, '/r')).toBeNull();
  });

  it('projectFromView: a view whose projects are not a list is untracked, as readSessionView reads it', () => {
    const view = { version: 1, projects: { 0: { projectRoot: '/r', callCount: 5 } } } as never;
    expect(projectFromView(view, '/r')).toBeNull();
  });

  it('projectFromView: skips members that are not objects or have no string root', () => {
    const fn = Object.assign(() => 0, { projectRoot: '/r', callCount: 8 });
    const good = { projectRoot: '/r/', callCount: 2, responseChars: 0, calls: [] };
    const view = {
      version: 1,
      projects: [null, fn, { projectRoot: 7, callCount: 9 }, good],
    } as never;
    expect(projectFromView(view, '/r')).toEqual(good);
    expect(projectFromView({ version: 1, projects: [fn] } as never, '/r')).toEqual(empty('/r'));
  });

  it('projectFromView: a root that is not a string finds nothing and does not throw', () => {
    const view = { version: 1, projects: [{ projectRoot: '/r', callCount: 1 }] } as never;
    expect(projectFromView(view, 5 as never)).toEqual(empty(5));
  });

  it('servedRangesForFile: no fingerprint, or an empty one, holds nothing', () => {
    const unproven = project([{ index: 1, files: [{ path: 'a.ts', ranges: ranges('1-9') }] }]);
    expect(servedRangesForFile(unproven, 'a.ts', undefined as never)).toEqual([]);
    const blank = project([{ index: 1, files: [{ ...served, fingerprint: '' }] }]);
    expect(servedRangesForFile(blank, 'a.ts', '')).toEqual([]);
    expect(servedRangesForFile(project([{ index: 1, files: [served] }]), 'a.ts', 'fp')).toEqual(
      ranges('3-4'),
    );
  });

  it('servedRangesForFile: a project that is not an object holds nothing', () => {
    const fn = Object.assign(() => 0, { calls: [{ index: 1, files: [served] }] });
    expect(servedRangesForFile(fn as never, 'a.ts', 'fp')).toEqual([]);
    expect(servedRangesForFile('p' as never, 'a.ts', 'fp')).toEqual([]);
  });

  it('servedRangesForFile: reads only arrays, skipping members that are not objects', () => {
    const fnCall = Object.assign(() => 0, { index: 1, files: [served] });
    const fnFile = Object.assign(() => 0, { ...served, ranges: ranges('20-30') });
    const calls = new Set([{ index: 1, files: [served] }]);
    expect(servedRangesForFile(project(calls), 'a.ts', 'fp')).toEqual([]);
    expect(
      servedRangesForFile(
        project([
          null,
          fnCall,
          { index: 2, files: new Set([served]) },
          {
            index: 3,
            files: [null, fnFile, { ...served, ranges: new Set(ranges('40-41')) }],
          },
          { index: 4, files: [served] },
        ]),
        'a.ts',
        'fp',
      ),
    ).toEqual(ranges('3-4'));
  });

  it('servedRangesForFile: matches path and fingerprint both, merging what several calls served', () => {
    const calls = [
      { index: 1, files: [{ ...served, ranges: ranges('5-6') }] },
      { index: 2, files: [{ ...served, path: 'b.ts', ranges: ranges('50-60') }] },
      { index: 3, files: [{ ...served, fingerprint: 'other', ranges: ranges('70-80') }] },
      { index: 4, files: [served] },
    ];
    expect(servedRangesForFile(project(calls), 'a.ts', 'fp')).toEqual(ranges('3-6'));
  });

  it('servedRangesForFile: a call whose getter throws holds nothing; the calls beside it hold what they served', () => {
    const hostile = Object.defineProperty({ index: 2 }, 'files', {
      get(): never {
        throw new Error('hostile');
      },
    });
    expect(servedRangesForFile(project([hostile]), 'a.ts', 'fp')).toEqual([]);
    // As the planner reads a prior: the unreadable record is absent, never a
    // reason to trust the others less or more than they would be alone.
    const beside = project([{ index: 1, files: [served] }, hostile]);
    expect(servedRangesForFile(beside, 'a.ts', 'fp')).toEqual(ranges('3-4'));
  });

  it('servedRangesForFile: a record without a positive whole index holds nothing, as no pointer could cite it', () => {
    for (const index of [0, -1, 1.5, '1', undefined, Number.NaN, 2 ** 53]) {
      const calls = [{ index, files: [served] }];
      expect(servedRangesForFile(project(calls), 'a.ts', 'fp'), String(index)).toEqual([]);
    }
    expect(servedRangesForFile(project([{ index: 1, files: [served] }]), 'a.ts', 'fp')).toEqual(
      ranges('3-4'),
    );
  });

  it('servedRangesForFile: a file served under an empty path or an overlong fingerprint holds nothing', () => {
    const blankPath = project([{ index: 1, files: [{ ...served, path: '' }] }]);
    expect(servedRangesForFile(blankPath, '', 'fp')).toEqual([]);
    const long = 'f'.repeat(257);
    const overlong = project([{ index: 1, files: [{ ...served, fingerprint: long }] }]);
    expect(servedRangesForFile(overlong, 'a.ts', long)).toEqual([]);
    const longest = project([{ index: 1, files: [{ ...served, fingerprint: long.slice(1) }] }]);
    expect(servedRangesForFile(longest, 'a.ts', long.slice(1))).toEqual(ranges('3-4'));
  });
});

describe('lists read only up to their length', () => {
  /** An array whose member at `length` (past its end) reads as `extra`. */
  const pastEnd = <T>(items: T[], extra: unknown): T[] =>
    new Proxy(items, {
      get: (target, key) => (key === String(target.length) ? extra : Reflect.get(target, key)),
    });

  it('files, and a merged entry’s spans', () => {
    const files = pastEnd([fileEmission('a', '1')], fileEmission('ghost', '', 9));
    expect(filesOf(emission({ files })).map((f) => f.path)).toEqual(['a']);
    const merged = filesOf(
      emission({
        files: [
          fileEmission('a', '1'),
          fileEmission('a', pastEnd(ranges('3'), { start: 9, end: 9 })),
        ],
      }),
    );
    expect(merged[0]!.ranges).toEqual(ranges('1, 3'));
  });

  it('a ledger’s entries, a view’s projects and a project’s calls', () => {
    const good = record(createLedger(), emission()).entries[0]!;
    const ghost = { ...good, project: { ...good.project, projectRoot: '/ghost' } };
    const ledger = { ...createLedger(), entries: pastEnd([good], ghost) } as unknown as Ledger;
    expect(sessionView(ledger).projects.map((p) => p.projectRoot)).toEqual(['/repo']);

    const projects = pastEnd([rawProject('/a')], rawProject('/ghost'));
    const view = readSessionView(wrap({ version: 1, projects }));
    expect(view!.projects.map((p) => p.projectRoot)).toEqual(['/a']);

    const calls = pastEnd([rawCall(1)], rawCall(9));
    const read = readSessionView(wrap({ version: 1, projects: [rawProject('/a', calls)] }));
    expect(read!.projects[0]!.calls.map((c) => c.index)).toEqual([1]);
  });
});

describe('malformed ledgers, views and results', () => {
  it('cleared of a ledger whose entries are not a list returns it as it is', () => {
    const junk = { ...createLedger(), entries: 'abc' } as unknown as Ledger;
    expect(ledgerReducer(junk, { type: 'cleared' })).toBe(junk);
    expect(ledgerReducer(junk, { type: 'forgotten', sessionId: 'a' })).toBe(junk);
  });

  it('a blank id forgets nothing, even an entry with no session at all', () => {
    const good = record(createLedger(), emission()).entries[0]!;
    const ledger = {
      ...createLedger(),
      entries: [{ ...good, session: undefined }],
    } as unknown as Ledger;
    expect(ledgerReducer(ledger, { type: 'forgotten', sessionId: '  ' })).toBe(ledger);
  });

  it('projectFromView: a view whose projects cannot be read is untracked', () => {
    const view = Object.defineProperty({ version: 1 }, 'projects', {
      get(): never {
        throw new Error('hostile');
      },
    });
    expect(projectFromView(view as never, '/r')).toBeNull();
  });

  it('projectFromView: matches only its own root, by key or as it is', () => {
    const other = { projectRoot: '/other', callCount: 4, responseChars: 0, calls: [] };
    const mine = { projectRoot: '/r/', callCount: 2, responseChars: 0, calls: [] };
    expect(projectFromView({ version: 1, projects: [other, mine] }, '/r')).toEqual(mine);
    // A project without a string root is dropped at the boundary: nothing matches it.
    const odd = { projectRoot: 5, callCount: 3 };
    const view = { version: 1, projects: [{ projectRoot: 7 }, odd] } as never;
    expect(projectFromView(view, 5 as never)).toEqual({
      projectRoot: 5,
      callCount: 0,
      responseChars: 0,
      calls: [],
    });
  });

  it('the store answers null for a malformed emission after a good one', () => {
    const store = createSessionStore();
    expect(store.record(emission())?.index).toBe(1);
    const before = store.ledger();
    expect(store.record({ projectRoot: '' } as never)).toBeNull();
    expect(store.ledger()).toBe(before);
  });

  it('takeEmission and attachEmission leave arrays and functions carrying the key as they are', () => {
    const list = Object.assign([1, 2], { [EMISSION_KEY]: emission() });
    expect(takeEmission(list)).toEqual({ result: list, emission: null });
    expect(takeEmission(list).result).toBe(list);
    const fn = Object.assign(() => 0, { [EMISSION_KEY]: emission() });
    expect(takeEmission(fn).result).toBe(fn);
    expect(takeEmission(fn).emission).toBeNull();
    expect(attachEmission(fn, emission())).toBe(fn);
  });
});

describe('the ledger on unreadable input', () => {
  it('limits a foreign ledger carries: a getter that throws reads as the default for that field', () => {
    const limits = Object.defineProperty({ maxProjects: 9 }, 'maxViewCalls', {
      enumerable: true,
      get(): never {
        throw new Error('hostile');
      },
    });
    expect(limitsRead(limits)).toEqual({ ...DEFAULT_LIMITS, maxProjects: 9 });
  });

  it('a ledger whose entries are a revoked proxy comes back unchanged', () => {
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    const broken = { ...createLedger(), entries: proxy } as never;
    expect(ledgerReducer(broken, { type: 'cleared' })).toBe(broken);
  });

  it('char counts are held finite when two reports of a file add past the largest number', () => {
    const { emission } = takeEmission({
      [EMISSION_KEY]: {
        projectRoot: '/r',
        query: '',
        files: [
          fileEmission('a.ts', '1', Number.MAX_VALUE),
          fileEmission('a.ts', '2', Number.MAX_VALUE),
        ],
        sourceChars: 0,
        responseChars: 0,
      },
    });
    expect(emission?.files).toEqual([fileEmission('a.ts', '1-2', Number.MAX_VALUE)]);
  });

  it('servedRangesForFile skips calls without a files list and files that are not objects', () => {
    const project = {
      projectRoot: '/r',
      callCount: 3,
      responseChars: 0,
      calls: [
        null,
        { index: 1, files: 'not a list' },
        {
          index: 2,
          files: [null, 7, { path: 'a.ts', fingerprint: 'fp', ranges: ranges('3-4') }],
        },
        { index: 3, files: [{ path: 'a.ts', fingerprint: 'fp', ranges: 'L9-12' }] },
      ],
    };
    expect(servedRangesForFile(project as never, 'a.ts', 'fp')).toEqual(ranges('3-4'));
  });
});
