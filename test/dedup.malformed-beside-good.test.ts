/**
 * Malformed data next to good data in the dedup layer: a malformed record must not hide
 * the good record beside it (which proves lines held), nor be counted as proof
 * itself; a malformed symbol node must not hide the good node beside it.
 */
import { describe, expect, it } from 'vitest';
import {
  fingerprint,
  type LineRange,
  type ProjectState,
  planFile,
  type SymbolNode,
  symbolsInSpans,
} from '../src/index.js';
import { callRecord as call, fileEmission, projectState as prior, ranges } from './_build.js';

const content = Array.from({ length: 40 }, (_, i) => `const v${i + 1} = ${i + 1};`).join('\n');
const fp = fingerprint(content);
const whole: LineRange[] = ranges('1-40');

const record = fileEmission('a.ts', whole, content.length, fp);
const plan = (p: ProjectState) => planFile({ path: 'a.ts', content, intended: whole, prior: p });
const contentGate = (p: ProjectState) => plan(p).gates.find((g) => g.gate === 'content')!.reason;

describe('served records next to junk', () => {
  it('a good record still proves its lines after junk calls and junk files', () => {
    const p = prior([
      null,
      'call',
      call('files'),
      call([null, 'file', fileEmission('', whole, 1, fp), { path: 3 }, record]),
    ]);
    expect(plan(p).render).toBe('pointer');
    expect(plan(p).covered).toEqual(whole);
  });

  it('a record with an empty fingerprint proves nothing', () => {
    expect(contentGate(prior([call([{ ...record, fingerprint: '' }])]))).toBe('no-fingerprint');
    expect(plan(prior([call([{ ...record, fingerprint: '' }])])).render).toBe('full');
  });

  it('a record of other content says the fingerprint changed', () => {
    expect(contentGate(prior([call([{ ...record, fingerprint: '9:0000000000000000' }])]))).toBe(
      'fingerprint-changed',
    );
  });

  it('records of the same content join their spans', () => {
    const p = prior([
      call([{ ...record, ranges: ranges('1-20') }]),
      call([{ ...record, ranges: ranges('21-40') }]),
    ]);
    expect(plan(p).covered).toEqual(whole);
  });
});

describe('symbolsInSpans next to junk', () => {
  const good: SymbolNode = { name: 'run', kind: 'function', start: 5, end: 9 };

  it('skips junk nodes and keeps the good ones, in line order', () => {
    const nodes = [
      null,
      'node',
      { name: '  ', kind: 'function', start: 5, end: 9 },
      { name: 'lateFirst', kind: 'class', start: 7, end: 12 },
      { name: 'imp', kind: 'import', start: 5, end: 5 },
      { name: 'exp', kind: 'export', start: 5, end: 5 },
      { name: 'badStart', kind: 'function', start: '5', end: 9 },
      { name: 'badEnd', kind: 'function', start: 5, end: null },
      { name: 'reversed', kind: 'function', start: 9, end: 5 },
      { name: 'zero', kind: 'function', start: 0, end: 5 },
      { name: 'fraction', kind: 'function', start: 5.5, end: 9 },
      good,
      { name: 'outside', kind: 'function', start: 30, end: 35 },
      { name: 'run', kind: 'method', start: 8, end: 8 },
    ];
    expect(symbolsInSpans(nodes as SymbolNode[], ranges('1-10'))).toEqual(['run', 'lateFirst']);
  });

  it('orders nodes that start on the same line as they were given', () => {
    const nodes: SymbolNode[] = [
      { name: 'b', kind: 'function', start: 3, end: 4 },
      { name: 'a', kind: 'function', start: 3, end: 4 },
      { name: 'c', kind: 'function', start: 2, end: 4 },
    ];
    expect(symbolsInSpans(nodes, ranges('1-10'))).toEqual(['c', 'b', 'a']);
  });

  it('finds nothing without spans, or without an array of nodes', () => {
    expect(symbolsInSpans([good], [])).toEqual([]);
    expect(symbolsInSpans('nodes' as never, ranges('1-10'))).toEqual([]);
    expect(symbolsInSpans({ length: 1, 0: good } as never, ranges('1-10'))).toEqual([]);
  });

  it('skips a node whose getters throw', () => {
    const hostile = Object.defineProperty({}, 'name', {
      get: () => {
        throw new Error('hostile');
      },
    });
    expect(symbolsInSpans([hostile as SymbolNode, good], ranges('1-10'))).toEqual(['run']);
  });
});
