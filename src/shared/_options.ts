/**
 * Internal: reading a developer's options object at the shared store's entry
 * points. A malformed one is a programming error, reported once, at
 * construction, as a TypeError that names the function and the argument.
 */
import { field, UNREADABLE } from '../boundary/read.js';

/** `options[name]`, `undefined` when `options` is; throws when `options` is not an object or the read throws. */
export function option(options: unknown, name: string, where: string): unknown {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${where}: options must be an object`);
  }
  const value = field(options, name);
  if (value === UNREADABLE) throw new TypeError(`${where}: options.${name} could not be read`);
  return value;
}
