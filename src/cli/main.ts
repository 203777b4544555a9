/**
 * The span-ledger command line: `demo` and `measure`.
 */
import { fingerprint, mergeRanges } from '../index.js';

function main(argv: readonly string[]): number {
  const [command] = argv;
  if (command === 'demo') {
    console.log(
      mergeRanges([
        { start: 5, end: 9 },
        { start: 10, end: 12 },
      ]),
      fingerprint('abc'),
    );
    return 0;
  }
  console.error('usage: span-ledger <demo|measure>');
  return 2;
}

process.exitCode = main(process.argv.slice(2));
