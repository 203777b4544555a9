/**
 * What a thrown value says, for the one line the proxy logs or answers
 * about it: an `Error`'s message, or anything else as a string.
 */

/**
 * The message of `error`, whatever was thrown.
 *
 * @example
 * ```ts
 * errorMessage(new Error('no such file')); // 'no such file'
 * errorMessage('boom');                    // 'boom'
 * ```
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
