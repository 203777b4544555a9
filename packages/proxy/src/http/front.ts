/**
 * The HTTP front of an MCP server on a developer's machine: Streamable HTTP
 * on loopback, with the transport's security rules and bounds that keep one
 * client from taking the server from the others. The example daemon and
 * `span-ledger-proxy --http` both serve through it, so the rules live once.
 *
 * What it does, in request order: `Host` and `Origin` (403), the bearer token
 * when a token file is configured (401), `/healthz` (renders nothing), the
 * body (bounded, no JSON-RPC batches), a `notifications/cancelled` (handled
 * here, in every mode), the call's admission (per context and per client, a
 * "busy" tool error past it), and then the MCP transport — one session table
 * (stateful) or one server per request (stateless). The socket server cuts
 * slow clients (header and request timeouts) and bounds connections.
 *
 * What it does not do: render, plan, queue or record. The host's MCP server
 * does, reading each call's delivery and cancellation through `httpCallOf`.
 */
import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Socket } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { contextIdFromMeta, readContextToken } from 'span-ledger';
import { errorMessage } from '../error-message.js';
import { isObject } from '../json.js';
import { authInfoFor, CallTable, type Exchange } from './calls.js';
import type { CancelRelay } from './cancellations.js';
import { isAllowedHost, isAllowedOrigin, principalOf, type TokenSet } from './rules.js';
import { bindAddress, hostInUrl, listenFailure } from './startup.js';

/**
 * The front's bounds. Each is sized for one developer's machine serving a
 * handful of agents, and each protects the others from one client.
 */
export const HTTP_LIMITS = Object.freeze({
  /** A request body; the MCP SDK's own bound is 4 MiB. */
  maxBodyBytes: 1024 * 1024,
  /** Open connections; past it a new one is closed at once. Slow ones are cut long before. */
  maxConnections: 512,
  /** Until a request's headers are in: a client that dribbles them is cut after this. */
  headersTimeoutMs: 5_000,
  /** Until a whole request (headers and body) is in. */
  requestTimeoutMs: 10_000,
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: 5_000,
  /** Open MCP sessions (stateful). */
  maxSessions: 1000,
  /** Open MCP sessions per principal when a token file is configured (without one, every client is one). */
  maxSessionsPerClient: 100,
  /** A session with no request for this long is closed, and its ledger with it. */
  idleMs: 30 * 60_000,
  /**
   * A session that never made a tool call is closed after this long idle:
   * abandoned `initialize`s (an inspector that never says DELETE, a flood)
   * must not hold the table for the long idle timeout.
   */
  unusedIdleMs: 60_000,
  /** Tool calls in flight per context (an MCP session, or a stateless context); past it: busy. */
  maxCallsPerContext: 8,
  /** Tool calls in flight per client (its principal; without a token file, its connection); past it: busy. */
  maxCallsPerClient: 64,
  /**
   * How long a refusal waits before it goes out — a "busy" answer, a 401, a
   * 403, a batch's 400, a full session table's 503: a client that retries at
   * once (a flood, a page of another origin) would otherwise spin the server
   * on refusals while others wait. No well-behaved client ever sees one.
   */
  refusalDelayMs: 500,
});

/**
 * The bounds {@link serveMcpHttp} keeps to.
 */
export type HttpLimits = { readonly [K in keyof typeof HTTP_LIMITS]: number };

/**
 * What the front hands the host's factory: who the client is.
 */
export interface HttpClient {
  /** The authenticated principal (`--token-file`), or `null` without a token file. */
  readonly principal: string | null;
}

/**
 * The MCP server the host builds, per session or per request: an SDK
 * `McpServer` (or low-level `Server`).
 */
