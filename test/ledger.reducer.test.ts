import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/hash/_sha256.js';
import { sha256OfUtf8 } from '../src/hash/sha256.js';
import {
  createLedger,
  DEFAULT_LIMITS,
  type Emission,
  type Ledger,
  ledgerReducer,
  normalizeSessionId,
  projectFromView,
  projectKey,
  servedRangesForFile,
  sessionView,
} from '../src/index.js';
import { MAX_EVICTED_COUNTERS } from '../src/ledger/limits.js';
import { emission as emissionWith, fileEmission, filesOf, ranges, record } from './_build.js';

/** One call about `auth` that sent L1-40 of `src/auth.ts`, with `over` applied. */
function emission(over: Partial<Emission> = {}): Emission {
  return emissionWith({
    query: 'auth',
    files: [fileEmission('src/auth.ts', '1-40', 900, 'fp1')],
    sourceChars: 900,
    responseChars: 1400,
    ...over,
  });
}

describe('createLedger', () => {
  it('starts empty with the default limits', () => {
    expect(createLedger()).toEqual({
      version: 1,
      limits: DEFAULT_LIMITS,
      entries: [],
      evicted: [],
    });
  });

  it('rejects a revoked proxy as limits with a TypeError naming the argument', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(() => createLedger(proxy)).toThrow('createLedger(limits): limits could not be read');
  });

  it('takes partial limits, the rest defaulted', () => {
    expect(createLedger({ maxProjects: 16 }).limits).toEqual({
      ...DEFAULT_LIMITS,
      maxProjects: 16,
    });
  });

  it.each([
    [{ maxProjects: -1 }, 'limits.maxProjects must be a non-negative safe integer'],
    [{ maxViewCalls: 1.5 }, 'limits.maxViewCalls must be a non-negative safe integer'],
    [{ maxFilesPerCall: '24' }, 'limits.maxFilesPerCall must be a non-negative safe integer'],
    [
      { maxRangesPerFile: Number.NaN },
      'limits.maxRangesPerFile must be a non-negative safe integer',
    ],
    [null, 'limits must be an object'],
    [7, 'limits must be an object'],
  ])('rejects %j with a TypeError naming the argument', (limits, message) => {
    expect(() => createLedger(limits as never)).toThrow(TypeError);
    expect(() => createLedger(limits as never)).toThrow(`createLedger(limits): ${message}`);
  });

  it('is plain data: survives JSON and structuredClone unchanged', () => {
    let ledger = createLedger();
    ledger = record(ledger, emission(), 'conn-1');
    ledger = record(ledger, emission({ projectRoot: '/other' }));
    expect(JSON.parse(JSON.stringify(ledger))).toEqual(ledger);
    expect(structuredClone(ledger)).toEqual(ledger);
  });
});

