/**
 * The span-ledger command line (`bin: span-ledger`): `demo`, `measure` and
 * `conform`. This file only wires the commands to the process; see `run.ts`
 * and `conform/command.ts`.
 */
import { runConform } from './conform/command.js';
import { runCli } from './run.js';

const io = {
  out: (text: string) => process.stdout.write(`${text}\n`),
  err: (text: string) => process.stderr.write(`${text}\n`),
};
const [command, ...rest] = process.argv.slice(2);

const runnerArgs = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;

if (command === 'conform' && !runnerArgs.includes('--help') && !runnerArgs.includes('-h')) {
  runConform(rest, io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      io.err(
        `span-ledger: internal error: ${error instanceof Error ? error.message : String(error)}`,
      );
      process.exitCode = 2;
    },
  );
} else {
  process.exitCode = runCli(process.argv.slice(2), io);
}
