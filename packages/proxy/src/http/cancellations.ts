/**
 * Cancellations between the processes of one stateless deployment. Without
 * MCP sessions, a client's `notifications/cancelled` may reach a process
 * that is not running the call (a load balancer picks any); that process
 * passes it on, and the one running the call aborts it (or undoes its record
 * when its answer had just gone out). Messages name a call by principal and
 * JSON-RPC id only: no context, no query. Only an authenticated principal's
 * cancellations travel: without a token file a call can be cancelled only
 * on the connection that sent it, which no other process knows.
 */

/**
 * A broadcast channel between the processes of a deployment.
 */
export interface CancelRelay {
  /** Sends `message` to every process listening (this one included, or not: both work). */
  send(message: string): Promise<void>;
  /** Calls `receive` with every message another process sends. */
  listen(receive: (message: string) => void): Promise<void>;
  /** Stops listening. */
  close(): Promise<void>;
}

/**
 * What {@link redisCancelRelay} needs of a node-redis client (v4 or v5):
 * `PUBLISH`, and a duplicate connection to `SUBSCRIBE` on.
 */
export interface RedisPubSubLike {
  publish(channel: string, message: string): Promise<unknown>;
  duplicate(): {
    connect(): Promise<unknown>;
    on(event: 'error', listener: (error: Error) => void): unknown;
    subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
    quit?(): Promise<unknown>;
    close?(): Promise<unknown>;
  };
}

/**
 * A {@link CancelRelay} over Redis pub/sub on `channel` (default
 * `span-ledger:cancelled`), for daemons that already share a Redis. A fault
 * (Redis away) loses a cancellation, which then only fails to undo one
 * record: the call was answered anyway.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * const client = createClient({ url: 'redis://127.0.0.1:6379' });
 * await client.connect();
 * const relay = await redisCancelRelay(client);
 * ```
 */
export async function redisCancelRelay(
  client: RedisPubSubLike,
  channel = 'span-ledger:cancelled',
): Promise<CancelRelay> {
  const subscriber = client.duplicate();
  subscriber.on('error', () => {});
  await subscriber.connect();
  let receive: (message: string) => void = () => {};
  await subscriber.subscribe(channel, (message) => receive(message));
  return {
    async send(message) {
      await client.publish(channel, message).catch(() => {});
    },
    async listen(next) {
      receive = next;
    },
    async close() {
      await (subscriber.quit ?? subscriber.close)?.call(subscriber).catch(() => {});
    },
  };
}