describe('ledgerReducer: identity and purity', () => {
  const base = record(createLedger(), emission(), 'conn-1');

  it.each([
    ['an unknown type', { type: 'renamed' }],
    ['no type', {}],
    ['null', null],
    ['a string', 'cleared'],
    ['recorded without emission', { type: 'recorded' }],
    ['an empty projectRoot', { type: 'recorded', emission: { ...emission(), projectRoot: '' } }],
    ['a non-string projectRoot', { type: 'recorded', emission: { ...emission(), projectRoot: 5 } }],
    ['an emission that is a string', { type: 'recorded', emission: '/repo' }],
    ['forgotten without id', { type: 'forgotten' }],
    ['forgotten with a blank id', { type: 'forgotten', sessionId: '   ' }],
    ['forgotten with a number', { type: 'forgotten', sessionId: 3 }],
    ['forgotten of an unknown session', { type: 'forgotten', sessionId: 'nobody' }],
  ])('returns the same ledger for %s', (_name, event) => {
    expect(ledgerReducer(base, event as never)).toBe(base);
  });

  it('returns a junk ledger as it is instead of throwing', () => {
    const junk = { entries: 'nope' } as unknown as Ledger;
    expect(ledgerReducer(junk, { type: 'recorded', emission: emission() })).toBe(junk);
    expect(ledgerReducer(null as unknown as Ledger, { type: 'cleared' })).toBe(null);
  });

  it('never mutates its input and shares unchanged entries and records', () => {
    let ledger = record(createLedger(), emission(), 'a');
    ledger = record(ledger, emission({ projectRoot: '/b' }), 'b');
    const snapshot = structuredClone(ledger);
    const next = record(ledger, emission(), 'b');
    expect(ledger).toEqual(snapshot);
    const a = ledger.entries.find((e) => e.session === 'a');
    expect(next.entries.find((e) => e.session === 'a')).toBe(a);
    expect(next.limits).toBe(ledger.limits);

    const again = record(next, emission({ projectRoot: '/b' }), 'b');
    const prior = next.entries.find((e) => e.key === '/b')!.project.calls[0];
    expect(again.entries.find((e) => e.key === '/b')!.project.calls[0]).toBe(prior);
  });

  it('hands out frozen records, so a tool writing to its view cannot rewrite the ledger', () => {
    const ledger = record(createLedger(), emission());
    const view = sessionView(ledger);
    const call = view.projects[0]!.calls[0]!;
    expect(() =>
      (call.files[0]!.ranges as unknown as { start: number }[]).push({ start: 1 }),
    ).toThrow(TypeError);
    expect(() => {
      (call.files[0]!.ranges[0] as { end: number }).end = 1e9;
    }).toThrow(TypeError);
    expect(() => (view.projects as unknown[]).push({})).toThrow(TypeError);
    expect(sessionView(ledger).projects[0]!.calls[0]!.files[0]!.ranges).toEqual(ranges('1-40'));
  });

  it('never throws on hostile emissions: getters that throw, revoked proxies', () => {
    const throwing = {
      projectRoot: '/repo',
      get query(): string {
        throw new Error('boom');
      },
      get files(): never {
        throw new Error('boom');
      },
      sourceChars: 1,
      responseChars: 2,
    };
    const next = ledgerReducer(createLedger(), { type: 'recorded', emission: throwing as never });
    const call = sessionView(next).projects[0]!.calls[0]!;
    expect(call).toMatchObject({ query: '', files: [], responseChars: 2 });

    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const withProxies = emission({
      files: [
        proxy as never,
        { ...fileEmission('a.ts', '', 3), ranges: proxy as never },
        { ...fileEmission('b.ts', '', 4), ranges: [proxy, { start: 2, end: 4 }] as never },
      ],
    });
    expect(filesOf(withProxies)).toEqual([
      fileEmission('a.ts', '', 3),
      fileEmission('b.ts', '2-4', 4),
    ]);
    expect(ledgerReducer(createLedger(), { type: 'recorded', emission: proxy as never })).toEqual(
      createLedger(),
    );
  });
});

