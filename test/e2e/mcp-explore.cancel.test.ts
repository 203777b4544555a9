/**
 * The MCP example records only what goes out: a call the client cancelled
 * (the SDK's `notifications/cancelled`) or abandoned (a reset socket) leaves
 * the session's ledger as it was, whether it was still queued behind a busy
 * pool or already rendering. The next identical call then sends everything a
 * first call sends.
 *
 * One worker, and a worker that can be told to take its time (`slow:`), make
 * "queued behind a busy pool" and "cancelled while rendering" happen on cue.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  body,
  CONVERSATION,
  callToHangUp,
  connectHttp,
  explore,
  type FaultyDaemon,
  hasPointer,
  rawSession,
  rawText,
  sleep,
  startFaultyDaemon,
  useExample,
  WIDE,
} from './_mcp-explore.js';

useExample();

const SLOW_MS = 600;
let daemon: FaultyDaemon;
/** A first `WIDE` call of a fresh session: what an unrecorded call must leave the next one to send. */
let firstCall = '';

beforeAll(async () => {
  daemon = await startFaultyDaemon(SLOW_MS);
  firstCall = daemon.firstCall;
  expect(hasPointer(firstCall)).toBe(false);
});

/** Starts a slow call; resolves once the worker has begun it, with the call's own promise. */
async function slowCall(client: Client, query: string, signal?: AbortSignal) {
  const call = client.callTool(
    { name: 'explore', arguments: { query: `slow:${query}` }, _meta: CONVERSATION },
    undefined,
    signal === undefined ? {} : { signal },
  );
  await daemon.slowCallStarted();
  return { call };
}

/**
 * Keeps the one worker busy for SLOW_MS with another session's call, and
 * resolves once it is running; `busy` settles when that call is done.
 */
async function occupyPool(): Promise<{ busy: Promise<unknown> }> {
  const { call } = await slowCall(await connectHttp(daemon.url), 'zzz');
  return { busy: call };
}

describe('a call cancelled through the SDK', () => {
  it('records nothing when it was cancelled while queued behind a busy pool', async () => {
    const client = await connectHttp(daemon.url);
    const { busy } = await occupyPool();
    const cancel = new AbortController();
    const call = client.callTool(
      { name: 'explore', arguments: { query: WIDE }, _meta: CONVERSATION },
      undefined,
      { signal: cancel.signal },
    );
    await sleep(300); // it reaches the daemon and waits behind the busy worker
    cancel.abort();
    await expect(call).rejects.toThrow();
    await busy;
    // Time for the cancelled call to have run and been recorded, had it not been dropped.
    await sleep(200);

    expect(body(await explore(client, { query: WIDE }))).toBe(body(firstCall));
    // The session records again once a call goes out: the one after that points back.
    expect(hasPointer(await explore(client, { query: WIDE }))).toBe(true);
  });

  it('records nothing when it was cancelled while its worker was rendering it', async () => {
    const client = await connectHttp(daemon.url);
    const cancel = new AbortController();
    const { call } = await slowCall(client, WIDE, cancel.signal);
    cancel.abort();
    await expect(call).rejects.toThrow();
    // The worker finishes the call it was given; its answer is dropped, not recorded.
    await sleep(SLOW_MS);

    expect(body(await explore(client, { query: WIDE }))).toBe(body(firstCall));
    expect(hasPointer(await explore(client, { query: WIDE }))).toBe(true);
  });
});

describe('a call whose client reset the socket', () => {
  it('records nothing when the socket closed while the call was queued', async () => {
    const raw = await rawSession(daemon.url);
    const { busy } = await occupyPool();
    const exchange = callToHangUp(daemon.url, WIDE, { sid: raw.sid });
    await sleep(300); // it reaches the daemon and waits behind the busy worker
    exchange.hangUp();
    await exchange.closed;
    await busy;
    // Time for the cancelled call to have run and been recorded, had it not been dropped.
    await sleep(200);

    expect(body(rawText(await raw.call({ query: WIDE })))).toBe(body(firstCall));
    expect(hasPointer(rawText(await raw.call({ query: WIDE })))).toBe(true);
  });

  it('records nothing when the socket closed while the call was rendering', async () => {
    const raw = await rawSession(daemon.url);
    const exchange = callToHangUp(daemon.url, `slow:${WIDE}`, { sid: raw.sid });
    await daemon.slowCallStarted();
    exchange.hangUp();
    await exchange.closed;
    await sleep(SLOW_MS);

    expect(body(rawText(await raw.call({ query: WIDE })))).toBe(body(firstCall));
    expect(hasPointer(rawText(await raw.call({ query: WIDE })))).toBe(true);
    // The daemon stayed up through all of it.
    expect(daemon.proc.exitCode).toBeNull();
  });
});
