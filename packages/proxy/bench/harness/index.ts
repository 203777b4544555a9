/**
 * `npm run bench:harness`: the proxy measured inside the real Claude Code.
 * Codegraph 1.6.1 on zod's v4 sources; Claude Code 2.1.328 run with `-p`
 * against a scripted model on 127.0.0.1; one session per arm — a main agent
 * with seven explore calls, a subagent (Claude Code's `Agent` tool, in the
 * foreground) with three, one compaction forced as Claude Code meets an
 * overflow. Every figure is read from the request bodies Claude Code sent
 * (`requests.ts`), never from the proxy.
 *
 * Arms: (a) Codegraph, its dedup off; (b) Codegraph with
 * `CODEGRAPH_EXPLORE_DEDUP=1`; (c) the proxy, the model echoes the token;
 * (c0) the proxy, the model never echoes, no hooks; (h) the proxy with the
 * hooks `span-ledger-proxy install claude` writes, the model never echoes;
 * (h-cap) (h) under `MAX_MCP_OUTPUT_TOKENS=2000`.
 *
 * Flags: `--arms a,b,…` runs some arms only; `--compaction window` forces the
 * compaction through `CLAUDE_CODE_AUTO_COMPACT_WINDOW` instead of a 400
 * "prompt is too long"; `--json` prints the figures; `--keep` keeps each
 * session's scratch folder; `--check` exits non-zero when a target is missed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { quantile } from '../../../../bench/_harness.js';
import type { Plan } from './agent.js';
import { type HarnessFigures, measure } from './requests.js';
import { type ArmSpec, prepareProject, runArm, SERVER, ZOD } from './session.js';

/** The session: the main context drills into parsing and objects, a subagent repeats some of it and goes deeper. */
export const BENCH_PLAN: Plan = {
  main: [
    { query: 'ZodType parse safeParse' },
    { query: 'safeParse parseAsync safeParseAsync' },
    { query: 'ZodObject shape extend pick omit' },
    { agent: true },
    { query: 'ZodObject extend merge' },
    { query: '$ZodType _zod run check' },
    { overflow: true },
    { query: 'ZodType refine superRefine check' },
    { query: 'ZodObject extend merge' },
  ],
  sub: [
    { query: 'ZodType parse safeParse' },
    { query: '$ZodType _zod run check' },
    { query: 'ZodObject shape extend pick omit' },
  ],
};

export const ARMS: readonly ArmSpec[] = [
  { name: 'a', proxied: false, echo: true, hooks: false },
  {
    name: 'b',
    proxied: false,
    echo: true,
    hooks: false,
    serverEnv: { CODEGRAPH_EXPLORE_DEDUP: '1' },
  },
  { name: 'c', proxied: true, echo: true, hooks: false },
  { name: 'c0', proxied: true, echo: false, hooks: false },
  { name: 'h', proxied: true, echo: false, hooks: true },
  { name: 'h-cap', proxied: true, echo: false, hooks: true, maxOutputTokens: 2000 },
];

interface ArmResult {
  readonly name: string;
  readonly figures: HarnessFigures;
  readonly hookMs: readonly number[];
  readonly status: number | null;
  readonly seconds: number;
  readonly error?: string;
}

const fmt = (n: number) => n.toLocaleString('en-US');
const ratio = (x: number, base: number) => (base === 0 ? '—' : `${(x / base).toFixed(2)}×`);

/**
 * The proxy's guidance in the instructions Claude Code keeps: the text before
 * Codegraph's own instructions begin (as arm (a) shows them), and whether it
 * speaks of `refresh`; `null` where the instructions are Codegraph's alone or
 * not found.
 */
function guidance(
  arm: ArmResult,
  results: readonly ArmResult[],
): { chars: number; refresh: boolean } | null {
  const own = results.find((r) => r.name === 'a' && r.error === undefined)?.figures.instructions;
  if (own === undefined || own === '' || arm.figures.instructions === '') return null;
  const end = arm.figures.instructions.indexOf(own.slice(0, 80));
  if (end <= 0) return null;
  const text = arm.figures.instructions.slice(0, end);
  return { chars: text.trimEnd().length, refresh: text.includes('refresh') };
}

function guidanceCell(g: { chars: number; refresh: boolean } | null): string {
  return g === null ? '—' : `${g.chars}, ${g.refresh ? 'yes' : 'no'}`;
}

/**
 * Lines arm (a) delivered to a context (main or subagent) over the session
 * that `arm` never delivered to it: source withheld, not deduplicated.
 */
function withheldLines(arm: ArmResult, results: readonly ArmResult[]): number | null {
  const a = results.find((r) => r.name === 'a' && r.error === undefined)?.figures.received;
  if (a === undefined) return null;
  const mine = arm.figures.received;
  const main = new Set(mine.main);
  const sub = new Set(mine.sub);
  return a.main.filter((k) => !main.has(k)).length + a.sub.filter((k) => !sub.has(k)).length;
}

function withheldCell(arm: ArmResult, results: readonly ArmResult[]): string {
  const n = withheldLines(arm, results);
  return n === null ? '—' : fmt(n);
}

