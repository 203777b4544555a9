/**
 * The A/B replay: every drill-down sequence over the TypeScript declaration
 * files in two arms (dedup off, dedup on), measured from the rendered text,
 * and the targets checked per sequence.
 */
import type { DuplicateReport } from '../../src/adapter/parse.js';
import { measureDuplicates, parseRenderedResponse } from '../../src/adapter/parse.js';
import { type ReplayArm, replaySequence, withheldUnseen } from '../../src/cli/replay.js';
import { DEDUP_THRESHOLDS } from '../../src/dedup/thresholds.js';
import { o200kCount } from '../../test/_token-corpus.js';
import { type DeclarationProject, loadDeclarationProject } from './project.js';
import { candidateCharsPerCall, drillDown, TOPICS, type Topic } from './sequences.js';

/**
 * One arm's figures: `measure --json`'s fields, its tokens counted with o200k
 * (line by line for the source), and the o200k tokens of its whole responses.
 */
export type ArmReport = DuplicateReport & { readonly responseTokens: number };

/** One sequence's result: both arms' figures, and the checks. */
export interface ReplayRow {
  readonly sequence: string;
  readonly calls: number;
  readonly queries: readonly string[];
  readonly candidateChars: readonly number[];
  readonly baseline: ArmReport;
  readonly dedup: ArmReport;
  /** Lines a pointer stood for that the agent never received (must be 0). */
  readonly withheldUnseen: number;
  /** The longest run of consecutive duplicate lines in one dedup response (hold-backs aside). */
  readonly longestDuplicateRun: number;
}

/** Runs the replay over `topics` (default: all). */
export function runReplay(
  topics: readonly Topic[] = TOPICS,
  project: DeclarationProject = loadDeclarationProject(),
): ReplayRow[] {
  return topics.map((topic) => {
    const sequence = drillDown(project, topic);
    const baseline = replaySequence(project.files, sequence, { dedup: false });
    const dedup = replaySequence(project.files, sequence, { dedup: true });
    return {
      sequence: topic.name,
      calls: sequence.calls.length,
      queries: sequence.calls.map((c) => c.query),
      candidateChars: candidateCharsPerCall(project, sequence),
      baseline: armReport(baseline),
      dedup: armReport(dedup),
      withheldUnseen: withheldUnseen(dedup, project.files).length,
      longestDuplicateRun: longestDuplicateRun(dedup),
    };
  });
}

/** An arm's report, its tokens counted by o200k. */
function armReport(arm: ReplayArm): ArmReport {
  const texts = arm.calls.map((c) => c.text);
  return {
    ...measureDuplicates(texts, o200kCount),
    responseTokens: texts.reduce((sum, text) => sum + o200kCount(text), 0),
  };
}

/**
 * The longest run of consecutive lines of one file, in one response, that an
 * earlier response already delivered — skipping a file the hold-back
 * restored on purpose. The size gate re-sends covered runs shorter than
 * `minCoveredLines`; a longer duplicate run is one dedup should have replaced.
 */
function longestDuplicateRun(arm: ReplayArm): number {
  const seen = new Set<string>();
  let longest = 0;
  for (const call of arm.calls) {
    const sections = parseRenderedResponse(call.text).sections;
    for (const section of sections) {
      if (section.path === call.plan.heldBack) continue;
      let run = 0;
      let prev = -1;
      for (const l of section.lines) {
        const dup = seen.has(`${section.path}\t${l.line}\t${l.text}`);
        run = dup ? (l.line === prev + 1 ? run + 1 : 1) : 0;
        prev = l.line;
        longest = Math.max(longest, run);
      }
    }
    for (const section of sections) {
      for (const l of section.lines) seen.add(`${section.path}\t${l.line}\t${l.text}`);
    }
  }
  return longest;
}

/** A target's verdict for one row. */
export interface Verdict {
  readonly target: string;
  readonly met: boolean;
  readonly detail: string;
}

/** How much of the baseline's duplicate share dedup removed (1 when the baseline had none). */
export function shareCut(row: ReplayRow): number {
  return row.baseline.duplicateShare === 0
    ? 1
    : 1 - row.dedup.duplicateShare / row.baseline.duplicateShare;
}

/**
 * The targets of one sequence (issue 23): a residual duplicate share of at
 * most 1% everywhere, at least 95% of the baseline's share cut where it was
 * at least 10%; unique source at least the baseline's (more where the
 * baseline duplicated more than 10%); no unseen line withheld; no duplicate
 * run as long as `minCoveredLines`. A short held run beside new lines is sent
 * (DESIGN rev 3), so a sequence with little to cut keeps a little.
 */
export function verdicts(row: ReplayRow): Verdict[] {
  const cut = shareCut(row);
  const needsMore = row.baseline.duplicateShare > 0.1;
  const out: Verdict[] = [
    {
      target: 'residual duplicate share ≤ 1%',
      met: row.dedup.duplicateShare <= 0.01,
      detail: `${(row.dedup.duplicateShare * 100).toFixed(1)}%`,
    },
    {
      target: needsMore ? 'unique chars > baseline' : 'unique chars ≥ baseline',
      met: needsMore
        ? row.dedup.uniqueChars > row.baseline.uniqueChars
        : row.dedup.uniqueChars >= row.baseline.uniqueChars,
      detail: `${row.baseline.uniqueChars} → ${row.dedup.uniqueChars}`,
    },
    {
      target: 'no unseen line withheld (folded remainders aside)',
      met: row.withheldUnseen === 0,
      detail: `${row.withheldUnseen} lines`,
    },
    {
      target: `duplicate runs < ${DEDUP_THRESHOLDS.minCoveredLines} lines (size gate)`,
      met: row.longestDuplicateRun < DEDUP_THRESHOLDS.minCoveredLines,
      detail: `longest ${row.longestDuplicateRun}`,
    },
  ];
  if (needsMore) {
    out.unshift({
      target: 'duplicate share cut ≥ 95%',
      met: cut >= 0.95,
      detail: `${(cut * 100).toFixed(1)}%`,
    });
  }
  return out;
}