export interface McpServerLike {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/**
 * Options of {@link serveMcpHttp}.
 */
export interface McpHttpOptions {
  /** The port (0: any free one). */
  readonly port: number;
  /** The address to bind (default `127.0.0.1`); another one is served with a warning. */
  readonly host?: string | undefined;
  /**
   * `true`: MCP sessions live in this process (one server per session).
   * `false`: stateless, one server per request, for several processes
   * sharing a store (the conversation is its `_meta` id or context token).
   */
  readonly stateful: boolean;
  /** Builds the MCP server of one session (stateful) or one request (stateless). */
  readonly createServer: (client: HttpClient) => McpServerLike;
  /** Bearer tokens (`readTokenFile`); absent or `null`: no authentication. */
  readonly tokens?: TokenSet | null | undefined;
  readonly limits?: Partial<HttpLimits> | undefined;
  /** Stateless, several processes: where cancellations that name another process's call go. */
  readonly relay?: CancelRelay | undefined;
  /** More fields for `/healthz` (cheap counters only: it renders nothing). */
  readonly health?: (() => Record<string, unknown>) | undefined;
  /** One line per event worth a log (sessions opened and closed, faults). Default: silent. */
  readonly log?: ((line: string) => void) | undefined;
}

/**
 * A running front.
 */
export interface McpHttpFront {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  readonly port: number;
  /** A warning to print at start-up (a non-loopback address), or `null`. */
  readonly warning: string | null;
  /** Open sessions and calls in flight. */
  stats(): { sessions: number; calls: number };
  /** Stops serving: closes every session and connection. Quiet; never rejects. */
  close(): Promise<void>;
}

type Message = Record<string, unknown>;

/** The JSON-RPC error code of a request the client cancelled (as the language server protocol has it). */
const REQUEST_CANCELLED = -32800;

interface Session {
  readonly id: string;
  readonly client: string;
  readonly principal: string | null;
  /** The fairness lane of its calls: the call table counts what it has in flight. */
  readonly lane: string;
  readonly server: McpServerLike;
  readonly transport: StreamableHTTPServerTransport;
  lastSeen: number;
  toolCalls: number;
}

/** Who sent a request that passed the rules: its principal, and the client its bounds count. */
interface Sender {
  readonly principal: string | null;
  /** The principal with a token file; without one, the connection. */
  readonly client: string;
}

/** A request that passed the rules: its exchange, its message (`undefined`: not a POST) and its sender. */
interface Incoming {
  readonly front: Front;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly message: Message | undefined;
  readonly sender: Sender;
}

/** What one running front holds: its options, bounds, sessions, calls and connections. */
interface Front {
  readonly options: McpHttpOptions;
  readonly limits: HttpLimits;
  readonly tokens: TokenSet | null;
  readonly log: (line: string) => void;
  /** The address bound, as Host and Origin spell it, when it is not a loopback name already. */
  readonly bound: string;
  readonly calls: CallTable;
  readonly sessions: Map<string, Session>;
  readonly connections: Connections;
}

function bodyOf(message: Message): string {
  return JSON.stringify({ jsonrpc: '2.0', ...message });
}

/** The error every refusal the front writes itself carries: what to do, for no request id. */
function refusal(message: string): Message {
  return { error: { code: -32000, message }, id: null };
}

/** One JSON-RPC message as the whole answer (nothing once an answer began or the exchange closed). */
function send(res: ServerResponse, status: number, message: Message, headers = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(bodyOf(message));
}

function reply(res: ServerResponse, status: number, message: string, headers = {}): void {
  send(res, status, refusal(message), headers);
}

/**
 * The raw answer to a request Node's parser refused before there was a
 * response to write on: a status and a body that say why (a bare 400 left
 * a client that was merely slow with "Error POSTing to endpoint: ").
 */
function clientErrorAnswer(error: NodeJS.ErrnoException, limits: HttpLimits): string {
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [
          408,
          `Request timeout: a request's headers must arrive within ${limits.headersTimeoutMs} ms of its start (or of connecting) and the whole request within ${limits.requestTimeoutMs} ms`,
        ]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request headers too large']
        : [400, `Bad request: not HTTP/1.1 this server can read (${error.code ?? error.message})`];
  const body = bodyOf(refusal(message));
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

/** Runs `answer` after the refusal delay (see `refusalDelayMs`). */
function later(front: Front, answer: () => void): void {
  if (front.limits.refusalDelayMs > 0) setTimeout(answer, front.limits.refusalDelayMs).unref();
  else answer();
}

/** A refusal, after the refusal delay. */
function refuse(
  front: Front,
  res: ServerResponse,
  status: number,
  message: string,
  headers = {},
): void {
  later(front, () => reply(res, status, message, headers));
}

/** A "busy" answer to one call: a tool error the agent reads, not a protocol error. */
function busy(res: ServerResponse, id: unknown, why: string): void {
  const text = `The server is busy: ${why}. Try again once one of them has answered.`;
  send(res, 200, { id, result: { isError: true, content: [{ type: 'text', text }] } });
}

/** The body of `req`, up to `maxBytes`; `null` past it (the rest is discarded). */
function readBody(req: IncomingMessage, maxBytes: number): Promise<string | null> {
  return new Promise((done, fail) => {
    if (Number(req.headers['content-length']) > maxBytes) {
      req.resume();
      return done(null);
    }
    const chunks: Buffer[] = [];
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received <= maxBytes) chunks.push(chunk);
    });
    req.on('end', () => done(received > maxBytes ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
    req.on('aborted', () => fail(new Error('the client went away')));
  });
}

/**
 * The connections of one front: who a request comes from when no token file
 * says, and the answers each took whole until its client shows it read them.
 */
class Connections {
  private count = 0;
  private readonly ids = new WeakMap<Socket, string>();
  private readonly unconfirmed = new WeakMap<Socket, Exchange[]>();

