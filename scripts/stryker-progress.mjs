/**
 * A Stryker reporter that appends each tested mutant to a JSON Lines file as
 * soon as it is tested, so that scripts/mutation.mjs can score a run it had to
 * stop at its time bound (Stryker's own reports are written only at the end).
 */
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

class ProgressReporter {
  onMutantTested(result) {
    const file = process.env.SPAN_LEDGER_PROGRESS;
    if (!file) return;
    const row = {
      file: relative(process.cwd(), result.fileName).split('\\').join('/'),
      // A tested mutant's location is 1-based already, as in Stryker's reports.
      line: result.location.start.line,
      mutator: result.mutatorName,
      status: result.status,
    };
    appendFileSync(file, `${JSON.stringify(row)}\n`);
  }
}

export const strykerPlugins = [
  declareClassPlugin(PluginKind.Reporter, 'progress-file', ProgressReporter),
];
