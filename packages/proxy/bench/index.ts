/**
 * `npm run bench:proxy`: the proxy in front of two MCP servers nobody here
 * wrote, on a code base nobody here wrote (zod's v4 sources, from
 * node_modules), one scripted session per server.
 *
 * Codegraph (`@colbymchenry/codegraph` 1.6.1, its index built in a scratch
 * copy): a main context and two subagents on one connection, a compaction of
 * the main context, nine `codegraph_explore` calls, against (a) Codegraph
 * with its dedup off, (b) with its dedup on (`CODEGRAPH_EXPLORE_DEDUP=1`),
 * (c) the proxy in front of (a). The filesystem server: a read session
 * (head and tail windows, whole re-reads, a multi-file read, a subagent, an
 * edit, a compaction) against the server alone and the proxy in front of it.
 *
 * Prints the table of each server, the proxy's added latency (its own work,
 * measured inside it, and end to end: each call's time at the client less the
 * upstream's time on it, over five rounds of the session), its start-up beside
 * the upstream's, and each target of issue 25 with its verdict, then "targets missed: …" on stderr (`--check`: exit 1 when any is). `--json`
 * prints the figures instead.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fingerprint } from 'span-ledger';
import { quantile } from '../../../bench/_harness.js';
import {
  type Arm,
  type Delivery,
  type Figures,
  readDelivery,
  runSession,
  type Step,
  withheld,
} from './session.js';

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = resolve(PACKAGE, '../..');
const BIN = join(PACKAGE, 'bin/span-ledger-proxy.js');
const CODEGRAPH = join(REPO, 'node_modules/.bin/codegraph');
const require = createRequire(import.meta.url);
const ZOD = join(dirname(require.resolve('zod/package.json')), 'src/v4');
const fsManifest = require('@modelcontextprotocol/server-filesystem/package.json') as {
  bin: Record<string, string>;
};
const FILESYSTEM = require.resolve(
  `@modelcontextprotocol/server-filesystem/${fsManifest.bin['mcp-server-filesystem']}`,
);

/** How zod's sources are copied for a session: without its tests and locales. */
const SOURCES = {
  recursive: true,
  filter: (src: string) => !/[/\\](tests|locales)([/\\]|$)/.test(src),
};

function env(extra: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) out[key] = value;
  delete out.SPAN_LEDGER_DEDUP;
  delete out.CODEGRAPH_EXPLORE_DEDUP;
  return { ...out, CODEGRAPH_TELEMETRY: '0', CODEGRAPH_NO_DAEMON: '1', ...extra };
}

/** Connects a client to `command args…` in `cwd`, timing the start-up to ready. */
async function connect(
  command: string,
  args: readonly string[],
  cwd: string,
  extra: Record<string, string>,
  startups: number[],
) {
  const client = new Client({ name: 'bench-proxy', version: '1.0.0' });
  const started = performance.now();
  await client.connect(
    new StdioClientTransport({ command, args: [...args], cwd, env: env(extra), stderr: 'ignore' }),
  );
  // Ready: its tools listed (the proxy lists the upstream's before it serves, the upstream alone when asked).
  await client.listTools();
  startups.push(performance.now() - started);
  return client;
}

// ---- Codegraph -----------------------------------------------------------------------------

/**
 * The session: nine explore calls, as an agent drills into zod. The main
 * context asks about parsing, then objects; a subagent (on the same
 * connection, without the token) asks about parsing again and goes deeper; a
 * second subagent repeats the main context's object question; the main
 * context is compacted, then asks about refinements (over lines it had) and
 * objects again. Queries were picked for their overlap on this code.
 */