  /**
   * Who a request comes from when no token file says: its connection. Nothing
   * else of a local client is its own — every one is 127.0.0.1, and ids,
   * `_meta` ids and request numbers are the client's to choose.
   */
  of(socket: Socket): string {
    let id = this.ids.get(socket);
    if (id === undefined) {
      id = `local/${++this.count}`;
      this.ids.set(socket, id);
    }
    return id;
  }

  /**
   * An answer `socket` took whole, held until its client shows it read it.
   * An answer that fit in the kernel's buffers is handed over at once, and
   * may still sit there unread when the client hangs up: its kernel then
   * resets the connection, which undoes it. The next request on the
   * connection, or a clean close, confirms it.
   */
  awaitReading(socket: Socket, call: Exchange): void {
    const held = this.unconfirmed.get(socket);
    if (held !== undefined) {
      held.push(call);
      return;
    }
    this.unconfirmed.set(socket, [call]);
    socket.once('close', (hadError: boolean) => {
      const calls = this.unconfirmed.get(socket) ?? [];
      this.unconfirmed.delete(socket);
      if (hadError) for (const c of calls) c.undelivered();
    });
  }

  /** A new request on `socket`: its client read every answer before it. */
  confirmRead(socket: Socket): void {
    this.unconfirmed.get(socket)?.splice(0);
  }
}

/** The scope of a stateless call's second name, when no token file tells clients apart. */
const ANYONE = 'local';

/**
 * The key of a call within `scope` (its session, principal or connection):
 * what the call table holds it by and what a cancellation of it names.
 */
function callKey(scope: string, id: unknown): string {
  return `${scope}\0${JSON.stringify(id)}`;
}

/** The context a stateless call names: its `_meta` conversation id, else its context token. */
function contextLane(message: Message): string {
  const params = isObject(message.params) ? message.params : {};
  const meta = contextIdFromMeta(params._meta);
  if (meta !== null) return `meta:${meta}`;
  const token = isObject(params.arguments) ? readContextToken(params.arguments) : null;
  return token === null ? 'none' : `token:${token}`;
}

// -- stateful sessions --------------------------------------------------

/** Takes `session` out of the table and closes its server: false when it was out already. */
function dropSession(front: Front, session: Session): boolean {
  front.calls.forget(session.id);
  if (!front.sessions.delete(session.id)) return false;
  session.server.close().catch(() => {});
  return true;
}

function closeSession(front: Front, session: Session, why: string): void {
  if (dropSession(front, session)) front.log(`session ${why} (${front.sessions.size} open)`);
}

/** Whether `session` may be closed to make room: nothing in flight, and unused or idle a while. */
function closable(front: Front, session: Session, now: number): boolean {
  if (front.calls.inFlight(session.lane) > 0) return false;
  return session.toolCalls === 0 || now - session.lastSeen >= front.limits.unusedIdleMs;
}

/** Makes room for a new session of `client`: false when nothing may be closed for it. */
function makeRoom(front: Front, { client, principal }: Sender): boolean {
  const { sessions, limits } = front;
  const all = [...sessions.values()];
  const mine = all.filter((s) => s.client === client);
  const atOwnBound = principal !== null && mine.length >= limits.maxSessionsPerClient;
  if (!atOwnBound && sessions.size < limits.maxSessions) return true;
  const now = Date.now();
  // The client's own sessions first when it is at its own bound; else anyone's.
  const pool = (atOwnBound ? mine : all).filter((s) => closable(front, s, now));
  if (pool.length === 0) return false;
  // Unused sessions before used ones, then the least recently seen.
  pool.sort((a, b) => Number(a.toolCalls > 0) - Number(b.toolCalls > 0) || a.lastSeen - b.lastSeen);
  closeSession(front, pool[0]!, 'closed to make room');
  return true;
}

/** A new session's server and transport; the session joins the table once initialized. */
async function openSession(front: Front, sender: Sender): Promise<StreamableHTTPServerTransport> {
  const { principal, client } = sender;
  const server = front.options.createServer({ principal });
  let session: Session | undefined;
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => {
      const lane = `${client}\0${id}`;
      session = {
        id,
        client,
        principal,
        lane,
        server,
        transport,
        lastSeen: Date.now(),
        toolCalls: 0,
      };
      front.sessions.set(id, session);
      front.log(`session opened (${front.sessions.size} open)`);
    },
  });
  // Set before connect: the SDK chains its own close handling after it.
  transport.onclose = () => {
    if (session !== undefined) closeSession(front, session, 'closed');
  };
  await server.connect(transport);
  return transport;
}

