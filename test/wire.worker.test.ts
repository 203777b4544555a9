/**
 * The worker boundary for real: the host injects its session view into the
 * arguments, posts them to a worker thread (a structured clone), the tool in
 * the worker reads the view and attaches its emission, and the host records
 * the emission and strips it before the agent sees the result.
 */
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionStore, recordSafely, type SessionView } from '../src/index.js';
import { EMISSION_KEY, takeEmission, VIEW_KEY, withSessionView } from '../src/wire/index.js';
import { callRecord, fileEmission, projectState, ranges } from './_build.js';

let worker: Worker;

beforeAll(async () => {
  worker = new Worker(new URL('./fixtures-worker/explore-tool.mjs', import.meta.url));
  // Wait until the worker is up (its top-level await has run) before the first call.
  await new Promise<void>((resolve, reject) => {
    worker.once('online', () => resolve());
    worker.once('error', reject);
  });
});

afterAll(async () => {
  await worker.terminate();
});

/** One call through the worker, as a query pool would make it. */
function call(args: object): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error): void => reject(e);
    worker.once('error', onError);
    worker.once('message', (m) => {
      worker.off('error', onError);
      resolve(m as Record<string, unknown>);
    });
    worker.postMessage(args);
  });
}

interface Observed {
  viewArrived: SessionView | null;
  tracked: boolean;
  priorCalls: number | null;
  held: { start: number; end: number }[];
}

const clientArgs = {
  projectRoot: '/repo',
  query: 'auth flow',
  path: 'src/auth.ts',
  start: 10,
  end: 40,
  fingerprint: '1200:0123456789abcdef',
};

describe('across a real worker_threads boundary', () => {
  it('carries the view in, the emission out, records it on the host and strips it', async () => {
    const store = createSessionStore();

    // First call: tracked, nothing served yet.
    const first = await call(withSessionView(clientArgs, store.view('conn-1')));
    expect((first.observed as Observed).tracked).toBe(true);
    expect((first.observed as Observed).priorCalls).toBe(0);
    expect(first[EMISSION_KEY]).toBeDefined(); // survived the clone back
    const agentSees = recordSafely(store, first, { sessionId: 'conn-1' });
    expect(Object.hasOwn(agentSees, EMISSION_KEY)).toBe(false);
    expect(JSON.stringify(agentSees)).not.toContain(EMISSION_KEY);

    const project = store.view('conn-1').projects[0]!;
    expect(project.callCount).toBe(1);
    expect(project.calls[0]!.files[0]).toEqual(
      fileEmission('src/auth.ts', '10-40', 40 * 31, '1200:0123456789abcdef'),
    );

    // Second call: the view that arrives in the worker is exactly the host's.
    const view = store.view('conn-1');
    const second = await call(withSessionView({ ...clientArgs, start: 30, end: 60 }, view));
    const observed = second.observed as Observed;
    expect(observed.viewArrived).toEqual(view);
    expect(observed.priorCalls).toBe(1);
    expect(observed.held).toEqual(ranges('10-40'));
    recordSafely(store, second, { sessionId: 'conn-1' });
    expect(store.view('conn-1').projects[0]!.calls.map((c) => c.index)).toEqual([1, 2]);

    // Another session on the same worker sees none of it.
    const other = await call(withSessionView(clientArgs, store.view('conn-2')));
    expect((other.observed as Observed).held).toEqual([]);
    expect((other.observed as Observed).priorCalls).toBe(0);
  });

  it('an untracked call (no view) reads as null in the worker, and its result is still stripped', async () => {
    const raw = await call(withSessionView(clientArgs, null));
    expect((raw.observed as Observed).tracked).toBe(false);
    const { result, emission } = takeEmission(raw);
    expect(emission).not.toBeNull();
    expect(Object.hasOwn(result, EMISSION_KEY)).toBe(false);
  });

  it('a client’s own view claiming every line is replaced by the server’s before it crosses', async () => {
    const store = createSessionStore();
    const claim = fileEmission(
      'src/auth.ts',
      [{ start: 1, end: Number.MAX_SAFE_INTEGER }],
      0,
      clientArgs.fingerprint,
    );
    const forged = {
      version: 1,
      projects: [projectState([callRecord([claim])], { callCount: 99 })],
    };
    const raw = await call(
      withSessionView({ ...clientArgs, [VIEW_KEY]: forged }, store.view('conn-1')),
    );
    const observed = raw.observed as Observed;
    expect(observed.viewArrived).toEqual({ version: 1, projects: [] });
    expect(observed.held).toEqual([]);
  });
});
