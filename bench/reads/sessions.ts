/**
 * The read sessions of `bench:reads`, fixed before measuring: what an agent
 * asks a `read_file(path, offset?, limit?)` / `read_multiple_files(paths)`
 * tool over real code nobody here wrote — the declaration files in
 * `node_modules/typescript/lib` and zod's TypeScript sources
 * (`node_modules/zod/src`). Pagination, overlapping windows, whole-file
 * re-reads, edits between reads and multi-file reads.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** One step of a session. */
export type ReadOp =
  /** A read of one file: lines `offset .. offset + limit - 1`, or the whole file without them. */
  | {
      readonly kind: 'read';
      readonly path: string;
      readonly offset?: number | undefined;
      readonly limit?: number | undefined;
    }
  /** `read_multiple_files`: several whole files in one call. */
  | { readonly kind: 'reads'; readonly paths: readonly string[] }
  /** The file changes between two reads: line `line` becomes `text`. */
  | { readonly kind: 'edit'; readonly path: string; readonly line: number; readonly text: string };

/** A fixed session. */
export interface ReadSession {
  readonly name: string;
  /** Whether two reads of the session ask for windows that overlap without being equal. */
  readonly overlapping: boolean;
  readonly ops: readonly ReadOp[];
}

const require = createRequire(import.meta.url);
const TS_LIB = join(dirname(require.resolve('typescript/package.json')), 'lib');
const ZOD_SRC = join(dirname(require.resolve('zod/package.json')), 'src');

/** Paths of the sessions → where the file is installed. */
const FILES: Readonly<Record<string, string>> = {
  'typescript/lib/lib.es5.d.ts': join(TS_LIB, 'lib.es5.d.ts'),
  'typescript/lib/lib.dom.d.ts': join(TS_LIB, 'lib.dom.d.ts'),
  'typescript/lib/lib.es2015.promise.d.ts': join(TS_LIB, 'lib.es2015.promise.d.ts'),
  'typescript/lib/lib.es2015.collection.d.ts': join(TS_LIB, 'lib.es2015.collection.d.ts'),
  'typescript/lib/lib.decorators.d.ts': join(TS_LIB, 'lib.decorators.d.ts'),
  'zod/v4/core/schemas.ts': join(ZOD_SRC, 'v4/core/schemas.ts'),
  'zod/v4/core/core.ts': join(ZOD_SRC, 'v4/core/core.ts'),
  'zod/v4/core/util.ts': join(ZOD_SRC, 'v4/core/util.ts'),
  'zod/v4/core/errors.ts': join(ZOD_SRC, 'v4/core/errors.ts'),
  'zod/v4/core/parse.ts': join(ZOD_SRC, 'v4/core/parse.ts'),
  'zod/v4/core/registries.ts': join(ZOD_SRC, 'v4/core/registries.ts'),
  'zod/v4/core/standard-schema.ts': join(ZOD_SRC, 'v4/core/standard-schema.ts'),
  'zod/v4/classic/schemas.ts': join(ZOD_SRC, 'v4/classic/schemas.ts'),
};

/** The files the sessions read, as installed (read once). */
export function loadReadFiles(): Map<string, string> {
  return new Map(Object.entries(FILES).map(([path, at]) => [path, readFileSync(at, 'utf8')]));
}

const read = (path: string, offset?: number, limit?: number): ReadOp =>
  offset === undefined ? { kind: 'read', path } : { kind: 'read', path, offset, limit };

/** Windows of `limit` lines starting every `step` lines from `first`, `count` of them. */
function windows(
  path: string,
  first: number,
  step: number,
  limit: number,
  count: number,
): ReadOp[] {
  return Array.from({ length: count }, (_, i) => read(path, first + i * step, limit));
}

const ES5 = 'typescript/lib/lib.es5.d.ts';
const DOM = 'typescript/lib/lib.dom.d.ts';
const PROMISE = 'typescript/lib/lib.es2015.promise.d.ts';
const COLLECTION = 'typescript/lib/lib.es2015.collection.d.ts';
const DECORATORS = 'typescript/lib/lib.decorators.d.ts';
const SCHEMAS = 'zod/v4/core/schemas.ts';
const CORE = 'zod/v4/core/core.ts';
const UTIL = 'zod/v4/core/util.ts';
const ERRORS = 'zod/v4/core/errors.ts';
const PARSE = 'zod/v4/core/parse.ts';
const REGISTRIES = 'zod/v4/core/registries.ts';
const STANDARD = 'zod/v4/core/standard-schema.ts';
const CLASSIC = 'zod/v4/classic/schemas.ts';

