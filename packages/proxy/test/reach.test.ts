/**
 * What reaches the model: the proxy's guidance first in the instructions a
 * client keeps, every re-rendered tool's schema explaining its responses (a
 * subagent sees nothing else), and every response sized under the client's
 * output cap — or recorded nowhere, so no later pointer cites what the
 * client never handed the model. Driven through the bin, in front of the
 * fixture upstream (test/fixtures/upstream.mjs).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { estimateTokens } from 'span-ledger';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOKENIZER_MARGIN } from '../src/cap.js';
import { describedWithNote, INSTRUCTIONS, TOOL_NOTE } from '../src/server.js';
import { PACKAGE } from './_bin.js';
import {
  closeAll,
  type Running,
  readResponse,
  sampleScratch,
  startProxy,
  testEnv,
  textOf,
} from './_proxy.js';

const FIXTURE = join(PACKAGE, 'test/fixtures/upstream.mjs');
let scratch = '';
let root = '';

/** A file of `lines` lines of code, the same on every run. */
function codeFile(name: string, lines: number): string {
  const body: string[] = [];
  for (let n = 1; n <= lines; n++) {
    body.push(
      n % 7 === 0
        ? '}'
        : `  export function ${name}${n}(count: number, label: string): string { return label.repeat(count % ${n}); }`,
    );
  }
  return `${body.join('\n')}\n`;
}

beforeAll(() => {
  ({ scratch, root } = sampleScratch('proxy-reach-'));
  writeFileSync(join(root, 'big.ts'), codeFile('big', 300));
  for (const name of ['one', 'two', 'three']) {
    writeFileSync(join(root, `${name}.ts`), codeFile(name, 12));
  }
});

afterEach(closeAll);
afterAll(() => {
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
});

function start(env: Record<string, string> = {}, args: readonly string[] = []): Promise<Running> {
  return startProxy([process.execPath, FIXTURE, root], { cwd: root, args, env: testEnv(env) });
}

async function show(
  proxy: Running,
  args: Record<string, unknown>,
  conversation = 'c-reach',
): Promise<string> {
  const result = await proxy.client.callTool({
    name: 'show',
    arguments: args,
    _meta: { conversationId: conversation },
  });
  return textOf(result);
}

/** Whether `text` is within a cap of `cap` client tokens, counted as the proxy must: the estimate times the margin. */
function underCap(text: string, cap: number): boolean {
  return estimateTokens(text) * TOKENIZER_MARGIN <= cap;
}