/** The table of every arm (rows: figures, columns: arms). */
export function table(results: readonly ArmResult[]): string {
  const ok = results.filter((r) => r.error === undefined);
  const rows: [string, (f: HarnessFigures, r: ArmResult) => string][] = [
    ['explore calls main / sub', (f) => `${f.mainCalls} / ${f.subCalls}`],
    ['refresh calls (chars)', (f) => `${f.refreshCalls} (${fmt(f.refreshChars)})`],
    ['source chars', (f) => fmt(f.sourceChars)],
    ['duplicate chars', (f) => fmt(f.duplicateChars)],
    ['unique source chars', (f) => fmt(f.uniqueChars)],
    ['pointers', (f) => fmt(f.pointers)],
    ['stale: subagent', (f) => fmt(f.staleInSubagent)],
    ['stale: after compaction', (f) => fmt(f.staleAfterCompaction)],
    ['stale: main, before it', (f) => fmt(f.staleUncompacted)],
    ['kept-result pointers', (f) => fmt(f.keptPointers)],
    ['  held / refreshed / lost', (f) => `${f.keptHeld} / ${f.keptRecovered} / ${f.keptLost}`],
    ['cited lines missing', (f) => fmt(f.citedMissing)],
    [
      '  given back by a hook (dup)',
      (f) => `${fmt(f.givenBackChars)} (${fmt(f.givenBackDuplicateChars)})`,
    ],
    ['lines (a) sent, never received', (_f, r) => withheldCell(r, results)],
    ['result chars (all)', (f) => fmt(f.resultChars)],
    ['  other than source lines', (f) => fmt(f.resultChars - f.sourceChars)],
    ['largest result', (f) => fmt(f.largestResult)],
    ['largest request', (f) => fmt(f.largestRequest)],
    ['sum of requests', (f) => fmt(f.sumRequests)],
    ['requests / compactions', (f) => `${f.requests} / ${f.compactions}`],
    ['saved-to-file stubs', (f) => fmt(f.savedStubs)],
    ['guidance: chars, refresh', (_f, r) => guidanceCell(guidance(r, results))],
    ['sub schema: context+refresh', (f) => (f.subSchemaExplains ? 'yes' : 'no')],
    [
      'call round trip p50/p95 ms',
      (f) => `${quantile(f.roundTripMs, 0.5)} / ${quantile(f.roundTripMs, 0.95)}`,
    ],
    [
      'hook p50/p95 ms',
      (_f, r) =>
        r.hookMs.length === 0 ? '—' : `${quantile(r.hookMs, 0.5)} / ${quantile(r.hookMs, 0.95)}`,
    ],
  ];
  const header = ['', ...ok.map((r) => `(${r.name})`)];
  const body = rows.map(([label, cell]) => [label, ...ok.map((r) => cell(r.figures, r))]);
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ');
  return [line(header), ...body.map(line)].join('\n');
}

interface Target {
  readonly name: string;
  readonly value: string;
  readonly met: boolean;
}

/**
 * The hook's cost per proxied call: as Claude Code's debug log times each
 * `PreToolUse` hook it runs; else (a hook type the log does not time) the
 * difference of the calls' round-trip medians between (h) and (c0).
 */
function hookTarget(h: ArmResult, c0: ArmResult | undefined): Target {
  const name = '(h) hook p50 <= 30 ms per proxied call';
  if (h.hookMs.length > 0) {
    const p50 = quantile(h.hookMs, 0.5);
    return {
      name,
      value: `p50 ${p50} ms, p95 ${quantile(h.hookMs, 0.95)} ms over ${h.hookMs.length} calls (Claude Code's debug log)`,
      met: p50 <= 30,
    };
  }
  if (c0 === undefined)
    return {
      name,
      value: 'not timed: no hook line in the debug log, no (c0) to compare',
      met: false,
    };
  const added = quantile(h.figures.roundTripMs, 0.5) - quantile(c0.figures.roundTripMs, 0.5);
  return { name, value: `${added} ms (round-trip p50 of (h) less (c0)'s)`, met: added <= 30 };
}

