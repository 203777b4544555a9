/**
 * A heuristic symbol extractor, not a parser: it finds the definitions of
 * TypeScript/JavaScript (`function`, `class`, `interface`, `type`, `enum`,
 * top-level `const`/`let`/`var`, `namespace`/`module`, with or without
 * `export`/`declare`/`default`/`abstract`/`async`; extents by brace matching)
 * and Python (`def`, `class`, methods; extents by indentation; decorators
 * included) line by line with regular expressions.
 *
 * It is for naming symbols in pointers and headers when a host has no index
 * of its own (a read tool, the demo, the replay). Strings and comments are
 * skipped well enough for declaration files and plain application code; a
 * template literal holding braces, a regex literal or unusual formatting can
 * make an extent longer or shorter than the real one. Hosts with a language
 * server or a tree-sitter index should pass their own symbols instead.
 */

import type { SymbolKind, SymbolNode } from '../dedup/symbols.js';
import { splitLines } from '../text/lines.js';

const KINDS: Readonly<Record<string, SymbolKind>> = {
  function: 'function',
  class: 'class',
  interface: 'interface',
  type: 'type',
  enum: 'enum',
  const: 'constant',
  let: 'variable',
  var: 'variable',
  namespace: 'module',
  module: 'module',
};

const TS_DECL =
  /^\s*(?:export\s+)?(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:async\s+)?(function\*?|class|interface|type|enum|const|let|var|namespace|module)\s+([A-Za-z_$][\w$]*)/;
const PY_DECL = /^(\s*)(?:async\s+)?(def|class)\s+([A-Za-z_]\w*)/;

/**
 * The symbols defined in `content`, in line order, as `SymbolNode`s (1-based,
 * inclusive lines, a definition's doc comment and decorators included). The
 * language is chosen by `path`'s extension: `.py`/`.pyi` → Python, anything
 * else → TypeScript/JavaScript rules. A heuristic, not a parser (see the
 * module header): never throws, and a file it cannot read gives `[]`.
 *
 * @example
 * ```ts
 * extractSymbols('export interface A {\n  x: number;\n}\n', 'a.ts');
 * // → [{ name: 'A', kind: 'interface', start: 1, end: 3 }]
 * extractSymbols('def f():\n    return 1\n', 'b.py');
 * // → [{ name: 'f', kind: 'function', start: 1, end: 2 }]
 * ```
 */
export function extractSymbols(content: string, path: string): SymbolNode[] {
  if (typeof content !== 'string') return [];
  const lines = splitLines(content);
  return isPython(path) ? pythonSymbols(lines) : typescriptSymbols(lines);
}

function isPython(path: unknown): boolean {
  return typeof path === 'string' && /\.pyi?$/i.test(path);
}

function typescriptSymbols(lines: readonly string[]): SymbolNode[] {
  const out: SymbolNode[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = TS_DECL.exec(lines[i]!);
    if (!m) continue;
    // Every keyword TS_DECL captures (`function*` once its star is gone) is a key of KINDS.
    const kind = KINDS[m[1]!.replace('*', '')]!;
    // A nested (indented) `const`, `let` or `var` is a local, not a definition worth naming.
    if ((kind === 'variable' || kind === 'constant') && !/^\S/.test(lines[i]!)) continue;
    const start = leadingComment(lines, i);
    out.push({ name: m[2]!, kind, start: start + 1, end: declarationEnd(lines, i) + 1 });
  }
  return out;
}

/** The 0-based first line of the doc comment right above line `at` (or `at` itself). */
function leadingComment(lines: readonly string[], at: number): number {
  let start = at;
  for (let i = at - 1; i >= 0; i--) {
    const t = lines[i]!.trim();
    if (!/^(?:\/\*\*|\*|\/\/|@)/.test(t)) break;
    start = i;
  }
  return start;
}

/** The 0-based line where the declaration starting on line `from` ends. */
function declarationEnd(lines: readonly string[], from: number): number {
  let braces = 0;
  let parens = 0;
  let block = false;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!;
    let quote = '';
    for (let j = 0; j < line.length; j++) {
      const c = line[j]!;
      if (block) {
        if (c === '*' && line[j + 1] === '/') {
          block = false;
          j++;
        }
        continue;
      }
      if (quote !== '') {
        if (c === '\\') j++;
        else if (c === quote) quote = '';
        continue;
      }
      if (c === '/' && line[j + 1] === '/') break;
      if (c === '/' && line[j + 1] === '*') {
        block = true;
        j++;
      } else if (c === "'" || c === '"' || c === '`') quote = c;
      else if (c === '(') parens++;
      else if (c === ')') parens = Math.max(0, parens - 1);
      else if (c === '{') braces++;
      else if (c === '}') {
        braces = Math.max(0, braces - 1);
        if (braces === 0 && parens === 0 && !continues(lines, i, j + 1)) return i;
      } else if (c === ';' && braces === 0 && parens === 0) return i;
    }
  }
  return lines.length - 1;
}

/** Whether the text after a closing brace continues the same declaration (`} | {`, `};`, `}[]`). */
function continues(lines: readonly string[], line: number, col: number): boolean {
  for (let i = line; i < lines.length && i < line + 3; i++) {
    const rest = (i === line ? lines[i]!.slice(col) : lines[i]!).trim();
    if (rest === '') continue;
    return /^[;|&[.,)>=]/.test(rest) && !rest.startsWith('=>');
  }
  return false;
}

function pythonSymbols(lines: readonly string[]): SymbolNode[] {
  const out: SymbolNode[] = [];
  const classIndents: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = PY_DECL.exec(lines[i]!);
    if (!m) continue;
    const indent = m[1]!.length;
    while (classIndents.length > 0 && classIndents[classIndents.length - 1]! >= indent) {
      classIndents.pop();
    }
    const kind: SymbolKind =
      m[2] === 'class' ? 'class' : classIndents.length > 0 ? 'method' : 'function';
    let end = i;
    for (let k = i + 1; k < lines.length; k++) {
      const text = lines[k]!;
      if (text.trim() === '') continue;
      if (text.length - text.trimStart().length <= indent) break;
      end = k;
    }
    let start = i;
    while (start > 0 && lines[start - 1]!.trim().startsWith('@')) start--;
    out.push({ name: m[3]!, kind, start: start + 1, end: end + 1 });
    if (m[2] === 'class') classIndents.push(indent);
  }
  return out;
}
