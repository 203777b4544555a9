import { describe, expect, it } from 'vitest';
import {
  createSessionStore,
  DEFAULT_LIMITS,
  type Emission,
  recordSafely,
  type SessionView,
} from '../src/index.js';
import {
  attachEmission,
  EMISSION_KEY,
  readSessionView,
  takeEmission,
  VIEW_KEY,
  withSessionView,
} from '../src/wire/index.js';
import {
  callRecord,
  emission as emissionWith,
  fileEmission,
  projectState,
  ranges,
} from './_build.js';

const FP = '1200:0123456789abcdef';

/** One call about `auth` that sent L1-40 of `src/auth.ts`, with `over` applied. */
function emission(over: Partial<Emission> = {}): Emission {
  return emissionWith({
    query: 'auth',
    files: [fileEmission('src/auth.ts', '1-40', 900, FP)],
    sourceChars: 900,
    responseChars: 1400,
    ...over,
  });
}

function serverView(): SessionView {
  const store = createSessionStore();
  store.record(emission(), 'conn');
  return store.view('conn');
}

describe('the carrier keys', () => {
  it('are the documented plain strings', () => {
    expect(VIEW_KEY).toBe('_spanLedgerView');
    expect(EMISSION_KEY).toBe('_spanLedgerEmission');
  });
});

describe('withSessionView', () => {
  it('copies the args and sets the server view, without touching the input', () => {
    const args = { query: 'auth' };
    const view = serverView();
    const out = withSessionView(args, view);
    expect(out).toEqual({ query: 'auth', [VIEW_KEY]: view });
    expect(out).not.toBe(args);
    expect(args).toEqual({ query: 'auth' });
  });

  it('replaces a client’s own view claiming every line with the server’s', () => {
    const claim = fileEmission('src/auth.ts', '1-1000000000', 0, FP);
    const forged = { version: 1, projects: [projectState([callRecord([claim])])] };
    const view = createSessionStore().view('conn');
    const out = withSessionView({ query: 'x', [VIEW_KEY]: forged }, view);
    expect(out[VIEW_KEY]).toBe(view);
    expect(readSessionView(out)).toEqual({ version: 1, projects: [] });
  });

  it('removes a client’s view when the call is untracked (null view)', () => {
    const out = withSessionView({ query: 'x', [VIEW_KEY]: { version: 1, projects: [] } }, null);
    expect(Object.hasOwn(out, VIEW_KEY)).toBe(false);
    expect(readSessionView(out)).toBeNull();
  });

  it('copies a JSON `__proto__` key as a plain property, never as a prototype', () => {
    const args = JSON.parse('{"__proto__": {"polluted": true}, "q": 1}') as object;
    const out = withSessionView(args, null) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(out.polluted).toBeUndefined();
    expect(JSON.stringify(out)).toBe(JSON.stringify(args));
  });

  it('reads null or undefined args as {}', () => {
    expect(withSessionView(null, null)).toEqual({});
    expect(withSessionView(undefined, serverView())[VIEW_KEY]).toBeDefined();
  });

  it('survives a structured clone and JSON', () => {
    const out = withSessionView({ q: 1 }, serverView());
    expect(readSessionView(structuredClone(out))).toEqual(out[VIEW_KEY]);
    expect(readSessionView(JSON.parse(JSON.stringify(out)))).toEqual(out[VIEW_KEY]);
  });
});

