/**
 * Internal: the shallow copy both carriers make. The carrier key is skipped
 * without being read, so a client or worker that put a throwing getter there
 * cannot stop it from being removed.
 */

/**
 * A plain shallow copy of `obj`'s own enumerable properties except `key`, or
 * `undefined` when one of them cannot be read.
 */
export function copyWithout(obj: object, key: string): Record<PropertyKey, unknown> | undefined {
  try {
    const out: Record<PropertyKey, unknown> = {};
    for (const k of Reflect.ownKeys(obj)) {
      if (k === key || !Object.prototype.propertyIsEnumerable.call(obj, k)) continue;
      // Defined, not assigned: a JSON key `__proto__` stays a plain property.
      Object.defineProperty(out, k, {
        value: (obj as Record<PropertyKey, unknown>)[k],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  } catch {
    return undefined;
  }
}
