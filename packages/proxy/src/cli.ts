/**
 * The `span-ledger-proxy` command: reads the command line, starts the proxy,
 * and ends the process the way an MCP client expects of a stdio server — one
 * line on stderr and exit 2 for anything that stops it from starting, exit 0
 * when the client goes away, the upstream stopped either way, and one line
 * of what was saved.
 */
import { createRequire } from 'node:module';
import { HELP, parseCommandLine, type RunOptions } from './args.js';

const PREFIX = 'span-ledger-proxy:';

/** One line on stderr, the proxy's own (the upstream's stderr passes through beside it). */
function say(line: string): void {
  process.stderr.write(`${PREFIX} ${line}\n`);
}

function version(): string {
  const manifest = createRequire(import.meta.url)('../package.json') as { version: string };
  return manifest.version;
}

async function run(options: RunOptions): Promise<void> {
  if (options.http !== null) {
    // The HTTP front plugs in here (packages/proxy/src/http/): startProxy with
    // `redis: options.http.redis` and `mintToken: mintSharedToken`, then one
    // `proxy.createServer({ principal })` per request on a stateless transport.
    say('--http is not available yet in this version: run it over stdio');
    process.exit(2);
  }
  // Loaded after the command line is read: --help and usage errors need neither.
  const [{ startProxy, StartupError }, { StdioServerTransport }] = await Promise.all([
    import('./proxy.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
  ]);
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  try {
    proxy = await startProxy({ ...options, log: say });
  } catch (error) {
    say(error instanceof StartupError ? error.message : `could not start: ${String(error)}`);
    process.exit(2);
  }
  const server = proxy.createServer();
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await proxy.close();
    say(proxy.summary());
    process.exit(0);
  };
  server.onclose = () => void stop();
  process.stdin.once('end', () => void stop());
  process.stdin.once('close', () => void stop());
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  process.stdout.on('error', () => void stop());
  await server.connect(new StdioServerTransport());
  say(`${proxy.profile} profile, re-rendering ${proxy.tools().join(', ') || 'no tool'}; ready`);
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
    await run(line);
}
