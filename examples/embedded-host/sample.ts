/**
 * The bundled sample project (fixtures/sample) as the host indexes it, and
 * the queries of its recorded sequences (fixtures/sequences): what the host's
 * suite and its measurement run on. The symbol index stands in for the
 * host's own (span-ledger's heuristic extractor, in the host's shape).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractSymbols } from 'span-ledger/adapter';
import type { HostFile, HostSymbol } from './host.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

/** The sample project's files, with their symbols. */
export function sampleFiles(): HostFile[] {
  const dir = join(FIXTURES, 'sample');
  return walk(dir).map((full) => {
    const path = relative(dir, full).split('\\').join('/');
    const content = readFileSync(full, 'utf8');
    const symbols = extractSymbols(content, path)
      .filter((s) => s.kind !== 'import' && s.kind !== 'export')
      .map(
        (s) => ({ name: s.name, kind: s.kind, startLine: s.start, endLine: s.end }) as HostSymbol,
      );
    return { path, content, symbols };
  });
}

/** Each recorded sequence's queries, by name. */
export function sampleQueries(): { name: string; queries: string[] }[] {
  const dir = join(FIXTURES, 'sequences');
  return readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((n) => {
      const seq = JSON.parse(readFileSync(join(dir, n), 'utf8')) as {
        name: string;
        calls: { query: string }[];
      };
      return { name: seq.name, queries: seq.calls.map((c) => c.query) };
    });
}