/** Closes idle sessions every so often (abandoned unused ones sooner); stopped with `clearInterval`. */
function sweepSessions(front: Front): NodeJS.Timeout {
  const { limits, sessions } = front;
  const every = Math.min(limits.unusedIdleMs, limits.idleMs) / 4;
  return setInterval(
    () => {
      const now = Date.now();
      let expired = 0;
      for (const s of [...sessions.values()]) {
        const idleMs = s.toolCalls === 0 ? limits.unusedIdleMs : limits.idleMs;
        const idle = front.calls.inFlight(s.lane) === 0 && now - s.lastSeen >= idleMs;
        if (idle && dropSession(front, s)) expired++;
      }
      if (expired > 0) front.log(`expired ${expired} idle session(s) (${sessions.size} open)`);
    },
    Math.max(50, Math.min(30_000, Math.floor(every))),
  ).unref();
}

// -- one exchange --------------------------------------------------------

/**
 * Admits a tool call, tracks its delivery on `res`, and hands it to the
 * host through `req.auth`: the call, or `null` when it was answered "busy"
 * here. A call is known by its id within `scope` — its session, else its
 * principal, else its connection — and only a cancellation from that scope
 * names it.
 */
function track(
  { front, req, res, sender }: Incoming,
  message: Message,
  lane: string,
  session?: Session,
): Exchange | null {
  const scope = session?.id ?? sender.client;
  const key = callKey(scope, message.id);
  // Stateless and without a token file, a client's cancellation may come on
  // another connection, indistinguishable from another client's: it can
  // undo the call under this second name, never stop it.
  const alias =
    session === undefined && sender.principal === null ? callKey(ANYONE, message.id) : undefined;
  const admitted = front.calls.admit(scope, key, sender.principal, sender.client, lane, alias);
  if ('refused' in admitted) {
    later(front, () => busy(res, message.id, admitted.refused));
    return null;
  }
  if (session !== undefined) session.toolCalls++;
  // 'finish' also fires when the socket was reset under a body it could not
  // take (and `writableFinished` is then true): handed over means the last
  // byte went to a socket that was still open.
  const socket = req.socket;
  let handedOver = false;
  res.once('finish', () => {
    handedOver = !socket.destroyed;
  });
  res.once('close', () => {
    admitted.settle(handedOver);
    if (handedOver) front.connections.awaitReading(socket, admitted.call);
    if (session !== undefined) session.lastSeen = Date.now();
  });
  (req as IncomingMessage & { auth?: unknown }).auth = authInfoFor(admitted.call);
  return admitted.call;
}

