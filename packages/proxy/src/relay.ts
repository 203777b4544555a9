/**
 * The MCP server a client talks to: one per client connection (over stdio,
 * the only one; over stateless HTTP, one per request). It forwards every
 * request, response and notification between its client and the upstream
 * the proxy shares, and takes three things on itself:
 *
 * - `initialize` and `ping` are the proxy's to answer (the upstream was
 *   initialized once, by the proxy, when it started);
 * - the re-rendered tools: their `context` and `refresh` arguments and a
 *   note on what their responses are are added to `tools/list`, their calls
 *   go through `answerCall`, and the proxy's guidance goes first in the
 *   instructions `initialize` returns;
 * - the `span-ledger://stats` resource.
 *
 * Request ids and progress tokens are the proxy's own upstream (a client's
 * id means nothing to the upstream, and two clients may use the same one), so
 * a client's `notifications/cancelled` is turned into the upstream's. Every
 * other byte of a message passes as it came.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CONTEXT_INPUT_SCHEMA, REFRESH_INPUT_SCHEMA } from 'span-ledger';
import { answerCall, type CallSetup, failureText, type Outcome, toolError } from './call.js';
import { isHarnessContextId } from './context.js';
import { answerHook, HOOK_TOOL, type HookSetup } from './hook.js';
import { httpCallOf } from './http/calls.js';
import type { ToolInfo } from './profile.js';
import { STATS_URI, type Stats } from './stats.js';
import {
  type Answer,
  errorAnswer,
  INTERNAL_ERROR,
  type Message,
  type RequestId,
  type Upstream,
} from './upstream.js';

/** The SDK's JSON-RPC code for a request that timed out. */
const REQUEST_TIMEOUT = -32001;

/** The protocol versions the proxy can speak with a client (the SDK's). */
const SUPPORTED_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

/**
 * The proxy's guidance, which goes before the upstream's own instructions
 * whenever it re-renders a tool: a client may keep only the start of them
 * (Claude Code keeps 4,096 chars, and Codegraph's own are longer), so it is
 * first and at most 600 chars. It says what a numbered response, a pointer,
 * `refresh` and the context token are.
 */
export const INSTRUCTIONS =
  'Tools that take `context` and `refresh` number their responses ("Response #N"). A pointer in ' +
  'place of source ("Sent in response #N …" or "`path` L5-11: unchanged, sent in #N.") means response ' +
  '#N already sent you those lines and the file is unchanged since. If #N is no longer in your ' +
  'context, call the tool again with `refresh: [N]` (or `true`): the source comes back in full. ' +
  'The context token a response gives you tells your context from others on the connection: ' +
  'pass it back as `context`, and leave it out if no response in your own context gave you one.';

/**
 * What each re-rendered tool's description says after the upstream's own: a
 * subagent gets no server instructions, only the tool schemas.
 */
export const TOOL_NOTE =
  'Through span-ledger-proxy its responses are numbered ("Response #N"), and source lines ' +
  'response #N already sent you unchanged come back as a pointer citing #N. Pass the context ' +
  'token a response gives you as `context`; pass `refresh: [N]` when response #N is no longer ' +
  'in your context, and its source comes back in full.';

/**
 * How long a tool description a client keeps whole: Claude Code cuts one
 * past 4,096 chars. The note goes after the upstream's text while both fit,
 * else before it, so it is never the part cut.
 */
const KEPT_DESCRIPTION_CHARS = 4096;

/**
 * A call of a tool the proxy does not re-render, without the `context` a
 * harness plugin sets on every tool of the server (and the `refresh` beside
 * it): only an id the harness made is taken out, never an argument of the
 * upstream's own.
 */
function withoutHarnessArguments(params: Record<string, unknown>): Record<string, unknown> {
  const args = asObject(params.arguments);
  if (!isHarnessContextId(typeof args.context === 'string' ? args.context : null)) return params;
  const { context: _context, refresh: _refresh, ...rest } = args;
  return { ...params, arguments: rest };
}

/**
 * What every relay of one proxy shares.
 */
export interface RelayCore {
  readonly upstream: Upstream;
  readonly setup: CallSetup;
  readonly stats: Stats;
  readonly timeoutMs: number;
  /** The tools re-rendered now (kept up to date from every `tools/list` answer). */
  readonly proxied: Set<string>;
  /** What the harness hooks answer from (`span_ledger_hook`, never listed). */
  readonly hooks: HookSetup;
  /** Whether a listed tool is re-rendered. */
  readonly choose: (tool: ToolInfo) => boolean;
  /** The relays connected now: upstream notifications go to all of them. */
  readonly relays: Set<Relay>;
}

/**
 * One client's server.
 */
