/**
 * The five hosts of the context simulator. Each answers the script's calls
 * over one connection with the library as a host would use it — `planCall`
 * against the session store, the reference renderer, the emission recorder —
 * and differs only in what the host knows and tells:
 *
 * - (a) dedup off;
 * - (b) dedup on as in revision 1: one ledger for the connection, pointers
 *   without numbers, no `refresh`;
 * - (c) revision 2 with nothing from the host: numbered responses, pointers
 *   that cite them, `refresh`;
 * - (d) revision 2 where the host passes each context's id as the session id
 *   and dispatches `pruned` for the responses a compaction removed;
 * - (e) revision 2 with context tokens and nothing from the host: the agent
 *   echoes the last token it holds, a call without one gets a fresh token.
 */
import { createEmissionRecorder } from '../../src/adapter/recorder.js';
import { renderMarkdown } from '../../src/adapter/render.js';
import type { ProjectFile, RecordedCall } from '../../src/cli/replay.js';
import { type CallBudget, type CallPlan, planCall } from '../../src/dedup/plan-call.js';
import { formatBackReference } from '../../src/dedup/pointer.js';
import { projectFromView } from '../../src/ledger/selectors.js';
import { createSessionStore } from '../../src/ledger/store.js';
import type { HeldItem } from './context.js';
import type { ContextName } from './script.js';

/** The arms, in the order they are printed. */
export const ARMS = ['a', 'b', 'c', 'd', 'e'] as const;
export type ArmName = (typeof ARMS)[number];

/** What each arm is, in a few words (the table's legend). */
export const ARM_LABELS: Readonly<Record<ArmName, string>> = {
  a: 'dedup off',
  b: 'revision 1 (no numbers, no refresh)',
  c: 'numbers + refresh, nothing from the host',
  d: 'host passes context ids, dispatches pruned',
  e: 'context tokens, nothing from the host',
};

/** Who asks: the context, the token it echoes, and the responses it asks to have back. */
export interface Asker {
  readonly context: ContextName;
  readonly token: string | null;
  readonly refresh?: readonly number[] | undefined;
}

/** One answered call as the agent receives it. */
export interface Answer {
  /** The response text (what the agent's context takes in). */
  readonly text: string;
  /** The plan it was rendered from: which lines it sent, pointed at, and cited. */
  readonly plan: CallPlan;
  /** The numbering the response belongs to (the ledger bucket). */
  readonly bucket: string;
  /** The number the response says it has, or `null` when it says none. */
  readonly number: number | null;
  /** The context token the response handed out, or `null`. */
  readonly token: string | null;
}

/** A simulated host on one connection. */
export interface Host {
  /** How the agent recovers a pointer to lines it lost: a `refresh` call, or a whole-file read. */
  readonly recovery: 'refresh' | 'read' | 'none';
  answer(call: RecordedCall, asker: Asker): Answer;
  /** The agent compacted `context`, dropping `dropped`. */
  compacted(context: ContextName, dropped: readonly HeldItem[]): void;
}

/** What every host is built from. */
export interface HostSetup {
  readonly project: ReadonlyMap<string, ProjectFile>;
  readonly projectRoot: string;
  readonly budget: CallBudget;
}

function filesOf(project: ReadonlyMap<string, ProjectFile>, call: RecordedCall) {
  return call.files.flatMap((f) => {
    const file = project.get(f.path);
    return file ? [{ path: f.path, content: file.content, intended: f.intended }] : [];
  });
}

/** Renders `plan` with the reference renderer and returns the text and the emission. */
function render(
  setup: HostSetup,
  call: RecordedCall,
  files: ReturnType<typeof filesOf>,
  plan: CallPlan,
  pointer?: Parameters<typeof renderMarkdown>[0]['pointer'],
) {
  const recorder = createEmissionRecorder({ projectRoot: setup.projectRoot, query: call.query });
  const { text } = renderMarkdown({
    plan,
    sources: files.map((f) => ({ ...f, symbols: setup.project.get(f.path)?.symbols })),
    recorder,
    title: `Results for "${call.query}"`,
    pointer,
  });
  return { text, emission: recorder.finish(text.length) };
}

/** (a) Dedup off: every call renders its intended spans under its budget. */
function dedupOff(setup: HostSetup): Host {
  return {
    recovery: 'none',
    answer(call) {
      const files = filesOf(setup.project, call);
      const plan = planCall({ files, prior: null, enabled: false, budget: setup.budget });
      const { text } = render(setup, call, files, plan);
      return { text, plan, bucket: 'connection', number: null, token: null };
    },
    compacted() {},
  };
}

/** Revision 1's pointer: no response number, no way back through the tool. */
const revisionOnePointer = (p: {
  path: string;
  covered: readonly { start: number; end: number }[];
  symbols: readonly string[];
  partial: boolean;
}) =>
  formatBackReference({ path: p.path, covered: p.covered, symbols: p.symbols, partial: p.partial });

/** (b) One ledger for the connection, pointers without numbers. */
function revisionOne(setup: HostSetup): Host {
  const store = createSessionStore();
  return {
    recovery: 'read',
    answer(call) {
      const files = filesOf(setup.project, call);
      const prior = projectFromView(store.view(), setup.projectRoot);
      const plan = planCall({ files, prior, budget: setup.budget });
      const { text, emission } = render(setup, call, files, plan, revisionOnePointer);
      store.record(emission);
      return { text, plan, bucket: 'connection', number: null, token: null };
    },
    compacted() {},
  };
}

/** The host of one arm, fresh (an empty ledger) for every sequence. */
export function createHost(arm: ArmName, setup: HostSetup): Host {
  switch (arm) {
    case 'a':
      return dedupOff(setup);
    case 'b':
      return revisionOne(setup);
    default:
      throw new PendingArm(arm);
  }
}

/** An arm whose library API has not landed yet. */
export class PendingArm extends Error {
  constructor(readonly arm: ArmName) {
    super(`arm (${arm}) is pending: the revision-2 API it needs is not in this build`);
  }
}
