/**
 * The proxy in front of the real Codegraph (`@colbymchenry/codegraph` 1.6.1,
 * `codegraph serve --mcp`), its index built in a temporary copy of the
 * sample project, driven with the SDK client as an MCP host would. What it
 * proves: a repeat in one context points at the response that sent the
 * lines; a subagent without the token gets full source; after a compaction
 * one `refresh` brings the cited source back; an edited file comes back
 * whole; and every byte the proxy does not re-render is Codegraph's own.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_NOTE } from '../src/server.js';
import { REPO } from './_bin.js';
import {
  closeAll,
  type Running,
  readResponse,
  startDirect,
  startProxy,
  testEnv,
  textOf,
} from './_proxy.js';

const CODEGRAPH = join(REPO, 'node_modules/.bin/codegraph');
const UPSTREAM = [CODEGRAPH, 'serve', '--mcp'];
/** Codegraph's tools on a project this small: search, node and explore. */
const ENV = testEnv({ CODEGRAPH_MCP_TOOLS: 'explore,node,search' });

/** Calls of the tool the proxy leaves alone. */
const SEARCHES = ['Cart', 'scaleMoney', 'checkout payment'].map((query) => ({
  name: 'codegraph_search',
  arguments: { query },
}));
const FRESH_QUERY = 'checkout payment retry';

let project = '';
let proxy: Running;
/** What Codegraph answers on its own (one server may serve a project at a time, so asked first). */
let own: { tools: Tool[]; searches: unknown[]; explore: string };

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'proxy-codegraph-'));
  cpSync(join(REPO, 'fixtures/sample'), project, { recursive: true });
  execFileSync(CODEGRAPH, ['init', '.'], {
    cwd: project,
    env: ENV,
    stdio: 'ignore',
    timeout: 60_000,
  });
  const direct = await startDirect(CODEGRAPH, ['serve', '--mcp'], { cwd: project, env: ENV });
  try {
    own = {
      tools: (await direct.listTools()).tools,
      searches: await Promise.all(SEARCHES.map((call) => direct.callTool(call))),
      explore: textOf(
        await direct.callTool({ name: 'codegraph_explore', arguments: { query: FRESH_QUERY } }),
      ),
    };
  } finally {
    await direct.close();
  }
  proxy = await startProxy(UPSTREAM, { cwd: project, env: ENV });
});

afterAll(async () => {
  await closeAll();
  if (project !== '') rmSync(project, { recursive: true, force: true });
});

async function explore(query: string, extra: Record<string, unknown> = {}) {
  const result = await proxy.client.callTool({
    name: 'codegraph_explore',
    arguments: { query, ...extra },
  });
  const text = textOf(result);
  return { result, text, read: readResponse(text) };
}

