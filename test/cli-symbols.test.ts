import { describe, expect, it } from 'vitest';
import { extractSymbols } from '../src/cli/symbols.js';

describe('extractSymbols', () => {
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
    expect(extractSymbols('a.ts', src)).toEqual([
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
    expect(extractSymbols('t.py', src)).toEqual([
      { name: 'A', kind: 'class', start: 1, end: 6 },
      { name: 'm', kind: 'method', start: 5, end: 6 },
      { name: 'g', kind: 'function', start: 8, end: 9 },
    ]);
  });
});
