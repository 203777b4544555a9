/**
 * estimateTokens against o200k on the token corpus (the bounds a budget relies
 * on), then its laws on any text (integer, line-additive, one read per code
 * unit), then the strings a host should never have to screen out.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { estimateTokenCount } from 'tokenx';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../src/index.js';
import { tokenUnits } from '../src/text/tokens.js';
import { byKind, CORPUS_DIR, loadTokenCorpus, relativeError } from './_token-corpus.js';

const corpus = loadTokenCorpus();
const kinds = byKind(corpus);

/** The seed every property here runs on: a failure names it, and it replays the run. */
const SEED = 2222;
const RUNS = { seed: SEED, numRuns: Math.min(200, fc.readConfigureGlobal().numRuns ?? 200) };

describe('the token corpus', () => {
  it('holds real text of every kind the estimate is promised on', () => {
    expect([...kinds.keys()]).toEqual([
      'c',
      'chinese',
      'config',
      'go',
      'indented',
      'japanese',
      'minified',
      'mixed',
      'prose',
      'python',
      'typescript',
    ]);
    for (const samples of kinds.values()) expect(samples.length).toBeGreaterThanOrEqual(4);
  });

  it('keeps each sample a few KB and the whole a few hundred KB', () => {
    const bytes = corpus.map((s) => Buffer.byteLength(s.text));
    for (const b of bytes) expect(b).toBeLessThanOrEqual(8_000);
    expect(bytes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(400_000);
  });

  it('names the source and license of every sample in its NOTICE', () => {
    const notice = readFileSync(join(CORPUS_DIR, 'NOTICE.md'), 'utf8');
    for (const s of corpus) expect(notice).toContain(`| ${s.kind}/${s.name} |`);
  });
});

describe('estimateTokens against o200k on the corpus', () => {
  it.each([...kinds.keys()])('is within 15% of o200k on all %s samples together', (kind) => {
    const samples = kinds.get(kind)!;
    const ours = samples.reduce((a, s) => a + estimateTokens(s.text), 0);
    const reference = samples.reduce((a, s) => a + s.o200k, 0);
    expect(Math.abs(relativeError(ours, reference))).toBeLessThanOrEqual(0.15);
  });

  it('never under-counts a sample by more than 10%: a budget set with it holds', () => {
    const under = corpus
      .map((s) => ({
        sample: `${s.kind}/${s.name}`,
        error: relativeError(estimateTokens(s.text), s.o200k),
      }))
      .filter((r) => r.error < -0.1);
    expect(under).toEqual([]);
  });

  it('errs less on average than tokenx on the same samples', () => {
    const mae = (estimate: (text: string) => number) =>
      corpus.reduce((a, s) => a + Math.abs(relativeError(estimate(s.text), s.o200k)), 0) /
      corpus.length;
    expect(mae(estimateTokens)).toBeLessThan(mae(estimateTokenCount));
  });
});

/**
 * The price of `line` in 32nds of a token, exactly: a text is priced as the
 * sum of its lines, so 32 copies of the line cost 32 times its price, and the
 * rounding up to whole tokens is gone.
 */
const priceOf = (line: string) => estimateTokens(`${line}\n`.repeat(32));

// The prices, in 32nds of a token, as src/text/tokens.ts sets them.
const WORD = 31;
const PAST_8 = 3;
const PAST_12 = 17;
const AFTER_MARK = 12;
const AFTER_MARK_PAST_4 = 9;
const WIDE_LETTER = 4;
const TOKEN = 32;
const MARK_PAST_3 = 8;
const INDENT = 47;
const TAB = 4;
const BREAK = 42;
const MORE_BREAKS = 2;
const HAN = 30;
const KANA = 21;
const SYMBOL = 16;

describe('estimateTokens prices each run as documented', () => {
  it.each([
    // words, split where o200k splits them
    ['a word', 'name', WORD + BREAK],
    ['a lower-to-upper change starts a word', 'fooBar', 2 * WORD + BREAK],
    ['capitals before lower case stay one word', 'FOOBar', WORD + BREAK],
    ['a capital then lower case is one word', 'Foo', WORD + BREAK],
    ['8 letters', 'abcdefgh', WORD + BREAK],
    ['9 letters', 'abcdefghi', WORD + PAST_8 + BREAK],
    ['12 letters', 'abcdefghijkl', WORD + 4 * PAST_8 + BREAK],
    ['13 letters', 'abcdefghijklm', WORD + 5 * PAST_8 + PAST_12 + BREAK],
    ['a word after a mark', '.name', WORD + AFTER_MARK + BREAK],
    ['a 5-letter word after a mark', '.names', WORD + AFTER_MARK + AFTER_MARK_PAST_4 + BREAK],
    ['a split word after a mark', '.fooBar', 2 * WORD + AFTER_MARK + BREAK],
    ['a word after a digit', '1a', TOKEN + WORD + BREAK],
    ['a word after Han', '中a', HAN + WORD + BREAK],
    ['a word with a letter outside ASCII', 'café', WORD + 4 * WIDE_LETTER + BREAK],
    ['a wide word, then a plain one', 'éa b', WORD + 2 * WIDE_LETTER + WORD + BREAK],
    // digits
    ['a digit', '7', TOKEN + BREAK],
    ['three digits', '123', TOKEN + BREAK],
    ['four digits', '1234', 2 * TOKEN + BREAK],
    // punctuation, which takes the line break
    ['a mark', '{', TOKEN],
    ['three marks', '});', TOKEN],
    ['five marks', '}),);', TOKEN + 2 * MARK_PAST_3],
    ['a mark before Han', '「中', TOKEN + HAN + BREAK],
    ['a mark, a space, a break', '{ ', TOKEN + BREAK],
    // whitespace
    ['one space between words', 'a b', 2 * WORD + BREAK],
    ['two spaces between words', 'a  b', 2 * WORD + INDENT + BREAK],
    ['an indent', '  a', INDENT + WORD + BREAK],
    ['one leading space', ' a', WORD + BREAK],
    ['a space before a digit', 'a 1', WORD + TOKEN + TOKEN + BREAK],
    ['two spaces before a digit', 'a  1', WORD + TOKEN + TOKEN + BREAK],
    ['trailing spaces', 'a  ', WORD + BREAK],
    ['a tab', '\ta', TAB + WORD + BREAK],
    ['two tabs', '\t\ta', 2 * TAB + INDENT + WORD + BREAK],
    ['a blank line after a line', 'a\n', WORD + BREAK + MORE_BREAKS],
    ['CR LF', 'a\r', WORD + BREAK + MORE_BREAKS],
    ['a blank line', '', MORE_BREAKS],
    // per character
    ['Han', '中文', 2 * HAN + BREAK],
    ['kana', 'の', KANA + BREAK],
    ['Hangul', '한', KANA + BREAK],
    ['an emoji (two code units)', '😀', 2 * TOKEN + BREAK],
    ['a symbol', '→', TOKEN + SYMBOL],
  ])('%s: %j', (_, line, price) => {
    expect(priceOf(line)).toBe(price);
  });

  // The edges of each range of code units, as [code unit, price of a line of it alone].
  const letter = WORD + WIDE_LETTER + BREAK;
  const han = HAN + BREAK;
  const kana = KANA + BREAK;
  const surrogate = TOKEN + BREAK;
  const symbol = TOKEN + SYMBOL;
  const mark = TOKEN;
  it.each(
    [
      [0x00, mark],
      [0x08, mark],
      [0x0b, mark],
      [0x2f, mark],
      [0x30, TOKEN + BREAK],
      [0x39, TOKEN + BREAK],
      [0x3a, mark],
      [0x40, mark],
      [0x41, WORD + BREAK],
      [0x5a, WORD + BREAK],
      [0x5b, mark],
      [0x60, mark],
      [0x61, WORD + BREAK],
      [0x7a, WORD + BREAK],
      [0x7b, mark],
      [0x7f, mark],
      [0x80, symbol],
      [0xbf, symbol],
      [0xc0, letter],
      [0xd7, symbol],
      [0xd8, letter],
      [0xf7, symbol],
      [0x24f, letter],
      [0x250, symbol],
      [0x36f, symbol],
      [0x370, letter],
      [0x1fff, letter],
      [0x2000, symbol],
      [0x2fff, symbol],
      [0x3000, mark],
      [0x303f, mark],
      [0x3040, kana],
      [0x30ff, kana],
      [0x3100, mark],
      [0x33ff, mark],
      [0x3400, han],
      [0x9fff, han],
      [0xa000, mark],
      [0xabff, mark],
      [0xac00, kana],
      [0xd7af, kana],
      [0xd7b0, mark],
      [0xd7ff, mark],
      [0xd800, surrogate],
      [0xdfff, surrogate],
      [0xe000, mark],
      [0xf8ff, mark],
      [0xf900, han],
      [0xfaff, han],
      [0xfb00, mark],
      [0xffff, mark],
    ].map(([unit, price]) => [unit!.toString(16).toUpperCase().padStart(4, '0'), unit!, price!]),
  )('prices U+%s by its range', (_, unit, price) => {
    expect(priceOf(String.fromCharCode(unit))).toBe(price);
  });

  it('rounds up once, at the end of the text', () => {
    expect(estimateTokens('name')).toBe(1);
    expect(estimateTokens('a b')).toBe(2);
    expect(estimateTokens('abcdefghijklm')).toBe(2);
    expect(estimateTokens('a ')).toBe(2);
    expect(estimateTokens(' ')).toBe(1);
    expect(estimateTokens('\n')).toBe(1);
  });
});

describe('estimateTokens on any text', () => {
  const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
  // Mostly the characters that decide runs, so boundaries are dense.
  const textLike = fc.string({
    unit: fc.oneof(
      fc.constantFrom('a', 'Z', 'é', '7', ' ', '\t', '\n', '\r', '.', '"', '{', '中', 'の', '😀'),
      codeUnit,
    ),
    maxLength: 120,
  });

  it('is 0 for the empty text and a positive integer for any other', () => {
    expect(estimateTokens('')).toBe(0);
    fc.assert(
      fc.property(fc.string({ unit: codeUnit, minLength: 1 }), (text) => {
        const n = estimateTokens(text);
        return Number.isSafeInteger(n) && n >= 1;
      }),
      RUNS,
    );
  });

  it(`prices a text as its lines: never above their sum, at most one below per line (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.array(textLike, { maxLength: 12 }), (parts) => {
        const text = parts.join('\n');
        const lines = text.split(/(?<=[\n\r])/);
        const sum = lines.reduce((a, line) => a + estimateTokens(line), 0);
        const whole = estimateTokens(text);
        return whole <= sum && sum <= whole + Math.max(0, lines.length - 1);
      }),
      RUNS,
    );
  });

  it(`never decreases when a line is appended (seed ${SEED})`, () => {
    fc.assert(
      fc.property(textLike, textLike, (head, tail) => {
        return estimateTokens(`${head}\n${tail}`) >= estimateTokens(`${head}\n`);
      }),
      RUNS,
    );
  });

  it(`reads each code unit once, whatever the text (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.string({ unit: codeUnit, maxLength: 400 }), (text) => {
        return readsOf(text) === text.length;
      }),
      RUNS,
    );
  });
});

