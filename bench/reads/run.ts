/**
 * The read benchmark: every session (`sessions.ts`) in four arms that differ
 * only in what they decide to send — no dedup; an exact-key stub (same path,
 * offset and limit on unchanged content); a whole-file stub (any read of an
 * unchanged file read before); span-ledger (`planRead` against a
 * `READ_TOOL_LIMITS` store). Every arm renders with `renderRead`, so a stub
 * is span-ledger's own pointer text for a fully held read.
 *
 * The agent keeps everything it was sent (no compaction here: that is
 * `bench:contexts`). A line is one line of one content: after an edit the
 * agent's copy of the file is stale, so a re-send of it is not a duplicate.
 */
import {
  createEmissionRecorder,
  formatResponseHeader,
  type RenderablePlan,
  renderRead,
} from '../../src/adapter/index.js';
import {
  createSessionStore,
  describeSession,
  fingerprint,
  planRead,
  READ_TOOL_LIMITS,
} from '../../src/index.js';
import type { LineRange } from '../../src/ranges/range.js';
import { o200kCount } from '../../test/_token-corpus.js';
import { byArm } from '../_arms.js';
import { lineOffsets } from '../_lines.js';
import type { ReadOp, ReadSession } from './sessions.js';

/** The arms, in the order they are printed. */
export const READ_ARMS = ['no-dedup', 'exact-key-stub', 'whole-file-stub', 'span-ledger'] as const;
export type ReadArm = (typeof READ_ARMS)[number];

/** One arm over one session. */
export interface ReadFigures {
  readonly reads: number;
  /** Chars of every response, whole. */
  readonly responseChars: number;
  /** The same, in o200k tokens. */
  readonly responseTokens: number;
  /** Source chars sent (numbered lines). */
  readonly sourceChars: number;
  /** Source chars of lines the agent already held from the same content. */
  readonly duplicateChars: number;
  /** `duplicateChars / sourceChars` (0 when nothing was sent). */
  readonly duplicateShare: number;
  /** Stubs or pointers standing for a line the agent never received. */
  readonly wrongStubs: number;
  /** Lines a read asked for that the agent neither got nor held, and that carry code. */
  readonly withheldNonTrivial: number;
}

/** One session's row. */
export interface ReadRow {
  readonly session: string;
  readonly overlapping: boolean;
  readonly reads: number;
  readonly arms: Readonly<Record<ReadArm, ReadFigures>>;
}

const PROJECT_ROOT = '/reads';

/** A line that carries no code: empty, or only whitespace and `)]};,`. */
const TRIVIAL = /^[\s)\]};,]*$/;

/** Replaces line `line` (1-based) of `content` with `text`. */
function editLine(content: string, line: number, text: string): string {
  const lines = content.split('\n');
  lines[line - 1] = text;
  return lines.join('\n');
}

/** One file of one read call: what was asked and the content it was asked of. */
interface FileRead {
  readonly path: string;
  readonly content: string;
  readonly fingerprint: string;
  /** The window asked for, or `undefined` for the whole file. */
  readonly range: LineRange | undefined;
  /** The exact-key stub's key. */
  readonly key: string;
}

/** A plan as every arm hands it to `renderRead`. */
type ReadPlan = RenderablePlan & { readonly coveredBy: readonly number[] };

/** The window clipped to the file: `[]` when it starts past the last line. */
function windowOf(read: FileRead): LineRange[] {
  const lineCount = lineOffsets(read.content).length - 1;
  const start = read.range?.start ?? 1;
  const end = Math.min(read.range?.end ?? lineCount, lineCount);
  return start <= end ? [{ start, end }] : [];
}

/** What an arm decides for one file, given the call's number. */
type Decide = (read: FileRead, callIndex: number) => ReadPlan;

const full = (read: FileRead): ReadPlan => ({
  path: read.path,
  fingerprint: read.fingerprint,
  render: 'full',
  emit: windowOf(read),
  covered: [],
  coveredBy: [],
});

/**
 * A stub strategy: `keyOf` names what must match an earlier read (on the
 * same content) for the whole window to be answered with a pointer.
 */
function stubArm(keyOf: (read: FileRead) => string): { decide: Decide } {
  const seen = new Map<string, { fingerprint: string; calls: number[] }>();
  return {
    decide(read, callIndex) {
      const key = keyOf(read);
      const before = seen.get(key);
      const held = before !== undefined && before.fingerprint === read.fingerprint;
      const plan: ReadPlan = held
        ? {
            path: read.path,
            fingerprint: read.fingerprint,
            render: 'pointer',
            emit: [],
            covered: windowOf(read),
            coveredBy: [...before.calls].reverse(),
          }
        : full(read);
      seen.set(key, {
        fingerprint: read.fingerprint,
        calls: held ? [...before.calls, callIndex] : [callIndex],
      });
      return plan;
    },
  };
}