describe('ledgerReducer: recording rules', () => {
  it('numbers calls per (session, project) from 1, and keeps counting past the retained window', () => {
    let ledger = createLedger({ maxCallsRetained: 2 });
    for (let i = 0; i < 5; i++) ledger = record(ledger, emission());
    const project = sessionView(ledger).projects[0]!;
    expect(project.callCount).toBe(5);
    expect(project.responseChars).toBe(5 * 1400);
    expect(project.calls.map((c) => c.index)).toEqual([4, 5]);
  });

  it('counts non-finite or negative responseChars as 0', () => {
    let ledger = record(createLedger(), emission({ responseChars: Number.NaN }));
    ledger = record(ledger, emission({ responseChars: -30 }));
    ledger = record(ledger, emission({ responseChars: Number.POSITIVE_INFINITY }));
    ledger = record(ledger, emission({ responseChars: 10 }));
    expect(sessionView(ledger).projects[0]!.responseChars).toBe(10);
  });

  it('sanitizes chars, sourceChars and query', () => {
    const e = {
      ...emission({ sourceChars: -1 }),
      query: { text: 'x' },
      files: [fileEmission('a.ts', '', Number.NaN)],
    };
    const call = sessionView(record(createLedger(), e as never)).projects[0]!.calls[0]!;
    expect(call.query).toBe('');
    expect(call.sourceChars).toBe(0);
    expect(call.files[0]!.chars).toBe(0);
  });

  it('drops files with a non-string or empty path', () => {
    const e = emission({
      files: [
        fileEmission('', '1-2', 5),
        fileEmission(42, '1-2', 5) as never,
        { ranges: ranges('1-2'), chars: 5 } as never,
        fileEmission('kept.ts', '1-2', 5),
      ],
    });
    expect(filesOf(e).map((f) => f.path)).toEqual(['kept.ts']);
  });

  it('keeps the maxRangesPerFile largest spans and flags the cut', () => {
    const e = emission({ files: [fileEmission('a.ts', '1, 10-30, 40-45, 50-80', 10)] });
    const [file] = filesOf(e, { maxRangesPerFile: 2 });
    expect(file).toEqual({ ...fileEmission('a.ts', '10-30, 50-80', 10), rangesTruncated: true });
    const [whole] = filesOf(e);
    expect(whole!.rangesTruncated).toBeUndefined();
  });

  it('drops invalid spans instead of clamping them', () => {
    const e = emission({
      files: [
        fileEmission(
          'a.ts',
          [
            { start: 0, end: 5 },
            { start: 3.5, end: 9 },
            { start: 9, end: 2 },
            { start: 20, end: 22 },
          ],
          10,
        ),
      ],
    });
    expect(filesOf(e)[0]!.ranges).toEqual(ranges('20-22'));
  });

  it('keeps a fingerprint only when it is a non-empty string', () => {
    const e = emission({
      files: [
        fileEmission('a.ts', '', 1, ''),
        fileEmission('b.ts', '', 1, 7 as never),
        fileEmission('c.ts', '', 1, 'fp'),
      ],
    });
    expect(filesOf(e).map((f) => f.fingerprint)).toEqual([undefined, undefined, 'fp']);
  });

  it('merges entries with one path; their fingerprint survives only if all agree', () => {
    const e = emission({
      files: [
        fileEmission('a.ts', '1-5', 10, 'x'),
        fileEmission('b.ts', '1-5', 10, 'x'),
        fileEmission('a.ts', '6-9', 7, 'x'),
        fileEmission('b.ts', '20-25', 1, 'y'),
      ],
    });
    expect(filesOf(e)).toEqual([
      fileEmission('a.ts', '1-9', 17, 'x'),
      fileEmission('b.ts', '1-5, 20-25', 11),
    ]);
  });

  it('keeps the maxFilesPerCall files with the most chars, in the order reported', () => {
    const e = emission({
      files: [
        fileEmission('small.ts', '', 5),
        fileEmission('big.ts', '', 500),
        fileEmission('tie-first.ts', '', 50),
        fileEmission('tie-second.ts', '', 50),
      ],
    });
    const kept = filesOf(e, { maxFilesPerCall: 2 }).map((f) => f.path);
    expect(kept).toEqual(['big.ts', 'tie-first.ts']);
  });

  it('evicts the least recently used (session, project) entry, whole, across sessions', () => {
    let ledger = createLedger({ maxProjects: 2 });
    ledger = record(ledger, emission({ projectRoot: '/a' }), 's1');
    ledger = record(ledger, emission({ projectRoot: '/b' }), 's2');
    ledger = record(ledger, emission({ projectRoot: '/a' }), 's1'); // /a in s1 is now the most recent
    ledger = record(ledger, emission({ projectRoot: '/c' }), 's1');
    expect(ledger.entries.map((e) => [e.session, e.key])).toEqual([
      ['s1', '/a'],
      ['s1', '/c'],
    ]);
    expect(sessionView(ledger, 's2').projects).toEqual([]);
    // The evicted entry is gone whole, records and all; only its counters stay
    // aside, so when it comes back it goes on counting.
    expect(ledger.evicted).toEqual([
      { session: 's2', key: '/b', callCount: 1, responseChars: 1400 },
    ]);
    ledger = record(ledger, emission({ projectRoot: '/b' }), 's2');
    const back = sessionView(ledger, 's2').projects[0]!;
    expect(back.callCount).toBe(2);
    expect(back.calls.map((c) => c.index)).toEqual([2]);
    expect(ledger.evicted.map((c) => c.key)).toEqual(['/a']);
  });

  it('remembers at most MAX_EVICTED_COUNTERS evicted counters, forgetting the oldest', () => {
    let ledger = createLedger({ maxProjects: 1 });
    for (let i = 0; i <= MAX_EVICTED_COUNTERS + 1; i++) {
      ledger = record(ledger, emission({ projectRoot: `/p${i}` }));
    }
    expect(ledger.evicted).toHaveLength(MAX_EVICTED_COUNTERS);
    expect(ledger.evicted[0]!.key).toBe('/p1'); // /p0, the oldest, is forgotten
    ledger = record(ledger, emission({ projectRoot: '/p1' }));
    expect(sessionView(ledger).projects[0]!.callCount).toBe(2);
    ledger = record(ledger, emission({ projectRoot: '/p0' }));
    expect(sessionView(ledger).projects[0]!.callCount).toBe(1);
  });

  it('forgets and clears kept counters with their session', () => {
    let ledger = createLedger({ maxProjects: 1 });
    ledger = record(ledger, emission({ projectRoot: '/a' }), 's1');
    ledger = record(ledger, emission({ projectRoot: '/b' }), 's2');
    expect(ledger.evicted.map((c) => c.session)).toEqual(['s1']);
    const forgotten = ledgerReducer(ledger, { type: 'forgotten', sessionId: 's1' });
    expect(forgotten.evicted).toEqual([]);
    expect(forgotten.entries).toHaveLength(1);
    expect(ledgerReducer(ledger, { type: 'cleared' }).evicted).toEqual([]);
  });

  it('keys one project under several spellings of its root', () => {
    let ledger = createLedger();
    for (const root of ['/repo', '/repo/', '/repo/./x/..', '/repo//']) {
      ledger = record(ledger, emission({ projectRoot: root }));
    }
    expect(ledger.entries).toHaveLength(1);
    expect(sessionView(ledger).projects[0]!.callCount).toBe(4);
  });

  it('forgets one session only; cleared forgets all', () => {
    let ledger = record(createLedger(), emission(), 'a');
    ledger = record(ledger, emission(), 'b');
    ledger = record(ledger, emission());
    const forgot = ledgerReducer(ledger, { type: 'forgotten', sessionId: ' a ' });
    expect(forgot.entries.map((e) => e.session)).toEqual(['b', null]);
    const cleared = ledgerReducer(ledger, { type: 'cleared' });
    expect(cleared.entries).toEqual([]);
    expect(cleared.limits).toBe(ledger.limits);
  });

  it('never lets a blank or non-string id wipe the default bucket', () => {
    const ledger = record(createLedger(), emission());
    for (const id of ['', '   ', undefined, null, 0, {}]) {
      expect(ledgerReducer(ledger, { type: 'forgotten', sessionId: id as never })).toBe(ledger);
    }
  });
});