describe('the guidance', () => {
  it('goes first in the instructions, within 600 chars, with the upstream’s kept whole after it', async () => {
    const proxy = await start();
    const instructions = proxy.client.getInstructions() ?? '';
    expect(INSTRUCTIONS.length).toBeLessThanOrEqual(600);
    expect(instructions.startsWith(INSTRUCTIONS)).toBe(true);
    const head = instructions.slice(0, 600);
    // A numbered response, a pointer, `refresh`, the context token.
    expect(head).toMatch(/Response #N/);
    expect(head).toMatch(/pointer .* means response #N already sent you those lines/);
    expect(head).toMatch(/`refresh: \[N\]`.*comes back in full/);
    expect(head).toMatch(/context token .* pass it back as `context`/);
    expect(instructions.endsWith('\n\nA test server.')).toBe(true);
  });

  it('every re-rendered tool says what its responses, pointers, token and refresh are; others are untouched', async () => {
    const proxy = await start();
    const { tools } = await proxy.client.listTools();
    const showTool = tools.find((tool) => tool.name === 'show')!;
    const echoTool = tools.find((tool) => tool.name === 'echo')!;
    expect(showTool.description).toBe(`Shows numbered sections of files.\n\n${TOOL_NOTE}`);
    expect(TOOL_NOTE).toMatch(/numbered \("Response #N"\)/);
    expect(TOOL_NOTE).toMatch(/pointer citing #N/);
    const properties = showTool.inputSchema.properties as Record<string, { description: string }>;
    expect(properties.context!.description).toMatch(/context token .* passed back unchanged/);
    expect(properties.refresh!.description).toMatch(/when a pointer cites #3/);
    expect(properties.refresh!.description).toMatch(/again in full/);
    expect(echoTool.description).toBe('Returns its arguments.');
    expect(Object.keys(echoTool.inputSchema.properties ?? {})).not.toContain('context');
  });

  it('puts the note before a description a client would cut, leaving the description as it was', () => {
    const long = 'Reads things. '.repeat(300);
    expect(describedWithNote(long)).toBe(`${TOOL_NOTE}\n\n${long}`);
    expect(describedWithNote(undefined)).toBe(TOOL_NOTE);
  });
});

describe('the output cap', () => {
  const BIG = { path: 'big.ts', start: 1, end: 300 };

  it('sizes a big answer under MAX_MCP_OUTPUT_TOKENS, cut at whole lines, and says so', async () => {
    const proxy = await start({ MAX_MCP_OUTPUT_TOKENS: '2000' });
    const text = await show(proxy, { files: [BIG] });
    const read = readResponse(text);
    expect(read.number).toBe(1);
    expect(underCap(text, 2000)).toBe(true);
    expect(text).toMatch(/`big\.ts` from L\d+ on is not in this response \(its budget\)/);
    const sent = [...read.lines.get('big.ts')!.keys()];
    expect(sent[0]).toBe(1);
    expect(sent.length).toBeGreaterThan(20);
  });

  it('leaves whole sections out from the lowest rank up when the rest of the answer takes the room', async () => {
    const proxy = await start({ MAX_MCP_OUTPUT_TOKENS: '2000' });
    // Three proved sections after a note the proxy may not cut (about 700 tokens).
    const note = `${'This note is the upstream’s own words and no source. '.repeat(60)}\n\n`;
    const sections = ['one.ts', 'two.ts', 'three.ts'].map((path) => sectionOf(path, 1, 12));
    const text = await show(proxy, { text: `${note}${sections.join('\n')}` });
    const read = readResponse(text);
    expect(read.number).toBe(1);
    expect(underCap(text, 2000)).toBe(true);
    expect(text).toContain(note.trim());
    // The first section whole, the last left out and saying so.
    expect(read.lines.get('one.ts')?.size).toBe(12);
    expect(read.lines.get('three.ts')).toBeUndefined();
    expect(text).toMatch(/`three\.ts` from L1 on is not in this response \(its budget\)/);
  });

  it('cuts the first section at whole lines, beside words it may not cut, rather than leave everything out', async () => {
    const proxy = await start({ MAX_MCP_OUTPUT_TOKENS: '2000' });
    const note = `${'Words of the upstream’s own, around its sections. '.repeat(50)}\n\n`;
    const text = await show(proxy, {
      text: `${note}${sectionOf('big.ts', 1, 300)}\n${sectionOf('one.ts', 1, 12)}`,
    });
    const read = readResponse(text);
    expect(underCap(text, 2000)).toBe(true);
    const sent = [...(read.lines.get('big.ts')?.keys() ?? [])];
    expect(sent.length).toBeGreaterThan(10);
    expect(text).toMatch(
      new RegExp(`\`big\\.ts\` from L${sent.at(-1)! + 1} on is not in this response`),
    );
    expect(read.lines.get('one.ts')).toBeUndefined();
  });

  it('records nothing for an answer it cannot bring under the cap, so a later call never points at it', async () => {
    const proxy = await start({ MAX_MCP_OUTPUT_TOKENS: '2000' });
    const cart = await show(proxy, { files: [{ path: 'cart.ts', start: 1, end: 79 }] }, 'c-over');
    expect(readResponse(cart).number).toBe(1);
    // money.ts beside a note that alone is over the cap: passed through as the upstream wrote it.
    const note = 'Words the upstream wrote around its sections. '.repeat(400);
    const money = await show(
      proxy,
      { text: `${note}\n\n${sectionOf('money.ts', 1, 51)}` },
      'c-over',
    );
    expect(readResponse(money).number).toBeNull();
    expect(money.startsWith(note)).toBe(true);
    // Asked again, money.ts comes back in full: no pointer to the response the client never showed.
    const again = await show(proxy, { files: [{ path: 'money.ts', start: 1, end: 51 }] }, 'c-over');
    const read = readResponse(again);
    expect(read.number).toBeGreaterThan(1);
    expect(read.pointers).toEqual([]);
    expect(read.lines.get('money.ts')?.size).toBe(51);
    // cart.ts was delivered: asked again, it is the pointer.
    const cartAgain = readResponse(
      await show(proxy, { files: [{ path: 'cart.ts', start: 1, end: 79 }] }, 'c-over'),
    );
    expect(cartAgain.pointers.map((p) => p.calls)).toEqual([[1]]);
  });

  it('takes --max-tokens when the environment has no cap, and the environment’s over it', async () => {
    const flagOnly = await start({}, ['--max-tokens', '2000']);
    expect(underCap(await show(flagOnly, { files: [BIG] }), 2000)).toBe(true);
    await flagOnly.close();
    const both = await start({ MAX_MCP_OUTPUT_TOKENS: '3000' }, ['--max-tokens', '100000']);
    const text = await show(both, { files: [BIG] });
    expect(underCap(text, 3000)).toBe(true);
    expect(underCap(text, 2000)).toBe(false);
  });

  it('reads a MAX_MCP_OUTPUT_TOKENS that is not a whole number above 0 as no cap, with one line on stderr', async () => {
    const proxy = await start({ MAX_MCP_OUTPUT_TOKENS: '2k' });
    const text = await show(proxy, { files: [BIG] });
    // The default, 25,000: the whole file fits.
    expect(readResponse(text).lines.get('big.ts')?.size).toBe(300);
    const lines = proxy
      .stderr()
      .split('\n')
      .filter((line) => line.includes('MAX_MCP_OUTPUT_TOKENS'));
    expect(lines).toEqual([
      'span-ledger-proxy: MAX_MCP_OUTPUT_TOKENS is not a whole number above 0 ("2k"): responses are sized under 25000 tokens',
    ]);
  });
});

/** A numbered section of a file under the root, as the fixture writes one. */
function sectionOf(path: string, start: number, end: number): string {
  const content = readFileSync(join(root, path), 'utf8').split('\n');
  const body: string[] = [];
  for (let n = start; n <= end; n++) body.push(`${n}\t${content[n - 1]}`);
  return `**\`${path}\`**\n\n\`\`\`ts\n${body.join('\n')}\n\`\`\`\n`;
}
