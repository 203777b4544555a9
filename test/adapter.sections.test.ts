/**
 * The section grammar: which headings and blocks `findSections` takes as
 * sections, which of them `proveSections` proves against a file, and what
 * `rewriteSections` writes from a real plan over a real ledger — the header,
 * the pointer and the new lines in the section's own fence, the refresh
 * offer once, one section per file per response — leaving every other byte
 * as it was. Expected texts are written out by hand.
 */
import { describe, expect, it } from 'vitest';
import {
  createEmissionRecorder,
  type FileSource,
  fileSource,
  filesToPlan,
  findSections,
  type HeadingRule,
  proveSections,
  type ReadPart,
  rewriteReads,
  rewriteSections,
} from '../src/adapter/index.js';
import { fingerprint } from '../src/hash/fingerprint.js';
import { createSessionStore, planCall } from '../src/index.js';

const source = (path: string, content: string) => fileSource(path, content, fingerprint(content));

/** Lines 1..n of a small file, `line N` each. */
const content = `${Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const a = source('a.ts', content);

/** A fenced section of `a.ts` showing lines `from..to`. */
function section(from: number, to: number, heading = '**`a.ts`**'): string {
  const lines: string[] = [];
  for (let n = from; n <= to; n++) lines.push(`${n}\t${a.line(n)}`);
  return `${heading}\n\n\`\`\`ts\n${lines.join('\n')}\n\`\`\`\n`;
}

/** One call of a tool answering `text`, planned on `store`'s ledger (under `maxChars`, if given) and rewritten. */
function answer(store: ReturnType<typeof createSessionStore>, text: string, maxChars?: number) {
  const sections = findSections([text]);
  const proven = proveSections(
    sections,
    sections.map(() => a),
  );
  const budget = maxChars === undefined ? {} : { budget: { maxChars } };
  const plan = planCall({ files: filesToPlan(proven), prior: store.project('/r'), ...budget });
  const recorder = createEmissionRecorder({ projectRoot: '/r', query: 'q' });
  recorder.numbered(plan.callIndex, plan.generation);
  const header = `Response #${plan.callIndex}`;
  const written = rewriteSections([text], proven, plan, { header, recorder });
  store.record(recorder.finish(written.texts[0]!.length));
  return written;
}

describe('findSections', () => {
  it('takes a heading and the next fence of climbing numbered lines, gap markers and blanks between', () => {
    const text =
      '# Notes\n**`a.ts`** — A(class)\n\n```ts\n1\tx\n\n... (gap) ...\n7\ty\n```\ntail\n';
    const [found, ...rest] = findSections([text]);
    expect(rest).toEqual([]);
    expect(found!.path).toBe('a.ts');
    expect(found!.block.lines.map((line) => line.n)).toEqual([1, 7]);
    expect(text.slice(found!.heading.start, found!.heading.end)).toBe('**`a.ts`** — A(class)');
    expect(text.slice(found!.block.start, found!.block.end)).toBe(
      '```ts\n1\tx\n\n... (gap) ...\n7\ty\n```',
    );
  });

  it('takes no fence with prose in it, numbers that do not climb, or no heading before it', () => {
    const prose = '**`a.ts`**\n```\n1\tx\nsome prose\n```\n';
    const falling = '**`a.ts`**\n```\n2\tx\n1\ty\n```\n';
    const headless = '```\n1\tx\n```\n';
    expect(findSections([prose, falling, headless])).toEqual([]);
  });

  it('closes a fence on a line of at least as many backticks alone, as measure reads it', () => {
    const text = '**`a.md`**\n````md\n1\t```\n2\tb\n`````  \n';
    expect(findSections([text])[0]!.block.lines.map((line) => line.n)).toEqual([1, 2]);
  });

  it('takes a bare run of climbing numbers where the heading allows one', () => {
    const bare: HeadingRule = (line) =>
      line.startsWith('FILE ') ? { path: line.slice(5), bare: true } : null;
    const [found] = findSections(['FILE a.ts\nsummary\n     3\tc\n     4\td\n     9\tz\n'], bare);
    expect(found!.block.lines.map((line) => line.n)).toEqual([3, 4]);
    expect(found!.block.opener).toBeNull();
  });

  it('reads junk as no sections, and finds none with a heading rule that throws', () => {
    expect(findSections(7 as never)).toEqual([]);
    expect(findSections([7 as never, section(1, 2)])).toHaveLength(1);
    const throwing: HeadingRule = () => {
      throw new Error('no');
    };
    expect(findSections([section(1, 2)], throwing)).toEqual([]);
  });
});