const EXPLORE_STEPS: readonly Step[] = [
  ['main', 'ZodType parse safeParse'],
  ['main', 'safeParse parseAsync safeParseAsync'],
  ['main', 'ZodObject shape extend pick omit'],
  ['sub1', 'ZodType parse safeParse'],
  ['sub1', '$ZodType _zod run check'],
  ['main', 'ZodObject extend merge'],
  ['sub2', 'ZodObject shape extend pick omit'],
  ['compact', 'main'],
  ['main', 'ZodType refine superRefine check'],
  ['main', 'ZodObject extend merge'],
].map(([context, query]) =>
  context === 'compact'
    ? { kind: 'compact' as const, context: query! }
    : { kind: 'call' as const, context: context!, tool: 'codegraph_explore', args: { query } },
);

function codegraphArm(
  name: string,
  project: string,
  extra: Record<string, string>,
  proxied: boolean,
  startups: number[],
): Arm {
  return {
    name,
    proxied,
    connect: () =>
      proxied
        ? connect(
            process.execPath,
            [BIN, '--', CODEGRAPH, 'serve', '--mcp'],
            project,
            extra,
            startups,
          )
        : connect(CODEGRAPH, ['serve', '--mcp'], project, extra, startups),
    read: (text) => readDelivery(text),
  };
}

// ---- The filesystem server -------------------------------------------------------------------

/** A file's POSIX lines (1-based: `[0]` unused). */
function posix(content: string): string[] {
  const lines = content.split('\n');
  if (content.endsWith('\n')) lines.pop();
  return ['', ...lines];
}

/** The lines the filesystem server's `read_text_file` returns for `args`, read from the file as it is now. */
function windowLines(
  root: string,
  args: Record<string, unknown>,
): { file: string; lines: Map<number, string> } {
  const path = String(args.path);
  const content = readFileSync(join(root, path), 'utf8');
  const file = `${path}@${fingerprint(content)}`;
  const all = posix(content);
  const last = all.length - 1;
  let from = 1;
  let to = last;
  if (typeof args.head === 'number' && args.head > 0) to = Math.min(last, args.head);
  else if (typeof args.tail === 'number' && args.tail > 0) {
    // The upstream splits on '\n': a final newline is one of the `tail` pieces.
    const pieces = content.split('\n').length;
    from = Math.max(1, pieces - args.tail + 1);
  }
  const lines = new Map<number, string>();
  for (let n = from; n <= to; n++) lines.set(n, all[n]!);
  return { file, lines };
}

/** The filesystem server alone: its text says no line numbers, so the lines are the window's. */
function readDirect(root: string) {
  return (_text: string, tool: string, args: Record<string, unknown>): Delivery => {
    const lines = new Map<string, Map<number, string>>();
    const add = (got: { file: string; lines: Map<number, string> }) => {
      const into = lines.get(got.file) ?? new Map<number, string>();
      for (const [n, t] of got.lines) into.set(n, t);
      lines.set(got.file, into);
    };
    if (tool === 'read_multiple_files') {
      for (const path of args.paths as string[]) add(windowLines(root, { path }));
    } else {
      add(windowLines(root, args));
    }
    return { lines, pointers: [], number: null, token: null };
  };
}

/** The proxy's reads: `cat -n` lines under the path (a part `path:` in a multi-file read), keyed by content. */
function readProxied(root: string) {
  const version = (path: string) =>
    `${path}@${fingerprint(readFileSync(join(root, path), 'utf8'))}`;
  return (text: string, tool: string, args: Record<string, unknown>): Delivery =>
    readDelivery(text, version, tool === 'read_multiple_files' ? undefined : String(args.path));
}

