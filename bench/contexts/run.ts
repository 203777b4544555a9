/**
 * The context simulator: runs the fixed script (`script.ts`) of every
 * sequence against every arm's host (`hosts.ts`) with a scripted agent that
 * keeps a context of whole responses (`context.ts`) and follows one recovery
 * rule, and counts what each context really received.
 *
 * Which lines a pointer stands for and which responses it cites are read from
 * the plans (`FilePlan.covered`, `coveredBy`); what the agent is charged for
 * is the rendered text. Pure: the same sequences give the same figures.
 */
import type { ProjectFile, RecordedSequence } from '../../src/cli/replay.js';
import type { CallPlan } from '../../src/dedup/plan-call.js';
import { fingerprint } from '../../src/hash/fingerprint.js';
import type { LineRange } from '../../src/ranges/range.js';
import { o200kCount } from '../../test/_token-corpus.js';
import { byArm } from '../_arms.js';
import { lineOffsets } from '../_lines.js';
import {
  type AgentContext,
  compact,
  createContext,
  deliveredLines,
  type HeldItem,
  holdsAll,
  holdsLine,
  holdsResponse,
  lastToken,
} from './context.js';
import { type Answer, ARMS, type ArmName, createHost, type Host } from './hosts.js';
import { type ContextName, contextScript } from './script.js';

/** What one arm did over one sequence (or, summed, over all of them). */
export interface ArmFigures {
  /** Pointers citing lines the asking context did not hold when it got them. */
  readonly stalePointers: number;
  /** The same, in subagent contexts only. */
  readonly subagentStalePointers: number;
  /** Scripted responses that carried at least one stale pointer. */
  readonly staleResponses: number;
  /** Of those, the ones one extra call recovered: its answer carried no stale pointer. */
  readonly recoveredByOneCall: number;
  readonly refreshCalls: number;
  readonly fileReads: number;
  /** Chars of the files read whole. */
  readonly fileReadChars: number;
  /** Calls beyond the script: refreshes and file reads. */
  readonly extraCalls: number;
  /** Every response's text and every file read, in chars. */
  readonly deliveredChars: number;
  /** The same, in o200k tokens. */
  readonly deliveredTokens: number;
  /** Source delivered to a context that still held it. */
  readonly duplicateChars: number;
  /** Distinct source lines each context received, summed over contexts, in chars. */
  readonly uniqueChars: number;
  /** Lines the pointers of a call's last answer (after recovery) stood for that the context lacked. */
  readonly linesLost: number;
}

const counted = new Map<string, number>();

/** o200k's count of `text` (a file read whole comes back many times: counted once). */
function tokensOf(text: string): number {
  let n = counted.get(text);
  if (n === undefined) counted.set(text, (n = o200kCount(text)));
  return n;
}

/** One sequence's row: every arm's result. */
export interface ContextRow {
  readonly sequence: string;
  readonly steps: number;
  readonly arms: Readonly<Record<ArmName, ArmFigures>>;
}

/** Refresh rounds the agent tries for one response before it gives up. */
export const MAX_REFRESH_ROUNDS = 3;

interface Pointer {
  readonly path: string;
  readonly fingerprint: string;
  readonly covered: readonly LineRange[];
  readonly cites: readonly number[];
}

/** The pointers of a plan: every file that renders with one, and what it cites. */
function pointersOf(plan: CallPlan): Pointer[] {
  return plan.files.flatMap((f) =>
    f.render === 'partial' || f.render === 'pointer'
      ? [
          {
            path: f.path,
            fingerprint: f.fingerprint,
            covered: f.covered,
            cites: f.coveredBy,
          },
        ]
      : [],
  );
}

/** The source a plan sends, per file. */
function sentOf(plan: CallPlan) {
  return plan.files.flatMap((f) =>
    f.render === 'skipped' || f.emit.length === 0
      ? []
      : [{ path: f.path, fingerprint: f.fingerprint, spans: f.emit }],
  );
}

