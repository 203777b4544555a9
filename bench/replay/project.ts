/**
 * The project the A/B replay runs on: the declaration files shipped in
 * `node_modules/typescript/lib` — real code nobody here wrote — with their
 * symbols from the CLI's regex extractor, and a name index over them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { extractSymbols } from '../../src/adapter/symbols.js';
import type { ProjectFile } from '../../src/cli/replay.js';
import type { SymbolNode } from '../../src/dedup/symbols.js';

/** A definition of a name somewhere in the project. */
export interface Definition {
  readonly path: string;
  readonly node: SymbolNode;
}

/** The replay's project: files by path and every definition by name. */
export interface DeclarationProject {
  readonly root: string;
  readonly files: ReadonlyMap<string, ProjectFile>;
  readonly definitions: ReadonlyMap<string, readonly Definition[]>;
}

/** Where `typescript/lib` is installed. */
export function typescriptLibDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('typescript/package.json')), 'lib');
}

const INDEXED_KINDS = new Set(['interface', 'type', 'class', 'function', 'variable', 'enum']);

/** Loads every `.d.ts` file under `dir` and indexes its declarations by name. */
export function loadDeclarationProject(dir = typescriptLibDir()): DeclarationProject {
  const files = new Map<string, ProjectFile>();
  const definitions = new Map<string, Definition[]>();
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.d.ts')) continue;
    const content = readFileSync(join(dir, name), 'utf8');
    const symbols = extractSymbols(content, name);
    files.set(name, { path: name, content, symbols });
    for (const node of symbols) {
      if (!INDEXED_KINDS.has(node.kind)) continue;
      let list = definitions.get(node.name);
      if (!list) definitions.set(node.name, (list = []));
      list.push({ path: name, node });
    }
  }
  return { root: dir, files, definitions };
}