function readSteps(root: string): Step[] {
  const read = (context: string, args: Record<string, unknown>): Step => ({
    kind: 'call',
    context,
    tool: 'read_text_file',
    args,
  });
  const many = (context: string, paths: string[]): Step => ({
    kind: 'call',
    context,
    tool: 'read_multiple_files',
    args: { paths },
  });
  const edit = (path: string): Step => ({
    kind: 'edit',
    run: () => {
      const file = join(root, path);
      writeFileSync(file, readFileSync(file, 'utf8').replace('export', 'export /* edited */'));
    },
  });
  return [
    read('main', { path: 'core/util.ts', head: 120 }),
    read('main', { path: 'core/util.ts', head: 300 }),
    read('main', { path: 'core/util.ts', head: 250 }),
    read('main', { path: 'core/util.ts', tail: 200 }),
    read('main', { path: 'core/errors.ts' }),
    read('main', { path: 'core/errors.ts' }),
    many('main', ['core/errors.ts', 'core/core.ts', 'core/regexes.ts']),
    read('sub1', { path: 'core/core.ts' }),
    read('sub1', { path: 'core/core.ts', head: 40 }),
    edit('core/core.ts'),
    read('main', { path: 'core/core.ts' }),
    read('main', { path: 'core/regexes.ts', head: 60 }),
    { kind: 'compact', context: 'main' },
    read('main', { path: 'core/util.ts', head: 300 }),
    read('main', { path: 'core/errors.ts', head: 80 }),
    many('main', ['core/core.ts', 'core/regexes.ts', 'core/errors.ts']),
  ];
}

// ---- Tables ----------------------------------------------------------------------------------

const count = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => `${n.toFixed(1)} ms`;

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map((_, i) => (i === 0 ? '---' : '---:'))), ...rows.map(line)].join(
    '\n',
  );
}

function row(name: string, f: Figures, latency: string): string[] {
  return [
    name,
    count(f.calls),
    count(f.sourceChars),
    count(f.duplicateChars),
    count(f.pointers),
    count(f.stalePointers),
    count(f.refreshCalls),
    count(f.uniqueChars),
    latency,
  ];
}

const HEAD = [
  'arm',
  'calls',
  'source chars',
  'duplicate chars',
  'pointers',
  'stale pointers',
  'refresh calls',
  'unique source',
  'added latency p50 / p95',
];

interface Latency {
  readonly ownP50: number;
  readonly ownP95: number;
  readonly cpuP50: number;
  readonly cpuP95: number;
  readonly endP50: number;
  readonly endP95: number;
  /** The first round's calls one by one, in order: a new proxy process, its files read for the first time. */
  readonly firstRound: readonly { readonly ownMs: number; readonly cpuMs: number }[];
  /** The same figures over the later rounds alone (the proxy warm, new contexts). */
  readonly warm: {
    readonly ownP50: number;
    readonly ownP95: number;
    readonly cpuP50: number;
    readonly cpuP95: number;
  };
}

/** The proxy's stats resource. */
async function statsOf(client: Client) {
  const stats = await client.readResource({ uri: 'span-ledger://stats' });
  return JSON.parse((stats.contents[0] as { text: string }).text) as {
    ownMs: { p50: number; p95: number };
    cpuMs: { p50: number; p95: number };
    recent: { upstreamMs: number; ownMs: number; cpuMs: number }[];
  };
}

/**
 * Runs a proxied arm and measures what the proxy adds: its own work per call
 * (measured inside it, from its stats resource) and, end to end, each call's
 * time at the client less the upstream's time on it as the proxy saw it.
 */
