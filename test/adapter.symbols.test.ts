/**
 * extractSymbols (span-ledger/adapter), the heuristic symbol extractor, on
 * whole files and on the declarations, comments and strings a reader would try first: every keyword's kind, modifiers with extra spaces,
 * doc comments from the first line, and the characters that must not end a
 * declaration early (braces in comments and strings, division, parentheses).
 * Line numbers in the comments are 1-based, as in the expected symbols.
 */
import { describe, expect, it } from 'vitest';
import { extractSymbols } from '../src/adapter/index.js';

const ts = (...lines: string[]) => extractSymbols(lines.join('\n'), 'a.ts');
const py = (...lines: string[]) => extractSymbols(lines.join('\n'), 'a.py');

describe('extractSymbols: TypeScript declarations', () => {
  it("names each keyword's kind", () => {
    expect(
      ts(
        'export enum Color {', // 1
        '  Red,', // 2
        '}', // 3
        'export let counter = 0;', // 4
        'export var legacy = 1;', // 5
        'export namespace Shapes {', // 6
        '  export function area(): number {', // 7
        '    return 1;', // 8
        '  }', // 9
        '}', // 10
        'declare module Ambient {', // 11
        '  export const version: string;', // 12
        '}', // 13
        'export function* ids() {', // 14
        '  yield 1;', // 15
        '}', // 16
      ),
    ).toEqual([
      { name: 'Color', kind: 'enum', start: 1, end: 3 },
      { name: 'counter', kind: 'variable', start: 4, end: 4 },
      { name: 'legacy', kind: 'variable', start: 5, end: 5 },
      { name: 'Shapes', kind: 'module', start: 6, end: 10 },
      // Indented, but a function: nested functions are named, nested constants are not.
      { name: 'area', kind: 'function', start: 7, end: 9 },
      { name: 'Ambient', kind: 'module', start: 11, end: 13 },
      { name: 'ids', kind: 'function', start: 14, end: 16 },
    ]);
  });

  it('skips an indented let, var or const: it is a local', () => {
    expect(
      ts(
        'export function run() {', // 1
        '  let count = 0;', // 2
        '  var total = 1;', // 3
        "  const note = 'export all';", // 4
        '  return count + total;', // 5
        '}', // 6
      ),
    ).toEqual([{ name: 'run', kind: 'function', start: 1, end: 6 }]);
  });

  it('reads modifiers and names separated by more than one space', () => {
    expect(
      ts(
        'export  function spaced() {}', // 1
        'declare  const LIMIT: number;', // 2
        'export default  class Widget {}', // 3
        'export abstract  class Base {}', // 4
        'export async  function load() {}', // 5
        'export default class Plain {}', // 6
        'export abstract class Shape {}', // 7
        'export async function fetchAll() {}', // 8
        'function  twice() {}', // 9
      ),
    ).toEqual([
      { name: 'spaced', kind: 'function', start: 1, end: 1 },
      { name: 'LIMIT', kind: 'constant', start: 2, end: 2 },
      { name: 'Widget', kind: 'class', start: 3, end: 3 },
      { name: 'Base', kind: 'class', start: 4, end: 4 },
      { name: 'load', kind: 'function', start: 5, end: 5 },
      { name: 'Plain', kind: 'class', start: 6, end: 6 },
      { name: 'Shape', kind: 'class', start: 7, end: 7 },
      { name: 'fetchAll', kind: 'function', start: 8, end: 8 },
      { name: 'twice', kind: 'function', start: 9, end: 9 },
    ]);
  });

  it('does not take a keyword in the middle of a line for a declaration', () => {
    expect(ts('registry.add(function handler() {});', 'log("a class Foo");')).toEqual([]);
  });
});

describe('extractSymbols: where a TypeScript declaration starts', () => {
  it('takes in a doc comment that opens on the first line, and decorators and // notes', () => {
    expect(
      ts(
        '/**', // 1
        ' * Doc for AREA.', // 2
        ' */', // 3
        'export const AREA = W * H;', // 4
        'export function f() {}', // 5
        '// a note', // 6
        '@decorator()', // 7
        'export class C {}', // 8
      ),
    ).toEqual([
      { name: 'AREA', kind: 'constant', start: 1, end: 4 },
      // Line 4 holds a `*` but is code, not a comment: f starts on its own line.
      { name: 'f', kind: 'function', start: 5, end: 5 },
      { name: 'C', kind: 'class', start: 6, end: 8 },
    ]);
  });
});

