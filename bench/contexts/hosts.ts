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
 *   echoes the last token it holds, a call without one gets a fresh token,
 *   and every response names its context's token (as `examples/mcp-explore`).
 */
import { createEmissionRecorder, renderMarkdown } from '../../src/adapter/index.js';
import type { ProjectFile, RecordedCall } from '../../src/cli/replay.js';
import {
  type CallBudget,
  type CallPlan,
  createSessionStore,
  describeSession,
  formatPointer,
  type PointerInput,
  planCall,
  projectFromView,
  readContextToken,
  readRefresh,
} from '../../src/index.js';
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
  /** The context token the response names in its header, or `null`. */
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

/** Revision 1's pointer: no response number, no way back through the tool. */
const revisionOnePointer = (p: PointerInput) =>
  formatPointer({ path: p.path, covered: p.covered, symbols: p.symbols, partial: p.partial });

/** How a response is rendered: revision 1 (no number, its pointer) or revision 2. */
interface RenderAs {
  readonly revision: 1 | 2;
  /** The response's number (revision 2). */
  readonly callIndex?: number | null | undefined;
  /** A context token to hand out in the header (revision 2). */
  readonly context?: string | undefined;
}

/** Renders `plan` with the reference renderer and returns the text and the emission. */
function render(
  setup: HostSetup,
  call: RecordedCall,
  files: ReturnType<typeof filesOf>,
  plan: CallPlan,
  as: RenderAs,
) {
  const recorder = createEmissionRecorder({ projectRoot: setup.projectRoot, query: call.query });
  const { text } = renderMarkdown({
    plan,
    sources: files.map((f) => ({ ...f, symbols: setup.project.get(f.path)?.symbols })),
    recorder,
    title: `Results for "${call.query}"`,
    ...(as.revision === 1
      ? { pointer: revisionOnePointer, callIndex: null }
      : { refresh: true, callIndex: as.callIndex ?? null, context: as.context }),
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
      const { text } = render(setup, call, files, plan, { revision: 2 });
      return { text, plan, bucket: 'connection', number: null, token: null };
    },
    compacted() {},
  };
}

/** (b) One ledger for the connection, pointers without numbers. */
function revisionOne(setup: HostSetup): Host {
  const store = createSessionStore();
  return {
    recovery: 'read',
    answer(call) {
      const files = filesOf(setup.project, call);
      const prior = projectFromView(store.view(), setup.projectRoot);
      const plan = planCall({ files, prior, budget: setup.budget });
      const { text, emission } = render(setup, call, files, plan, { revision: 1 });
      store.record(emission);
      return { text, plan, bucket: 'connection', number: null, token: null };
    },
    compacted() {},
  };
}

/**
 * (c), (d), (e): revision 2. `bucketOf` is how the host tells contexts apart
 * (nothing: one bucket for the connection; the host's context id; the token
 * the agent echoes), `prunesOnCompaction` whether the host says what a
 * compaction removed.
 */
function revisionTwo(setup: HostSetup, mode: 'connection' | 'host-ids' | 'tokens'): Host {
  const store = createSessionStore();
  let minted = 0;
  return {
    recovery: 'refresh',
    answer(call, asker) {
      let sessionId: string | undefined;
      if (mode === 'host-ids') sessionId = asker.context;
      if (mode === 'tokens') {
        // The tool argument as a client sends it, read the way a server reads it; a call
        // without a token gets a fresh one. mintContextToken() draws 8 random chars; a counter
        // of the same length keeps the run a pure function of the sequences.
        const echoed = readContextToken({ context: asker.token ?? undefined });
        if (echoed === null) minted += 1;
        sessionId = echoed ?? `ctx${String(minted).padStart(5, '0')}`;
      }
      // Every response names its context's token, as examples/mcp-explore does.
      const token = mode === 'tokens' ? (sessionId ?? null) : null;
      const refresh = readRefresh({ refresh: asker.refresh });
      if (refresh !== null) store.prune({ sessionId, projectRoot: setup.projectRoot, ...refresh });
      const files = filesOf(setup.project, call);
      const prior = store.project(setup.projectRoot, sessionId);
      const plan = planCall({ files, prior, budget: setup.budget });
      const number = describeSession(prior)?.callIndex ?? null;
      const { text, emission } = render(setup, call, files, plan, {
        revision: 2,
        callIndex: number,
        context: token ?? undefined,
      });
      store.record(emission, sessionId);
      return {
        text,
        plan,
        bucket: sessionId ?? 'connection',
        number,
        token,
      };
    },
    compacted(context, dropped) {
      if (mode !== 'host-ids') return;
      // The host knows which tool results it removed: their response numbers.
      const calls = dropped.flatMap((item) =>
        item.ref === null ? [] : [Number(item.ref.slice(item.ref.lastIndexOf('#') + 1))],
      );
      if (calls.length > 0)
        store.prune({ sessionId: context, projectRoot: setup.projectRoot, calls });
    },
  };
}

/** The host of one arm, fresh (an empty ledger) for every sequence. */
export function createHost(arm: ArmName, setup: HostSetup): Host {
  switch (arm) {
    case 'a':
      return dedupOff(setup);
    case 'b':
      return revisionOne(setup);
    case 'c':
      return revisionTwo(setup, 'connection');
    case 'd':
      return revisionTwo(setup, 'host-ids');
    case 'e':
      return revisionTwo(setup, 'tokens');
  }
}
