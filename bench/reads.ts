/**
 * `npm run bench:reads`: read sessions over real code (TypeScript's lib
 * declarations, zod's sources) in four arms — no dedup, an exact-key stub, a
 * whole-file stub, span-ledger with `READ_TOOL_LIMITS`. Prints per session
 * and arm: response chars and tokens (o200k), duplicate share, wrong stubs and withheld
 * non-trivial lines; then span-ledger's targets per session.
 *
 *   --json   the per-session figures of every arm and the verdicts
 */
import { formatCount, formatShare, formatTable } from '../src/cli/format.js';
import { READ_ARMS, type ReadRow, readVerdicts, runReads } from './reads/run.js';
import { loadReadFiles, READ_SESSIONS } from './reads/sessions.js';

/** The table: one row per session and arm. */
export function readsTable(rows: readonly ReadRow[]): string {
  return formatTable(
    [
      'session',
      'reads',
      'arm',
      'response chars',
      'tokens (o200k)',
      'duplicate share',
      'wrong stubs',
      'withheld lines',
    ],
    rows.flatMap((row) =>
      READ_ARMS.map((arm, i) => {
        const f = row.arms[arm];
        return [
          i === 0 ? row.session : '',
          i === 0 ? String(row.reads) : '',
          arm,
          formatCount(f.responseChars),
          formatCount(f.responseTokens),
          formatShare(f.duplicateShare),
          formatCount(f.wrongStubs),
          formatCount(f.withheldNonTrivial),
        ];
      }),
    ),
  );
}

const rows = runReads(READ_SESSIONS, loadReadFiles());
if (process.argv.includes('--json')) {
  console.log(
    JSON.stringify(
      rows.map((row) => ({ ...row, verdicts: readVerdicts(row) })),
      null,
      2,
    ),
  );
} else {
  console.log(readsTable(rows));
  console.log('');
  let ok = true;
  for (const row of rows) {
    const vs = readVerdicts(row);
    ok &&= vs.every((v) => v.met);
    console.log(
      `  ${row.session}: ${vs.map((v) => `${v.target} ${v.met ? 'met' : 'MISSED'} (${v.detail})`).join('; ')}`,
    );
  }
  console.log(ok ? '\nAll read targets met.' : '\nSome read targets were missed.');
}