/**
 * A `notifications/cancelled`: aborts the call it names within `scope` (its
 * session, principal or connection) here, or, `relayed` (a principal's, the
 * one scope other processes know too), passes it on. Stateless without a
 * token file, one that names no call of its connection undoes the calls of
 * that id (here or through the relay) without stopping them.
 */
function cancelled(front: Front, message: Message, scope: string, relayed: boolean): void {
  const params = isObject(message.params) ? message.params : {};
  const id = params.requestId;
  if (typeof id !== 'string' && typeof id !== 'number') return;
  const key = callKey(scope, id);
  if (front.calls.cancel(key)) return;
  if (relayed) void front.options.relay?.send(JSON.stringify({ key }));
  else if (!front.options.stateful) {
    const alias = callKey(ANYONE, id);
    if (!front.calls.undoAlias(alias)) void front.options.relay?.send(JSON.stringify({ alias }));
  }
}

/** A request of a stateful front: `initialize` opens a session, anything else names one. */
async function stateful(incoming: Incoming): Promise<void> {
  const { front, req, res, message, sender } = incoming;
  const sid = req.headers['mcp-session-id'];
  if (sid === undefined) {
    if (req.method !== 'POST' || message?.method !== 'initialize') {
      return reply(res, 400, 'No session: send initialize first');
    }
    if (!makeRoom(front, sender)) {
      const why = 'Too many open sessions: close one (DELETE) or try again later';
      return refuse(front, res, 503, why, { 'retry-after': '30' });
    }
    const transport = await openSession(front, sender);
    await transport.handleRequest(req, res, message);
    // An initialize that opened nothing (refused by the transport) leaves nothing behind.
    if (transport.sessionId === undefined) await transport.close().catch(() => {});
    return;
  }
  const session = typeof sid === 'string' ? front.sessions.get(sid) : undefined;
  // A session of another principal is as unknown as one that never was.
  if (session === undefined || session.principal !== sender.principal) {
    return reply(res, 404, 'Unknown session: initialize a new one');
  }
  session.lastSeen = Date.now();
  if (message?.method === 'notifications/cancelled') cancelled(front, message, session.id, false);
  if (message?.method === 'tools/call' && 'id' in message) {
    if (track(incoming, message, session.lane, session) === null) return;
  }
  await session.transport.handleRequest(req, res, message);
}

/**
 * A request of a stateless front: one server per request, one JSON answer
 * per POST. A cancellation is handled here (no server sees it): a
 * principal's may name a call on another process, a connection's only its
 * own calls.
 */
