/**
 * A host that keeps its own loop (examples/embedded-host: its own ranking,
 * render loop and byte allocator, not planCall) with span-ledger in its
 * dedup seam through the public entries, on the bundled sample project.
 * About 2 s.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSpanDedup } from '../examples/embedded-host/dedup.js';
import { createExploreHost, type HostFile } from '../examples/embedded-host/host.js';
import { sampleFiles, sampleQueries } from '../examples/embedded-host/sample.js';

const ROOT = '/sample';
const ON = { HOST_DEDUP: '1' };
const [checkout] = sampleQueries();
const CHARGE = checkout!.queries[0]!;
const DISCOUNT = checkout!.queries[1]!;

function hostWith(
  files: HostFile[] = sampleFiles(),
  options: Parameters<typeof createSpanDedup>[0] = { env: ON },
) {
  const dedup = createSpanDedup(options);
  return { host: createExploreHost({ root: ROOT, files, dedup: dedup.seam }), store: dedup.store };
}

/** The pointer lines of a response. */
const pointers = (text: string) => text.split('\n').filter((l) => l.startsWith('> Already in'));
/** The response numbers a text cites. */
const cited = (text: string) => [...text.matchAll(/#(\d+)\/[a-z]+/g)].map((m) => Number(m[1]));
/** The source lines shown for `path` (the numbers of the fenced rows of its section). */
function shownLines(text: string, path: string): number[] {
  const section = text.split('### ').find((s) => s.startsWith(`${path}\n`)) ?? '';
  return [...section.matchAll(/^(\d+): /gm)].map((m) => Number(m[1]));
}

describe('the embedded host', () => {
  it('with dedup off (its default) answers byte for byte as the stock host', () => {
    const stock = createExploreHost({ root: ROOT, files: sampleFiles() });
    for (const env of [{}, { HOST_DEDUP: 'maybe' }, { HOST_DEDUP: '0' }]) {
      const { host } = hostWith(sampleFiles(), { env });
      for (const query of [CHARGE, DISCOUNT, CHARGE]) {
        expect(host.explore({ query, sessionId: 's' })).toBe(stock.explore({ query }));
      }
    }
  });

  it('a repeat points: the same call again cites the response that sent its lines, and re-sends none', () => {
    const { host } = hostWith();
    const first = host.explore({ query: CHARGE, sessionId: 's' });
    const again = host.explore({ query: CHARGE, sessionId: 's' });
    expect(first).toMatch(/^Response #1\/[a-z]+$/m);
    expect(again).toMatch(/^Response #2\/[a-z]+$/m);
    expect(pointers(first)).toEqual([]);
    expect(pointers(again).length).toBeGreaterThan(0);
    expect(new Set(cited(again).filter((n) => n !== 2))).toEqual(new Set([1]));
    // Only held runs shorter than the host's own minimum (6 lines) are sent again.
    const path = 'src/checkout.ts';
    const resent = shownLines(again, path).filter((n) => shownLines(first, path).includes(n));
    const runs = resent.reduce<number[][]>((out, n) => {
      const last = out[out.length - 1];
      if (last !== undefined && last[last.length - 1] === n - 1) last.push(n);
      else out.push([n]);
      return out;
    }, []);
    expect(runs.every((run) => run.length < 6)).toBe(true);
    expect(again.length).toBeLessThan(first.length / 2);
  });

  it('an edit re-sends: a file changed since gets no pointer and shows its source again', () => {
    const files = sampleFiles();
    const { host } = hostWith(files);
    const first = host.explore({ query: CHARGE, sessionId: 's' });
    const at = files.findIndex((f) => f.path === 'src/checkout.ts');
    files[at] = { ...files[at]!, content: `${files[at]!.content}// edited\n` };
    const after = host.explore({ query: CHARGE, sessionId: 's' });
    expect(pointers(after).filter((p) => p.includes('src/checkout.ts'))).toEqual([]);
    expect(shownLines(after, 'src/checkout.ts')).toEqual(shownLines(first, 'src/checkout.ts'));
  });

  it('a subagent id gets full source: another context holds nothing of the first', () => {
    const { host } = hostWith();
    const main = host.explore({ query: CHARGE, sessionId: 'main' });
    const sub = host.explore({ query: CHARGE, sessionId: 'main/subagent-1' });
    expect(pointers(sub)).toEqual([]);
    expect(sub.replace(/^Response .*$/m, '')).toBe(main.replace(/^Response .*$/m, ''));
  });

  it('a refresh brings back what the citing pointer named', () => {
    const { host } = hostWith();
    const first = host.explore({ query: CHARGE, sessionId: 's' });
    const again = host.explore({ query: CHARGE, sessionId: 's' });
    const named = cited(pointers(again).join('\n'));
    expect(again).toContain(`refresh: [${[...new Set(named)].join(', ')}]`);
    const back = host.explore({ query: CHARGE, sessionId: 's', refresh: [...new Set(named)] });
    expect(pointers(back)).toEqual([]);
    expect(shownLines(back, 'src/checkout.ts')).toEqual(shownLines(first, 'src/checkout.ts'));
  });

  it('a refresh it cannot read refreshes nothing and says so', () => {
    const { host } = hostWith();
    host.explore({ query: CHARGE, sessionId: 's' });
    const text = host.explore({ query: CHARGE, sessionId: 's', refresh: 'yes please' });
    expect(text).toContain('`refresh` was not understood');
    expect(pointers(text).length).toBeGreaterThan(0);
  });

  it('a bound forgets rather than invents: a record the ledger let go is never cited', () => {
    const { host, store } = hostWith(sampleFiles(), { env: ON, limits: { maxCallsRetained: 1 } });
    const first = host.explore({ query: CHARGE, sessionId: 's' });
    const second = host.explore({ query: DISCOUNT, sessionId: 's' });
    expect(store.entry(ROOT, 's')!.calls.map((c) => c.index)).toEqual([2]);
    const third = host.explore({ query: CHARGE, sessionId: 's' });
    expect(cited(pointers(third).join('\n')).every((n) => n === 2)).toBe(true);
    // What only response #1 carried comes back as source.
    const path = 'src/checkout.ts';
    const onlyFirst = shownLines(first, path).filter((n) => !shownLines(second, path).includes(n));
    expect(onlyFirst.length).toBeGreaterThan(0);
    expect(onlyFirst.filter((n) => !shownLines(third, path).includes(n))).toEqual([]);
  });

  it('every pointer it prints is proved: each cited response was retained and served that path', () => {
    const { host, store } = hostWith(sampleFiles(), { env: ON, limits: { maxCallsRetained: 2 } });
    for (const { queries } of sampleQueries()) {
      for (const query of [...queries, ...queries]) {
        const entry = store.entry(ROOT, 's');
        const text = host.explore({ query, sessionId: 's' });
        for (const line of pointers(text)) {
          const path = /`([^`]+)`/.exec(line)![1]!;
          for (const n of cited(line)) {
            const record = entry?.calls.find((c) => c.index === n);
            expect(
              record?.files.some((f) => f.path === path),
              `${n} ${path}`,
            ).toBe(true);
          }
        }
      }
    }
  });
});

describe('the glue', () => {
  const glue = readFileSync(new URL('../examples/embedded-host/dedup.ts', import.meta.url), 'utf8');
  const host = readFileSync(new URL('../examples/embedded-host/host.ts', import.meta.url), 'utf8');

  it('imports span-ledger through its public entries only, and the host none of it', () => {
    const from = (text: string) => [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    expect(new Set(from(glue))).toEqual(
      new Set(['span-ledger', 'span-ledger/adapter', './host.js', './ledger-only.js']),
    );
    expect(from(host)).toEqual([]);
  });

  it('is at most 80 lines of code (blank lines and comments not counted)', () => {
    const code = glue.split('\n').filter((l) => !/^\s*(\/\/|\/\*\*|\*|$)/.test(l));
    expect(code.length).toBeLessThanOrEqual(80);
  });
});