describe('readSessionView on malformed input', () => {
  const wrap = (view: unknown) => ({ [VIEW_KEY]: view });

  it.each([
    ['absent', {}],
    ['args null', null],
    ['args a string', 'x'],
    ['wrong version', wrap({ version: 2, projects: [] })],
    ['version as a string', wrap({ version: '1', projects: [] })],
    ['projects not an array', wrap({ version: 1, projects: {} })],
    ['the view a string', wrap('{"version":1}')],
    ['the view an array', wrap([1, 2])],
  ])('%s → null', (_name, args) => {
    expect(readSessionView(args)).toBeNull();
  });

  it('drops malformed parts, keeps the rest', () => {
    const view = {
      version: 1,
      projects: [
        null,
        'junk',
        { projectRoot: '', calls: [] },
        {
          projectRoot: '/repo',
          callCount: 'many',
          responseChars: -5,
          calls: [
            { index: 0, projectRoot: '/repo', files: [] },
            { index: 2, projectRoot: '/repo', files: [] },
            {
              index: 3,
              projectRoot: '/repo',
              query: 5,
              files: [
                { ...fileEmission('a.ts', '', 10), ranges: '1-40' },
                fileEmission('b.ts', ['1-40', { start: '1', end: '9' }, { start: 3, end: 4 }], 10),
                { path: 7, ranges: ranges('1-2') },
              ],
            },
          ],
        },
      ],
    };
    expect(readSessionView(wrap(view))).toEqual({
      version: 1,
      projects: [
        {
          projectRoot: '/repo',
          callCount: 0,
          responseChars: 0,
          calls: [
            callRecord([], { index: 2, query: '' }),
            callRecord([fileEmission('a.ts', '', 10), fileEmission('b.ts', '3-4', 10)], {
              index: 3,
              query: '',
            }),
          ],
        },
      ],
    });
  });

  it('bounds a view claiming 100,000 projects, calls, files and ranges', () => {
    const ranges = Array.from({ length: 100_000 }, (_, i) => ({
      start: 3 * i + 1,
      end: 3 * i + 1,
    }));
    const files = Array.from({ length: 100_000 }, (_, i) => fileEmission(`f${i}.ts`, '', i));
    files[0] = fileEmission('huge.ts', ranges, 1e9) as never;
    const calls = Array.from({ length: 100_000 }, (_, i) => ({
      index: i + 1,
      projectRoot: '/p0',
      query: '',
      files: i === 99_999 ? files : [],
      sourceChars: 0,
      responseChars: 0,
    }));
    const projects = Array.from({ length: 100_000 }, (_, i) => ({
      projectRoot: `/p${i}`,
      callCount: 1,
      responseChars: 0,
      calls: i === 0 ? calls : [],
    }));
    const read = readSessionView(wrap({ version: 1, projects }))!;
    expect(read.projects).toHaveLength(DEFAULT_LIMITS.maxProjects);
    const first = read.projects[0]!;
    expect(first.calls).toHaveLength(DEFAULT_LIMITS.maxViewCalls);
    expect(first.calls.map((c) => c.index)).toEqual([99_997, 99_998, 99_999, 100_000]);
    const last = first.calls[first.calls.length - 1]!;
    expect(last.files).toHaveLength(DEFAULT_LIMITS.maxFilesPerCall);
    expect(last.files[0]!.path).toBe('huge.ts');
    expect(last.files[0]!.ranges).toHaveLength(DEFAULT_LIMITS.maxRangesPerFile);
    expect(last.files[0]!.rangesTruncated).toBe(true);
    expect(JSON.stringify(read).length).toBeLessThan(100_000);
  });

  it('keeps the first of two projects with one key', () => {
    const view = {
      version: 1,
      projects: [
        { projectRoot: '/repo', callCount: 1, responseChars: 0, calls: [] },
        { projectRoot: '/repo/', callCount: 2, responseChars: 0, calls: [] },
      ],
    };
    expect(readSessionView(wrap(view))!.projects.map((p) => p.callCount)).toEqual([1]);
  });

  it('never throws on getters that throw or revoked proxies', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const hostile = {
      get [VIEW_KEY](): never {
        throw new Error('boom');
      },
    };
    expect(readSessionView(hostile)).toBeNull();
    expect(readSessionView(proxy)).toBeNull();
    expect(readSessionView(wrap(proxy))).toBeNull();
    expect(readSessionView(wrap({ version: 1, projects: proxy }))).toBeNull();
    expect(readSessionView(wrap({ version: 1, projects: [proxy] }))).toEqual({
      version: 1,
      projects: [],
    });
  });
});

