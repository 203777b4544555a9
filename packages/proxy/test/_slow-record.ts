/**
 * A client that hangs up while its call's record is on its way to the store,
 * and calls again at once in the same context: the proxy's HTTP front and
 * relay over a store whose record the caller holds on cue, in front of an
 * upstream that answers at once. Shared by the proxy's test and the faults
 * bench (`span-ledger-proxy: client hangs up while Redis holds the record`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mintContextToken } from 'span-ledger';
import {
  callToHangUp,
  holdRedisWrites,
  httpRequest,
  MCP_HEADERS,
  messagesOf,
  toolCall,
} from '../../../test/e2e/_faults.js';
import type { CallSetup } from '../src/call.js';
import { openRoot } from '../src/disk.js';
import { createHookState } from '../src/hook.js';
import { serveMcpHttp } from '../src/http/index.js';
import { genericProfile } from '../src/sectioned.js';
import { createRelay, type RelayCore } from '../src/server.js';
import { createStats } from '../src/stats.js';
import type { ProxyStore } from '../src/store.js';
import type { Upstream } from '../src/upstream.js';
import { REPO } from './_bin.js';
import { until } from './_proxy.js';

const CART = 'fixtures/sample/src/cart.ts';
const MONEY = 'fixtures/sample/src/money.ts';

/** The upstream's answer: numbered sections of whole files. */
function sections(files: readonly string[]): string {
  const parts = files.map((path) => {
    const lines = readFileSync(join(REPO, path), 'utf8').split('\n');
    const numbered = lines.map((line, i) => `${i + 1}\t${line}`).join('\n');
    return `**\`${path}\`**\n\n\`\`\`ts\n${numbered}\n\`\`\`\n`;
  });
  return `**Sections**\n\n${parts.join('\n')}`;
}

/**
 * An upstream that answers `explore` at once: the cart first, then the
 * money module (what only the second response sends), then both.
 */
function upstream(): Upstream {
  const answers = [[CART], [MONEY], [CART, MONEY]].map(sections);
  let calls = 0;
  return {
    initialized: { protocolVersion: '2025-11-25', capabilities: { tools: {} } },
    request: async (method) => {
      if (method !== 'tools/call') return { result: {} };
      const text = answers[Math.min(calls++, answers.length - 1)]!;
      return { result: { content: [{ type: 'text', text }] } };
    },
    notify: () => {},
    hold: () => {},
    close: async () => {},
  };
}

/**
 * `store`, with the record of the `n`-th ticket from now on held by `hold`
 * before it goes, and a count of the calls that asked for a context's lock.
 */
function watched(store: ProxyStore) {
  let tickets = 0;
  let holdAt = Number.POSITIVE_INFINITY;
  let hold: () => Promise<void> = async () => {};
  const watch = {
    locks: 0,
    /** Holds the record of the `n`-th ticket taken from now with `before`. */
    holdRecord(n: number, before: () => Promise<void>) {
      holdAt = tickets + n;
      hold = before;
    },
    store: {
      ...store,
      async reserve(projectRoot, sessionId) {
        const ticket = await store.reserve(projectRoot, sessionId);
        if (ticket === null || ++tickets !== holdAt) return ticket;
        return {
          ...ticket,
          record: async (emission) => {
            await hold();
            return ticket.record(emission);
          },
        };
      },
      exclusive(sessionId, work) {
        watch.locks++;
        return store.exclusive(sessionId, work);
      },
    } satisfies ProxyStore,
  };
  return watch;
}

/**
 * What the proxy's calls need in a shared mode (`--http`, a store other
 * processes may reach), over `store`: minted tokens for shared stores, the
 * generic profile, quiet.
 */
export async function sharedCallSetup(store: ProxyStore, dir = REPO): Promise<CallSetup> {
  return {
    root: (await openRoot(dir))!,
    store,
    stats: createStats(),
    profile: genericProfile,
    enabled: true,
    maxTokens: 25_000,
    mintToken: () => mintContextToken({ shared: true }),
    sharedTokens: true,
    log: () => {},
  };
}

