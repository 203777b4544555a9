/**
 * `npm run bench:replay`: the A/B replay on the TypeScript declaration files.
 * Prints, per sequence and arm, response chars and tokens (o200k), unique and
 * duplicate source chars, the duplicate share and the duplicate tokens, then
 * each target's verdict.
 *
 *   --json        an array of { sequence, baseline, dedup } (measure --json's fields)
 *   --svg FILE    also write a bar chart of the duplicate shares
 */
import { writeFileSync } from 'node:fs';
import { formatCount, formatShare, formatTable } from '../src/cli/format.js';
import { type ReplayRow, runReplay, verdicts } from './replay/run.js';
import { replaySvg } from './replay/svg.js';

/** Prints the replay table and verdicts; returns whether every target was met. */
export function printReplay(rows: readonly ReplayRow[]): boolean {
  const cells = (r: ReplayRow['baseline']) => [
    formatCount(r.responseChars),
    formatCount(r.responseTokens),
    formatCount(r.uniqueChars),
    formatCount(r.duplicateChars),
    formatShare(r.duplicateShare),
    formatCount(r.duplicateTokens ?? 0),
  ];
  console.log(
    formatTable(
      [
        'sequence',
        'calls',
        'arm',
        'response chars',
        'tokens (o200k)',
        'unique source',
        'duplicate',
        'share',
        'duplicate tokens',
      ],
      rows.flatMap((r) => [
        [r.sequence, String(r.calls), 'baseline', ...cells(r.baseline)],
        ['', '', 'dedup', ...cells(r.dedup)],
      ]),
    ),
  );
  let ok = true;
  for (const row of rows) {
    const vs = verdicts(row);
    ok &&= vs.every((v) => v.met);
    console.log(
      `  ${row.sequence}: ${vs.map((v) => `${v.target} ${v.met ? 'met' : 'MISSED'} (${v.detail})`).join('; ')}`,
    );
  }
  return ok;
}

const args = process.argv.slice(2);
const rows = runReplay();
if (args.includes('--json')) {
  console.log(
    JSON.stringify(
      rows.map((r) => ({ sequence: r.sequence, baseline: r.baseline, dedup: r.dedup })),
      null,
      2,
    ),
  );
} else {
  const ok = printReplay(rows);
  console.log(ok ? '\nAll replay targets met.' : '\nSome replay targets were missed.');
}
const svgAt = args.indexOf('--svg');
if (svgAt >= 0) {
  const file = args[svgAt + 1];
  if (!file) {
    console.error('--svg needs a file');
    process.exitCode = 2;
  } else {
    writeFileSync(file, replaySvg(rows));
    if (!args.includes('--json')) console.log(`wrote ${file}`);
  }
}
