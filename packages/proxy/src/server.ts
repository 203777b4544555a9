/**
 * The MCP server a client talks to: one per client connection (over stdio,
 * the only one; over stateless HTTP, one per request), on the SDK's protocol
 * engine. Every request and notification it does not take on itself goes to
 * the upstream the proxy shares, and every byte of its answer comes back as
 * it came; it takes three things on itself:
 *
 * - `initialize` and `ping` are the proxy's to answer (the upstream was
 *   initialized once, by the proxy, when it started);
 * - the re-rendered tools: their `context` and `refresh` arguments and a
 *   note on what their responses are are added to `tools/list`, their calls
 *   go through `answerCall`, and the proxy's guidance goes first in the
 *   instructions `initialize` returns;
 * - the `span-ledger://stats` resource.
 *
 * Ids and progress tokens upstream are the upstream connection's own (a
 * client's id means nothing to the upstream, and two clients may use the
 * same one); a client's cancellation reaches only the calls of its own
 * connection.
 */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  type JSONRPCRequest,
  McpError,
  type Notification,
  type Request,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { CONTEXT_INPUT_SCHEMA, REFRESH_INPUT_SCHEMA } from 'span-ledger';
import {
  answerCall,
  type CallSetup,
  failureText,
  type Outcome,
  toolError,
  unrecorded,
  withoutProxyArguments,
} from './call.js';
import { isHarnessContextId } from './context.js';
import { errorMessage } from './error-message.js';
import { answerHook, HOOK_TOOL, type HookSetup } from './hook.js';
import { httpCallOf } from './http/calls.js';
import { isObject } from './json.js';
import { AS_IS, Link } from './link.js';
import { Outbox } from './outbox.js';
import type { ToolInfo } from './profile.js';
import { STATS_URI, type Stats } from './stats.js';
import { type Answer, type Message, peerError, type Upstream } from './upstream.js';

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
  return { ...params, arguments: withoutProxyArguments(args) };
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
 * What every client server of one proxy shares.
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
  /** The servers connected now: upstream notifications go to all of them. */
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
 * A client's server as the proxy's core sees it.
 */
export interface Relay extends ProxyServer {
  /**
   * Sends an upstream notification to the client. Past `MAX_UNSENT`
   * messages its transport has not taken yet, a promise that settles once
   * it has taken them all (the core holds the upstream until then); else
   * `null`.
   */
  notify(message: Message): Promise<void> | null;
  /** Asks the client a request the upstream sent (sampling, roots, elicitation). */
  ask(message: Message): Promise<Answer>;
}

/** One request of a client, as the routes see it. */
interface Call {
  readonly signal: AbortSignal;
  /** Fires when the answer can no longer count as delivered (also for a cancellation that does not stop the call). */
  readonly undone: AbortSignal;
  readonly principal: string | undefined;
  /** Sends the request upstream (its params as given), relaying its progress to the client. */
  forward(params: unknown): Promise<Answer>;
}

type Route = (core: RelayCore, params: Record<string, unknown>, call: Call) => Promise<Outcome>;

function asObject(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}

/** `result` as an {@link Outcome} that records nothing. */
const reply = (result: unknown): Outcome => unrecorded({ result });

/** An upstream answer as a reply: `null` when the call was cancelled (nothing is sent). */
function replyOf(answer: Answer): Outcome {
  if (!('failed' in answer)) return unrecorded(answer);
  if (answer.failed === 'cancelled') return null;
  const code = answer.failed === 'timeout' ? ErrorCode.RequestTimeout : ErrorCode.InternalError;
  return unrecorded({ error: { code, message: `span-ledger-proxy: ${answer.message}` } });
}

/** The upstream's `initialize` result, with the version asked for and the proxy's guidance first. */
function initializeResult(core: RelayCore, params: Record<string, unknown>) {
  const up = core.upstream.initialized;
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
      typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
        ? requested
        : up.protocolVersion,
    capabilities: { ...capabilities, resources: asObject(capabilities.resources) },
    ...(instructions === '' ? {} : { instructions }),
  };
}

const upstreamHasResources = (core: RelayCore) =>
  asObject(core.upstream.initialized.capabilities).resources !== undefined;

/** The upstream's tools, each re-rendered one with the proxy's arguments and note. */
const listTools: Route = async (core, _params, call) => {
  const outcome = replyOf(await call.forward(_params));
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
  return reply({ ...result, tools });
};

/** A call: the hook tool, a re-rendered tool (through `answerCall`), or another, passed on. */
const callTool: Route = async (core, params, call) => {
  const tool = params.name;
  if (tool === HOOK_TOOL)
    return reply(await answerHook(core.hooks, params.arguments, call.principal));
  if (typeof tool === 'string' && core.proxied.has(tool)) {
    return answerCall(core.setup, {
      tool,
      args: params.arguments,
      meta: params._meta,
      signal: call.signal,
      undone: call.undone,
      principal: call.principal,
      forward: (args) => call.forward({ ...params, arguments: args }),
    });
  }
  const answer = await call.forward(withoutHarnessArguments(params));
  if (!('failed' in answer) || answer.failed === 'cancelled') return replyOf(answer);
  return reply(toolError(failureText(String(tool), answer)));
};

/** The upstream's resources after the stats resource (on the first page). */
const listResources: Route = async (core, params, call) => {
  if (!upstreamHasResources(core)) return reply({ resources: [STATS_RESOURCE] });
  const outcome = replyOf(await call.forward(params));
  if (outcome === null || !('result' in outcome.reply) || params.cursor !== undefined)
    return outcome;
  const result = asObject(outcome.reply.result);
  const resources = Array.isArray(result.resources) ? result.resources : [];
  return reply({ ...result, resources: [STATS_RESOURCE, ...resources] });
};

