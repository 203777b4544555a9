/**
 * The MCP explore example (examples/mcp-explore) as a host runs it: a real
 * subprocess, driven by the official SDK client over stdio and over
 * Streamable HTTP. What it proves is the embedding, not the planner: each
 * client session gets its own history, a client cannot forge one, the switch
 * turns dedup off, and an edited file is never withheld.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/hash/fingerprint.js';
import type { SessionView } from '../../src/ledger/types.js';
import {
  body,
  connectHttp,
  type Daemon,
  endSession,
  expectVerbatim,
  explore,
  FIXTURE,
  hasPointer,
  RESTOCK,
  STOCK,
  sections,
  sentLines,
  startDaemon,
  startStdio,
  useExample,
  WIDE,
} from './_mcp-explore.js';

useExample();

let scratch: string | undefined;
afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

/** The first and second `WIDE` call of a stdio session on the bundled fixture. */
let first = '';
let second = '';

describe('over stdio', () => {
  it('points at what the first call sent and brings source it did not', async () => {
    const server = await startStdio();
    first = await explore(server.client, { query: WIDE });
    second = await explore(server.client, { query: WIDE });

    expect(hasPointer(first)).toBe(false);
    expect(sections(first).length).toBeGreaterThanOrEqual(3);
    expectVerbatim(first, FIXTURE);
    expectVerbatim(second, FIXTURE);

    const before = sentLines(first);
    const again = sections(second);
    expect(again.filter((s) => s.pointer).length).toBeGreaterThanOrEqual(2);
    // New source: lines the first call's budget left out.
    const fresh = [...sentLines(second)].filter((l) => !before.has(l));
    expect(fresh.length).toBeGreaterThan(20);
    // Every span a pointer names was really in the first response.
    for (const s of again) {
      for (const r of s.pointed) {
        for (let n = r.start; n <= r.end; n++) expect(before.has(`${s.path}:${n}`)).toBe(true);
      }
    }
    // Stdout carried protocol only; logs went to stderr.
    expect(server.faults).toEqual([]);
    expect(server.stderr()).toContain('dedup on');
  });

  it('ignores a view the client put in the arguments', async () => {
    // A view claiming every line of every fixture file was served, with the
    // files' real fingerprints: trusted, it would turn the answer into pointers.
    const names = ['src/cart.ts', 'src/catalog.ts', 'src/checkout.ts', 'src/money.ts'];
    const files = names.map((path) => {
      const content = readFileSync(join(FIXTURE, path), 'utf8');
      const end = content.split('\n').length;
      return {
        path,
        ranges: [{ start: 1, end }],
        chars: content.length,
        fingerprint: fingerprint(content),
      };
    });
    const call = {
      projectRoot: FIXTURE,
      query: WIDE,
      files,
      sourceChars: 9999,
      responseChars: 9999,
    };
    const forged: SessionView = {
      version: 1,
      projects: [
        { projectRoot: FIXTURE, callCount: 1, responseChars: 9999, calls: [{ ...call, index: 1 }] },
      ],
    };

    const server = await startStdio({ EXPLORE_ROOT: FIXTURE });
    const text = await explore(server.client, { query: WIDE, _spanLedgerView: forged });
    // The strict input schema drops the key before the handler sees it (the
    // handler's own defence is tested in mcp-explore.handler.test.ts).
    expect(text).toBe(first);
    // Nor did the forged view enter the session's ledger: the next call is an honest second call.
    expect(await explore(server.client, { query: WIDE, _spanLedgerView: forged })).toBe(second);
  });

  it('renders every call as a first call with SPAN_LEDGER_DEDUP=0', async () => {
    const server = await startStdio({ SPAN_LEDGER_DEDUP: '0' });
    const texts = [];
    for (const query of [WIDE, STOCK, WIDE, WIDE])
      texts.push(await explore(server.client, { query }));
    expect(server.stderr()).toContain('dedup off');
    expect(texts.some(hasPointer)).toBe(false);
    expect(texts[0]).toBe(first);
    expect(body(texts[2]!)).toBe(body(first));
    expect(body(texts[3]!)).toBe(body(first));
  });

  it('re-sends a file whole when it was edited between two calls', async () => {
    scratch = mkdtempSync(join(tmpdir(), 'span-ledger-mcp-'));
    cpSync(FIXTURE, scratch, { recursive: true });
    const server = await startStdio({ EXPLORE_ROOT: scratch });
    const one = await explore(server.client, { query: WIDE });
    expect(one).toBe(first);
    const sentMoney = sections(one).find((s) => s.path === 'src/money.ts');
    expect(sentMoney?.lines.length).toBeGreaterThan(8);

    // Same line count, different bytes: only the fingerprint can tell.
    const path = join(scratch, 'src/money.ts');
    const edited = readFileSync(path, 'utf8').replace('cannot combine', 'refusing to combine');
    expect(edited).not.toBe(readFileSync(path, 'utf8'));
    writeFileSync(path, edited);

    const two = await explore(server.client, { query: WIDE });
    const money = sections(two).find((s) => s.path === 'src/money.ts');
    expect(money?.pointer).toBe(false);
    const shown = new Set(money?.lines.map((l) => l.line));
    for (const l of sentMoney?.lines ?? []) expect(shown.has(l.line)).toBe(true);
    expectVerbatim(two, scratch);
    // The files that did not change are still pointed at.
    expect(sections(two).filter((s) => s.pointer).length).toBeGreaterThanOrEqual(1);
  });
});

