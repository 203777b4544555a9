/**
 * The span-ledger command line, as a function: arguments in, exit code out,
 * output through the given writers (so tests run it in process). Exit codes:
 * 0 ok, 1 runtime error (bad input, unreadable file), 2 usage.
 *
 * Never throws: any fault ends as a one-line message and exit code 1.
 */
import { parseArgs } from 'node:util';
import { measureDuplicates } from '../adapter/parse.js';
import { estimateTokens } from '../text/tokens.js';
import { abridge, formatCount, formatReport, formatTable, reportCells } from './format.js';
import { InputError, readResponseFiles } from './inputs.js';
import { replaySequence, withheldUnseen } from './replay.js';
import { sampleProject, sampleSequence, sampleSequenceNames } from './sample.js';
import { VERSION } from './version.js';

/**
 * Where the command writes.
 */
export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

const HELP = `span-ledger — what an explore-style code tool already sent, and what it sent twice

Usage:
  span-ledger demo [--sequence NAME] [--full]
      Replay a recorded 3-call sequence over the bundled sample project, with
      and without dedup, print each response (abridged unless --full) and a
      table of response chars, unique and duplicate source chars, and lines
      withheld behind a pointer that the agent never received, then the
      result in words; then the last call as an MCP tool prints it (context
      token, refresh offer) and once more with refresh: [1].
  span-ledger measure PATH [--json]
      The duplicate share of a sequence of rendered responses: PATH is a
      directory of .md files in call order (natural sort of the names), one
      .md file, or a JSONL file with one {"text": …, "path"?: …} per call (at
      most 64 MiB a file). Responses are read as **\`path\`** headers followed
      by fences of "<line><TAB><text>", or as a read tool prints a file
      (cat -n lines, its pointer above them; "path" names the file of a read
      that does not); a line counts as duplicate when an earlier response
      delivered the same path, line number and text. Tokens are estimated.
  span-ledger conform [--suite NAME] [--runs N] [--seed S] [--timeout MS] -- COMMAND…
      Check an implementation in any language against the reference: start
      COMMAND, speak the conformance protocol to it over stdin/stdout (one JSON
      request and one JSON answer per line; docs/conformance.md), run the
      fixed vectors, then N random cases per suite (default 100) drawn with
      fast-check, shrinking a disagreement to the smallest case. --suite runs
      one suite (repeat or comma-separate for more); --timeout is the limit
      per case (default 5000 ms). Exit 0 agrees, 1 disagrees, 2 could not run.
  span-ledger --help
  span-ledger --version

Exit codes: 0 ok, 1 runtime error (unreadable or empty input), 2 usage.`;

export class UsageError extends Error {}

/** The options a command takes, in the shape node:util's `parseArgs` reads. */
export type OptionSpec = Readonly<
  Record<string, { readonly type: 'string' | 'boolean'; readonly multiple?: boolean }>
>;

/** A command's arguments, read: option values by name, and the positional words. */
export interface ReadArgs {
  readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  readonly positionals: readonly string[];
}

/**
 * Reads a command's arguments with node:util's `parseArgs`, then answers every
 * misuse as one UsageError line: an option the command does not take, a value
 * option at the end of the line, a value given to a flag, a positional word
 * past `maxPositional`. A value option takes the next word whatever it looks
 * like (`--runs -1`); a lone `-` is positional; everything after `--` is.
 */
