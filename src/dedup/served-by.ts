/**
 * Which of a file's lines the asking context holds, and which responses
 * served them: the session and content gates of the planner on their own,
 * for a host that keeps its own render loop and budget and writes its own
 * citing pointers. Not a plan: no size gate, no budget, nothing withheld.
 */
import { frozen, frozenEach } from '../boundary/freeze.js';
import { prop } from '../boundary/read.js';
import { projectKey } from '../ledger/project-key.js';
import { readFingerprint } from '../ledger/read-emission.js';
import { readPrior } from '../ledger/read-prior.js';
import { servedRecords } from '../ledger/selectors.js';
import type { ProjectState } from '../ledger/types.js';
import type { LineRange } from '../ranges/range.js';
import { readRanges } from '../ranges/read.js';
import { piecesOf, unionAll } from '../ranges/spans.js';
import { citing } from './plan-file.js';
import { pathProblem } from './read-input.js';

/** What {@link servedBy} is asked about: one file's lines, as the host is about to send them. */
export interface ServedByQuery {
  /** The file, as the response's headers spell it and the ledger recorded it. */
  readonly path: string;
  /** The fingerprint of the file's current content (`fingerprint(content)`). */
  readonly fingerprint: string;
  /** The lines the host means to send, 1-based inclusive. */
  readonly ranges: readonly LineRange[];
  /**
   * The project the host is answering for: when given, a `prior` of another
   * project (compared by `projectKey`) holds nothing.
   */
  readonly projectRoot?: string | undefined;
}

/** What {@link servedBy} found. */
export interface Served {
  /** The lines of `ranges` the context holds from this very content, normalized. */
  readonly covered: LineRange[];
  /** The responses that served some of `covered`, most recent first, each once: what a pointer cites. */
  readonly coveredBy: number[];
}

/** The answer, frozen. */
function answer(covered: readonly LineRange[], coveredBy: number[]): Served {
  return Object.freeze({ covered: frozenEach(covered), coveredBy: frozen(coveredBy) });
}

/**
 * Which of `ranges` of `path` the context holds — served by a retained
 * record of `prior` from content whose fingerprint is exactly `fingerprint`
 * — and the numbers of the responses that served them. What a host needs to
 * write a citing pointer (`formatPointer` with `calls: coveredBy`) from its
 * own loop; whether a held run is worth a pointer is the host's to decide.
 *
 * Proved or nothing: a `prior` that is `null` or not an object, a record
 * without a fingerprint, another fingerprint (the file changed), a path the
 * prior never served or no ledger could key, a `projectRoot` other than the
 * prior's, ranges that cannot be read — each answers `covered: []`,
 * `coveredBy: []`. Never throws; the answer is frozen.
 *
 * @example
 * ```ts
 * const content = 'let x = 1;\n'.repeat(100);
 * const store = createSessionStore();
 * store.record({ projectRoot: '/repo', query: 'q', sourceChars: 440, responseChars: 500,
 *   files: [{ path: 'a.ts', ranges: [{ start: 1, end: 40 }], chars: 440, fingerprint: fingerprint(content) }] });
 * const prior = store.entry('/repo');
 * servedBy(prior, { path: 'a.ts', fingerprint: fingerprint(content), ranges: [{ start: 30, end: 60 }] });
 * // → { covered: [{ start: 30, end: 40 }], coveredBy: [1] }
 * servedBy(prior, { path: 'a.ts', fingerprint: fingerprint('edited'), ranges: [{ start: 1, end: 60 }] });
 * // → { covered: [], coveredBy: [] }: the file changed, nothing is proved
 * servedBy(prior, { path: 'a.ts', fingerprint: fingerprint(content), ranges: [{ start: 1, end: 9 }], projectRoot: '/other' });
 * // → { covered: [], coveredBy: [] }: a record of another project
 * ```
 */
export function servedBy(prior: ProjectState | null, query: ServedByQuery): Served {
  const path = prop(query, 'path');
  const fingerprint = readFingerprint(prop(query, 'fingerprint'));
  if (fingerprint === undefined || pathProblem(path) !== 'none') return answer([], []);
  const project = readPrior(prior, new Set([path as string]));
  if (project === null || !sameProject(project, prop(query, 'projectRoot'))) return answer([], []);
  const served = servedRecords(project, path as string, fingerprint);
  if (served.length === 0) return answer([], []);
  const held = unionAll(served.map((r) => r.ranges));
  const covered = piecesOf(readRanges(prop(query, 'ranges')), held, () => true);
  return answer(covered, citing(served, covered));
}

/** Whether `project` is the one `root` names (no `root`: any). */
function sameProject(project: ProjectState, root: unknown): boolean {
  if (root === undefined) return true;
  const mine = project.projectRoot;
  return typeof root === 'string' && mine !== '' && projectKey(mine) === projectKey(root);
}