/** The methods the proxy takes on itself; every other one is forwarded as it came. */
const ROUTES: Readonly<Record<string, Route>> = Object.freeze({
  initialize: async (core, params) => reply(initializeResult(core, params)),
  'tools/list': listTools,
  'tools/call': callTool,
  'resources/list': listResources,
  'resources/read': async (core, params, call) => {
    if (params.uri !== STATS_URI) return replyOf(await call.forward(params));
    const text = JSON.stringify(core.stats.report(), null, 2);
    return reply({ contents: [{ uri: STATS_URI, mimeType: 'application/json', text }] });
  },
  'resources/templates/list': async (core, params, call) =>
    upstreamHasResources(core)
      ? replyOf(await call.forward(params))
      : reply({ resourceTemplates: [] }),
});

/** A signal that aborts when either does. */
function eitherOf(a: AbortSignal, b: AbortSignal | undefined): AbortSignal {
  if (b === undefined) return a;
  const controller = new AbortController();
  for (const signal of [a, b]) {
    if (signal.aborted) controller.abort();
    else signal.addEventListener('abort', () => controller.abort(), { once: true });
  }
  return controller.signal;
}

/** Where the upstream's progress on a request with `params` goes: to the client, under its own token. */
function progressTo(
  extra: RequestHandlerExtra<Request, Notification>,
  params: unknown,
): ((progress: Record<string, unknown>) => void) | undefined {
  const token = asObject(asObject(params)._meta).progressToken;
  if (token === undefined || token === null) return undefined;
  return (progress) =>
    void extra.sendNotification({
      method: 'notifications/progress',
      params: { ...progress, progressToken: token },
    });
}

const forwardAsItCame: Route = async (_core, params, call) => replyOf(await call.forward(params));

/**
 * Answers one request of a client (what the SDK sends back: the result
 * returned, or the error thrown); its record is undone when the answer does
 * not reach the client.
 */
async function answerRequest(
  core: RelayCore,
  principal: string | undefined,
  outbox: Outbox | null,
  request: JSONRPCRequest,
  extra: RequestHandlerExtra<Request, Notification>,
): Promise<Record<string, unknown>> {
  // Through the HTTP front: a hang-up or a cancellation seen on any process aborts the call too.
  const http = httpCallOf(extra);
  const signal = eitherOf(extra.signal, http?.signal);
  const undone = new AbortController();
  http?.onUndelivered(() => undone.abort());
  const call: Call = {
    signal,
    undone: eitherOf(signal, undone.signal),
    principal,
    forward: (params) =>
      core.upstream.request(request.method, params, {
        timeoutMs: core.timeoutMs,
        signal,
        onProgress: progressTo(extra, params),
      }),
  };
  const route = ROUTES[request.method] ?? forwardAsItCame;
  const outcome = await route(core, asObject(request.params), call).catch((error: unknown) => {
    core.setup.log(`${request.method}: ${errorMessage(error)}`);
    throw { code: ErrorCode.InternalError, message: 'span-ledger-proxy: internal error' };
  });
  if (outcome === null)
    throw { code: ErrorCode.InternalError, message: 'span-ledger-proxy: cancelled' };
  const receipt = outcome.receipt;
  const takeBack = async () => receipt?.undo();
  // Cancelled after it was recorded: the client ignores the answer, so the record goes.
  if (call.signal.aborted) await takeBack();
  // Sent, and then not delivered after all (the exchange closed before the
  // answer was written whole, or a cancellation arrived just after it): undone.
  else if (receipt !== null) {
    outbox?.onSent(request.id, (sent) =>
      sent ? http?.onUndelivered(() => void takeBack()) : void takeBack(),
    );
  }
  if ('error' in outcome.reply) throw outcome.reply.error;
  return outcome.reply.result as Record<string, unknown>;
}

/**
 * A new server for one client on `core` (see {@link ProxyServer}).
 * `principal` prefixes every context key, for a front that knows who is
 * asking.
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
  const link = new Link();
  let outbox: Outbox | null = null;
  let closed = false;
  link.onerror = () => {};
  link.fallbackNotificationHandler = async ({ method, params }) => {
    if (method !== 'notifications/initialized') core.upstream.notify(method, params);
  };
  link.fallbackRequestHandler = (request, extra) =>
    answerRequest(core, options.principal, outbox, request, extra);

  const relay: Relay = {
    async connect(transport) {
      outbox = new Outbox(transport);
      link.onclose = () => void relay.close();
      core.relays.add(relay);
      await link.connect(outbox);
    },
    async close() {
      if (closed) return;
      closed = true;
      core.relays.delete(relay);
      await link.close().catch(() => {});
      relay.onclose?.();
    },
    notify(message) {
      if (closed || outbox === null) return null;
      outbox.send(message as never).catch(() => {});
      return outbox.backlog();
    },
    ask(message) {
      if (closed)
        return Promise.resolve({ failed: 'unavailable', message: 'no client is connected' });
      const { method, params } = message as { method: string; params?: Record<string, unknown> };
      return link.request({ method, params }, AS_IS, { timeout: core.timeoutMs }).then(
        (result): Answer => ({ result }),
        (error: unknown): Answer =>
          error instanceof McpError
            ? peerError(error)
            : { failed: 'unavailable', message: 'the client could not be reached' },
      );
    },
  };
  return relay;
}
