/**
 * Internal: reading a developer's options object at the shared store's entry
 * points. A malformed one is a programming error, reported once, at
 * construction, as a TypeError that names the function and the argument.
 */

/** `options[field]`, `undefined` when `options` is; throws when `options` is not an object or the read throws. */
export function option(options: unknown, field: string, where: string): unknown {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${where}: options must be an object`);
  }
  try {
    return (options as Record<string, unknown>)[field];
  } catch {
    throw new TypeError(`${where}: options.${field} could not be read`);
  }
}
