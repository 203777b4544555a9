/**
 * The SDK's protocol engine (request ids, timeouts, progress, cancellation)
 * without its capability checks or result schemas: the proxy speaks for
 * servers and clients it does not know, so nothing is refused for a
 * capability not declared, and every result passes with every field it had.
 */
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Notification, Request, Result } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod/v4';

/** A result schema that keeps the result as it came (the SDK's own would drop unknown fields). */
export const AS_IS = z.custom<Result>(() => true);

/**
 * One JSON-RPC connection, either side of the proxy.
 *
 * @example
 * ```ts
 * const link = new Link();
 * await link.connect(transport);
 * const result = await link.request({ method: 'tools/list', params: {} }, AS_IS, { timeout: 5000 });
 * ```
 */
export class Link extends Protocol<Request, Notification, Result> {
  protected assertCapabilityForMethod(): void {}
  protected assertNotificationCapability(): void {}
  protected assertRequestHandlerCapability(): void {}
  protected assertTaskCapability(): void {}
  protected assertTaskHandlerCapability(): void {}
}