/** Runs `estimateTokens(text)` counting the code units it reads: work counted, not timed. */
function readsOf(text: string): number {
  const charCodeAt = String.prototype.charCodeAt;
  let reads = 0;
  String.prototype.charCodeAt = function (this: string, index: number) {
    reads++;
    return charCodeAt.call(this, index);
  };
  try {
    estimateTokens(text);
  } finally {
    String.prototype.charCodeAt = charCodeAt;
  }
  return reads;
}

describe('estimateTokens on hostile strings', () => {
  const tenMegabytes = 10 * 1024 * 1024;

  it.each([
    ['lone high surrogates', '\ud800'.repeat(64)],
    ['lone low surrogates', '\udc00'.repeat(64)],
    ['reversed surrogate pairs', '\udc00\ud800'.repeat(32)],
    ['emoji and ZWJ sequences', '👨‍👩‍👧 🏳️‍🌈 🎉🚀'],
    ['NUL and control characters', '\0\0\x01\x1b[31m\x7f\0'],
    ['a byte-order mark and zero-width spaces', '\ufeff\u200b\u200b'],
    ['combining marks', 'a\u0301\u0301\u0301e\u0308'],
    ['fullwidth forms and CJK punctuation', 'ｈｅｌｌｏ，（）「」。'],
  ])('gives a positive integer on %s', (_, text) => {
    const n = estimateTokens(text);
    expect(Number.isSafeInteger(n)).toBe(true);
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThanOrEqual(2 * text.length);
  });

  it.each([
    ['letters', 'a'],
    ['digits', '7'],
    ['spaces', ' '],
    ['punctuation', '{'],
    ['Han', '中'],
    ['alternating classes', 'a1 {'],
  ])('counts a megabyte of %s without a line break', (_, unit) => {
    const text = unit.repeat(tenMegabytes / 10 / unit.length);
    const n = estimateTokens(text);
    expect(Number.isSafeInteger(n)).toBe(true);
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThanOrEqual(2 * text.length);
  });

  it('prices a 10 MB word by its length, in one run', () => {
    const n = tenMegabytes;
    const price = WORD + (n - 8) * PAST_8 + (n - 12) * PAST_12;
    expect(estimateTokens('a'.repeat(n))).toBe(Math.ceil(price / TOKEN));
  });

  it('reads 10 MB of mixed text without a line break once per code unit', () => {
    const text = 'ab1 {中😀'.repeat(tenMegabytes / 8);
    expect(readsOf(text)).toBe(text.length);
  });

  it.each([
    ['undefined', undefined],
    ['a number', 42],
    ['a String object', new String('text')],
    ['an object with a length', { length: 3, charCodeAt: () => 97 }],
  ])('throws a TypeError naming text on %s', (_, value) => {
    expect(() => estimateTokens(value as string)).toThrow(TypeError);
    expect(() => estimateTokens(value as string)).toThrow(/estimateTokens\(text\): text/);
  });

  it('matches the documented examples', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('const total = items.length;')).toBe(7);
    expect(estimateTokens('文字数の予算は外れる')).toBe(9);
  });
});