async function proxyLatency(
  arm: Arm,
  steps: readonly Step[],
): Promise<{ figures: Figures; latency: Latency }> {
  let own = { p50: 0, p95: 0 };
  let cpu = { p50: 0, p95: 0 };
  const calls: { ownMs: number; cpuMs: number }[] = [];
  const measured: Arm = {
    ...arm,
    upstreamMs: async (client) => {
      const last = (await statsOf(client)).recent.at(-1);
      calls.push({ ownMs: last?.ownMs ?? 0, cpuMs: last?.cpuMs ?? 0 });
      return last?.upstreamMs ?? 0;
    },
    connect: async () => {
      const client = await arm.connect();
      const close = client.close.bind(client);
      client.close = async () => {
        const stats = await statsOf(client);
        own = stats.ownMs;
        cpu = stats.cpuMs;
        await close();
      };
      return client;
    },
  };
  const figures = await runSession(measured, steps, ROUNDS);
  const later = calls.slice(figures.calls);
  const p = (key: 'ownMs' | 'cpuMs', q: number) =>
    quantile(
      later.map((call) => call[key]),
      q,
    );
  return {
    figures,
    latency: {
      ownP50: own.p50,
      ownP95: own.p95,
      cpuP50: cpu.p50,
      cpuP95: cpu.p95,
      endP50: quantile(figures.addedMs, 0.5),
      endP95: quantile(figures.addedMs, 0.95),
      firstRound: calls.slice(0, figures.calls),
      warm: {
        ownP50: p('ownMs', 0.5),
        ownP95: p('ownMs', 0.95),
        cpuP50: p('cpuMs', 0.5),
        cpuP95: p('cpuMs', 0.95),
      },
    },
  };
}

/** Rounds of each proxied session: the figures are the first's, the latency every round's. */
const ROUNDS = 5;

const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

/**
 * The line naming the targets missed (on stderr, so `--json` stays JSON), and
 * with `--check` exit code 1 when there is one.
 */