export interface ProxyServer {
  /** Starts serving `transport` (stdio, or an HTTP request's streamable transport). */
  connect(transport: Transport): Promise<void>;
  /** Stops: calls in flight are cancelled upstream and record nothing. */
  close(): Promise<void>;
  /** Called once the transport has closed (the client went away) or `close` ran. */
  onclose?: (() => void) | undefined;
}

/**
 * A relay as the core sees it.
 */
export interface Relay extends ProxyServer {
  /**
   * Sends an upstream notification to the client. Past
   * {@link MAX_UNSENT} messages its transport has not taken yet, a promise
   * that settles once it has taken them all (the core holds the upstream
   * until then); else `null`.
   */
  notify(message: Message): Promise<void> | null;
  /** Asks the client a request the upstream sent (sampling, roots, elicitation). */
  ask(message: Message): Promise<Answer>;
}

let progressTokens = 0;

/**
 * Messages a client's transport may hold unsent (a client that stopped
 * reading) before the upstream is held: bounded buffers, whatever it writes.
 */
export const MAX_UNSENT = 64;

function keyOf(id: unknown): string {
  return typeof id === 'string' ? `s:${id}` : `n:${String(id)}`;
}

function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/**
 * The upstream's description of a tool with {@link TOOL_NOTE} after it, or
 * before it when the two would be longer than a client keeps: the upstream's
 * text stays as it was either way.
 *
 * @example
 * ```ts
 * describedWithNote('Shows numbered sections of files.');
 * // 'Shows numbered sections of files.\n\nThrough span-ledger-proxy its responses are numbered …'
 * describedWithNote('x'.repeat(4000)).startsWith(TOOL_NOTE); // true
 * ```
 */
export function describedWithNote(description: unknown): string {
  if (typeof description !== 'string' || description.trim() === '') return TOOL_NOTE;
  const after = `${description}\n\n${TOOL_NOTE}`;
  return after.length <= KEPT_DESCRIPTION_CHARS ? after : `${TOOL_NOTE}\n\n${description}`;
}

/** `tool` with the proxy's two arguments in its input schema, and its note in its description. */
function withProxyArguments(tool: Record<string, unknown>): Record<string, unknown> {
  const schema = asObject(tool.inputSchema);
  return {
    ...tool,
    description: describedWithNote(tool.description),
    inputSchema: {
      ...schema,
      properties: {
        ...asObject(schema.properties),
        context: CONTEXT_INPUT_SCHEMA,
        refresh: REFRESH_INPUT_SCHEMA,
      },
    },
  };
}

/** The stats resource, as `resources/list` shows it. */
const STATS_RESOURCE = Object.freeze({
  uri: STATS_URI,
  name: 'span-ledger-stats',
  title: 'span-ledger savings',
  description:
    'What span-ledger-proxy saved, per agent context and in total: chars (and estimated tokens) the upstream answered and the client was sent, pointers, refreshes, unproven sections.',
  mimeType: 'application/json',
});

/**
 * A new relay on `core` (see {@link ProxyServer}). `principal` prefixes every
 * context key, for a front that knows who is asking.
 *
 * @example
 * ```ts
 * const relay = createRelay(core, {});
 * await relay.connect(transport);
 * ```
 */