describe('proveSections', () => {
  it("keeps the file only when every numbered line is the file's line of that number", () => {
    const sections = findSections([section(1, 3), section(4, 5).replace('line 5', 'line five')]);
    const proven = proveSections(sections, [a, a]);
    expect(proven.map((p) => p.file)).toEqual([a, null]);
    expect(proveSections(sections, [null, null]).map((p) => p.file)).toEqual([null, null]);
  });

  it('proves the empty piece a split leaves after a final newline, and plans only real lines', () => {
    const small = source('b.ts', 'x\ny\n');
    const sections = findSections(['**`b.ts`**\n```\n1\tx\n2\ty\n3\t\n```']);
    const proven = proveSections(sections, [small]);
    expect(proven[0]!.file).toBe(small);
    const plan = planCall({ files: filesToPlan(proven), prior: null });
    expect(plan.files[0]!.emit).toEqual([{ start: 1, end: 2 }]);
  });
});

describe('rewriteSections', () => {
  it('writes the header first, the pointer and the new lines in the section fence, the offer last', () => {
    const store = createSessionStore();
    const first = answer(store, section(1, 12));
    expect(first).toEqual({ texts: [`Response #1\n${section(1, 12)}`], pointers: 0 });
    const second = answer(store, `intro\n${section(1, 14)}`);
    expect(second.pointers).toBe(1);
    expect(second.texts[0]).toBe(
      [
        'Response #2',
        'intro',
        '**`a.ts`**',
        '',
        '> Sent in response #1 of this conversation: `a.ts` L1-12. The file is unchanged since; only the lines not sent before follow.',
        '```ts',
        '13\tline 13',
        '14\tline 14',
        '```',
        '',
        'If response #1 is no longer in your context, call this tool again with `refresh: [1]`.',
        '',
      ].join('\n'),
    );
  });

  it('a file shown twice in one response keeps one section: the repeat goes, heading and all', () => {
    const store = createSessionStore();
    const text = `${section(1, 4)}\n${section(2, 3)}\n**\`other.ts\`**\nend\n`;
    const { texts } = answer(store, text);
    expect(texts[0]).toBe(`Response #1\n${section(1, 4)}\n**\`other.ts\`**\nend\n`);
    expect(texts[0]!.match(/\*\*`a\.ts`\*\*/g)).toHaveLength(1);
  });

  it('a repeat that adds lines shows only the lines not shown above in it', () => {
    const store = createSessionStore();
    const { texts } = answer(store, `${section(1, 4)}\n${section(3, 6)}`);
    expect(texts[0]).toBe(
      `Response #1\n${section(1, 4)}\n**\`a.ts\`**\n\n\`\`\`ts\n5\tline 5\n6\tline 6\n\`\`\`\n`,
    );
  });

  it('offers one refresh naming every cited response, newest first', () => {
    const store = createSessionStore();
    answer(store, section(1, 10));
    answer(store, section(11, 18));
    const { texts, pointers } = answer(store, section(1, 20));
    expect(pointers).toBe(1);
    expect(texts[0]).toContain('call this tool again with `refresh: [2, 1]`.');
    expect(texts[0]!.match(/refresh: \[/g)).toHaveLength(1);
  });

  it('ends a section the budget cut with the cut line naming where it stopped', () => {
    const store = createSessionStore();
    const { texts } = answer(store, section(1, 20), 80);
    const shown = [...texts[0]!.matchAll(/^(\d+)\tline /gm)].map((m) => Number(m[1]));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(20);
    expect(texts[0]).toMatch(new RegExp(`^> .*\`a\\.ts\`.*L?${shown.length + 1}`, 'm'));
  });

  it('leaves the texts as they were when its input cannot be read', () => {
    const recorder = createEmissionRecorder({ projectRoot: '/r' });
    const junk = { files: 7, generation: null } as never;
    expect(rewriteSections(['x'], [], junk, { header: '', recorder })).toEqual({
      texts: ['x'],
      pointers: 0,
    });
  });
});

describe('a compact pointer and its symbols', () => {
  /** Four short functions: one sent again whole is a short run, so its pointer is compact. */
  const body = (name: string, width: number) =>
    `export function ${name}() {\n  return '${'x'.repeat(width)}';\n}\n`;
  const pointerTo = (width: number) => {
    const text = ['f', 'g', 'h', 'k'].map((name) => body(name, width)).join('');
    const file = source('s.ts', text);
    const store = createSessionStore();
    const sectionOf = (from: number, to: number) => {
      const lines: string[] = [];
      for (let n = from; n <= to; n++) lines.push(`${n}\t${file.line(n)}`);
      return `**\`s.ts\`**\n\n\`\`\`ts\n${lines.join('\n')}\n\`\`\`\n`;
    };
    const call = (sectionText: string) => {
      const sections = findSections([sectionText]);
      const proven = proveSections(
        sections,
        sections.map(() => file),
      );
      const prior = store.project('/r');
      const plan = planCall({ files: filesToPlan(proven), prior, holdBack: false });
      const recorder = createEmissionRecorder({ projectRoot: '/r' });
      recorder.numbered(plan.callIndex, plan.generation);
      const written = rewriteSections([sectionText], proven, plan, { header: '', recorder });
      store.record(recorder.finish(written.texts[0]!.length));
      return written.texts[0]!;
    };
    call(sectionOf(4, 6));
    return call(sectionOf(4, 6))
      .split('\n')
      .find((line) => line.startsWith('> '));
  };

  it('names the symbols while the pointer costs at most half the chars of the lines it replaces', () => {
    expect(pointerTo(200)).toBe('> `s.ts` L4-6 (g): unchanged, sent in #1.');
  });

  it('drops the symbols when naming them would cost more than half those chars', () => {
    // Lines 4-6 are 75 chars: the bare pointer (36) costs under half of them, the named one (40) over.
    expect(pointerTo(38)).toBe('> `s.ts` L4-6: unchanged, sent in #1.');
  });
});

describe('rewriteReads', () => {
  const b = source('b.ts', 'export const b = 1;\n');
  /** One read of `files` (each whole), planned on `store`'s ledger and rewritten. */
  function read(store: ReturnType<typeof createSessionStore>, files: FileSource[]) {
    const plan = planCall({
      files: files.map((file) => ({ ...file, intended: [{ start: 1, end: file.lineCount }] })),
      prior: store.project('/r'),
      holdBack: false,
    });
    const recorder = createEmissionRecorder({ projectRoot: '/r' });
    recorder.numbered(plan.callIndex, plan.generation);
    const parts: ReadPart[] = files.map((file) => ({
      text: file.content,
      file,
      path: file.path,
      first: 1,
    }));
    const out = { header: `Response #${plan.callIndex}`, recorder, several: files.length > 1 };
    const written = rewriteReads(parts, plan, out);
    store.record(recorder.finish(written.text.length));
    return written;
  }

  it("counts a several-file read's pointers and makes one refresh offer after its last byte", () => {
    const store = createSessionStore();
    read(store, [a]);
    const { text, pointers } = read(store, [a, b]);
    expect(pointers).toBe(1);
    expect(text.startsWith('Response #2\na.ts:\n')).toBe(true);
    expect(text).toContain('\n---\nb.ts:\n');
    expect(text.match(/refresh: \[/g)).toHaveLength(1);
    expect(text.endsWith('call this tool again with `refresh: [1]`.\n')).toBe(true);
  });

  it('counts no pointer and makes no offer when every file is sent whole', () => {
    const store = createSessionStore();
    const { text, pointers } = read(store, [a, b]);
    expect(pointers).toBe(0);
    expect(text).not.toContain('refresh');
  });
});

describe('fileSource', () => {
  it('scans each span for its own symbols', () => {
    const file = source('two.ts', 'export function f() {\n}\nexport function g() {\n}\n');
    expect(file.symbols([{ start: 1, end: 2 }]).map((node) => node.name)).toEqual(['f']);
    expect(file.symbols([{ start: 3, end: 4 }]).map((node) => node.name)).toEqual(['g']);
  });

  it('reads POSIX lines: a final newline ends the last line, chars count each line with its newline', () => {
    const file: FileSource = source('c.ts', 'export function f() {\n  return 1;\n}\n');
    expect(file.lineCount).toBe(3);
    expect(file.line(2)).toBe('  return 1;');
    expect(file.chars(1, 3)).toBe(file.content.length);
    expect(file.symbols([{ start: 1, end: 3 }])).toEqual([
      { name: 'f', kind: 'function', start: 1, end: 3 },
    ]);
    expect(source('d.ts', 'a\nb').lineCount).toBe(2);
    expect(() => fileSource(7 as never, '', '')).toThrow(TypeError);
  });

  it('gives no text for a line the file does not have, never the whole file', () => {
    for (const content of ['a\nb\n', 'a\nb']) {
      const file = source('e.ts', content);
      expect([1, 2].map((n) => file.line(n))).toEqual(['a', 'b']);
      for (const n of [0, -1, 3, 4, 100, 1.5, Number.NaN]) expect(file.line(n)).toBe('');
    }
    expect(source('empty.ts', '').line(1)).toBe('');
  });
});