function missedTargets(targets: readonly (readonly string[])[], check: boolean): void {
  const missed = targets.filter((t) => t[2] === verdict(false)).map((t) => t[0]);
  process.stderr.write(
    missed.length === 0 ? 'all targets met\n' : `targets missed: ${missed.join('; ')}\n`,
  );
  if (check && missed.length > 0) process.exitCode = 1;
}

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const check = process.argv.includes('--check');
  const scratch = mkdtempSync(join(tmpdir(), 'bench-proxy-'));
  const say = (line: string) => {
    if (!json) console.log(line);
  };
  try {
    // Codegraph on zod's v4 core and classic sources (no tests, no locales).
    const project = join(scratch, 'zod');
    for (const part of ['core', 'classic']) {
      cpSync(join(ZOD, part), join(project, 'src', part), SOURCES);
    }
    const started = performance.now();
    execFileSync(CODEGRAPH, ['init', '.'], { cwd: project, env: env(), stdio: 'ignore' });
    say(
      `Codegraph indexed zod's v4 sources in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
    );

    const startups = {
      codegraph: [] as number[],
      codegraphProxy: [] as number[],
      fs: [] as number[],
      fsProxy: [] as number[],
    };
    const a = await runSession(
      codegraphArm('(a)', project, {}, false, startups.codegraph),
      EXPLORE_STEPS,
    );
    const b = await runSession(
      codegraphArm('(b)', project, { CODEGRAPH_EXPLORE_DEDUP: '1' }, false, startups.codegraph),
      EXPLORE_STEPS,
    );
    const c = await proxyLatency(
      codegraphArm('(c)', project, {}, true, startups.codegraphProxy),
      EXPLORE_STEPS,
    );

    // The filesystem server on the same sources, in a copy it may edit.
    const root = join(scratch, 'files');
    cpSync(ZOD, root, SOURCES);
    const fsSteps = readSteps(root);
    const fsArm = (proxied: boolean): Arm => ({
      name: proxied ? 'proxy' : 'alone',
      proxied,
      connect: () =>
        proxied
          ? connect(
              process.execPath,
              [BIN, '--', process.execPath, FILESYSTEM, root],
              root,
              {},
              startups.fsProxy,
            )
          : connect(process.execPath, [FILESYSTEM, root], root, {}, startups.fs),
      read: proxied ? readProxied(root) : readDirect(root),
    });
    const fsAlone = await runSession(fsArm(false), fsSteps);
    // The edited file goes back before the second arm runs the same session.
    cpSync(ZOD, root, SOURCES);
    const fsProxy = await proxyLatency(fsArm(true), readSteps(root));

    const lost = withheld(a, c.figures);
    const fsLost = withheld(fsAlone, fsProxy.figures);
    const added = (proxied: number[], alone: number[]) =>
      quantile(proxied, 0.5) - quantile(alone, 0.5);
    const startupAdded = Math.max(
      added(startups.codegraphProxy, startups.codegraph),
      added(startups.fsProxy, startups.fs),
    );
    const targets = [
      [
        '(c) stale pointers in subagent contexts: 0',
        count(c.figures.staleInSubagents),
        verdict(c.figures.staleInSubagents === 0),
      ],
      [
        '(c) every stale pointer after the compaction recovered by exactly one refresh',
        `${count(c.figures.staleAfterCompaction)} stale, ${count(c.figures.refreshCalls)} refresh, ${count(c.figures.staleAfterRefresh)} after it`,
        verdict(
          c.figures.staleAfterRefresh === 0 &&
            c.figures.refreshCalls === (c.figures.staleAfterCompaction > 0 ? 1 : 0),
        ),
      ],
      [
        "(c) duplicate chars ≤ 0.5× (b)'s",
        b.duplicateChars > 0
          ? `${(c.figures.duplicateChars / b.duplicateChars).toFixed(2)}×`
          : 'n/a',
        verdict(c.figures.duplicateChars <= 0.5 * b.duplicateChars),
      ],
      [
        "(c) duplicate chars ≤ 0.5× (a)'s",
        a.duplicateChars > 0
          ? `${(c.figures.duplicateChars / a.duplicateChars).toFixed(2)}×`
          : 'n/a',
        verdict(c.figures.duplicateChars <= 0.5 * a.duplicateChars),
      ],
      [
        "(c) unique source ≥ (a)'s, less trivial lines folded",
        `${count(c.figures.uniqueChars)} vs ${count(a.uniqueChars)}; lines (a) sent that (c) withheld unseen: ${lost.code} code, ${lost.trivial} trivial`,
        verdict(lost.code === 0),
      ],
      [
        'added latency p95 ≤ 10 ms (inside the proxy; end to end)',
        `${ms(c.latency.ownP95)}; ${ms(c.latency.endP95)} (CPU ${ms(c.latency.cpuP95)})`,
        verdict(c.latency.ownP95 <= 10 && c.latency.endP95 <= 10),
      ],
      [
        'filesystem: 0 wrong "unchanged" answers',
        `${count(fsProxy.figures.staleUncompacted)} (and ${count(fsProxy.figures.staleAfterRefresh)} after the refresh)`,
        verdict(fsProxy.figures.staleUncompacted === 0 && fsProxy.figures.staleAfterRefresh === 0),
      ],
      [
        'filesystem: duplicate chars ≤ 1% of source sent',
        `${((100 * fsProxy.figures.duplicateChars) / Math.max(1, fsProxy.figures.sourceChars)).toFixed(2)}%`,
        verdict(fsProxy.figures.duplicateChars <= 0.01 * fsProxy.figures.sourceChars),
      ],
      [
        "start-up to ready beyond the upstream's own < 1 s (median, the worse server)",
        ms(startupAdded),
        verdict(startupAdded < 1000),
      ],
    ];

    if (json) {
      const strip = (f: Figures) => ({
        ...f,
        delivered: undefined,
        heldBefore: undefined,
        texts: undefined,
      });
      console.log(
        JSON.stringify(
          {
            codegraph: { a: strip(a), b: strip(b), c: { ...strip(c.figures), latency: c.latency } },
            filesystem: {
              alone: strip(fsAlone),
              proxy: { ...strip(fsProxy.figures), latency: fsProxy.latency },
            },
            withheld: { codegraph: lost, filesystem: fsLost },
            startupMs: startups,
            targets,
          },
          null,
          2,
        ),
      );
      missedTargets(targets, check);
      return;
    }
    const lat = (l: Latency) =>
      `${ms(l.ownP50)} / ${ms(l.ownP95)} inside (CPU ${ms(l.cpuP50)} / ${ms(l.cpuP95)}); ${ms(l.endP50)} / ${ms(l.endP95)} end to end`;
    say('');
    say(
      'Codegraph 1.6.1, zod v4 sources: 9 explore calls, a main context and two subagents on one connection, one compaction',
    );
    say('');
    say(
      table(HEAD, [
        row('(a) Codegraph, dedup off', a, '—'),
        row('(b) Codegraph, dedup on', b, '—'),
        row('(c) span-ledger-proxy in front of (a)', c.figures, lat(c.latency)),
      ]),
    );
    say('');
    say(
      `stale pointers: (b) ${count(b.stalePointers)} (${count(b.staleInSubagents)} in subagents, ${count(b.staleAfterCompaction)} after the compaction); ` +
        `(c) ${count(c.figures.stalePointers)} (${count(c.figures.staleInSubagents)} in subagents, ${count(c.figures.staleAfterCompaction)} after the compaction, ${count(c.figures.staleAfterRefresh)} after the refresh)`,
    );
    say('');
    say(
      `The filesystem server, zod v4 sources: ${fsSteps.filter((s) => s.kind === 'call').length} reads (windows, re-reads, a multi-file read, a subagent, an edit, a compaction)`,
    );
    say('');
    say(
      table(HEAD, [
        row('the server alone', fsAlone, '—'),
        row('span-ledger-proxy in front of it', fsProxy.figures, lat(fsProxy.latency)),
      ]),
    );
    say('');
    say(
      `lines the server alone sent that the proxy withheld unseen: ${fsLost.code} code, ${fsLost.trivial} trivial`,
    );
    // Numbering everything the proxy reads out, against numbering only the lines a later pointer named.
    const f = fsProxy.figures;
    const saved = fsAlone.sourceChars - f.sourceChars;
    const pct = (part: number, whole: number) =>
      whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : 'n/a';
    say(
      `cat -n numbering, every line read: ${count(f.numberingChars)} chars (${pct(f.numberingChars, f.sourceChars)} of the source sent); ` +
        `only the lines a later pointer named: ${count(f.numberingNamedChars)}; the difference, ${count(f.numberingChars - f.numberingNamedChars)} chars, ` +
        `is ${pct(f.numberingChars - f.numberingNamedChars, saved)} of the ${count(saved)} source chars dedup saved (hindsight: at render time no one knows which lines a pointer will name)`,
    );
    // The p95 above is over every call of every round: the first round's calls, a new process's, weigh in it.
    const byRound = (name: string, l: Latency, all: number) =>
      `${name}: round 1 (a new proxy process), CPU per call in order: ${l.firstRound.map((call) => call.cpuMs.toFixed(1)).join(' ')} ms; ` +
      `rounds 2–${ROUNDS}: ${ms(l.warm.ownP50)} / ${ms(l.warm.ownP95)} inside (CPU ${ms(l.warm.cpuP50)} / ${ms(l.warm.cpuP95)}) ` +
      `(the table's p95 is over all ${all} calls, nearest rank)`;
    say(`added latency by round: ${byRound('(c)', c.latency, c.figures.addedMs.length)}`);
    say(
      `${' '.repeat(25)}${byRound('filesystem', fsProxy.latency, fsProxy.figures.addedMs.length)}`,
    );
    say(
      `start-up to ready (median): Codegraph ${ms(quantile(startups.codegraph, 0.5))} alone, ${ms(quantile(startups.codegraphProxy, 0.5))} through the proxy; ` +
        `the filesystem server ${ms(quantile(startups.fs, 0.5))} alone, ${ms(quantile(startups.fsProxy, 0.5))} through the proxy`,
    );
    say(
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(
          ' / ',
        )} (times are wall clock, shared with whatever else runs; CPU is the proxy's own)`,
    );
    say('');
    say(table(['target (issue 25)', 'measured', 'verdict'], targets));
    missedTargets(targets, check);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