export function readArgs(
  args: readonly string[],
  options: OptionSpec,
  maxPositional: number,
): ReadArgs {
  const { values, positionals, tokens } = parseArgs({
    args: [...args],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const type = Object.hasOwn(options, token.name) ? options[token.name]!.type : undefined;
    if (type === undefined) throw new UsageError(`unknown option ${token.rawName}`);
    if (type === 'string' && token.value === undefined) {
      throw new UsageError(`${token.rawName} needs a value`);
    }
    if (type === 'boolean' && token.inlineValue === true) {
      throw new UsageError(`${token.rawName} takes no value`);
    }
  }
  if (positionals.length > maxPositional) {
    throw new UsageError(`unexpected argument ${positionals[maxPositional]}`);
  }
  return { values, positionals };
}

function measure(args: readonly string[], io: CliIo): number {
  const { values, positionals } = readArgs(args, { json: { type: 'boolean' } }, 1);
  const [path] = positionals;
  if (path === undefined) throw new UsageError('measure needs a PATH');
  const texts = readResponseFiles(path);
  const report = measureDuplicates(texts, estimateTokens);
  if (report.sourceChars === 0) {
    throw new InputError(
      `no numbered source in ${texts.length} response(s) at ${path} (expected **\`path\`** headers followed by fences of "<line><TAB><text>", or cat -n lines)`,
    );
  }
  io.out(values.json === true ? JSON.stringify(report) : formatReport(report));
  return 0;
}

/** The demo's result in one sentence: how much smaller, how much more unseen source, what was withheld. */
function inWords(
  without: { report: { responseChars: number; uniqueChars: number } },
  withDedup: { report: { responseChars: number; uniqueChars: number } },
  withheldUnseen: string,
): string {
  const change = (from: number, to: number) =>
    from === 0 ? 0 : Math.round((100 * Math.abs(to - from)) / from);
  const a = without.report;
  const b = withDedup.report;
  const smaller = b.responseChars <= a.responseChars ? 'fewer' : 'more';
  const unseen = b.uniqueChars >= a.uniqueChars ? 'more' : 'less';
  return (
    `In words: with dedup the agent was sent ${change(a.responseChars, b.responseChars)}% ${smaller} response chars ` +
    `(${formatCount(a.responseChars)} → ${formatCount(b.responseChars)}) and ${change(a.uniqueChars, b.uniqueChars)}% ${unseen} ` +
    `source it had not seen before (${formatCount(a.uniqueChars)} → ${formatCount(b.uniqueChars)} unique chars); ` +
    `${withheldUnseen === '0' ? 'no line it had not seen was withheld' : `${withheldUnseen} lines it had not seen were withheld`}.`
  );
}

/** The token the demo's tool hands out (a host mints one per context with `mintContextToken`). */
const DEMO_CONTEXT = 'k7f3q2ab';

/**
 * The same session as an MCP tool prints it — each header with the context
 * token to send back, the refresh offer after the pointers — and one more
 * call: the last one again, by an agent that lost response #1 and says so
 * with `refresh: [1]`.
 */
function showRefresh(
  project: ReturnType<typeof sampleProject>,
  sequence: NonNullable<ReturnType<typeof sampleSequence>>,
  full: boolean,
  io: CliIo,
): void {
  const last = sequence.calls.at(-1)!;
  const again = { ...sequence, calls: [...sequence.calls, { ...last, refresh: [1] }] };
  const arm = replaySequence(project, again, { dedup: true, context: DEMO_CONTEXT });
  const n = sequence.calls.length;
  const before = arm.calls[n - 1]!.text;
  const after = arm.calls[n]!.text;
  const citing = (text: string) =>
    text.split('\n').filter((line) => /^> .*#1(?![\d/])/.test(line)).length;
  io.out(`\n── call ${n} as an MCP tool prints it: the context token, the refresh offer ──`);
  io.out(
    before
      .split('\n')
      .filter((line, i) => i === 0 || line.startsWith('> ') || line.startsWith('If response'))
      .join('\n'),
  );
  io.out(`\n── call ${n + 1}: call ${n} again, with refresh: [1] (the agent lost response #1) ──`);
  io.out(full ? after : abridge(after));
  const cited = citing(before);
  io.out(
    `\nIn words: call ${n} had ${cited} pointer${cited === 1 ? '' : 's'} citing response #1; call ${n + 1}, ` +
      `with refresh: [1], has ${citing(after) === 0 ? 'none' : citing(after)}: those lines came back as source ` +
      `(${formatCount(arm.calls[n]!.plan.newChars)} chars), and what later responses sent still comes as ` +
      'pointers, since the agent holds those.',
  );
}

function demo(args: readonly string[], io: CliIo): number {
  const { values } = readArgs(args, { sequence: { type: 'string' }, full: { type: 'boolean' } }, 0);
  const sequenceName = typeof values.sequence === 'string' ? values.sequence : 'checkout';
  const sequence = sampleSequence(sequenceName);
  if (!sequence) {
    throw new UsageError(
      `unknown sequence ${sequenceName} (one of: ${sampleSequenceNames().join(', ')})`,
    );
  }
  const project = sampleProject();
  const baseline = replaySequence(project, sequence, { dedup: false });
  const dedup = replaySequence(project, sequence, { dedup: true });
  const budget = sequence.budget;
  io.out(
    `span-ledger demo: "${sequence.name}", ${sequence.calls.length} calls over the bundled sample project` +
      ` (${project.size} files, TypeScript and Python)\n` +
      `budget per call: ${formatCount(budget.maxChars ?? 0)} source chars, ${budget.maxFiles ?? '∞'} files\n`,
  );
  io.out(
    formatTable(
      ['call', 'chars without dedup', 'chars with dedup', 'pointers'],
      dedup.calls.map((call, i) => [
        String(i + 1),
        formatCount(baseline.calls[i]?.text.length ?? 0),
        formatCount(call.text.length),
        formatCount(call.text.split('\n').filter((line) => line.startsWith('> Sent in')).length),
      ]),
    ),
  );
  io.out('');
  dedup.calls.forEach((call, i) => {
    io.out(`── call ${i + 1} with dedup ──────────────────────────────`);
    io.out(values.full === true ? call.text : abridge(call.text));
    io.out('');
  });
  const withheld = (arm: typeof dedup) => formatCount(withheldUnseen(arm, project).length);
  io.out(
    formatTable(
      [
        '',
        'response chars',
        'source chars',
        'unique chars',
        'duplicate chars',
        'duplicate share',
        'withheld unseen lines',
      ],
      [
        [
          'without dedup',
          formatCount(baseline.report.responseChars),
          ...reportCells(baseline.report),
          withheld(baseline),
        ],
        [
          'with dedup',
          formatCount(dedup.report.responseChars),
          ...reportCells(dedup.report),
          withheld(dedup),
        ],
      ],
    ),
  );
  io.out(`\n${inWords(baseline, dedup, withheld(dedup))}`);
  showRefresh(project, sequence, values.full === true, io);
  io.out(
    '\nMeasured by parsing the rendered responses: a source line is duplicate when an earlier\n' +
      'response delivered the same file, line and text; a withheld unseen line is one a pointer\n' +
      'stood for (or folded away, unless it carries no code) that no earlier response delivered.\n' +
      'Try `span-ledger measure` on your own.',
  );
  return 0;
}

/**
 * Runs the command line on `args` (without the node and script paths).
 *
 * @example
 * ```ts
 * runCli(['measure', 'transcripts/', '--json'], { out: console.log, err: console.error }); // 0
 * ```
 */
export function runCli(args: readonly string[], io: CliIo): number {
  const [command, ...rest] = args;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      if (command === undefined) {
        io.err(HELP);
        return 2;
      }
      io.out(HELP);
      return 0;
    }
    if (command === '--version' || command === '-v') {
      io.out(VERSION);
      return 0;
    }
    if (rest.includes('--help') || rest.includes('-h')) {
      io.out(HELP);
      return 0;
    }
    if (command === 'measure') return measure(rest, io);
    if (command === 'demo') return demo(rest, io);
    throw new UsageError(`unknown command ${command}`);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`span-ledger: ${error.message} (see span-ledger --help)`);
      return 2;
    }
    const message =
      error instanceof InputError
        ? error.message
        : `internal error: ${error instanceof Error ? error.message : String(error)}`;
    io.err(`span-ledger: ${message.split('\n')[0]}`);
    return 1;
  }
}
