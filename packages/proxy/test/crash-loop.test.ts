/**
 * After a crash loop (a child that crashed mid-call, a restart that died on
 * `initialize`, a restart that served), nothing of a dead child reaches the
 * next one: no cancellation of a request the dead child was sent, and no
 * "got no answer" line for a handshake that ended with its child. Run on the
 * upstream alone (no client), with a start timeout short enough that a timer
 * left behind would fire inside the test (a few seconds in all).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type Answer, startUpstream, type Upstream } from '../src/upstream.js';
import { PACKAGE } from './_bin.js';
import { testEnv, until } from './_proxy.js';

const FIXTURE = join(PACKAGE, 'test/fixtures/crash-loop.mjs');
/** Short, so that a timer a dead handshake left behind fires within the test. */
const START_TIMEOUT_MS = 2000;

let scratch = '';
let upstream: Upstream | null = null;
const logged: string[] = [];

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'proxy-crash-loop-'));
  logged.length = 0;
});
afterEach(async () => {
  await upstream?.close();
  upstream = null;
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs the loop: crash mid-call, a restart that dies on initialize, a restart that serves. */
async function crashLoop(): Promise<Answer> {
  upstream = await startUpstream({
    command: process.execPath,
    args: [FIXTURE],
    cwd: scratch,
    env: testEnv({
      UPSTREAM_EVENTS: join(scratch, 'events.jsonl'),
      UPSTREAM_STARTS: join(scratch, 'starts'),
    }),
    initialize: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    },
    log: (line) => logged.push(line),
    onNotification: () => {},
    onRequest: async () => ({ result: {} }),
    startTimeoutMs: START_TIMEOUT_MS,
  });
  const crashed = await upstream.request('tools/call', { name: 'crash' }, { timeoutMs: 10_000 });
  expect(crashed).toMatchObject({ failed: 'exited' });
  await until(() => logged.some((line) => line.endsWith('calls fail until it starts')), 10_000);
  const served = await upstream.request('tools/call', { name: 'ok' }, { timeoutMs: 10_000 });
  // Past the start timeout of the handshake that died: a timer it left would have fired by now.
  await new Promise((resolve) => setTimeout(resolve, START_TIMEOUT_MS));
  return served;
}

/** What the fixture's starts read, in order. */
function eventsRead(): { start: number; message: Record<string, unknown> }[] {
  return readFileSync(join(scratch, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

it('a stray cancel never reaches a restarted child', async () => {
  const served = await crashLoop();
  expect(served).toEqual({ result: { content: [{ type: 'text', text: 'ok' }] } });
  const third = eventsRead().filter((e) => e.start === 3);
  expect(third.map((e) => e.message.method)).toEqual([
    'initialize',
    'notifications/initialized',
    'tools/call',
  ]);
});

it('a handshake that died with its child says nothing later: no "got no answer" line', async () => {
  await crashLoop();
  expect(logged.filter((line) => /got no answer/.test(line))).toEqual([]);
  expect(
    logged.filter((line) => /exited \(exit code 1\) before it answered initialize/.test(line)),
  ).toHaveLength(1);
});
