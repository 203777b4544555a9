/**
 * The `span-ledger-proxy` command: reads the command line, starts the proxy,
 * and ends the process the way an MCP client expects of a stdio server — one
 * line on stderr and exit 2 for anything that stops it from starting, exit 0
 * when the client goes away.
 */
import { createRequire } from 'node:module';
import { HELP, parseCommandLine } from './args.js';

const PREFIX = 'span-ledger-proxy:';

/** One line on stderr, the proxy's own (the upstream's stderr passes through beside it). */
function say(line: string): void {
  process.stderr.write(`${PREFIX} ${line}\n`);
}

function version(): string {
  const manifest = createRequire(import.meta.url)('../package.json') as { version: string };
  return manifest.version;
}

const line = parseCommandLine(process.argv.slice(2), process.cwd());
switch (line.kind) {
  case 'help':
    process.stdout.write(HELP);
    break;
  case 'version':
    process.stdout.write(`${version()}\n`);
    break;
  case 'error':
    say(`${line.message} (see --help)`);
    process.exit(2);
    break;
  case 'run':
    say('the proxy is not built yet in this version');
    process.exit(2);
}
