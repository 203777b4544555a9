/**
 * The layering of src/, read from its imports (docs/architecture.md draws
 * it): value imports between folders go one way only, down the allowed
 * directions; no folder imports one that imports it back; no module reaches
 * into another folder's `_`-private file; only boundary/ catches a throwing
 * read, and the other folders keep their few `try` blocks for platforms and
 * host callbacks; the entries list their exports by name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');

/** Where each folder may import values from. Type-only imports may go anywhere no cycle forms. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  cli: ['adapter', 'dedup', 'ledger', 'ranges', 'text', 'wire', 'hash', 'boundary'],
  testing: ['ranges', 'boundary'],
  redis: ['shared', 'hash'],
  shared: ['ledger', 'hash', 'boundary'],
  adapter: ['dedup', 'wire', 'ledger', 'ranges', 'text', 'boundary'],
  wire: ['ledger', 'boundary'],
  dedup: ['ledger', 'ranges', 'text', 'hash', 'boundary'],
  ledger: ['ranges', 'hash', 'boundary'],
  ranges: ['boundary'],
  text: [],
  hash: ['boundary'],
  boundary: [],
};

/** The package's entry points: they re-export across folders, and nothing in src/ imports them. */
const ENTRIES = [
  'index.ts',
  'adapter/index.ts',
  'shared/index.ts',
  'wire/index.ts',
  'redis/index.ts',
  'testing/index.ts',
];

/** Entries that hold nothing but named re-exports (span-ledger/redis is its own implementation). */
const RE_EXPORT_ONLY = ENTRIES.filter((e) => e !== 'redis/index.ts');

const MAX_TRY_OUTSIDE_BOUNDARY = 12;
const MAX_MAIN_ENTRY_VALUES = 40;

interface Import {
  readonly from: string;
  readonly to: string;
  readonly typeOnly: boolean;
}

interface Module {
  readonly path: string;
  readonly source: ts.SourceFile;
  readonly imports: readonly Import[];
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? walk(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

/** Whether an import or export declaration brings in types only. */
function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (clause === undefined) return false; // a bare import runs the module
    if (clause.isTypeOnly) return true;
    const named = clause.namedBindings;
    return (
      clause.name === undefined &&
      named !== undefined &&
      ts.isNamedImports(named) &&
      named.elements.every((e) => e.isTypeOnly)
    );
  }
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return (
    clause !== undefined && ts.isNamedExports(clause) && clause.elements.every((e) => e.isTypeOnly)
  );
}

function parse(file: string): Module {
  const path = relative(SRC, file);
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const imports: Import[] = [];
  for (const node of source.statements) {
    if (!ts.isImportDeclaration(node) && !ts.isExportDeclaration(node)) continue;
    const spec = node.moduleSpecifier;
    if (spec === undefined || !ts.isStringLiteral(spec) || !spec.text.startsWith('.')) continue;
    const target = resolve(dirname(file), spec.text.replace(/\.js$/, '.ts'));
    imports.push({ from: path, to: relative(SRC, target), typeOnly: isTypeOnly(node) });
  }
  return { path, source, imports };
}

const MODULES = walk(SRC).map(parse);

/** The folder a module of src/ lives in; `.` for the main entry. */
function folderOf(path: string): string {
  const parts = path.split('/');
  return parts.length > 1 ? parts[0]! : '.';
}

/** Imports from one folder to another, entries left out (they re-export across folders by design). */
const CROSSING = MODULES.filter((m) => !ENTRIES.includes(m.path))
  .flatMap((m) => m.imports)
  .filter((i) => folderOf(i.from) !== folderOf(i.to));

/** The folder cycles of a graph of folder edges, each as the folders on it. */
function cycles(edges: readonly (readonly [string, string])[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const [a, b] of edges) {
    if (!next.has(a)) next.set(a, new Set());
    next.get(a)!.add(b);
  }
  const found: string[][] = [];
  const seen = new Set<string>();
  // Depth-first from every folder; a back edge onto the current path closes a cycle.
  const visit = (node: string, path: string[]): void => {
    const at = path.indexOf(node);
    if (at >= 0) {
      found.push(path.slice(at));
      return;
    }
    if (seen.has(node)) return;
    for (const to of next.get(node) ?? []) visit(to, [...path, node]);
    seen.add(node);
  };
  for (const node of next.keys()) visit(node, []);
  return found;
}

