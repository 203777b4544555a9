/**
 * The span-ledger command line (`bin: span-ledger`): `demo` and `measure`.
 * This file only wires `runCli` to the process; see `run.ts`.
 */
import { runCli } from './run.js';

process.exitCode = runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
