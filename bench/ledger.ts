/**
 * The session ledger's costs: recording into a ledger that has seen 10,000
 * calls against recording into a fresh one (bounded state means the history
 * must not make a call slower), and the ledger's JSON size after those calls
 * against the size its limits allow.
 */
import {
  createLedger,
  type Emission,
  type Ledger,
  type LedgerLimits,
  ledgerReducer,
  projectFromView,
  READ_TOOL_LIMITS,
  sessionView,
} from 'span-ledger';
import { comparePeers, exploreEmission, hexDigits, prng, report } from './_harness.js';

const SESSIONS = ['conn-1', 'conn-2', 'conn-3'];

/** How many evicted entries' counters a ledger keeps (an internal bound; the ledger tests pin it). */
const MAX_EVICTED_COUNTERS = 64;
const ROOTS = ['/work/api', '/work/web', '/work/tools'];

/** A 24-file emission like a ranked explore response, made in `root`. */
function emission(seed: number, root: string): Emission {
  return exploreEmission(seed, {
    projectRoot: root,
    query: `find handler ${seed}`,
    fingerprint: (chars, draw) => `${chars * 3}:${hexDigits(draw, 48)}`,
  });
}

/** The longest string of each kind in the data, which the limits do not bound. */
interface Widths {
  session: number;
  root: number;
  query: number;
  path: number;
  fingerprint: number;
}

/**
 * The JSON size the limits allow for data whose strings are at most `w` long:
 * every bound full, every number at its longest JSON spelling.
 */
function sizeBound(limits: LedgerLimits, w: Widths): number {
  const big = Number.MAX_SAFE_INTEGER; // longest integer a range end or index can be
  const chars = -Number.MAX_VALUE; // longest number spelling (sign kept for margin)
  const s = (n: number) => 'x'.repeat(n);
  const range = { start: big, end: big };
  const file = {
    path: s(w.path),
    ranges: Array.from({ length: limits.maxRangesPerFile }, () => range),
    chars,
    fingerprint: s(w.fingerprint),
    rangesTruncated: true,
  };
  const call = {
    projectRoot: s(w.root),
    query: s(w.query),
    files: Array.from({ length: limits.maxFilesPerCall }, () => file),
    sourceChars: chars,
    responseChars: chars,
    index: big,
  };
  const entry = {
    session: s(w.session),
    key: s(w.root),
    project: {
      projectRoot: s(w.root),
      callCount: big,
      responseChars: chars,
      calls: Array.from({ length: limits.maxCallsRetained }, () => call),
    },
  };
  const counters = { session: s(w.session), key: s(w.root), callCount: big, responseChars: chars };
  return JSON.stringify({
    version: 1,
    limits,
    entries: Array.from({ length: limits.maxProjects }, () => entry),
    evicted: Array.from({ length: MAX_EVICTED_COUNTERS }, () => counters),
  }).length;
}