function tryBlocks(source: ts.SourceFile): number {
  let n = 0;
  const count = (node: ts.Node): void => {
    if (ts.isTryStatement(node)) n++;
    ts.forEachChild(node, count);
  };
  count(source);
  return n;
}

describe('the layers of src/', () => {
  it('knows every folder of src/', () => {
    const folders = new Set(MODULES.map((m) => folderOf(m.path)).filter((f) => f !== '.'));
    expect([...folders].sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  it('imports values between folders only in the allowed direction', () => {
    const against = CROSSING.filter((i) => !i.typeOnly)
      .filter((i) => !ALLOWED[folderOf(i.from)]!.includes(folderOf(i.to)))
      .map((i) => `${i.from} -> ${i.to}`);
    expect(against).toEqual([]);
  });

  it('has no folder that imports one that imports it back, counting type imports too', () => {
    const values = CROSSING.filter((i) => !i.typeOnly).map(
      (i) => [folderOf(i.from), folderOf(i.to)] as const,
    );
    expect(cycles(values)).toEqual([]);
    const all = CROSSING.map((i) => [folderOf(i.from), folderOf(i.to)] as const);
    expect(cycles(all)).toEqual([]);
  });

  it("never imports another folder's private module", () => {
    const reaching = CROSSING.filter((i) => basename(i.to).startsWith('_')).map(
      (i) => `${i.from} -> ${i.to}`,
    );
    expect(reaching).toEqual([]);
  });

  it('imports no entry point from inside src/', () => {
    const inward = MODULES.flatMap((m) => m.imports)
      .filter((i) => ENTRIES.includes(i.to) && folderOf(i.from) !== folderOf(i.to))
      .map((i) => `${i.from} -> ${i.to}`);
    expect(inward).toEqual([]);
  });

  it(`keeps at most ${MAX_TRY_OUTSIDE_BOUNDARY} try blocks outside boundary/`, () => {
    const outside = MODULES.filter((m) => folderOf(m.path) !== 'boundary')
      .map((m) => [m.path, tryBlocks(m.source)] as const)
      .filter(([, n]) => n > 0);
    const total = outside.reduce((sum, [, n]) => sum + n, 0);
    expect(total, JSON.stringify(Object.fromEntries(outside))).toBeLessThanOrEqual(
      MAX_TRY_OUTSIDE_BOUNDARY,
    );
  });

  it('boundary/ imports nothing from src/ outside itself', () => {
    const out = MODULES.filter((m) => folderOf(m.path) === 'boundary')
      .flatMap((m) => m.imports)
      .filter((i) => folderOf(i.to) !== 'boundary');
    expect(out).toEqual([]);
  });
});

describe('the entries', () => {
  const exportsOf = (path: string) =>
    MODULES.find((m) => m.path === path)!.source.statements.filter(ts.isExportDeclaration);

  it('re-export by name, never with export *', () => {
    const star = MODULES.flatMap((m) =>
      m.source.statements
        .filter(ts.isExportDeclaration)
        .filter((e) => e.exportClause === undefined || ts.isNamespaceExport(e.exportClause))
        .map(() => m.path),
    );
    expect(star).toEqual([]);
  });

  it.each(RE_EXPORT_ONLY)('%s holds only re-exports', (path) => {
    const source = MODULES.find((m) => m.path === path)!.source;
    const other = source.statements.filter((s) => !ts.isExportDeclaration(s) || !s.moduleSpecifier);
    expect(other.map((s) => ts.SyntaxKind[s.kind])).toEqual([]);
  });

  it(`the main entry names at most ${MAX_MAIN_ENTRY_VALUES} values`, () => {
    const values = exportsOf('index.ts').flatMap((e) =>
      e.isTypeOnly || e.exportClause === undefined || !ts.isNamedExports(e.exportClause)
        ? []
        : e.exportClause.elements.filter((el) => !el.isTypeOnly).map((el) => el.name.text),
    );
    expect(values.length, values.join(', ')).toBeLessThanOrEqual(MAX_MAIN_ENTRY_VALUES);
    // The stored shapes and their bounds stay inside.
    for (const inner of ['MAX_EVICTED_COUNTERS', 'MAX_REFRESH_CALLS']) {
      expect(values).not.toContain(inner);
    }
  });
});