export function createRelay(
  core: RelayCore,
  options: { readonly principal?: string | undefined },
): Relay {
  const { upstream, setup } = core;
  let transport: Transport | null = null;
  let closed = false;
  const inflight = new Map<string, AbortController>();
  const asked = new Map<string, (answer: Answer) => void>();
  let askedIds = 0;

  /** Messages handed to the transport and not yet taken, and who waits for none to be left. */
  let unsent = 0;
  let queue = Promise.resolve();
  let drained: { promise: Promise<void>; resolve: () => void } | null = null;

  const send = async (
    message: Record<string, unknown>,
    relatedRequestId?: RequestId,
  ): Promise<boolean> => {
    if (transport === null || closed) return false;
    unsent++;
    // One at a time, in order: a transport that waits for its stream to
    // drain then holds one message (and one listener), never one per message.
    const turn = queue;
    let done = () => {};
    queue = new Promise<void>((next) => {
      done = next;
    });
    try {
      await turn;
      if (transport === null || closed) return false;
      await transport.send(
        message as JSONRPCMessage,
        relatedRequestId === undefined ? undefined : { relatedRequestId },
      );
      return true;
    } catch {
      return false;
    } finally {
      done();
      if (--unsent === 0 && drained !== null) {
        drained.resolve();
        drained = null;
      }
    }
  };

  /** Sends a request upstream under the proxy's own progress token, relaying progress to the client. */
  const forward = (
    method: string,
    params: unknown,
    signal: AbortSignal,
    clientId: RequestId,
  ): Promise<Answer> => {
    const p = asObject(params);
    const meta = asObject(p._meta);
    let onProgress: ((progress: Record<string, unknown>) => void) | undefined;
    let sent = params;
    if (meta.progressToken !== undefined && meta.progressToken !== null) {
      const original = meta.progressToken;
      const own = `span-ledger-proxy-${++progressTokens}`;
      sent = { ...p, _meta: { ...meta, progressToken: own } };
      onProgress = (progress) =>
        void send(
          {
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { ...progress, progressToken: original },
          },
          clientId,
        );
    }
    return upstream.request(method, sent, { timeoutMs: core.timeoutMs, signal, onProgress });
  };

  /** An answer as a JSON-RPC reply: `null` when the call was cancelled (nothing is sent). */
  const replyOf = (answer: Answer): Outcome => {
    if ('result' in answer) return { reply: { result: answer.result }, receipt: null };
    if ('error' in answer) return { reply: { error: answer.error }, receipt: null };
    if (answer.failed === 'cancelled') return null;
    const code = answer.failed === 'timeout' ? REQUEST_TIMEOUT : INTERNAL_ERROR;
    return {
      reply: { error: { code, message: `span-ledger-proxy: ${answer.message}` } },
      receipt: null,
    };
  };

  const initializeResult = (params: Record<string, unknown>) => {
    const up = upstream.initialized;
    const requested = params.protocolVersion;
    const capabilities = asObject(up.capabilities);
    // The proxy's first: a client may keep only the start of them.
    const instructions = [
      core.proxied.size > 0 ? INSTRUCTIONS : '',
      typeof up.instructions === 'string' ? up.instructions : '',
    ]
      .filter((text) => text !== '')
      .join('\n\n');
    return {
      ...up,
      protocolVersion:
        typeof requested === 'string' && SUPPORTED_VERSIONS.includes(requested)
          ? requested
          : up.protocolVersion,
      capabilities: { ...capabilities, resources: asObject(capabilities.resources) },
      ...(instructions === '' ? {} : { instructions }),
    };
  };

  const upstreamHasResources = () =>
    asObject(upstream.initialized.capabilities).resources !== undefined;

  const route = async (
    method: string,
    params: Record<string, unknown>,
    signal: AbortSignal,
    id: RequestId,
  ): Promise<Outcome> => {
    switch (method) {
      case 'initialize':
        return { reply: { result: initializeResult(params) }, receipt: null };
      case 'ping':
        return { reply: { result: {} }, receipt: null };
      case 'tools/list': {
        const outcome = replyOf(await forward(method, params, signal, id));
        if (outcome === null || !('result' in outcome.reply)) return outcome;
        const result = asObject(outcome.reply.result);
        if (!Array.isArray(result.tools)) return outcome;
        const tools = result.tools.map((tool) => {
          const info = asObject(tool) as unknown as ToolInfo;
          if (typeof info.name !== 'string') return tool;
          if (!core.choose(info)) {
            core.proxied.delete(info.name);
            return tool;
          }
          core.proxied.add(info.name);
          return withProxyArguments(asObject(tool));
        });
        return { reply: { result: { ...result, tools } }, receipt: null };
      }
      case 'tools/call': {
        const tool = params.name;
        if (tool === HOOK_TOOL) {
          const result = await answerHook(core.hooks, params.arguments, options.principal);
          return { reply: { result }, receipt: null };
        }
        if (typeof tool === 'string' && core.proxied.has(tool)) {
          return answerCall(setup, {
            tool,
            args: params.arguments,
            meta: params._meta,
            signal,
            principal: options.principal,
            forward: (args) => forward(method, { ...params, arguments: args }, signal, id),
          });
        }
        const answer = await forward(method, withoutHarnessArguments(params), signal, id);
        if (!('failed' in answer) || answer.failed === 'cancelled') return replyOf(answer);
        return { reply: { result: toolError(failureText(String(tool), answer)) }, receipt: null };
      }
      case 'resources/list': {
        const first = params.cursor === undefined;
        if (!upstreamHasResources())
          return { reply: { result: { resources: [STATS_RESOURCE] } }, receipt: null };
        const outcome = replyOf(await forward(method, params, signal, id));
        if (outcome === null || !('result' in outcome.reply) || !first) return outcome;
        const result = asObject(outcome.reply.result);
        const resources = Array.isArray(result.resources) ? result.resources : [];
        return {
          reply: { result: { ...result, resources: [STATS_RESOURCE, ...resources] } },
          receipt: null,
        };
      }
      case 'resources/read':
        if (params.uri === STATS_URI) {
          const text = JSON.stringify(core.stats.report(), null, 2);
          return {
            reply: {
              result: { contents: [{ uri: STATS_URI, mimeType: 'application/json', text }] },
            },
            receipt: null,
          };
        }
        return replyOf(await forward(method, params, signal, id));
      case 'resources/templates/list':
        if (!upstreamHasResources())
          return { reply: { result: { resourceTemplates: [] } }, receipt: null };
        return replyOf(await forward(method, params, signal, id));
      default:
        return replyOf(await forward(method, params, signal, id));
    }
  };

  /** `extra`: what the transport knows of the request (through the HTTP front, its delivery). */
  const onRequest = async (message: Message, extra: unknown) => {
    const id = message.id as RequestId;
    const key = keyOf(id);
    const controller = new AbortController();
    inflight.set(key, controller);
    // Through the HTTP front: a hang-up or a cancellation seen on any process aborts the call too.
    const http = httpCallOf(extra);
    http?.signal.addEventListener('abort', () => controller.abort(), { once: true });
    try {
      const outcome = await route(
        message.method as string,
        asObject(message.params),
        controller.signal,
        id,
      );
      if (outcome === null) return;
      const takeBack = async () => outcome.receipt?.undo();
      // Cancelled after it was recorded: the client ignores the answer, so the record goes.
      if (controller.signal.aborted) return await takeBack();
      const sent = await send({ jsonrpc: '2.0', id, ...outcome.reply }, id);
      if (!sent) await takeBack();
      // Sent, and then not delivered after all (the exchange closed before the
      // answer was written whole, or a cancellation arrived just after it): undone.
      else if (outcome.receipt !== null) http?.onUndelivered(() => void takeBack());
    } catch (error) {
      setup.log(
        `${String(message.method)}: ${error instanceof Error ? error.message : String(error)}`,
      );
      await send(
        {
          jsonrpc: '2.0',
          id,
          error: { code: INTERNAL_ERROR, message: 'span-ledger-proxy: internal error' },
        },
        id,
      );
    } finally {
      inflight.delete(key);
    }
  };

  const onNotification = (message: Message) => {
    const method = message.method as string;
    if (method === 'notifications/initialized') return;
    if (method === 'notifications/cancelled') {
      inflight.get(keyOf(asObject(message.params).requestId))?.abort();
      return;
    }
    upstream.notify(method, message.params);
  };

  const onResponse = (message: Message) => {
    const settle = asked.get(keyOf(message.id));
    if (settle === undefined) return;
    asked.delete(keyOf(message.id));
    if (message.error !== undefined) {
      settle(errorAnswer(asObject(message.error), 'client error'));
    } else {
      settle({ result: message.result });
    }
  };

  const relay: Relay = {
    async connect(t) {
      transport = t;
      t.onmessage = (raw, extra) => {
        const message = raw as unknown as Message;
        if (typeof message.method === 'string') {
          if (message.id !== undefined && message.id !== null) void onRequest(message, extra);
          else onNotification(message);
        } else if (message.id !== undefined && message.id !== null) {
          onResponse(message);
        }
      };
      t.onclose = () => void relay.close();
      t.onerror = () => {};
      core.relays.add(relay);
      await t.start();
    },
    async close() {
      if (closed) return;
      closed = true;
      core.relays.delete(relay);
      for (const controller of inflight.values()) controller.abort();
      drained?.resolve();
      drained = null;
      for (const settle of asked.values())
        settle({ failed: 'cancelled', message: 'the client went away' });
      asked.clear();
      const t = transport;
      transport = null;
      await t?.close().catch(() => {});
      relay.onclose?.();
    },
    notify(message) {
      void send(message);
      if (unsent < MAX_UNSENT) return null;
      if (drained === null) {
        let resolve = () => {};
        const promise = new Promise<void>((done) => {
          resolve = done;
        });
        drained = { promise, resolve };
      }
      return drained.promise;
    },
    ask(message) {
      if (closed || transport === null) {
        return Promise.resolve({
          failed: 'unavailable',
          message: 'no client is connected',
        } as Answer);
      }
      const id = `span-ledger-proxy-${++askedIds}`;
      return new Promise<Answer>((resolve) => {
        const timer = setTimeout(() => {
          asked.delete(keyOf(id));
          resolve({ failed: 'timeout', message: 'the client did not answer' });
        }, core.timeoutMs);
        timer.unref?.();
        asked.set(keyOf(id), (answer) => {
          clearTimeout(timer);
          resolve(answer);
        });
        void send({ ...message, id }).then((sent) => {
          if (sent) return;
          asked.delete(keyOf(id));
          clearTimeout(timer);
          resolve({ failed: 'unavailable', message: 'the client could not be reached' });
        });
      });
    },
  };
  return relay;
}
