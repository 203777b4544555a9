/**
 * What the proxy sends one client, in order and one message at a time: a
 * transport that waits for its stream to drain then holds one message (and
 * one listener), never one per message. It counts what it holds, so a
 * client that stopped reading can hold the upstream back, and it tells who
 * asks whether a response was handed to the transport or not.
 */
import type {
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { RequestId } from './lines.js';

/**
 * Messages a client's transport may hold unsent (a client that stopped
 * reading) before the upstream is held: bounded buffers, whatever it writes.
 */
const MAX_UNSENT = 64;

/** A response with its members in JSON-RPC's order (`jsonrpc`, `id`, then what it carries), as every peer writes them. */
function enveloped(message: JSONRPCMessage): JSONRPCMessage {
  if ('method' in message) return message;
  if ('error' in message) return { jsonrpc: '2.0', id: message.id, error: message.error };
  return { jsonrpc: '2.0', id: message.id, result: message.result };
}

/**
 * A client's transport behind a queue of one.
 *
 * @example
 * ```ts
 * const outbox = new Outbox(transport);
 * await link.connect(outbox);
 * outbox.onSent(7, (sent) => sent || undo());
 * ```
 */
export class Outbox implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  #unsent = 0;
  #queue = Promise.resolve();
  #drained: Promise<void> | null = null;
  #drain = () => {};
  readonly #sent = new Map<RequestId, (sent: boolean) => void>();
  #closed = false;

  constructor(private readonly inner: Transport) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** Starts the inner transport, after whatever handlers its owner set on it. */
  start(): Promise<void> {
    const { onclose, onerror, onmessage } = this.inner;
    this.inner.onclose = () => {
      onclose?.();
      this.onclose?.();
    };
    this.inner.onerror = (error) => {
      onerror?.(error);
      this.onerror?.(error);
    };
    this.inner.onmessage = (message, extra) => {
      onmessage?.(message, extra);
      this.onmessage?.(message, extra);
    };
    return this.inner.start();
  }

  /** Calls `then` once the response to `id` was handed to the transport (`true`) or could not be (`false`). */
  onSent(id: RequestId, then: (sent: boolean) => void): void {
    this.#sent.set(id, then);
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const id = 'method' in message ? undefined : message.id;
    const then = id === undefined ? undefined : this.#sent.get(id);
    if (id !== undefined) this.#sent.delete(id);
    this.#unsent++;
    const turn = this.#queue;
    let done = () => {};
    this.#queue = new Promise<void>((next) => {
      done = next;
    });
    try {
      await turn;
      if (this.#closed) throw new Error('the client went away');
      await this.inner.send(enveloped(message), options);
      then?.(true);
    } catch (error) {
      then?.(false);
      throw error;
    } finally {
      done();
      if (--this.#unsent === 0) this.#release();
    }
  }

  /**
   * `null` while fewer than {@link MAX_UNSENT} messages wait; else a promise
   * that settles once the transport has taken them all (or closed).
   */
  backlog(): Promise<void> | null {
    if (this.#unsent < MAX_UNSENT) return null;
    this.#drained ??= new Promise<void>((done) => {
      this.#drain = done;
    });
    return this.#drained;
  }

  #release(): void {
    this.#drain();
    this.#drained = null;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#release();
    for (const then of this.#sent.values()) then(false);
    this.#sent.clear();
    await this.inner.close();
  }
}
