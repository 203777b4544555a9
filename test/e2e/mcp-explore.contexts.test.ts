/**
 * The MCP example keeps pointers true when one connection carries several
 * agent contexts (a subagent on its parent's connection, a context after
 * compaction). Each response is numbered and carries a context token; the
 * token the agent echoes, or a conversation id the client puts in `_meta`
 * (which takes precedence), picks the ledger bucket; `refresh` brings back the
 * source of responses the context no longer holds. One stdio connection, as a
 * host and its subagents share it, driven by the SDK client.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  body,
  explore,
  hasPointer,
  startStdio,
  tokenOf,
  useExample,
  WIDE,
} from './_mcp-explore.js';

useExample();

let client: Client;
/** The body of a first `WIDE` call: what a context that holds nothing must get. */
let firstBody = '';

beforeAll(async () => {
  ({ client } = await startStdio());
  const first = await explore(client, { query: WIDE }, null);
  expect(hasPointer(first)).toBe(false);
  firstBody = body(first);
});

/** A parent context keyed by its token: two `WIDE` calls, the second pointing back. */
async function parentByToken(): Promise<{ token: string; second: string }> {
  const one = await explore(client, { query: WIDE }, null);
  const token = tokenOf(one);
  expect(token).toMatch(/^[a-z0-9]{8}$/);
  const second = await explore(client, { query: WIDE, context: token }, null);
  expect(tokenOf(second)).toBe(token);
  expect(second.startsWith('Response #2/tag ')).toBe(true);
  expect(hasPointer(second)).toBe(true);
  return { token: token!, second };
}

describe('the server tells the agent how to read pointers', () => {
  it('says what a pointer means, when to pass refresh, and to echo context', async () => {
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toMatch(/pointer/);
    expect(instructions).toMatch(/refresh: \[its number\]/);
    expect(instructions).toMatch(/"context"/);
    expect(instructions.split(/(?<=\.) /).length).toBeLessThanOrEqual(3);
    const { tools } = await client.listTools();
    const schema = tools.find((t) => t.name === 'explore')?.inputSchema;
    expect(Object.keys(schema?.properties ?? {}).sort()).toEqual(['context', 'query', 'refresh']);
    expect(schema?.required).toEqual(['query']);
  });
});

describe('a second context on the same connection', () => {
  it('that echoes a token but lost the source gets a pointer, asks refresh, and gets the source in full', async () => {
    const { token } = await parentByToken();
    // A subagent handed the parent's token (or the parent after compaction): the ledger
    // says its bucket was sent this source, so it gets pointers it cannot follow.
    const pointed = await explore(client, { query: WIDE, context: token }, null);
    expect(hasPointer(pointed)).toBe(true);
    expect(pointed.startsWith('Response #3/tag ')).toBe(true);

    // It asks for those responses again: the source comes back whole, with no pointer.
    const again = await explore(client, { query: WIDE, context: token, refresh: [1, 2, 3] }, null);
    expect(hasPointer(again)).toBe(false);
    expect(body(again)).toBe(firstBody);
    // And the ledger now claims only what this response sent: the next call points at #4.
    const next = await explore(client, { query: WIDE, context: token }, null);
    expect(hasPointer(next)).toBe(true);
  });

  it('that does not echo the parent token gets the source on its first call, and a token of its own', async () => {
    const { token } = await parentByToken();
    const sub = await explore(client, { query: WIDE }, null);
    expect(hasPointer(sub)).toBe(false);
    expect(body(sub)).toBe(firstBody);
    expect(tokenOf(sub)).not.toBe(token);
    expect(sub.startsWith('Response #1/tag ')).toBe(true);
  });

  it('with a distinct conversation id in _meta gets the source on its first call, even with the parent token', async () => {
    const parent = { conversationId: 'parent-conversation' };
    await explore(client, { query: WIDE }, parent);
    expect(hasPointer(await explore(client, { query: WIDE }, parent))).toBe(true);

    const sub = await explore(client, { query: WIDE }, { conversationId: 'subagent-conversation' });
    expect(hasPointer(sub)).toBe(false);
    expect(body(sub)).toBe(firstBody);
    // A conversation id is a key only: no token is printed, and the id itself never is.
    expect(tokenOf(sub)).toBeNull();
    expect(sub).not.toContain('subagent-conversation');

    // The conversation id takes precedence over a token the context echoes.
    const { token } = await parentByToken();
    const vscode = { 'vscode.conversationId': 'another-conversation' };
    const withBoth = await explore(client, { query: WIDE, context: token }, vscode);
    expect(hasPointer(withBoth)).toBe(false);
    expect(body(withBoth)).toBe(firstBody);
  });
});

describe('junk in refresh and context', () => {
  it('reads as absent: the call answers, forgets nothing it was not asked to, and mints a token', async () => {
    const { token } = await parentByToken();
    for (const refresh of ['yes', [0], [1.5], [-1], { calls: [1] }, null]) {
      const text = await explore(client, { query: WIDE, context: token, refresh }, null);
      // Not a refresh: the parent's history still stands, so the call still points back.
      expect(hasPointer(text)).toBe(true);
      // …and a refresh it could not read is said, in one line (null is no refresh at all).
      expect(text.includes('`refresh` was not understood')).toBe(refresh !== null);
    }
    // Non-vacuous: a real refresh of the same bucket does bring everything back.
    const real = await explore(client, { query: WIDE, context: token, refresh: true }, null);
    expect(hasPointer(real)).toBe(false);
    for (const context of ['', 'abc', '../x', 'x'.repeat(65), 42]) {
      const text = await explore(client, { query: WIDE, context }, null);
      expect(body(text)).toBe(firstBody);
      expect(tokenOf(text)).toMatch(/^[a-z0-9]{8}$/);
    }
  });
});