/** The proxy's HTTP front, stateless as `--http` runs it, over `store`. */
async function frontOver(store: ProxyStore) {
  const setup = await sharedCallSetup(store);
  const { root, stats } = setup;
  const proxied = new Set(['explore']);
  const core: RelayCore = {
    upstream: upstream(),
    setup,
    stats,
    timeoutMs: 10_000,
    proxied,
    hooks: { root, store, proxied, state: createHookState(), log: () => {} },
    choose: () => true,
    relays: new Set(),
  };
  return serveMcpHttp({
    port: 0,
    stateful: false,
    limits: { refusalDelayMs: 0 },
    createServer: () => createRelay(core, {}),
  });
}

/** The text of the result for call `id` in an exchange's body, or `null`. */
function textOf(body: string | null, id: number): string | null {
  const message = messagesOf(body ?? '').find((m) => m.id === id && 'result' in m);
  const result = message?.result as { content?: { text?: string }[] } | undefined;
  return result?.content?.[0]?.text ?? null;
}

/** The response numbers an answer points at ("Sent in response #N"). */
const pointedAt = (text: string) =>
  [...text.matchAll(/Sent in response #(\d+)\b/g)].map((m) => Number(m[1]));

/** A held write as each store has one: Redis paused on cue, or a record that waits in this process. */
export interface Hold {
  /** Holds the writes; resolves once the record waits. */
  hold(): Promise<void>;
  /** Resolves once the record is held. */
  held(): Promise<void>;
  release(): Promise<void>;
}

/**
 * The trial: a call delivered (#1); a second call whose record the store
 * holds; its client hangs up and, once the front has seen it, calls again in
 * the same context; the store answers. The third answer's pointers (the
 * context holds #1 only). Closes `store`.
 *
 * `'cancel'`: instead of hanging up, a cancellation of the second call's id
 * comes on a connection of its own, as a stateless client without a token
 * file sends one (it may be a neighbour's: it undoes the call, never stops
 * it); the second answer still arrives and must not count.
 */
export async function hangUpWhileRecordHeld(
  store: ProxyStore,
  hold: Hold,
  how: 'hang-up' | 'cancel' = 'hang-up',
): Promise<number[]> {
  const watch = watched(store);
  const front = await frontOver(watch.store);
  try {
    const first = await httpRequest(
      front.url,
      'POST',
      MCP_HEADERS,
      JSON.stringify(toolCall(1, {})),
    );
    const token = /^Response #1\S* · context ([A-Za-z0-9_-]+)/.exec(
      textOf(first.text, 1) ?? '',
    )?.[1];
    if (token === undefined) throw new Error(`the first call got no context token: ${first.text}`);
    const args = { context: token };

    watch.holdRecord(1, () => hold.hold());
    const second = callToHangUp(front.url, toolCall(2, args));
    await hold.held();
    if (how === 'hang-up') {
      second.hangUp();
      await until(() => front.stats().calls === 0, 5000, 'the front to see the hang-up');
    } else {
      const cancel = {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 2 },
      };
      await httpRequest(front.url, 'POST', MCP_HEADERS, JSON.stringify(cancel));
    }
    const locks = watch.locks;
    const third = httpRequest(front.url, 'POST', MCP_HEADERS, JSON.stringify(toolCall(3, args)));
    await until(() => watch.locks > locks, 5000, 'the next call to queue on the context');
    await hold.release();
    const answered = (await second.answered) !== null;
    if (answered !== (how === 'cancel')) {
      throw new Error(`the second call was ${answered ? '' : 'not '}answered after a ${how}`);
    }
    const text = textOf((await third).text, 3) ?? '';
    if (!text.startsWith('Response #3'))
      throw new Error(`the next call was not numbered #3: ${text}`);
    return pointedAt(text);
  } finally {
    await front.close();
    await store.close();
  }
}

/** Redis at `url` holding its writes on cue (`CLIENT PAUSE … WRITE` over a connection opened now). */
export async function redisHold(url: string): Promise<Hold> {
  const writes = await holdRedisWrites(url);
  const never = new Promise<never>(() => {});
  return {
    hold: () => writes.hold(),
    held: async () => {
      if (!(await writes.waiting(1, never))) throw new Error('Redis never held the record');
    },
    release: () => writes.release(),
  };
}