/** The targets of the issue, each with what was measured. */
export function targets(results: readonly ArmResult[]): Target[] {
  const by = (name: string) => results.find((r) => r.name === name && r.error === undefined);
  const a = by('a')?.figures;
  const b = by('b')?.figures;
  const c0 = by('c0')?.figures;
  const h = by('h');
  const cap = by('h-cap')?.figures;
  const out: Target[] = [];
  if (a !== undefined && h !== undefined) {
    const f = h.figures;
    out.push(
      {
        name: '(h) 0 stale pointers in the subagent and after the compaction',
        value: `${f.staleInSubagent} in the subagent, ${f.staleAfterCompaction} after`,
        met: f.staleInSubagent === 0 && f.staleAfterCompaction === 0,
      },
      {
        name: '(h) kept-result pointers given back or refreshed, none lost',
        value: `${f.keptPointers}: ${f.keptHeld} held, ${f.keptRecovered} refreshed, ${f.keptLost} lost`,
        met: f.keptLost === 0,
      },
      {
        name: "(h) duplicate chars <= 0.25x (a)'s",
        value: `${fmt(f.duplicateChars)} = ${ratio(f.duplicateChars, a.duplicateChars)}${b === undefined ? '' : ` ((b): ${ratio(b.duplicateChars, a.duplicateChars)} with ${b.stale} stale)`}`,
        met: f.duplicateChars <= 0.25 * a.duplicateChars,
      },
      {
        name: "(h) unique source = (a)'s",
        value: `${fmt(f.uniqueChars)} vs ${fmt(a.uniqueChars)} (${ratio(f.uniqueChars, a.uniqueChars)}); lines (a) sent that (h) never did: ${withheldLines(h, results)}`,
        met: f.uniqueChars >= a.uniqueChars && withheldLines(h, results) === 0,
      },
      {
        name: "(h) largest request <= 0.85x (a)'s",
        value: `${fmt(f.largestRequest)} = ${ratio(f.largestRequest, a.largestRequest)}`,
        met: f.largestRequest <= 0.85 * a.largestRequest,
      },
      {
        name: "(h) sum of request sizes <= (a)'s",
        value: `${fmt(f.sumRequests)} = ${ratio(f.sumRequests, a.sumRequests)}`,
        met: f.sumRequests <= a.sumRequests,
      },
      {
        name: '(h) guidance first and within 600 chars of the instructions Claude Code keeps',
        value: ((g) =>
          g === null
            ? 'not first (or not found)'
            : `${g.chars} chars before Codegraph's own, refresh ${g.refresh ? 'named' : 'not named'}`)(
          guidance(h, results),
        ),
        met: ((g) => g !== null && g.chars <= 600 && g.refresh)(guidance(h, results)),
      },
      {
        name: "(h) the subagent's tool schema explains context and refresh",
        value: f.subSchemaExplains ? 'yes' : 'no',
        met: f.subSchemaExplains,
      },
      hookTarget(h, by('c0')),
    );
  }
  if (a !== undefined && c0 !== undefined) {
    out.push({
      name: '(c0) never worse than (a): 0 stale pointers, no withheld line',
      value: `${c0.stale + c0.keptLost} stale, lines (a) sent that (c0) never did: ${withheldLines(by('c0')!, results)}`,
      met: c0.stale === 0 && c0.keptLost === 0 && withheldLines(by('c0')!, results) === 0,
    });
  }
  if (cap !== undefined) {
    out.push({
      name: '(h-cap) no saved-to-file stub of a proxied result, 0 stale pointers',
      value: `${cap.savedStubs} stubs, ${cap.stale + cap.keptLost} stale`,
      met: cap.savedStubs === 0 && cap.stale === 0 && cap.keptLost === 0,
    });
  }
  return out;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      arms: { type: 'string' },
      compaction: { type: 'string', default: 'error' },
      json: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      check: { type: 'boolean', default: false },
    },
  });
  const names = values.arms?.split(',') ?? ARMS.map((a) => a.name);
  const arms = ARMS.filter((a) => names.includes(a.name));
  const compaction = values.compaction === 'window' ? 'window' : 'error';
  const say = (line: string) => {
    if (!values.json) console.log(line);
  };
  const scratch = mkdtempSync(join(tmpdir(), 'bench-harness-project-'));
  const results: ArmResult[] = [];
  try {
    const started = performance.now();
    const project = prepareProject(scratch, {
      'src/core': join(ZOD, 'core'),
      'src/classic': join(ZOD, 'classic'),
    });
    say(
      `Codegraph indexed zod's v4 core and classic in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
    );
    for (const arm of arms) {
      const t0 = performance.now();
      try {
        const run = await runArm(arm, { project, plan: BENCH_PLAN, compaction, keep: values.keep });
        const seconds = (performance.now() - t0) / 1000;
        results.push({
          name: arm.name,
          figures: measure(run.log, SERVER, run.root),
          hookMs: run.hookMs,
          status: run.status,
          seconds,
        });
        say(
          `(${arm.name}) ran in ${seconds.toFixed(1)} s, Claude Code exited ${run.status}${values.keep ? `, kept ${run.scratch}` : ''}.`,
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        results.push({
          name: arm.name,
          figures: measure([], SERVER, ''),
          hookMs: [],
          status: null,
          seconds: 0,
          error: message,
        });
        say(`(${arm.name}) not run: ${message}`);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const checked = targets(results);
  if (values.json) {
    console.log(JSON.stringify({ results, targets: checked }, null, 2));
  } else {
    say('');
    say(
      `${cpus().length} cores, load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')} (1, 5, 15 min): timings are this machine's at this load.`,
    );
    say(table(results));
    say('');
    say('Targets:');
    for (const t of checked) say(`  ${t.met ? 'met    ' : 'MISSED '} ${t.name}: ${t.value}`);
  }
  const missed = [
    ...checked.filter((t) => !t.met).map((t) => t.name),
    ...results.filter((r) => r.error !== undefined).map((r) => `(${r.name}) did not run`),
  ];
  if (values.check && missed.length > 0) {
    console.error(`targets missed: ${missed.join('; ')}`);
    process.exitCode = 1;
  }
}

await main();