/**
 * The estimate as the prices above describe it, read a second way: the text
 * cut into runs first, then each run priced by its neighbours. The single pass
 * in src/text/tokens.ts must give exactly these units.
 */
function unitsRunByRun(text: string): number {
  type Kind = 'letter' | 'digit' | 'mark' | 'space' | 'break' | 'other';
  const inRange = (c: number, lo: number, hi: number) => c >= lo && c <= hi;
  let units = 0;
  const runs: { kind: Kind; length: number; wide: boolean }[] = [];
  let afterLower = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let kind: Kind = 'mark';
    let upper = false;
    let wide = false;
    if (inRange(c, 0x61, 0x7a)) kind = 'letter';
    else if (inRange(c, 0x41, 0x5a)) [kind, upper] = ['letter', true];
    else if (inRange(c, 0x30, 0x39)) kind = 'digit';
    else if (c === 0x0a || c === 0x0d) kind = 'break';
    else if (c === 0x20) kind = 'space';
    else if (c === 0x09) [kind, units] = ['space', units + TAB];
    else if (c < 0x80) kind = 'mark';
    else if (inRange(c, 0xd800, 0xdfff)) [kind, units] = ['other', units + TOKEN];
    else if (inRange(c, 0x3400, 0x9fff) || inRange(c, 0xf900, 0xfaff))
      [kind, units] = ['other', units + HAN];
    else if (inRange(c, 0x3040, 0x30ff) || inRange(c, 0xac00, 0xd7af))
      [kind, units] = ['other', units + KANA];
    else if ((inRange(c, 0xc0, 0x24f) && c !== 0xd7 && c !== 0xf7) || inRange(c, 0x370, 0x1fff))
      [kind, wide] = ['letter', true];
    else if (c < 0x3000) units += SYMBOL;
    const last = runs.at(-1);
    const splits = kind === 'other' || (upper && afterLower);
    if (last !== undefined && last.kind === kind && !splits) {
      last.length++;
      last.wide ||= wide;
    } else runs.push({ kind, length: 1, wide });
    afterLower = kind === 'letter' && !upper;
  }
  const over = (n: number, k: number) => Math.max(0, n - k);
  for (const [j, { kind, length, wide }] of runs.entries()) {
    // The start of a text is read as if a line break came before it.
    const prev = j === 0 ? 'break' : runs[j - 1]!.kind;
    const next = runs[j + 1]?.kind ?? 'end';
    if (kind === 'letter') {
      units += WORD + over(length, 8) * PAST_8 + over(length, 12) * PAST_12;
      if (wide) units += length * WIDE_LETTER;
      if (prev === 'mark') units += AFTER_MARK + over(length, 4) * AFTER_MARK_PAST_4;
    } else if (kind === 'digit') units += Math.ceil(length / 3) * TOKEN;
    else if (kind === 'mark') {
      const marks = next === 'letter' ? length - 1 : length;
      if (marks > 0) units += TOKEN + over(marks, 3) * MARK_PAST_3;
    } else if (kind === 'space') {
      if (next === 'digit' || next === 'end') units += TOKEN;
      else if (next !== 'break' && length > 1) units += INDENT;
    } else if (kind === 'break') {
      // A first run of breaks continues the one before the text.
      const first = j === 0 ? 0 : prev === 'mark' ? 0 : BREAK;
      units += first + (j === 0 ? length : length - 1) * MORE_BREAKS;
    }
  }
  return units;
}

