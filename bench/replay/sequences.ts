/**
 * Deterministic drill-down sequences over the declaration project: each one
 * starts from a seed type and follows the types its declaration references,
 * the way an agent's follow-up questions narrow in while still asking about
 * what it asked before. Each call's ranked candidates exceed its budget, so
 * whatever dedup reclaims has somewhere to go.
 */
import type { RecordedCall, RecordedSequence } from '../../src/cli/replay.js';
import { mergeRanges } from '../../src/ranges/merge.js';
import type { LineRange } from '../../src/ranges/range.js';
import type { DeclarationProject, Definition } from './project.js';

/** A drill-down to generate: a name, the seed type and the number of calls. */
export interface Topic {
  readonly name: string;
  readonly seed: string;
  readonly calls: 3 | 4 | 5;
}

/** The topics of the full replay. */
export const TOPICS: readonly Topic[] = [
  { name: 'array', seed: 'Array', calls: 4 },
  { name: 'promise', seed: 'Promise', calls: 3 },
  { name: 'string', seed: 'String', calls: 4 },
  { name: 'typed-array', seed: 'Uint8Array', calls: 3 },
  { name: 'dom-element', seed: 'HTMLElement', calls: 4 },
  { name: 'compiler-program', seed: 'Program', calls: 5 },
];

/** The per-call budget of every sequence (source chars, files). */
export const REPLAY_BUDGET = { maxChars: 10_000, maxFiles: 6 } as const;

function definitionsOf(project: DeclarationProject, name: string): readonly Definition[] {
  // Largest definition first: the one an index would rank as "the" declaration.
  return [...(project.definitions.get(name) ?? [])].sort(
    (a, b) =>
      b.node.end - b.node.start - (a.node.end - a.node.start) ||
      a.path.localeCompare(b.path) ||
      a.node.start - b.node.start,
  );
}

/** The known type names a name's declarations mention, largest declaration first, in order of first mention. */
function referencesOf(project: DeclarationProject, name: string): string[] {
  const seen = new Set<string>([name]);
  const refs: string[] = [];
  for (const def of definitionsOf(project, name)) {
    const lines = linesOf(project, def.path);
    const text = lines.slice(def.node.start - 1, def.node.end).join('\n');
    for (const m of text.matchAll(/\b[A-Z][A-Za-z0-9_]*\b/g)) {
      const ref = m[0];
      if (seen.has(ref)) continue;
      seen.add(ref);
      if (project.definitions.has(ref)) refs.push(ref);
    }
  }
  return refs;
}

const linesCache = new WeakMap<object, string[]>();

/** The lines of a file of the project (split once). */
function linesOf(project: DeclarationProject, path: string): string[] {
  const file = project.files.get(path)!;
  let lines = linesCache.get(file);
  if (!lines) linesCache.set(file, (lines = file.content.split('\n')));
  return lines;
}

function charsOf(lines: readonly string[], spans: readonly LineRange[]): number {
  let sum = 0;
  for (const s of spans) {
    for (let n = s.start; n <= s.end && n <= lines.length; n++) {
      sum += lines[n - 1]!.length + (n < lines.length ? 1 : 0);
    }
  }
  return sum;
}

/** Context lines shown around a definition (the ±3 lines of cluster padding explore tools use). */
const PADDING = 3;
/** Spans this close are shown as one cluster rather than two fences. */
const BRIDGE = 3;

/** Merges `spans`, then joins neighbours separated by at most `BRIDGE` lines. */
function cluster(spans: readonly LineRange[]): LineRange[] {
  const out: LineRange[] = [];
  for (const r of mergeRanges(spans)) {
    const last = out[out.length - 1];
    if (last && r.start - last.end - 1 <= BRIDGE)
      out[out.length - 1] = { start: last.start, end: r.end };
    else out.push(r);
  }
  return out;
}

/**
 * A call over `focus` names: their definitions (largest first per name, each
 * with `PADDING` lines of context, close ones clustered), grouped by file in
 * rank order.
 */