export function ledgerBench(): boolean {
  // 10,000 calls across three sessions and three projects: more entries than maxProjects.
  const rand = prng(7);
  let full: Ledger = createLedger();
  const widths: Widths = { session: 0, root: 0, query: 0, path: 0, fingerprint: 0 };
  for (let i = 0; i < 10_000; i++) {
    const sessionId = SESSIONS[Math.floor(rand() * SESSIONS.length)]!;
    const e = emission(i, ROOTS[Math.floor(rand() * ROOTS.length)]!);
    widths.session = Math.max(widths.session, sessionId.length);
    widths.root = Math.max(widths.root, e.projectRoot.length);
    widths.query = Math.max(widths.query, e.query.length);
    for (const f of e.files) {
      widths.path = Math.max(widths.path, f.path.length);
      widths.fingerprint = Math.max(widths.fingerprint, f.fingerprint?.length ?? 0);
    }
    full = ledgerReducer(full, { type: 'recorded', emission: e, sessionId });
  }
  const fresh = createLedger();
  const next = emission(10_001, ROOTS[0]!);
  const known = full.entries[0]!; // an entry the next call updates
  const existing = {
    type: 'recorded',
    emission: { ...next, projectRoot: known.key },
    sessionId: known.session ?? undefined,
  } as const;
  const evicting = {
    type: 'recorded',
    emission: { ...next, projectRoot: '/work/new' },
    sessionId: 'conn-9',
  } as const;
  const intoFresh = { type: 'recorded', emission: next, sessionId: 'conn-1' } as const;

  let ok = report(
    'recording a 24-file emission',
    comparePeers([
      {
        name: 'into a ledger after 10,000 calls (known entry)',
        run: () => ledgerReducer(full, existing),
      },
      {
        name: 'into a ledger after 10,000 calls (new entry, evicts)',
        run: () => ledgerReducer(full, evicting),
      },
      { name: 'into a fresh ledger', run: () => ledgerReducer(fresh, intoFresh) },
    ]),
    [
      {
        label: 'after 10,000 calls (known entry) / fresh',
        subject: 'into a ledger after 10,000 calls (known entry)',
        peer: 'into a fresh ledger',
        max: 1.5,
      },
      {
        label: 'after 10,000 calls (new entry, evicts) / fresh',
        subject: 'into a ledger after 10,000 calls (new entry, evicts)',
        peer: 'into a fresh ledger',
        max: 1.5,
      },
    ],
  );

  // Freeze what the ledger hands out, or treat it as foreign when it comes back:
  // the first costs a mark per value; the second, a full read on every call.
  const session = known.session ?? undefined;
  const view = sessionView(full, session);
  const foreignView = JSON.parse(JSON.stringify(view));
  const foreignLedger = JSON.parse(JSON.stringify(full));
  ok &&= report(
    'handing the ledger back to the library',
    comparePeers([
      { name: 'a view it built (frozen, trusted)', run: () => projectFromView(view, known.key) },
      {
        name: 'the same view as foreign data (read)',
        run: () => projectFromView(foreignView, known.key),
      },
      { name: 'recording into a ledger it built', run: () => ledgerReducer(full, existing) },
      {
        name: 'recording into the same ledger from JSON',
        run: () => ledgerReducer(foreignLedger, existing),
      },
    ]),
    [
      {
        label: 'trusted view / foreign view',
        subject: 'a view it built (frozen, trusted)',
        peer: 'the same view as foreign data (read)',
        max: 0.5,
      },
      {
        label: 'own ledger / ledger from JSON',
        subject: 'recording into a ledger it built',
        peer: 'recording into the same ledger from JSON',
        max: 1,
      },
    ],
  );

  // A read tool's session: 256 one-file reads kept and viewed, so the range
  // bounds are what a record walks.
  let reads: Ledger = createLedger(READ_TOOL_LIMITS);
  for (let i = 0; i < 256; i++) {
    const e = emission(20_000 + i, ROOTS[0]!);
    reads = ledgerReducer(reads, {
      type: 'recorded',
      emission: { ...e, files: e.files.slice(0, 1) },
    });
  }
  const oneFile = { ...next, files: next.files.slice(0, 1) };
  const window = sessionView(reads).projects[0]!.calls;
  ok &&= report(
    'recording a one-file read (READ_TOOL_LIMITS)',
    comparePeers([
      {
        name: 'after 256 reads',
        run: () => ledgerReducer(reads, { type: 'recorded', emission: oneFile }),
      },
      {
        // The floor of an immutable window: a fresh, frozen array of its records.
        name: 'copying and freezing the 256-record window',
        run: () => Object.freeze([...window.slice(1), window[0]]),
      },
    ]),
    [
      {
        label: 'after 256 reads / the window copy',
        subject: 'after 256 reads',
        peer: 'copying and freezing the 256-record window',
        max: 6,
      },
    ],
  );

  const size = JSON.stringify(full).length;
  const bound = sizeBound(full.limits, widths);
  const met = size <= bound;
  ok &&= met;
  console.log('\n## ledger JSON size after 10,000 calls');
  console.log(`  entries kept: ${full.entries.length} of ${full.limits.maxProjects} allowed`);
  console.log(`  JSON size:                ${size.toLocaleString('en-US')} chars`);
  console.log(`  bound implied by limits:  ${bound.toLocaleString('en-US')} chars`);
  console.log(
    `  size / bound: ${(size / bound).toFixed(3)} (target ≤ 1) ${met ? 'met' : 'MISSED'}`,
  );
  return ok;
}