describe('sessionView and the null-vs-empty distinction', () => {
  it('shows a session only its own projects, trimmed to the last maxViewCalls calls', () => {
    let ledger = createLedger({ maxViewCalls: 2 });
    for (let i = 0; i < 5; i++) ledger = record(ledger, emission(), 'mine');
    ledger = record(ledger, emission({ projectRoot: '/theirs' }), 'theirs');
    const view = sessionView(ledger, 'mine');
    expect(view.projects.map((p) => p.projectRoot)).toEqual(['/repo']);
    expect(view.projects[0]!.calls.map((c) => c.index)).toEqual([4, 5]);
    expect(view.projects[0]!.callCount).toBe(5);
  });

  it('two sessions never see each other’s records', () => {
    let ledger = record(createLedger(), emission(), 'a');
    const seenByB = projectFromView(sessionView(ledger, 'b'), '/repo');
    expect(seenByB).toEqual({ projectRoot: '/repo', callCount: 0, responseChars: 0, calls: [] });
    expect(servedRangesForFile(seenByB, 'src/auth.ts', 'fp1')).toEqual([]);
    ledger = record(ledger, emission());
    expect(projectFromView(sessionView(ledger), '/repo')!.callCount).toBe(1);
    expect(projectFromView(sessionView(ledger, 'a'), '/repo')!.callCount).toBe(1);
  });

  it('null view = untracked, empty view = tracked with nothing served', () => {
    expect(projectFromView(null, '/repo')).toBeNull();
    const empty = sessionView(createLedger(), 'new');
    expect(empty).toEqual({ version: 1, projects: [] });
    expect(projectFromView(empty, '/repo')).toEqual({
      projectRoot: '/repo',
      callCount: 0,
      responseChars: 0,
      calls: [],
    });
  });

  it('projectFromView finds a project under another spelling of its root', () => {
    const view = sessionView(record(createLedger(), emission({ projectRoot: '/repo' })));
    expect(projectFromView(view, '/repo/')!.callCount).toBe(1);
    expect(servedRangesForFile(projectFromView(view, '/repo/./'), 'src/auth.ts', 'fp1')).toEqual(
      ranges('1-40'),
    );
  });

  it('never throws on a junk ledger', () => {
    expect(sessionView(null as never)).toEqual({ version: 1, projects: [] });
    expect(sessionView({ entries: [null, 3] } as never)).toEqual({ version: 1, projects: [] });
  });
});