function callFor(project: DeclarationProject, focus: readonly string[]): RecordedCall {
  const byFile = new Map<string, LineRange[]>();
  for (const name of focus) {
    for (const def of definitionsOf(project, name)) {
      const lineCount = linesOf(project, def.path).length;
      let spans = byFile.get(def.path);
      if (!spans) byFile.set(def.path, (spans = []));
      spans.push({
        start: Math.max(1, def.node.start - PADDING),
        end: Math.min(lineCount, def.node.end + PADDING),
      });
    }
  }
  return {
    query: focus.join(', '),
    files: [...byFile].map(([path, spans]) => ({ path, intended: cluster(spans) })),
  };
}

/** References breadth-first from `seed`, up to `depth` levels, each name once. */
function referencesAround(project: DeclarationProject, seed: string, depth: number): string[] {
  const seen = new Set([seed]);
  let level = [seed];
  const out: string[] = [];
  for (let d = 0; d < depth; d++) {
    const next: string[] = [];
    for (const name of level) {
      for (const ref of referencesOf(project, name)) {
        if (seen.has(ref)) continue;
        seen.add(ref);
        next.push(ref);
      }
    }
    out.push(...next);
    level = next;
  }
  return out;
}

function candidateChars(project: DeclarationProject, call: RecordedCall): number {
  return call.files.reduce((sum, f) => sum + charsOf(linesOf(project, f.path), f.intended), 0);
}

/**
 * The drill-down for one topic. Names come from the seed's references,
 * breadth-first (`frontier`). Every call asks again about one to three names
 * an earlier call asked about (the overlap of a follow-up question), then
 * takes names it has not asked about until its candidates exceed 1.25× the
 * budget:
 * call 1 `[S, SConstructor]`, call 2 `[S, …]`, call 3 `[n2, S, …]`,
 * call 4 `[S, n3, …]`, call 5 `[n2, n3, S, …]` — `nK` the first new name of call K.
 */
export function drillDown(project: DeclarationProject, topic: Topic): RecordedSequence {
  const s = topic.seed;
  const frontier = referencesAround(project, s, 4);
  const ctor = `${s}Constructor`;
  const asked = new Set<string>([s]);
  const firstNew: string[] = [];
  const calls: RecordedCall[] = [];
  for (let k = 1; k <= topic.calls; k++) {
    const again: string[] =
      k === 1
        ? [s]
        : k === 2
          ? [s]
          : k === 3
            ? [firstNew[2]!, s]
            : k === 4
              ? [s, firstNew[3]!]
              : [firstNew[2]!, firstNew[3]!, s];
    const names = [...new Set(again.filter((n) => n !== undefined))];
    if (k === 1 && project.definitions.has(ctor)) names.push(ctor);
    let call = callFor(project, names);
    let added = 0;
    for (const next of frontier) {
      if (added > 0 && candidateChars(project, call) > REPLAY_BUDGET.maxChars * 1.25) break;
      if (asked.has(next) || names.includes(next)) continue;
      if (added === 0) firstNew[k] = next;
      names.push(next);
      added++;
      call = callFor(project, names);
    }
    // A follow-up with nothing new to ask is not one an agent would send.
    if (k > 1 && added === 0) break;
    for (const n of names) asked.add(n);
    if (candidateChars(project, call) <= REPLAY_BUDGET.maxChars) {
      throw new Error(`${topic.name}: call "${call.query}" does not exceed its budget`);
    }
    calls.push(call);
  }
  if (calls.length < 3)
    throw new Error(`${topic.name}: fewer than 3 calls with something new to ask`);
  return { name: topic.name, budget: REPLAY_BUDGET, calls };
}

/** The ranked candidates' chars of each call (to show they exceed the budget). */
export function candidateCharsPerCall(
  project: DeclarationProject,
  sequence: RecordedSequence,
): number[] {
  return sequence.calls.map((c) => candidateChars(project, c));
}
