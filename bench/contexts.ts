/**
 * `npm run bench:contexts`: the context simulator over the TypeScript lib
 * sequences of `bench:replay`. A scripted agent keeps a context of whole
 * responses, spawns a subagent on the same connection, compacts every third
 * call, and recovers a pointer to lines it lost the one way each arm offers.
 * Prints, per arm and summed over the sequences: stale pointers, file reads
 * and their chars, extra calls, chars (and o200k tokens) delivered and
 * duplicate chars; then
 * each target's verdict.
 *
 *   --json   the per-sequence figures of every arm, and the totals
 */
import { formatCount, formatTable } from '../src/cli/format.js';
import { ARM_LABELS, ARMS } from './contexts/hosts.js';
import { type ContextRow, runContexts, totalOf } from './contexts/run.js';
import { COMPACT_EVERY, SPAWN_AFTER, SUBAGENT_QUERIES } from './contexts/script.js';
import { contextVerdicts } from './contexts/targets.js';
import { loadDeclarationProject } from './replay/project.js';
import { drillDown, TOPICS } from './replay/sequences.js';

/** The summed table, one row per arm. */
export function contextsTable(rows: readonly ContextRow[]): string {
  return formatTable(
    [
      'arm',
      'stale pointers',
      'file reads',
      'read chars',
      'extra calls',
      'chars delivered',
      'tokens (o200k)',
      'duplicate chars',
      'unique source',
      'lines lost',
    ],
    ARMS.map((arm) => {
      const t = totalOf(rows, arm);
      const label = `(${arm}) ${ARM_LABELS[arm]}`;
      return [
        label,
        formatCount(t.stalePointers),
        formatCount(t.fileReads),
        formatCount(t.fileReadChars),
        formatCount(t.extraCalls),
        formatCount(t.deliveredChars),
        formatCount(t.deliveredTokens),
        formatCount(t.duplicateChars),
        formatCount(t.uniqueChars),
        formatCount(t.linesLost),
      ];
    }),
  );
}

const project = loadDeclarationProject();
const sequences = TOPICS.map((topic) => drillDown(project, topic));
const rows = runContexts(sequences, project.files);
const verdicts = contextVerdicts(rows);

if (process.argv.includes('--json')) {
  console.log(
    JSON.stringify(
      {
        script: {
          compactEvery: COMPACT_EVERY,
          spawnAfter: SPAWN_AFTER,
          subagentQueries: SUBAGENT_QUERIES,
        },
        sequences: rows,
        totals: Object.fromEntries(ARMS.map((arm) => [arm, totalOf(rows, arm)])),
        verdicts,
      },
      null,
      2,
    ),
  );
} else {
  console.log(
    `${sequences.length} sequences; each context compacts after every ${COMPACT_EVERY}rd call; ` +
      `a subagent spawned after the parent's call ${SPAWN_AFTER} asks its first ${SUBAGENT_QUERIES} queries.` +
      '\n',
  );
  console.log(contextsTable(rows));
  console.log('');
  for (const v of verdicts) {
    console.log(`  ${v.target}: ${v.met ? 'met' : 'MISSED'} (${v.detail})`);
  }
  const missed = verdicts.some((v) => v.met !== true);
  console.log(missed ? '\nSome context targets were missed.' : '\nAll context targets met.');
}
