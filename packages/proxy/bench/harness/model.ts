/**
 * A scripted Anthropic Messages API on 127.0.0.1: what the real Claude Code
 * binary talks to in `bench:harness` and the harness test. `POST /v1/messages`
 * is answered by a script (a function of the request body) as streaming SSE —
 * text, `tool_use` blocks, or an API error such as 400 "prompt is too long" —
 * `POST /v1/messages/count_tokens` with an estimate, anything else with an
 * empty JSON object. Every request body is logged, in order, with the time it
 * arrived: the log is all the bench measures. Bounded: it refuses requests
 * past `maxRequests` and closes itself after `timeoutMs`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the script answers to one `POST /v1/messages`. */
export type Reply =
  | { readonly kind: 'text'; readonly text: string; readonly inputTokens?: number }
  | {
      readonly kind: 'tool_use';
      readonly id: string;
      readonly name: string;
      readonly input: Record<string, unknown>;
      readonly text?: string;
      readonly inputTokens?: number;
    }
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly type: string;
      readonly message: string;
    };

/** One logged request: its path, its parsed body, when it arrived and when its answer ended. */
export interface Logged {
  readonly path: string;
  readonly body: unknown;
  /** The raw body's length in chars. */
  readonly chars: number;
  readonly at: number;
  answeredAt: number;
  /** What the script answered (messages requests only). */
  reply?: Reply;
}

export interface ScriptedModel {
  readonly url: string;
  readonly log: readonly Logged[];
  close(): Promise<void>;
}

export interface ModelOptions {
  /** The script: the next answer to a messages request, from its body. */
  readonly answer: (body: MessagesBody, log: readonly Logged[]) => Reply;
  /** Requests past this many are refused with a 500 (a runaway session stops). */
  readonly maxRequests?: number;
  /** The server closes itself after this long. */
  readonly timeoutMs?: number;
}

/** The parts of a Messages API request body the script reads. */
export interface MessagesBody {
  readonly model?: string;
  readonly system?: string | readonly { readonly type: string; readonly text?: string }[];
  readonly messages?: readonly { readonly role: string; readonly content: unknown }[];
  readonly tools?: readonly {
    readonly name: string;
    readonly description?: string;
    readonly input_schema?: unknown;
  }[];
  readonly max_tokens?: number;
  readonly stream?: boolean;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolveBody(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

let messageCount = 0;

/** The SSE events of one assistant message carrying `reply`. */
function events(reply: Exclude<Reply, { kind: 'error' }>, model: string): string {
  const out: string[] = [];
  const send = (type: string, data: Record<string, unknown>) =>
    out.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const usage = { input_tokens: reply.inputTokens ?? 1000, output_tokens: 1 };
  send('message_start', {
    message: {
      id: `msg_scripted_${++messageCount}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
  });
  let index = 0;
  const text = reply.kind === 'text' ? reply.text : reply.text;
  if (text !== undefined && text !== '') {
    send('content_block_start', { index, content_block: { type: 'text', text: '' } });
    send('content_block_delta', { index, delta: { type: 'text_delta', text } });
    send('content_block_stop', { index });
    index++;
  }
  if (reply.kind === 'tool_use') {
    send('content_block_start', {
      index,
      content_block: { type: 'tool_use', id: reply.id, name: reply.name, input: {} },
    });
    send('content_block_delta', {
      index,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(reply.input) },
    });
    send('content_block_stop', { index });
  }
  send('message_delta', {
    delta: {
      stop_reason: reply.kind === 'tool_use' ? 'tool_use' : 'end_turn',
      stop_sequence: null,
    },
    usage: { output_tokens: 20 },
  });
  send('message_stop', {});
  return out.join('');
}

/** The same message as one JSON body (a request without `stream`). */
function message(reply: Exclude<Reply, { kind: 'error' }>, model: string): unknown {
  const content: unknown[] = [];
  const text = reply.text;
  if (text !== undefined && text !== '') content.push({ type: 'text', text });
  if (reply.kind === 'tool_use') {
    content.push({ type: 'tool_use', id: reply.id, name: reply.name, input: reply.input });
  }
  return {
    id: `msg_scripted_${++messageCount}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: reply.kind === 'tool_use' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: reply.inputTokens ?? 1000, output_tokens: 20 },
  };
}

/** Starts the scripted model on an ephemeral port of 127.0.0.1. */
export async function startScriptedModel(options: ModelOptions): Promise<ScriptedModel> {
  const log: Logged[] = [];
  const maxRequests = options.maxRequests ?? 200;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void handle(req, res);
  });
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0]!;
    const entry: Logged = {
      path,
      body: parse(raw),
      chars: raw.length,
      at: Date.now(),
      answeredAt: 0,
    };
    log.push(entry);
    const done = () => {
      entry.answeredAt = Date.now();
    };
    if (log.length > maxRequests) {
      json(res, 500, {
        type: 'error',
        error: { type: 'api_error', message: 'scripted model: request bound reached' },
      });
      return done();
    }
    if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      json(res, 200, { input_tokens: Math.ceil(raw.length / 4) });
      return done();
    }
    if (req.method !== 'POST' || path !== '/v1/messages') {
      json(res, 200, {});
      return done();
    }
    const body = (entry.body ?? {}) as MessagesBody;
    let reply: Reply;
    try {
      reply = options.answer(body, log);
    } catch (error) {
      reply = {
        kind: 'error',
        status: 500,
        type: 'api_error',
        message: `scripted model: ${String(error)}`,
      };
    }
    entry.reply = reply;
    if (reply.kind === 'error') {
      json(res, reply.status, {
        type: 'error',
        error: { type: reply.type, message: reply.message },
      });
      return done();
    }
    const model = body.model ?? 'claude-scripted';
    if (body.stream === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(events(reply, model));
    } else {
      json(res, 200, message(reply, model));
    }
    done();
  }
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  const timer = setTimeout(() => server.close(), options.timeoutMs ?? 300_000);
  timer.unref();
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((closed) => {
        clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}