describe('extractSymbols: where a TypeScript declaration ends', () => {
  it('ignores braces inside block comments and strings of every quote', () => {
    expect(
      ts(
        'export interface Config {', // 1
        '  /* 2*x a/b } */ ratio: number;', // 2
        "  label: 'it\\'s }';", // 3
        "  short: 'a}';", // 4
        '  title: "a}";', // 5
        '  tag: `b}`;', // 6
        '}', // 7
        'export const AFTER = 1;', // 8
      ),
    ).toEqual([
      { name: 'Config', kind: 'interface', start: 1, end: 7 },
      { name: 'AFTER', kind: 'constant', start: 8, end: 8 },
    ]);
  });

  it('a block comment that opens with /*/ is not closed by its own star', () => {
    expect(
      ts(
        'export interface Note {', // 1
        '  /*/ } */ text: string;', // 2
        '}', // 3
      ),
    ).toEqual([{ name: 'Note', kind: 'interface', start: 1, end: 3 }]);
  });

  it('a semicolon inside open parentheses does not end it', () => {
    expect(
      ts(
        'export const SEMI = split(/;/,', // 1
        "  'x');", // 2
      ),
    ).toEqual([{ name: 'SEMI', kind: 'constant', start: 1, end: 2 }]);
  });

  it('what follows a closing brace on its own line decides whether the declaration goes on', () => {
    expect(
      ts(
        'export type T = { a: 1 } | {', // 1
        '  b: 2;', // 2
        '};', // 3
        'export const make: { (): number } = () =>', // 4
        '  42;', // 5
      ),
    ).toEqual([
      { name: 'T', kind: 'type', start: 1, end: 3 },
      { name: 'make', kind: 'constant', start: 4, end: 5 },
    ]);
  });

  it('looks at most two lines below a closing brace for a continuation', () => {
    expect(
      ts(
        'export type A = {', // 1
        '  a: 1;', // 2
        '}', // 3
        '', // 4
        '', // 5
        '  | { b: 2 };', // 6
      ),
    ).toEqual([{ name: 'A', kind: 'type', start: 1, end: 3 }]);
  });

  it('blank lines below a closing brace do not continue it', () => {
    expect(
      ts(
        'export interface I {', // 1
        '  a: 1;', // 2
        '}', // 3
        '', // 4
        '', // 5
        '', // 6
        'export const Z = 1;', // 7
      ),
    ).toEqual([
      { name: 'I', kind: 'interface', start: 1, end: 3 },
      { name: 'Z', kind: 'constant', start: 7, end: 7 },
    ]);
  });

  it('a division is neither a line comment nor a block comment', () => {
    expect(
      ts(
        'export const HALF = 1 / 2;', // 1
        'export const QUARTER = 1 /* one *//4;', // 2
        'export const TWO = 2;', // 3
      ),
    ).toEqual([
      { name: 'HALF', kind: 'constant', start: 1, end: 1 },
      { name: 'QUARTER', kind: 'constant', start: 2, end: 2 },
      { name: 'TWO', kind: 'constant', start: 3, end: 3 },
    ]);
  });

  it('a closing brace inside open parentheses does not end it', () => {
    expect(
      ts(
        'export const x = wrap(inner(1), { a: 1 } // note', // 1
        '  , 2);', // 2
        'export const y = 2;', // 3
      ),
    ).toEqual([
      { name: 'x', kind: 'constant', start: 1, end: 2 },
      { name: 'y', kind: 'constant', start: 3, end: 3 },
    ]);
  });

  it('the closing brace of a nested block does not end it', () => {
    expect(
      ts(
        'export class Counter {', // 1
        '  next() {', // 2
        '    return 1;', // 3
        '  }', // 4
        '}', // 5
      ),
    ).toEqual([{ name: 'Counter', kind: 'class', start: 1, end: 5 }]);
  });

  it('a declaration never closed runs to the last line', () => {
    // Two lines: the trailing newline ends the second, it starts no third (POSIX lines).
    expect(ts('export function broken() {', '  return 1;', '')).toEqual([
      { name: 'broken', kind: 'function', start: 1, end: 2 },
    ]);
  });
});