describe('attachEmission / takeEmission', () => {
  it('round-trips a sanitized copy and strips the key', () => {
    const result = { content: [{ type: 'text', text: 'x' }] };
    const carried = attachEmission(result, emission());
    expect(result).toEqual({ content: [{ type: 'text', text: 'x' }] });
    const { result: clean, emission: taken } = takeEmission(structuredClone(carried));
    expect(clean).toEqual(result);
    expect(taken).toEqual(emission());
  });

  it('returns a result without the key as the same object', () => {
    const result = { content: [] };
    const taken = takeEmission(result);
    expect(taken.result).toBe(result);
    expect(taken.emission).toBeNull();
  });

  it('strips the key even when what it carries is junk', () => {
    for (const junk of [null, 'x', { projectRoot: '' }, { projectRoot: 3 }, [1]]) {
      const { result, emission: taken } = takeEmission({ a: 1, [EMISSION_KEY]: junk });
      expect(result).toEqual({ a: 1 });
      expect(taken).toBeNull();
    }
  });

  it('gives the agent identical bytes whether or not anyone records', () => {
    const raw = attachEmission({ content: [{ type: 'text', text: 'answer' }] }, emission());
    const untracked = JSON.stringify(recordSafely(null, raw));
    const store = createSessionStore();
    const tracked = JSON.stringify(recordSafely(store, raw));
    expect(tracked).toBe(untracked);
    expect(tracked).toBe(JSON.stringify({ content: [{ type: 'text', text: 'answer' }] }));
    expect(store.view().projects[0]!.callCount).toBe(1);
  });

  it('cuts an emission with 100,000 files, or 100,000 ranges in one file, to the limits', () => {
    const files = Array.from({ length: 100_000 }, (_, i) =>
      fileEmission(`f${i}.ts`, [{ start: 1, end: 1 + (i % 50) }], i),
    );
    const many = takeEmission({ [EMISSION_KEY]: emission({ files }) }).emission!;
    expect(many.files).toHaveLength(24);
    // The 24 with the most chars, in the order reported.
    expect(many.files.map((f) => f.path)).toEqual(
      Array.from({ length: 24 }, (_, i) => `f${100_000 - 24 + i}.ts`),
    );

    const ranges = Array.from({ length: 100_000 }, (_, i) => ({
      start: 2 * i + 1,
      end: 2 * i + 1,
    }));
    ranges[500] = { start: 1001, end: 1001 + 10 }; // one span larger than the rest
    const one = takeEmission({
      [EMISSION_KEY]: emission({ files: [fileEmission('a.ts', ranges)] }),
    }).emission!;
    expect(one.files[0]!.ranges).toHaveLength(24);
    expect(one.files[0]!.ranges).toContainEqual({ start: 1001, end: 1011 });
    expect(one.files[0]!.rangesTruncated).toBe(true);

    const store = createSessionStore();
    const record = store.record(emission({ files }))!;
    expect(record.files).toHaveLength(24);
  });

  it('honours larger limits when the host passes its own', () => {
    const files = Array.from({ length: 40 }, (_, i) => fileEmission(`f${i}.ts`));
    const limits = { maxFilesPerCall: 64 };
    const carried = attachEmission({}, emission({ files }), limits);
    expect(takeEmission(carried, limits).emission!.files).toHaveLength(40);
    expect(takeEmission(carried).emission!.files).toHaveLength(24);
  });

  it('leaves results that are not plain objects as they are', () => {
    expect(attachEmission('text' as never, emission())).toBe('text');
    const list = [1, 2];
    expect(attachEmission(list, emission())).toBe(list);
    expect(takeEmission('text')).toEqual({ result: 'text', emission: null });
    expect(takeEmission(null)).toEqual({ result: null, emission: null });
  });

  it('attaches nothing for an unusable emission, and drops a stale carrier', () => {
    const out = attachEmission({ a: 1, [EMISSION_KEY]: 'stale' }, { projectRoot: '' } as never);
    expect(out).toEqual({ a: 1 });
  });

  it('never throws on a result whose key getter throws', () => {
    const hostile = {
      a: 1,
      get [EMISSION_KEY](): never {
        throw new Error('boom');
      },
    };
    const { result, emission: taken } = takeEmission(hostile);
    expect(result).toEqual({ a: 1 });
    expect(Object.hasOwn(result, EMISSION_KEY)).toBe(false);
    expect(taken).toBeNull();
  });

  it('removes a client view whose getter throws, keeping the other args', () => {
    const hostile = {
      query: 'auth',
      get [VIEW_KEY](): never {
        throw new Error('boom');
      },
    };
    const view = serverView();
    expect(withSessionView(hostile, view)).toEqual({ query: 'auth', [VIEW_KEY]: view });
  });
});

describe('recordSafely', () => {
  it('swallows a store that throws and still returns the stripped result', () => {
    const broken = {
      record(): never {
        throw new Error('bookkeeping bug');
      },
    };
    const raw = attachEmission({ content: 'ok' }, emission());
    expect(recordSafely(broken, raw)).toEqual({ content: 'ok' });
  });

  it('records under the given session', () => {
    const store = createSessionStore();
    recordSafely(store, attachEmission({}, emission()), { sessionId: 'conn-9' });
    expect(store.view('conn-9').projects).toHaveLength(1);
    expect(store.view().projects).toHaveLength(0);
  });
});
