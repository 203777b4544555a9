/**
 * The safety property of a scenario, judged from the answer alone: what each
 * context holds is what the responses it still has delivered (a compaction
 * keeps the last one, a rewind those up to its number), with the bytes of
 * the file as it was when they were sent.
 *
 * - `holds` — no line was withheld behind a pointer unless the asking context
 *   holds it, with those bytes. Required whenever the harness told of every
 *   loss (an untold compaction or rewind is the one case it may fail: the
 *   implementation cannot know).
 * - `cited` — every withheld line was delivered to this context, with those
 *   bytes, by a response the pointer cites: the agent can always name it in a
 *   `refresh`. Required always.
 */
import { prop } from '../../boundary/read.js';
import { fingerprint } from '../../hash/fingerprint.js';
import { formatSpans } from '../../ranges/format.js';
import { mergeRanges } from '../../ranges/merge.js';
import type { LineRange } from '../../ranges/range.js';
import type { Scenario } from './reference.js';

export interface Violation {
  /** The index of the response in the answer, from 0. */
  readonly response: number;
  readonly context: string;
  readonly path: string;
  /** The lines, as `formatSpans` writes them. */
  readonly lines: string;
}

export interface Safety {
  readonly holds: boolean;
  readonly cited: boolean;
  readonly unheld: readonly Violation[];
  readonly uncited: readonly Violation[];
}

/** What one response delivered: path → fingerprint and lines. */
type Delivered = Map<string, { fingerprint: string; lines: Set<number> }>;

function linesOf(set: readonly LineRange[]): number[] {
  return mergeRanges(set).flatMap((r) =>
    Array.from({ length: r.end - r.start + 1 }, (_, i) => r.start + i),
  );
}

function spansOf(lines: readonly number[]): string {
  return formatSpans(
    lines.map((n) => ({ start: n, end: n })),
    8,
  );
}

/**
 * Judges `answer` (an implementation's output for `scenario`, any JSON) by
 * the safety property. Parts of the answer that are missing or malformed
 * deliver nothing and withhold nothing.
 */
export function judgeScenario(scenario: Scenario, answer: unknown): Safety {
  const responses = prop(answer, 'responses');
  const list = Array.isArray(responses) ? responses : [];
  const contents: Record<string, string> = { ...scenario.files };
  const holding = new Map<string, number[]>();
  const delivered = new Map<string, Map<number, Delivered>>();
  const unheld: Violation[] = [];
  const uncited: Violation[] = [];
  let next = 0;

  const answerFor = (context: string) => {
    const r = list[next];
    const at = next++;
    const number = prop(r, 'number');
    const files = prop(r, 'files');
    const mine = delivered.get(context) ?? new Map<number, Delivered>();
    delivered.set(context, mine);
    const sent: Delivered = new Map();
    for (const f of Array.isArray(files) ? files : []) {
      const path = prop(f, 'path');
      if (typeof path !== 'string' || !Object.hasOwn(contents, path)) continue;
      const fp = fingerprint(contents[path]!);
      const covered = linesOf(prop(f, 'covered') as LineRange[]);
      const citedBy = prop(f, 'coveredBy');
      const cites = Array.isArray(citedBy) ? citedBy : [];
      const has = (d: Delivered | undefined, line: number) =>
        d?.get(path)?.fingerprint === fp && d.get(path)!.lines.has(line);
      const notHeld = covered.filter(
        (line) => !(holding.get(context) ?? []).some((n) => has(mine.get(n), line)),
      );
      const notCited = covered.filter((line) => !cites.some((n) => has(mine.get(n), line)));
      if (notHeld.length > 0) unheld.push({ response: at, context, path, lines: spansOf(notHeld) });
      if (notCited.length > 0) {
        uncited.push({ response: at, context, path, lines: spansOf(notCited) });
      }
      const got = sent.get(path) ?? { fingerprint: fp, lines: new Set<number>() };
      for (const line of linesOf(prop(f, 'emit') as LineRange[])) got.lines.add(line);
      sent.set(path, got);
    }
    return { number: Number.isSafeInteger(number) ? (number as number) : -1 - at, sent };
  };
  const keep = (context: string, got: { number: number; sent: Delivered }) => {
    delivered.get(context)!.set(got.number, got.sent);
    holding.set(context, [...(holding.get(context) ?? []), got.number]);
  };

  for (const step of scenario.steps) {
    switch (step.do) {
      case 'edit':
        contents[step.path] = step.content;
        break;
      case 'compact':
        holding.set(step.context, (holding.get(step.context) ?? []).slice(-1));
        break;
      case 'rewind':
        holding.set(
          step.context,
          (holding.get(step.context) ?? []).filter((n) => n <= step.to),
        );
        break;
      case 'call':
        keep(step.context, answerFor(step.context));
        break;
      default: {
        const got = step.calls.map(() => answerFor(step.context));
        for (const g of got) keep(step.context, g);
      }
    }
  }
  return { holds: unheld.length === 0, cited: uncited.length === 0, unheld, uncited };
}
