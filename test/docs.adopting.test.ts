/**
 * docs/adopting.md shows only code that runs: each block is either marked
 * `<!-- runs -->` (it is written out as a module and run; its asserts must
 * hold) or `<!-- fragment of <file> -->` (it must appear, verbatim, in that
 * complete file, which the embedded host's suite runs). Its table of figures
 * is what examples/embedded-host/measure.ts prints. About 2 s.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatLayers, measureLayers } from '../examples/embedded-host/measure.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const doc = readFileSync(join(REPO, 'docs/adopting.md'), 'utf8');

/** Each fenced block with the marker line above it. */
const blocks = [...doc.matchAll(/(?:^|\n)([^\n]*)\n```(\w*)\n([\s\S]*?)\n```/g)].map((m, i) => ({
  i,
  marker: m[1]!.trim(),
  code: `${m[3]}\n`,
}));

describe('docs/adopting.md', () => {
  it('marks every code block as run or as a fragment of a complete file', () => {
    expect(blocks.length).toBeGreaterThan(5);
    const unmarked = blocks.filter((b) => !/^<!-- (runs|fragment of [\w./-]+) -->$/.test(b.marker));
    expect(unmarked.map((b) => b.code.slice(0, 60))).toEqual([]);
  });

  it.each(blocks.filter((b) => b.marker.startsWith('<!-- fragment')).map((b) => [b.i, b]))(
    'fragment %i appears verbatim in the file it names',
    (_i, b) => {
      const file = /fragment of ([\w./-]+)/.exec(b.marker)![1]!;
      expect(readFileSync(join(REPO, file), 'utf8')).toContain(b.code);
    },
  );

  it.each(blocks.filter((b) => b.marker === '<!-- runs -->').map((b) => [b.i, b]))(
    'block %i runs and its asserts hold',
    async (i, b) => {
      const dir = join(REPO, '.doc-examples');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `adopting-${i}.ts`);
      writeFileSync(
        file,
        `// docs/adopting.md block ${i} (written by test/docs.adopting.test.ts)\n${b.code}`,
      );
      await import(/* @vite-ignore */ file);
    },
  );

  it('shows the figures measure.ts prints on the bundled sample', () => {
    const table = formatLayers(measureLayers());
    expect(doc).toContain(`<!-- measured -->\n${table}\n`);
  });
});