async function stateless(incoming: Incoming): Promise<void> {
  const { front, req, res, message, sender } = incoming;
  if (req.method !== 'POST' || message === undefined) {
    const why = 'Method not allowed: this server is stateless (POST only)';
    return reply(res, 405, why, { allow: 'POST' });
  }
  if (message.method === 'notifications/cancelled') {
    cancelled(front, message, sender.client, sender.principal !== null);
    res.writeHead(202).end();
    return;
  }
  let call: Exchange | null = null;
  if (message.method === 'tools/call' && 'id' in message) {
    call = track(incoming, message, `${sender.client}\0${contextLane(message)}`);
    if (call === null) return;
  }
  const server = front.options.createServer({ principal: sender.principal });
  // No session id generator: stateless. One JSON answer per POST.
  const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
  // The server lives as long as this exchange: closing it aborts a call
  // still running when the client went away, or that it cancelled (here or
  // on another process), also for a host that reads no `httpCallOf`.
  const end = () => void server.close().catch(() => {});
  res.once('close', end);
  call?.signal.addEventListener('abort', () => answerCancelled(res, message.id, end), {
    once: true,
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, message);
}

/** A cancelled call gets no result; the exchange still ends, with the cancellation. */
function answerCancelled(res: ServerResponse, id: unknown, end: () => void): void {
  end();
  send(res, 200, { id, error: { code: REQUEST_CANCELLED, message: 'The call was cancelled' } });
}

// -- one request ---------------------------------------------------------

/**
 * The sender of a request, by the bearer token when a token file is
 * configured (`null`: refused with 401), else by its connection: each
 * connection is a client of its own, its calls queue in lanes of their own,
 * and only it can cancel them.
 */
function senderOf(front: Front, req: IncomingMessage, res: ServerResponse): Sender | null {
  if (front.tokens === null) return { principal: null, client: front.connections.of(req.socket) };
  const principal = principalOf(req.headers.authorization, front.tokens);
  if (principal !== null) return { principal, client: principal };
  refuse(front, res, 401, 'Unauthorized: send Authorization: Bearer <token>', {
    'www-authenticate': 'Bearer realm="mcp"',
  });
  return null;
}

/**
 * The one JSON-RPC message a POST carries (`undefined` for another method),
 * or `null` once the request was refused: a body over the bound, not JSON,
 * a batch, or not a message.
 */
async function messageOf(
  front: Front,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<Message | undefined | null> {
  if (req.method !== 'POST') return undefined;
  const { maxBodyBytes } = front.limits;
  const refused = (status: number, why: string): null => {
    reply(res, status, why);
    return null;
  };
  const text = await readBody(req, maxBodyBytes);
  if (text === null) return refused(413, `Request body larger than ${maxBodyBytes} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refused(400, 'Parse error: the body is not JSON');
  }
  if (Array.isArray(body)) {
    return refused(400, 'JSON-RPC batches are not supported: send one message per request');
  }
  return isObject(body) ? body : refused(400, 'Invalid request: not a JSON-RPC message');
}

/** `/healthz`: counters only, GET only; it renders nothing. */
function health(front: Front, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET') {
    reply(res, 405, 'Method not allowed', { allow: 'GET' });
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  const extra = front.options.health?.() ?? {};
  const counters = { ok: true, sessions: front.sessions.size, calls: front.calls.size };
  res.end(JSON.stringify({ ...counters, ...extra }));
}

/** One request, through the rules in order, to `/healthz` or the mode's MCP transport. */
async function serve(front: Front, req: IncomingMessage, res: ServerResponse): Promise<void> {
  front.connections.confirmRead(req.socket);
  // A loopback server still answers browsers: refuse other Host names
  // (DNS rebinding) and pages of other origins.
  if (!isAllowedHost(req.headers.host, [front.bound])) {
    return refuse(front, res, 403, 'Forbidden host');
  }
  if (!isAllowedOrigin(req.headers.origin, [front.bound])) {
    return refuse(front, res, 403, 'Forbidden origin');
  }
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  if (path === '/healthz') return health(front, req, res);
  if (path !== '/mcp') return reply(res, 404, 'Not found: the endpoint is /mcp');
  const sender = senderOf(front, req, res);
  if (sender === null) return;
  const message = await messageOf(front, req, res);
  if (message === null) return;
  await (front.options.stateful ? stateful : stateless)({ front, req, res, message, sender });
}

/** The socket server: its timeouts, its connection cap, and one connection's faults kept to it. */
function socketServer(front: Front): Server {
  const { limits } = front;
  const http = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // How often the timeouts above are checked: within a second of passing.
      connectionsCheckingInterval: 1000,
    },
    (req, res) => {
      serve(front, req, res).catch((error) => {
        front.log(`http: ${errorMessage(error)}`);
        reply(res, 500, 'Internal error');
      });
    },
  );
  http.maxConnections = limits.maxConnections;
  // A client error (a reset, a timeout, a malformed request) ends its own connection only.
  http.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (socket.writable) socket.end(clientErrorAnswer(error, limits));
    socket.destroy();
  });
  return http;
}

/** Stops `front`: its sweep, every session, the relay (bounded in time) and every connection. */
async function stop(front: Front, http: Server, sweep: NodeJS.Timeout): Promise<void> {
  clearInterval(sweep);
  const open = [...front.sessions.values()];
  front.sessions.clear();
  await Promise.all(open.map((s) => s.server.close().catch(() => {})));
  // A relay on a Redis that went away must not hold the stop up.
  await Promise.race([
    front.options.relay?.close().catch(() => {}),
    new Promise((done) => setTimeout(done, 1000).unref()),
  ]);
  await new Promise<void>((done) => {
    http.close(() => done());
    http.closeAllConnections();
  });
}

/**
 * Serves MCP over Streamable HTTP at `/mcp` (and `/healthz`) with the
 * transport's security rules and per-client bounds:
 *
 * - **Origin and Host**: a present, non-loopback `Origin` and a `Host` other
 *   than `localhost`, `127.0.0.1` or `[::1]` (or the address bound) get 403.
 * - **Authentication** with `tokens`: every request needs `Authorization:
 *   Bearer …` (401 with `WWW-Authenticate` otherwise, compared in constant
 *   time); the principal reaches the host's factory and each call.
 * - **Bounds**: header and request timeouts, a connection cap, a body limit,
 *   no JSON-RPC batches (400), tool calls in flight per context and per
 *   client (a "busy" tool error past them), and (stateful) open sessions per
 *   client and in all, with abandoned sessions closed after `unusedIdleMs`
 *   and the least recently used unused one making room for a new one.
 * - **Clients**: a principal with `tokens`; without, each connection is a
 *   client of its own (its own lanes and bound).
 * - **Delivery**: each tool call's `HttpCall` (`httpCallOf(extra)`) aborts
 *   when the client hangs up or cancels — the cancellation is read here, so a
 *   stateless server sees it too, and with `relay` so does the process that
 *   runs the call — and says whether the answer's last byte reached an open
 *   socket. A cancellation stops a call only when it comes from the
 *   session, principal or (without `tokens`) connection that sent it; only a
 *   principal's goes to the relay to stop the call. Stateless without
 *   `tokens`, one from another connection (the SDK client sends it on a fresh
 *   request) undoes a call of that id, here or through the relay, without
 *   stopping it: the answer still goes out, it only counts as not delivered.
 * - **`/healthz`**: `GET` only, answers counters and renders nothing.
 *
 * Resolves once listening; rejects with a `FrontStartError` (one line: the port
 * is in use, the address is not this machine's).
 *
 * @example
 * ```ts
 * import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
 *
 * const front = await serveMcpHttp({
 *   port: 3333,
 *   stateful: true,
 *   tokens: readTokenFile('/home/me/.config/explore/tokens'),
 *   createServer: () => new McpServer({ name: 'explore', version: '1.0.0' }),
 *   log: (line) => process.stderr.write(`${line}\n`),
 * });
 * ```
 */
export async function serveMcpHttp(options: McpHttpOptions): Promise<McpHttpFront> {
  const limits: HttpLimits = { ...HTTP_LIMITS, ...(options.limits ?? {}) };
  const tokens = options.tokens ?? null;
  const { host, warning } = bindAddress(options.host, tokens !== null);
  const front: Front = {
    options,
    limits,
    tokens,
    log: options.log ?? (() => {}),
    bound: hostInUrl(host),
    calls: new CallTable(limits.maxCallsPerContext, limits.maxCallsPerClient),
    sessions: new Map(),
    connections: new Connections(),
  };
  await options.relay?.listen((message) => {
    try {
      const { key, alias } = JSON.parse(message) as { key?: unknown; alias?: unknown };
      if (typeof key === 'string') front.calls.cancel(key);
      if (typeof alias === 'string') front.calls.undoAlias(alias);
    } catch {
      // Not one of ours.
    }
  });
  const sweep = sweepSessions(front);
  const http = socketServer(front);
  await new Promise<void>((done, fail) => {
    http.once('error', (error) => fail(listenFailure(error, host, options.port)));
    http.listen(options.port, host, () => done());
  });
  const address = http.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${front.bound}:${port}/mcp`,
    port,
    warning,
    stats: () => ({ sessions: front.sessions.size, calls: front.calls.size }),
    close: () => {
      closing ??= stop(front, http, sweep);
      return closing;
    },
  };
}