describe('normalizeSessionId', () => {
  it.each([
    [undefined, undefined],
    [null, undefined],
    [12, undefined],
    ['', undefined],
    [' \t\n', undefined],
    ['  conn-7 ', 'conn-7'],
  ])('%j → %j', (raw, want) => {
    expect(normalizeSessionId(raw)).toBe(want);
  });

  it('keeps an id of exactly 128 chars and hashes one of 129', () => {
    expect(normalizeSessionId('x'.repeat(128))).toBe('x'.repeat(128));
    const hashed = normalizeSessionId('x'.repeat(129));
    expect(hashed).toMatch(/^[0-9a-f]{64}$/);
  });

  it('puts two long ids sharing a prefix in two buckets', () => {
    const prefix = 'p'.repeat(200);
    const a = normalizeSessionId(`${prefix}-a`);
    const b = normalizeSessionId(`${prefix}-b`);
    expect(a).not.toBe(b);
    let ledger = record(createLedger(), emission(), `${prefix}-a`);
    expect(sessionView(ledger, `${prefix}-b`).projects).toEqual([]);
    ledger = ledgerReducer(ledger, { type: 'forgotten', sessionId: `${prefix}-b` });
    expect(sessionView(ledger, `${prefix}-a`).projects).toHaveLength(1);
  });
});

/** SHA-256 vectors published by NIST (FIPS 180-2 examples and the CAVP short-message set). */
const SHA256_VECTORS: [name: string, input: string, hex: string][] = [
  ['empty', '', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ['abc', 'abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  [
    '448-bit message',
    'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
    '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
  ],
  [
    '896-bit message',
    'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
    'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
  ],
  [
    'one million a',
    'a'.repeat(1_000_000),
    'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
  ],
];

describe('SHA-256 of long session ids', () => {
  it.each(SHA256_VECTORS)('portable: %s', (_name, input, hex) => {
    expect(sha256Hex(new TextEncoder().encode(input))).toBe(hex);
  });

  it.each(SHA256_VECTORS)('native: %s', (_name, input, hex) => {
    expect(sha256OfUtf8(input, 'native')).toBe(hex);
  });

  it('the two backends agree on non-ASCII, astral and padding-boundary lengths', () => {
    for (const input of [
      'é'.repeat(70),
      '😀'.repeat(33),
      'x'.repeat(55),
      'y'.repeat(56),
      'z'.repeat(64),
    ]) {
      expect(sha256OfUtf8(input, 'portable')).toBe(sha256OfUtf8(input, 'native'));
    }
  });

  it('a long id hashes to the SHA-256 of its trimmed form', () => {
    const id = 'q'.repeat(300);
    expect(normalizeSessionId(`  ${id}  `)).toBe(sha256OfUtf8(id, 'portable'));
  });
});

describe('projectKey', () => {
  it.each([
    ['/repo', '/repo'],
    ['/repo/', '/repo'],
    ['/repo/./x/..', '/repo'],
    ['/repo//src///', '/repo/src'],
    ['/../repo', '/repo'],
    ['/', '/'],
    ['repo/../../up', '../up'],
    ['', '.'],
    ['/Repo', '/Repo'],
  ])('linux: %j → %j', (root, key) => {
    expect(projectKey(root, 'linux')).toBe(key);
  });

  it('folds case on win32 and darwin only', () => {
    expect(projectKey('/Users/Me/Repo', 'darwin')).toBe('/users/me/repo');
    expect(projectKey('/Users/Me/Repo', 'linux')).toBe('/Users/Me/Repo');
    expect(projectKey('/Users/Me/Repo', 'freebsd')).toBe('/Users/Me/Repo');
    expect(projectKey('C:\\Work\\Repo\\', 'win32')).toBe('c:/work/repo');
  });

  it('treats backslashes as separators on win32 only', () => {
    expect(projectKey('C:\\a\\.\\b\\..\\c', 'win32')).toBe('c:/a/c');
    expect(projectKey('C:\\..\\a', 'win32')).toBe('c:/a');
    expect(projectKey('\\\\server\\share\\x\\..\\..', 'win32')).toBe('//server/share');
    expect(projectKey('/a\\b', 'linux')).toBe('/a\\b');
  });

  it('defaults to the running platform', () => {
    expect(projectKey('/Repo/')).toBe(projectKey('/Repo/', process.platform));
  });

  it('rejects a non-string root', () => {
    expect(() => projectKey(5 as never)).toThrow('projectKey(root): root must be a string');
  });
});
