/**
 * Code in README.md and docs/*.md runs as pasted. Every TypeScript or
 * JavaScript block is marked on the line above it: `<!-- runs -->` (it is
 * complete; it is written out as a module and run here, so its asserts must
 * hold) or `<!-- fragment of FILE -->` (it appears verbatim in FILE, a
 * complete file the tests run, and its section links to FILE). Shell
 * commands, JSON configs and printed output are not programs and are not held
 * to this. docs/adopting.md's own test runs its `runs` blocks. About 12 s on
 * a loaded 2-core machine, most of it the first import of the sources and
 * the range-algebra laws of docs/testing.md.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const DOCS = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const CODE = /^(ts|tsx|js|mjs|typescript|javascript)$/;
const MARKER = /^<!-- (runs|fragment of ([\w./-]+)) -->$/;

interface Block {
  readonly doc: string;
  readonly line: number;
  readonly marker: string;
  /** The text of its section before it: from the last heading above it. */
  readonly before: string;
  readonly code: string;
}

/** The code blocks of one document, each with the line above it and its section's text before it. */
function blocksOf(doc: string): Block[] {
  const text = readFileSync(join(REPO, doc), 'utf8');
  const blocks: Block[] = [];
  // Fences of four backticks hold printed output that itself shows fences: skipped whole.
  for (const m of text.matchAll(/(?:^|\n)([^\n]*)\n(`{3,4})(\w*)\n([\s\S]*?)\n\2(?=\n|$)/g)) {
    if (m[2] === '```' && CODE.test(m[3]!)) {
      blocks.push({
        doc,
        line: text.slice(0, m.index).split('\n').length + 2,
        marker: m[1]!.trim(),
        before: text.slice(text.lastIndexOf('\n#', m.index) + 1, m.index),
        code: `${m[4]}\n`,
      });
    }
  }
  return blocks;
}

const blocks = DOCS.flatMap(blocksOf);
const where = (b: Block) => `${b.doc}:${b.line}`;

describe('code blocks in README.md and docs/', () => {
  it('are each marked as run or as a fragment of a complete file', () => {
    expect(blocks.length).toBeGreaterThan(10);
    expect(blocks.filter((b) => !MARKER.test(b.marker)).map(where)).toEqual([]);
  });

  const fragments = blocks.filter((b) => MARKER.exec(b.marker)?.[2] !== undefined);
  it.each(fragments.map((b) => [where(b), b] as const))(
    '%s appears verbatim in the file it names, and its section links there',
    (_where, b) => {
      const file = MARKER.exec(b.marker)![2]!;
      expect(readFileSync(join(REPO, file), 'utf8')).toContain(b.code);
      const link = relative(dirname(join(REPO, b.doc)), join(REPO, file));
      expect(b.before).toContain(`](${link})`);
    },
  );

  const runs = blocks.filter((b) => b.marker === '<!-- runs -->' && b.doc !== 'docs/adopting.md');
  it.each(runs.map((b) => [where(b), b] as const))('%s runs', async (_where, b) => {
    const dir = join(REPO, '.doc-examples');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${b.doc.replace(/\W/g, '-')}-${b.line}.ts`);
    writeFileSync(file, `// ${where(b)} (written by test/docs.code-blocks.test.ts)\n${b.code}`);
    await import(/* @vite-ignore */ file);
  });
});
