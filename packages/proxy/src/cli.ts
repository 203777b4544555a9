/**
 * The `span-ledger-proxy` command: reads the command line, starts the proxy,
 * and ends the process the way an MCP client expects of a stdio server — one
 * line on stderr and exit 2 for anything that stops it from starting, exit 0
 * when the client goes away, the upstream stopped either way, and one line
 * of what was saved.
 */
import { HELP, parseCommandLine, type RunOptions } from './args.js';
import type { RunningProxy } from './proxy.js';
import { packageVersion } from './version.js';

const PREFIX = 'span-ledger-proxy:';

/** One line on stderr, the proxy's own (the upstream's stderr passes through beside it). */
function say(line: string): void {
  process.stderr.write(`${PREFIX} ${line}\n`);
}

/** A start that failed: its one line (the message alone when `known`, one of ours), and exit 2. */
function failStart(error: unknown, known: boolean): never {
  say(known ? (error as Error).message : `could not start: ${String(error)}`);
  process.exit(2);
}

/** What the proxy does, once it runs: its profile, the tools it re-renders, and where it proves them. */
function readyLine(proxy: Pick<RunningProxy, 'profile' | 'tools' | 'roots' | 'rootsFrom'>): string {
  return `${proxy.profile} profile, re-rendering ${proxy.tools().join(', ') || 'no tool'}, proving under ${proxy.roots.join(', ')} (${proxy.rootsFrom})`;
}

/**
 * Rejects with the front's one line when `port` cannot be listened on now
 * (in use, no such address); port 0 is always free.
 */
async function portFree(
  front: typeof import('./http/index.js'),
  port: number,
  host: string | null,
  authenticated: boolean,
): Promise<void> {
  if (port === 0) return;
  const { createServer } = await import('node:net');
  const bound = front.bindAddress(host ?? undefined, authenticated).host;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error) => reject(front.listenFailure(error, bound, port)));
    probe.listen(port, bound, () => probe.close(() => resolve()));
  });
}

/**
 * `--http PORT`: the proxy behind the HTTP front (`./http/`), stateless — one
 * `proxy.createServer({ principal })` per request, a context keyed by its
 * `_meta` id or its 128-bit token (under the principal with a token file) —
 * and with `--redis` every context's ledger in Redis, cancellations relayed
 * between the processes that share it.
 */
async function runHttp(options: RunOptions, http: NonNullable<RunOptions['http']>): Promise<void> {
  const [{ startProxy, ProxyStartError }, front] = await Promise.all([
    import('./proxy.js'),
    import('./http/index.js'),
  ]);
  const tokenFile = http.tokenFile ?? (process.env.SPAN_LEDGER_PROXY_TOKEN_FILE || null);
  const fail = (error: unknown) =>
    failStart(error, error instanceof ProxyStartError || error instanceof front.FrontStartError);
  const tokens =
    tokenFile === null
      ? null
      : await Promise.resolve()
          .then(() => front.readTokenFile(tokenFile))
          .catch(fail);
  const warning = tokenFile === null ? null : front.tokenFileWarning(tokenFile);
  // The port first: a port in use is said before the upstream starts (and prints its banner).
  await portFree(front, http.port, http.host, tokens !== null).catch(fail);
  if (warning !== null) say(warning);
  const proxy = await startProxy({
    ...options,
    redis: http.redis,
    // Every local process reaches an HTTP port: 128-bit tokens, minted and accepted.
    shared: true,
    log: say,
  }).catch(fail);
  let relayClient: { quit(): Promise<unknown> } | undefined;
  let relay: Awaited<ReturnType<typeof front.redisCancelRelay>> | undefined;
  if (http.redis !== null) {
    const [{ createClient }, { connectRedis }] = await Promise.all([
      import('redis'),
      import('span-ledger/redis'),
    ]);
    const client = await connectRedis(createClient, http.redis, { onError: () => {} }).catch(fail);
    relayClient = client;
    relay = await front.redisCancelRelay(client, 'span-ledger-proxy:cancelled');
  }
  const server = await front
    .serveMcpHttp({
      port: http.port,
      host: http.host ?? undefined,
      stateful: false,
      tokens,
      relay,
      createServer: ({ principal }) => proxy.createServer(principal === null ? {} : { principal }),
      log: say,
    })
    .catch(async (error) => {
      await proxy.close();
      return fail(error);
    });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    await proxy.close();
    await relayClient?.quit().catch(() => {});
    say(proxy.summary());
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  if (server.warning !== null) say(server.warning);
  say(`${readyLine(proxy)}; listening on ${server.url}`);
}

async function run(options: RunOptions): Promise<void> {
  if (options.http !== null) return runHttp(options, options.http);
  // Loaded after the command line is read: --help and usage errors need neither.
  const [{ startProxy, ProxyStartError }, { StdioServerTransport }] = await Promise.all([
    import('./proxy.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
  ]);
  const proxy = await startProxy({ ...options, log: say }).catch((error) =>
    failStart(error, error instanceof ProxyStartError),
  );
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
  // Messages over the stdio limit are answered with an error there, never closing the transport.
  const { boundedStdin } = await import('./stdio.js');
  await server.connect(new StdioServerTransport(boundedStdin(process.stdin, process.stdout, say)));
  say(`${readyLine(proxy)}; ready`);
}

const line = parseCommandLine(process.argv.slice(2), process.cwd());
switch (line.kind) {
  case 'help':
    process.stdout.write(HELP);
    break;
  case 'version':
    process.stdout.write(`${packageVersion()}\n`);
    break;
  case 'error':
    say(`${line.message} (see --help)`);
    process.exit(2);
    break;
  case 'install': {
    const { runInstall } = await import('./install.js');
    const outcome = runInstall(line);
    process.stdout.write(outcome.stdout);
    if (outcome.message !== '') say(outcome.message);
    process.exit(outcome.status);
    break;
  }
  case 'run':
    await run(line);
}