describe('extractSymbols: Python', () => {
  it('a function nested in a function is a function; a decorated method starts at its decorator', () => {
    expect(
      py(
        'def outer():', // 1
        '    def inner():', // 2
        '        pass', // 3
        '    ', // 4: spaces only, not part of outer
        'class K:', // 5
        '    @staticmethod', // 6
        '    def make():', // 7
        '        pass', // 8
      ),
    ).toEqual([
      { name: 'outer', kind: 'function', start: 1, end: 3 },
      { name: 'inner', kind: 'function', start: 2, end: 3 },
      { name: 'K', kind: 'class', start: 5, end: 8 },
      { name: 'make', kind: 'method', start: 6, end: 8 },
    ]);
  });

  it('reads async def and extra spaces, and not a class named in a comment', () => {
    expect(
      py(
        '# see class Hidden for details', // 1
        'async def fetch():', // 2
        '    return 1', // 3
        'async  def twice():', // 4
        '    return 2', // 5
        'def  spaced():', // 6
        '    return 3', // 7
      ),
    ).toEqual([
      { name: 'fetch', kind: 'function', start: 2, end: 3 },
      { name: 'twice', kind: 'function', start: 4, end: 5 },
      { name: 'spaced', kind: 'function', start: 6, end: 7 },
    ]);
  });
});

describe('extractSymbols: whole files', () => {
  it('finds TypeScript declarations with their doc comment and brace-matched end', () => {
    const src = [
      "import { x } from './x.js';", // 1
      '', // 2
      '/** A point. */', // 3
      'export interface Point {', // 4
      '  x: number; // {', // 5
      "  label: '}';", // 6
      '}', // 7
      'export type Shape =', // 8
      '  | { kind: "circle" }', // 9
      '  | { kind: "square" };', // 10
      'declare function area(s: { kind: string }): number;', // 11
      'export const UNIT = 1;', // 12
      'export function f() {', // 13
      '  const local = { a: 1 };', // 14
      '  return local;', // 15
      '}', // 16
    ].join('\n');
    expect(extractSymbols(src, 'a.ts')).toEqual([
      { name: 'Point', kind: 'interface', start: 3, end: 7 },
      { name: 'Shape', kind: 'type', start: 8, end: 10 },
      { name: 'area', kind: 'function', start: 11, end: 11 },
      { name: 'UNIT', kind: 'constant', start: 12, end: 12 },
      { name: 'f', kind: 'function', start: 13, end: 16 },
    ]);
  });

  it('finds Python functions, classes and methods by indentation', () => {
    const src = [
      '@dataclass', // 1
      'class A:', // 2
      '    x: int', // 3
      '', // 4
      '    def m(self):', // 5
      '        return 1', // 6
      '', // 7
      'def g():', // 8
      '    pass', // 9
      '', // 10
    ].join('\n');
    expect(extractSymbols(src, 't.py')).toEqual([
      { name: 'A', kind: 'class', start: 1, end: 6 },
      { name: 'm', kind: 'method', start: 5, end: 6 },
      { name: 'g', kind: 'function', start: 8, end: 9 },
    ]);
  });
});

describe('extractSymbols: the language and the input', () => {
  const pyClass = 'class A:\n    def m(self):\n        return 1\n';

  it.each([['t.py'], ['t.pyi'], ['T.PY']])('%s is read with the Python rules', (path) => {
    expect(extractSymbols(pyClass, path)).toEqual([
      { name: 'A', kind: 'class', start: 1, end: 3 },
      { name: 'm', kind: 'method', start: 2, end: 3 },
    ]);
  });

  it.each([['t.pyc'], ['py'], [42]])('%s is read with the TypeScript rules', (path) => {
    // TypeScript rules see `class A:` and run it to the last line (no brace ever closes it).
    expect(extractSymbols(pyClass, path as never)).toEqual([
      { name: 'A', kind: 'class', start: 1, end: 3 },
    ]);
  });

  it.each([
    ['not a string', 42],
    ['null', null],
    ['empty', ''],
  ])('content that is %s has no symbols', (_label, content) => {
    expect(extractSymbols(content as never, 'a.ts')).toEqual([]);
  });
});