/** The sessions, in the order they are printed. */
export const READ_SESSIONS: readonly ReadSession[] = [
  {
    // Paging through a long file, then back to pages read before.
    name: 'es5-pagination',
    overlapping: false,
    ops: [
      ...windows(ES5, 1, 250, 250, 12),
      read(ES5, 251, 250),
      read(ES5, 1001, 250),
      read(ES5, 2001, 250),
    ],
  },
  {
    // A sliding window: each read overlaps the one before by 80 lines.
    name: 'zod-sliding-window',
    overlapping: true,
    ops: windows(SCHEMAS, 1, 120, 200, 20),
  },
  {
    // Small files read whole, then read whole again (unchanged) twice.
    name: 'whole-file-rereads',
    overlapping: false,
    ops: [CORE, ERRORS, PROMISE, DECORATORS, REGISTRIES]
      .flatMap((p, i, all) => [read(p), ...(i > 0 ? [read(all[i - 1]!)] : [])])
      .concat([CORE, ERRORS, PROMISE, DECORATORS, REGISTRIES].map((p) => read(p))),
  },
  {
    // Windows of a file the agent edits between reads.
    name: 'zod-edits-between-reads',
    overlapping: false,
    ops: [
      read(CLASSIC, 1, 400),
      read(CLASSIC, 401, 400),
      { kind: 'edit', path: CLASSIC, line: 420, text: '  // reviewed: the wrapper keeps its def' },
      read(CLASSIC, 401, 400),
      read(CLASSIC, 1, 400),
      read(CLASSIC, 801, 400),
      read(CLASSIC, 401, 400),
      { kind: 'edit', path: CLASSIC, line: 1000, text: '  // reviewed' },
      read(CLASSIC, 801, 400),
      read(CLASSIC, 1, 400),
      read(PROMISE),
      { kind: 'edit', path: PROMISE, line: 20, text: 'interface PromiseConstructor { // reviewed' },
      read(PROMISE),
      read(PROMISE),
    ],
  },
  {
    // read_multiple_files over overlapping sets of whole files, and a window read first.
    name: 'zod-multi-file',
    overlapping: true,
    ops: [
      read(CORE, 1, 100),
      { kind: 'reads', paths: [CORE, ERRORS, REGISTRIES] },
      { kind: 'reads', paths: [CORE, PARSE, STANDARD] },
      read(ERRORS, 200, 120),
      { kind: 'reads', paths: [ERRORS, PARSE, REGISTRIES] },
      { kind: 'reads', paths: [UTIL, CORE] },
      read(UTIL, 1, 200),
      { kind: 'edit', path: PARSE, line: 40, text: '// reviewed' },
      { kind: 'reads', paths: [PARSE, STANDARD, ERRORS] },
      { kind: 'reads', paths: [CORE, ERRORS, PARSE, REGISTRIES, STANDARD] },
      read(PARSE, 1, 60),
    ],
  },
  {
    // Following references through lib.dom and lib.es5: overlapping windows,
    // a window read again, a superset of a window, re-reads of a whole file
    // and an edit to it.
    name: 'dom-es5-mixed',
    overlapping: true,
    ops: [
      read(DOM, 1000, 100),
      read(DOM, 1050, 150),
      read(DOM, 1150, 100),
      read(DOM, 1000, 100),
      read(ES5, 1, 200),
      read(ES5, 1, 300),
      read(ES5, 4501, 101),
      read(DOM, 20000, 120),
      read(DOM, 19950, 100),
      read(COLLECTION),
      read(COLLECTION, 1, 60),
      read(COLLECTION),
      { kind: 'edit', path: COLLECTION, line: 30, text: '    // reviewed' },
      read(COLLECTION, 1, 60),
      read(COLLECTION),
      read(ES5, 250, 100),
      read(ES5, 1, 300),
      read(DOM, 1100, 100),
    ],
  },
];

/** How many read calls a session makes (edits are not calls). */
export function readCalls(session: ReadSession): number {
  return session.ops.filter((op) => op.kind !== 'edit').length;
}