/** Simulates one arm over one sequence. */
export function simulateArm(
  arm: ArmName,
  sequence: RecordedSequence,
  project: ReadonlyMap<string, ProjectFile>,
): ArmFigures {
  const host: Host = createHost(arm, {
    project,
    projectRoot: `/contexts/${sequence.name}`,
    budget: sequence.budget,
  });
  const offsets = new Map<string, number[]>();
  const charsOfLine = (path: string, line: number) => {
    let o = offsets.get(path);
    if (!o) offsets.set(path, (o = lineOffsets(project.get(path)?.content ?? '')));
    return (o[line] ?? 0) - (o[line - 1] ?? 0);
  };

  const contexts: Record<ContextName, AgentContext> = {
    parent: createContext('parent'),
    subagent: createContext('subagent'),
  };
  const everSeen: Record<ContextName, Set<string>> = { parent: new Set(), subagent: new Set() };
  let stalePointers = 0;
  let subagentStalePointers = 0;
  let staleResponses = 0;
  let recoveredByOneCall = 0;
  let refreshCalls = 0;
  let fileReads = 0;
  let fileReadChars = 0;
  let deliveredChars = 0;
  let deliveredTokens = 0;
  let duplicateChars = 0;
  let uniqueChars = 0;
  let linesLost = 0;

  /** Takes a delivered item into `name`'s context, charging duplicates and counting unique lines. */
  const take = (
    name: ContextName,
    item: HeldItem,
    files: readonly { path: string; fingerprint: string; spans: readonly LineRange[] }[],
    text: string,
  ) => {
    const ctx = contexts[name];
    deliveredChars += text.length;
    deliveredTokens += tokensOf(text);
    for (const f of files) {
      for (const s of f.spans) {
        for (let n = s.start; n <= s.end; n++) {
          const c = charsOfLine(f.path, n);
          if (holdsLine(ctx, f.path, f.fingerprint, n)) duplicateChars += c;
          const key = `${f.path}\0${f.fingerprint}\0${n}`;
          if (!everSeen[name].has(key)) {
            everSeen[name].add(key);
            uniqueChars += c;
          }
        }
      }
    }
    ctx.items.push(item);
  };

  /** Receives an answer; returns its stale pointers (judged against the context before it). */
  const receive = (name: ContextName, answer: Answer): Pointer[] => {
    const ctx = contexts[name];
    const stale = pointersOf(answer.plan).filter(
      (p) => !holdsAll(ctx, p.path, p.fingerprint, p.covered),
    );
    stalePointers += stale.length;
    if (name === 'subagent') subagentStalePointers += stale.length;
    const sent = sentOf(answer.plan);
    take(
      name,
      {
        kind: 'response',
        ref: answer.number === null ? null : `${answer.bucket}#${answer.number}`,
        token: answer.token,
        lines: deliveredLines(sent),
      },
      sent,
      answer.text,
    );
    return stale;
  };

  /** The agent reads `path` whole (the only way back a tool without `refresh` leaves). */
  const readWhole = (name: ContextName, path: string) => {
    const content = project.get(path)?.content ?? '';
    const fp = fingerprint(content);
    const spans = [{ start: 1, end: lineOffsets(content).length - 1 }];
    fileReads += 1;
    fileReadChars += content.length;
    const files = [{ path, fingerprint: fp, spans }];
    take(
      name,
      { kind: 'read', ref: null, token: null, lines: deliveredLines(files) },
      files,
      content,
    );
  };

  for (const step of contextScript(sequence)) {
    const ctx = contexts[step.context];
    if (step.kind === 'compact') {
      host.compacted(step.context, compact(ctx));
      continue;
    }
    const asked = (refresh?: readonly number[]) =>
      host.answer(step.call, { context: step.context, token: lastToken(ctx), refresh });
    let answer = asked();
    let stale = receive(step.context, answer);
    const firstStale = stale;
    let extra = 0;
    if (host.recovery === 'refresh') {
      // The rule: a pointer citing a response the context does not hold is answered with one
      // `refresh` naming every such response of the answer.
      for (let round = 0; round < MAX_REFRESH_ROUNDS; round++) {
        const bucket = answer.bucket;
        const missing = [
          ...new Set(
            pointersOf(answer.plan).flatMap((p) =>
              p.cites.filter((n) => !holdsResponse(ctx, `${bucket}#${n}`)),
            ),
          ),
        ].sort((x, y) => x - y);
        if (missing.length === 0) break;
        refreshCalls += 1;
        extra += 1;
        answer = asked(missing);
        stale = receive(step.context, answer);
      }
    } else if (host.recovery === 'read') {
      for (const path of new Set(stale.map((p) => p.path))) {
        readWhole(step.context, path);
        extra += 1;
      }
    }
    // A hole: what the last answer's pointers stand for and the context still lacks.
    for (const p of stale) {
      for (const s of p.covered) {
        for (let n = s.start; n <= s.end; n++) {
          if (!holdsLine(ctx, p.path, p.fingerprint, n)) linesLost += 1;
        }
      }
    }
    if (firstStale.length > 0) {
      staleResponses += 1;
      if (extra === 1 && stale.length === 0) recoveredByOneCall += 1;
    }
  }

  return {
    stalePointers,
    subagentStalePointers,
    staleResponses,
    recoveredByOneCall,
    refreshCalls,
    fileReads,
    fileReadChars,
    extraCalls: refreshCalls + fileReads,
    deliveredChars,
    deliveredTokens,
    duplicateChars,
    uniqueChars,
    linesLost,
  };
}

/** Runs every arm over every sequence. */
export function runContexts(
  sequences: readonly RecordedSequence[],
  project: ReadonlyMap<string, ProjectFile>,
): ContextRow[] {
  return sequences.map((sequence) => {
    const arms = byArm(ARMS, (arm) => simulateArm(arm, sequence, project));
    return { sequence: sequence.name, steps: contextScript(sequence).length, arms };
  });
}

/** Sums one arm over every row. */
export function totalOf(rows: readonly ContextRow[], arm: ArmName): ArmFigures {
  const sum = Object.fromEntries(
    Object.keys(rows[0]?.arms[arm] ?? {}).map((k) => [k, 0]),
  ) as Record<keyof ArmFigures, number>;
  for (const row of rows) {
    const r = row.arms[arm];
    for (const k of Object.keys(r) as (keyof ArmFigures)[]) sum[k] += r[k];
  }
  return sum;
}