describe('through the proxy, Codegraph', () => {
  it('answers a fresh context with its own text, opened by the response number and the token', async () => {
    const { text, read } = await explore(FRESH_QUERY);
    expect(read.number).toBe(1);
    expect(read.token).toMatch(/^[A-Za-z0-9_-]{8}$/);
    // A new context's numbering carries a tag of its own, so a lost ledger never repeats a number.
    expect(read.tag).toMatch(/^[a-z]{4}$/);
    const [first, ...rest] = text.split('\n');
    expect(first).toBe(
      `Response #1/${read.tag} · context ${read.token} (send "context": "${read.token}" with your later calls to this tool)`,
    );
    expect(rest.join('\n')).toBe(own.explore);
  });

  it("leaves its other tools alone: their results are byte for byte the upstream's", async () => {
    expect(await Promise.all(SEARCHES.map((call) => proxy.client.callTool(call)))).toEqual(
      own.searches,
    );
    const listed = (await proxy.client.listTools()).tools;
    expect(listed.map((t) => t.name)).toEqual(own.tools.map((t) => t.name));
    for (const tool of listed) {
      const original = own.tools.find((t) => t.name === tool.name)!;
      if (tool.name === 'codegraph_explore' || tool.name === 'codegraph_node') {
        expect({
          ...tool,
          description: original.description,
          inputSchema: { ...tool.inputSchema, properties: original.inputSchema.properties },
        }).toEqual(original);
        expect(tool.description).toBe(`${original.description}\n\n${TOOL_NOTE}`);
        expect(Object.keys(tool.inputSchema.properties ?? {}).slice(-2)).toEqual([
          'context',
          'refresh',
        ]);
      } else {
        expect(tool).toEqual(original);
      }
    }
  });

  it('points a repeat in one context at the response that sent the lines', async () => {
    const first = await explore('Cart totals discountFor');
    const token = first.read.token!;
    const second = await explore('Cart totals discountFor money', { context: token });
    expect(second.read.number).toBe(2);
    expect(second.read.token).toBe(token);
    expect(second.read.pointers.length).toBeGreaterThan(0);
    for (const pointer of second.read.pointers) {
      expect(pointer.calls).toEqual([1]);
      const shown = second.read.lines.get(pointer.path) ?? new Map();
      for (const { start, end } of pointer.spans) {
        for (let n = start; n <= end; n++) {
          // Every line the pointer stands for, the first response carried; none is sent again.
          expect(first.read.lines.get(pointer.path)?.has(n)).toBe(true);
          expect(shown.has(n)).toBe(false);
        }
      }
    }
  });

  it('gives a subagent without the token its own context: full source, no pointer', async () => {
    const parent = await explore('CheckoutError chargeWithRetry');
    const child = await explore('CheckoutError chargeWithRetry');
    expect(child.read.number).toBe(1);
    expect(child.read.token).not.toBe(parent.read.token);
    expect(child.read.pointers).toEqual([]);
    expect(child.read.lines).toEqual(parent.read.lines);
  });

  it('after a compaction, one refresh brings the cited source back and the ledger stops citing it', async () => {
    const a = await explore('Catalog reserve release');
    const token = a.read.token!;
    await explore('Catalog find search', { context: token });
    // The context was compacted: it kept the token and lost responses #1 and #2.
    const lost = [1, 2];
    const after = await explore('Catalog reserve release find', { context: token });
    const stale = after.read.pointers.filter((p) => p.calls.some((n) => lost.includes(n)));
    expect(stale.length).toBeGreaterThan(0);
    const refreshed = await explore('Catalog reserve release find', {
      context: token,
      refresh: lost,
    });
    for (const pointer of refreshed.read.pointers) expect(pointer.calls).toEqual([3]);
    for (const { path } of stale) {
      const back = refreshed.read.lines.get(path)?.size ?? 0;
      const heldFromThree = refreshed.read.pointers.some((p) => p.path === path);
      expect(back > 0 || heldFromThree).toBe(true);
    }
    const later = await explore('Catalog reserve release find', { context: token });
    for (const pointer of later.read.pointers)
      expect(pointer.calls.some((n) => lost.includes(n))).toBe(false);
  });

  it('sends a file edited between two calls whole again', async () => {
    const path = join(project, 'src/money.ts');
    const before = await explore('formatMoney sumMoney addMoney');
    const token = before.read.token!;
    expect(before.read.lines.get('src/money.ts')?.size).toBeGreaterThan(0);
    const original = readFileSync(path, 'utf8');
    writeFileSync(
      path,
      original.replace('Money in integer minor units', 'Money in whole minor units'),
    );
    try {
      // Wait until Codegraph's watcher has seen the edit (asked from throwaway contexts).
      let seen = false;
      for (let i = 0; i < 100 && !seen; i++) {
        seen = (await explore('formatMoney sumMoney addMoney')).text.includes(
          'Money in whole minor units',
        );
        if (!seen) await new Promise((r) => setTimeout(r, 200));
      }
      expect(seen).toBe(true);
      const again = await explore('formatMoney sumMoney addMoney', { context: token });
      expect(again.read.pointers.map((p) => p.path)).not.toContain('src/money.ts');
      expect(again.read.lines.get('src/money.ts')).toEqual(
        new Map(
          [...before.read.lines.get('src/money.ts')!].map(([n, t]) => [
            n,
            n === 2 ? t.replace('integer', 'whole') : t,
          ]),
        ),
      );
    } finally {
      writeFileSync(path, original);
    }
  });

  it('re-renders codegraph_node too: a window of a file read again in one context is the pointer', async () => {
    const call = (extra: Record<string, unknown>) =>
      proxy.client.callTool({
        name: 'codegraph_node',
        arguments: { file: 'src/checkout.ts', ...extra },
      });
    const first = readResponse(textOf(await call({})));
    expect(first.lines.get('src/checkout.ts')?.size).toBeGreaterThan(40);
    const again = readResponse(textOf(await call({ context: first.token, offset: 40, limit: 30 })));
    expect(again.number).toBe(2);
    expect(again.pointers).toEqual([
      { path: 'src/checkout.ts', calls: [1], spans: [{ start: 40, end: 69 }] },
    ]);
    expect(again.lines.get('src/checkout.ts')?.size ?? 0).toBe(0);
  });
});
