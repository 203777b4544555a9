/**
 * The MCP example's shared handler, called directly with real workers: it
 * does not rely on the tool schema to drop a client's `_spanLedgerView`. Given
 * one that claims every fixture line was served, it answers exactly as a first
 * call, says it discarded the key, and records nothing of the forgery.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/hash/fingerprint.js';
import {
  CONVERSATION,
  type ExamplePool,
  type ExampleResult,
  exampleHandler,
  examplePool,
  FIXTURE,
  hasPointer,
  untagged,
  useExample,
  WIDE,
} from './_mcp-explore.js';

useExample();

let pool: ExamplePool;
beforeAll(async () => {
  pool = await examplePool();
});
afterAll(() => pool.close());

/** A view claiming every line of every fixture file was served, with the files' real fingerprints. */
function forgedView() {
  const names = ['src/cart.ts', 'src/catalog.ts', 'src/checkout.ts', 'src/money.ts'];
  const files = names.map((path) => {
    const content = readFileSync(join(FIXTURE, path), 'utf8');
    return {
      path,
      ranges: [{ start: 1, end: content.split('\n').length }],
      chars: content.length,
      fingerprint: fingerprint(content),
    };
  });
  const call = { projectRoot: FIXTURE, query: WIDE, files, sourceChars: 9999, responseChars: 9999 };
  return {
    version: 1,
    projects: [
      { projectRoot: FIXTURE, callCount: 1, responseChars: 9999, calls: [{ ...call, index: 1 }] },
    ],
  };
}

const textOf = (result: ExampleResult) => untagged(result.content[0]!.text);

describe('the explore handler', () => {
  it("replaces a client's _spanLedgerView with the session's own and records nothing of it", async () => {
    const lines: string[] = [];
    const { handler, createSession } = await exampleHandler(pool, (l) => lines.push(l));
    const honest = createSession();
    const first = textOf(await handler.execute({ query: WIDE }, honest, { meta: CONVERSATION }));
    const second = textOf(await handler.execute({ query: WIDE }, honest, { meta: CONVERSATION }));
    expect(hasPointer(first)).toBe(false);
    expect(hasPointer(second)).toBe(true);

    const forged = createSession();
    const args = { query: WIDE, _spanLedgerView: forgedView() };
    expect(textOf(await handler.execute(args, forged, { meta: CONVERSATION }))).toBe(first);
    expect(lines).toContain('explore: discarded a client-supplied _spanLedgerView');
    expect(textOf(await handler.execute(args, forged, { meta: CONVERSATION }))).toBe(second);
    expect(forged.spans.view(`meta:${CONVERSATION.conversationId}`).projects[0]?.callCount).toBe(2);
  });

  it('records nothing for a call whose signal fired before its answer came back', async () => {
    const { handler, createSession } = await exampleHandler(pool, () => {});
    const session = createSession();
    const cancel = new AbortController();
    const pending = handler.execute({ query: WIDE }, session, {
      signal: cancel.signal,
      meta: CONVERSATION,
    });
    cancel.abort();
    await pending;
    // Its number was taken (no later call prints it again); nothing was recorded under it.
    const [project] = session.spans.view(`meta:${CONVERSATION.conversationId}`).projects;
    expect(project?.callCount).toBe(1);
    expect(project?.calls).toEqual([]);
  });
});