describe('tokenUnits, the single pass under estimateTokens and the planner', () => {
  const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
  const textLike = fc.string({
    unit: fc.oneof(
      // A character of every class, and an emoji's surrogate pair.
      fc.constantFrom(...'aqZéΩ7 \t\n\r._{中の한—', '😀'),
      codeUnit,
    ),
    maxLength: 160,
  });

  it(`gives the units a run-by-run reading gives, on any text and any slice (seed ${SEED})`, () => {
    fc.assert(
      fc.property(textLike, fc.nat(), fc.nat(), (text, a, b) => {
        const from = a % (text.length + 1);
        const to = from + (b % (text.length - from + 1));
        return (
          tokenUnits(text, 0, text.length) === unitsRunByRun(text) &&
          tokenUnits(text, from, to) === unitsRunByRun(text.slice(from, to))
        );
      }),
      { ...RUNS, numRuns: Math.max(RUNS.numRuns, 1000) },
    );
  });

  it('gives the units a run-by-run reading gives on every corpus sample and each of its lines', () => {
    for (const { text } of corpus) {
      expect(tokenUnits(text, 0, text.length)).toBe(unitsRunByRun(text));
      let from = 0;
      for (const line of text.split(/(?<=\n)/)) {
        expect(tokenUnits(text, from, from + line.length)).toBe(unitsRunByRun(line));
        from += line.length;
      }
    }
  });
});