describe('over HTTP, many clients on one daemon', () => {
  let daemon: Daemon;
  let url = '';

  beforeAll(async () => {
    daemon = await startDaemon();
    url = daemon.url;
  });

  it("never shows a client another client's history", async () => {
    const a = await connectHttp(url);
    const aFirst = await explore(a, { query: WIDE });
    const aSecond = await explore(a, { query: WIDE });
    expect(hasPointer(aSecond)).toBe(true);
    await explore(a, { query: STOCK });

    // B connects while A is still connected and has been served plenty.
    const b = await connectHttp(url);
    const bFirst = await explore(b, { query: WIDE });
    expect(bFirst).toBe(aFirst);
    expect(bFirst).toBe(first); // and the same bytes as a first call over stdio
    expect(hasPointer(bFirst)).toBe(false);
    // A's history is still A's.
    expect(hasPointer(await explore(a, { query: WIDE }))).toBe(true);
  });

  it('keeps interleaved calls of two clients apart on the shared worker pool', async () => {
    const seqX = [WIDE, STOCK, WIDE, RESTOCK];
    const seqY = [STOCK, RESTOCK, STOCK, WIDE];
    const x = await connectHttp(url);
    const y = await connectHttp(url);
    const gotX: string[] = [];
    const gotY: string[] = [];
    // Each step sends X's and Y's calls at the same time: both workers busy, one
    // worker may answer X then Y, the other Y then X.
    for (let i = 0; i < seqX.length; i++) {
      const [tx, ty] = await Promise.all([
        explore(x, { query: seqX[i]! }),
        explore(y, { query: seqY[i]! }),
      ]);
      gotX.push(tx);
      gotY.push(ty);
    }

    // The same sequences, each run alone by a fresh client.
    const solo = async (seq: readonly string[]): Promise<string[]> => {
      const c = await connectHttp(url);
      const out: string[] = [];
      for (const query of seq) out.push(await explore(c, { query }));
      return out;
    };
    const aloneX = await solo(seqX);
    const aloneY = await solo(seqY);
    expect(gotX).toEqual(aloneX);
    expect(gotY).toEqual(aloneY);
    // History mattered (later calls point back), so equality is not trivial.
    expect(aloneX.slice(1).some(hasPointer)).toBe(true);
    expect(aloneY.slice(1).some(hasPointer)).toBe(true);
  });

  it('drops a session, ledger and all, when the client ends it', async () => {
    const c = await connectHttp(url);
    await explore(c, { query: WIDE });
    const opened = Number(
      /session opened \((\d+) open\)\n(?![\s\S]*session opened)/.exec(daemon.log())?.[1],
    );
    await endSession(c);
    expect(daemon.log()).toContain(`session closed (${opened - 1} open)`);
    // The id is gone with it: the server no longer answers for that session.
    await expect(c.callTool({ name: 'explore', arguments: { query: WIDE } })).rejects.toThrow();
  });
});
