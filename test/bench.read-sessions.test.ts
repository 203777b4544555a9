/**
 * The read benchmark's arms on two of its sessions (a sliding window over
 * zod's schemas, whole-file re-reads): span-ledger never stands a pointer in
 * for a line the agent was not sent and never withholds one that carries
 * code, while the whole-file stub does both on a window it never sent, and the
 * exact-key stub re-sends what overlapping windows share.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type ReadRow, runReads } from '../bench/reads/run.js';
import { loadReadFiles, READ_SESSIONS } from '../bench/reads/sessions.js';

let sliding: ReadRow;
let rereads: ReadRow;

beforeAll(() => {
  const files = loadReadFiles();
  const pick = (name: string) => READ_SESSIONS.find((s) => s.name === name)!;
  const rows = runReads([pick('zod-sliding-window'), pick('whole-file-rereads')], files);
  sliding = rows[0]!;
  rereads = rows[1]!;
});

describe('read sessions', () => {
  it('span-ledger sends no wrong stub and withholds no unseen line that carries code', () => {
    for (const row of [sliding, rereads]) {
      expect(row.arms['span-ledger'].wrongStubs, row.session).toBe(0);
      expect(row.arms['span-ledger'].withheldNonTrivial, row.session).toBe(0);
      expect(row.arms['span-ledger'].duplicateShare, row.session).toBeLessThanOrEqual(0.01);
    }
  });

  it('a whole-file stub answers a window it never sent with a stub', () => {
    expect(sliding.arms['whole-file-stub'].wrongStubs).toBeGreaterThan(0);
    expect(sliding.arms['whole-file-stub'].withheldNonTrivial).toBeGreaterThan(100);
  });

  it('an exact-key stub re-sends the lines overlapping windows share; span-ledger does not', () => {
    const exact = sliding.arms['exact-key-stub'];
    expect(exact.wrongStubs).toBe(0);
    expect(exact.duplicateShare).toBeGreaterThan(0.3);
    expect(sliding.arms['span-ledger'].responseChars).toBeLessThan(exact.responseChars);
  });

  it('an unchanged whole-file re-read costs no more than the stub strategies', () => {
    const sl = rereads.arms['span-ledger'].responseChars;
    expect(sl).toBeLessThanOrEqual(rereads.arms['exact-key-stub'].responseChars);
    expect(sl).toBeLessThanOrEqual(rereads.arms['whole-file-stub'].responseChars);
    expect(sl).toBeLessThan(rereads.arms['no-dedup'].responseChars / 2);
  });
});
