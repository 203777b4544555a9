/**
 * The proxy inside the real Claude Code (the pinned native binary, run with
 * `-p` against `bench:harness`'s scripted model on 127.0.0.1): one short
 * session — a main agent, a subagent through Claude Code's `Agent` tool, one
 * compaction forced by a 400 "prompt is too long" — with the hooks
 * `span-ledger-proxy install claude --project` writes into a temporary
 * project, and a model that never echoes the context token. Everything is
 * read from the request bodies Claude Code sent (bench/harness/requests.ts).
 * About 30 s on 2 cores, most of it Claude Code and Codegraph starting.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../bench/harness/agent.js';
import { type HarnessFigures, measure } from '../bench/harness/requests.js';
import { prepareProject, runArm, SERVER, type SessionRun } from '../bench/harness/session.js';
import { REPO } from './_bin.js';

/** Queries that overlap on the sample project, so later answers have pointers to cite. */
const PLAN: Plan = {
  main: [
    { query: 'Cart addItem total' },
    { query: 'checkout payment Cart' },
    { agent: true },
    { overflow: true },
    { query: 'Cart addItem scaleMoney' },
  ],
  sub: [{ query: 'Cart addItem total' }, { query: 'checkout payment' }],
};

let scratch = '';
let run: SessionRun;
let figures: HarnessFigures;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'proxy-harness-'));
  const project = prepareProject(scratch, { src: join(REPO, 'fixtures/sample/src') });
  run = await runArm(
    { name: 'h', proxied: true, echo: false, hooks: true },
    { project, plan: PLAN, compaction: 'error', timeoutMs: 50_000, maxRequests: 30 },
  );
  figures = measure(run.log, SERVER, run.root);
}, 60_000);

afterAll(() => {
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
});

describe('Claude Code with the hooks the installer writes, and a model that never echoes', () => {
  it('runs the whole session: main calls, subagent calls, one compaction, pointers to read', () => {
    expect(run.status, run.output).toBe(0);
    expect(figures.mainCalls).toBeGreaterThanOrEqual(3);
    expect(figures.subCalls).toBe(2);
    expect(figures.compactions).toBe(1);
    expect(figures.pointers).toBeGreaterThan(0);
  });

  it('no pointer is stale: not in the subagent, not after the compaction, not before it', () => {
    expect({
      sub: figures.staleInSubagent,
      after: figures.staleAfterCompaction,
      before: figures.staleUncompacted,
    }).toEqual({ sub: 0, after: 0, before: 0 });
  });

  it('the model received every line a pointer cites, those of the kept result included', () => {
    expect(figures.citedMissing).toBe(0);
    expect(figures.keptLost).toBe(0);
  });
});