/** Runs one arm over one session. */
export function runReadArm(
  arm: ReadArm,
  session: ReadSession,
  installed: ReadonlyMap<string, string>,
): ReadFigures {
  const contents = new Map(installed);
  const store = createSessionStore(READ_TOOL_LIMITS);
  const stub =
    arm === 'exact-key-stub'
      ? stubArm((r) => r.key)
      : arm === 'whole-file-stub'
        ? stubArm((r) => r.path)
        : null;
  const held = new Set<string>();
  const offsets = new Map<string, number[]>();
  let reads = 0;
  let responseChars = 0;
  let responseTokens = 0;
  let sourceChars = 0;
  let duplicateChars = 0;
  let wrongStubs = 0;
  let withheldNonTrivial = 0;

  const fileRead = (path: string, offset?: number, limit?: number): FileRead => {
    const content = contents.get(path)!;
    const range =
      offset === undefined ? undefined : { start: offset, end: offset + (limit ?? 1) - 1 };
    return {
      path,
      content,
      fingerprint: fingerprint(content),
      range,
      key: `${path}\0${offset}\0${limit}`,
    };
  };

  const call = (files: readonly FileRead[]) => {
    reads += 1;
    const prior = store.project(PROJECT_ROOT);
    // Every arm numbers its responses; only span-ledger's numbers come from a ledger.
    const callIndex = arm === 'span-ledger' ? (describeSession(prior)?.callIndex ?? reads) : reads;
    const recorder = createEmissionRecorder({ projectRoot: PROJECT_ROOT, query: 'read' });
    const sections: string[] = [];
    const seenNow: string[] = [];
    for (const read of files) {
      const plan: ReadPlan =
        arm === 'no-dedup'
          ? full(read)
          : stub !== null
            ? stub.decide(read, callIndex)
            : planRead({ path: read.path, content: read.content, range: read.range, prior });
      const single = files.length === 1;
      const { text } = renderRead({
        plan,
        content: read.content,
        recorder,
        callIndex: single ? callIndex : null,
        refresh: true,
      });
      sections.push(single ? text : `${read.path}:\n${text}`);

      // Measured from the plan: what the agent got, what a pointer stood for.
      let o = offsets.get(read.content);
      if (!o) offsets.set(read.content, (o = lineOffsets(read.content)));
      const line = (n: number) => `${read.path}\0${read.fingerprint}\0${n}`;
      const sent = plan.render === 'skipped' ? [] : plan.emit;
      const sentSet = new Set<number>();
      for (const s of sent) {
        for (let n = s.start; n <= s.end; n++) {
          const c = o[n]! - o[n - 1]!;
          sourceChars += c;
          if (held.has(line(n))) duplicateChars += c;
          sentSet.add(n);
          seenNow.push(line(n));
        }
      }
      if (plan.render === 'partial' || plan.render === 'pointer') {
        const wrong = plan.covered.some((s) => {
          for (let n = s.start; n <= s.end; n++) if (!held.has(line(n))) return true;
          return false;
        });
        if (wrong) wrongStubs += 1;
      }
      for (const w of windowOf(read)) {
        for (let n = w.start; n <= w.end; n++) {
          if (sentSet.has(n) || held.has(line(n))) continue;
          const text = read.content.slice(o[n - 1]!, o[n]!).replace(/\n$/, '');
          if (!TRIVIAL.test(text)) withheldNonTrivial += 1;
        }
      }
    }
    const text =
      files.length === 1
        ? sections[0]!
        : `${formatResponseHeader({ callIndex })}\n${sections.join('\n---\n')}`;
    responseChars += text.length;
    responseTokens += o200kCount(text);
    for (const l of seenNow) held.add(l);
    if (arm === 'span-ledger') store.record(recorder.finish(text.length));
  };

  for (const op of session.ops as readonly ReadOp[]) {
    if (op.kind === 'edit') {
      contents.set(op.path, editLine(contents.get(op.path)!, op.line, op.text));
    } else if (op.kind === 'read') {
      call([fileRead(op.path, op.offset, op.limit)]);
    } else {
      call(op.paths.map((p) => fileRead(p)));
    }
  }
  return {
    reads,
    responseChars,
    responseTokens,
    sourceChars,
    duplicateChars,
    duplicateShare: sourceChars === 0 ? 0 : duplicateChars / sourceChars,
    wrongStubs,
    withheldNonTrivial,
  };
}

/** Runs every arm over every session. */
export function runReads(
  sessions: readonly ReadSession[],
  installed: ReadonlyMap<string, string>,
): ReadRow[] {
  return sessions.map((session) => {
    const arms = byArm(READ_ARMS, (arm) => runReadArm(arm, session, installed));
    return {
      session: session.name,
      overlapping: session.overlapping,
      reads: arms['no-dedup'].reads,
      arms,
    };
  });
}

/** A target's verdict for one session. */
export interface ReadVerdict {
  readonly target: string;
  readonly met: boolean;
  readonly detail: string;
}

/**
 * The targets of one session: span-ledger has 0 wrong stubs and 0 withheld
 * non-trivial lines, a duplicate share ≤ 1%, no more response chars than a
 * stub strategy that is correct on the session (0 wrong stubs, 0 withheld),
 * and fewer than each such strategy where windows overlap.
 */
export function readVerdicts(row: ReadRow): ReadVerdict[] {
  const sl = row.arms['span-ledger'];
  const out: ReadVerdict[] = [
    { target: '0 wrong stubs', met: sl.wrongStubs === 0, detail: String(sl.wrongStubs) },
    {
      target: '0 withheld non-trivial lines',
      met: sl.withheldNonTrivial === 0,
      detail: String(sl.withheldNonTrivial),
    },
    {
      target: 'duplicate share ≤ 1%',
      met: sl.duplicateShare <= 0.01,
      detail: `${(sl.duplicateShare * 100).toFixed(2)}%`,
    },
  ];
  for (const arm of ['exact-key-stub', 'whole-file-stub'] as const) {
    const s = row.arms[arm];
    if (s.wrongStubs > 0 || s.withheldNonTrivial > 0) continue;
    out.push(
      row.overlapping
        ? {
            target: `fewer chars than ${arm}`,
            met: sl.responseChars < s.responseChars,
            detail: `${sl.responseChars} vs ${s.responseChars}`,
          }
        : {
            target: `chars ≤ ${arm}`,
            met: sl.responseChars <= s.responseChars,
            detail: `${sl.responseChars} vs ${s.responseChars}`,
          },
    );
  }
  return out;
}
