/**
 * Internal: the shallow copy both carriers make. The carrier key is skipped
 * without being read, so a client or worker that put a throwing getter there
 * cannot stop it from being removed.
 */
import { readOr } from './read.js';

/**
 * A plain shallow copy of `obj`'s own enumerable properties except `key`, or
 * `undefined` when one of them cannot be read. With `skipUnreadable`, a
 * property that cannot be read is left out instead, and only an object whose
 * keys cannot be listed gives `undefined`.
 */
export function copyWithout(
  obj: object,
  key: string,
  skipUnreadable = false,
): Record<PropertyKey, unknown> | undefined {
  const keys = readOr(() => Reflect.ownKeys(obj), undefined);
  if (keys === undefined) return undefined;
  const out: Record<PropertyKey, unknown> = {};
  for (const k of keys) {
    try {
      if (k === key || !Object.prototype.propertyIsEnumerable.call(obj, k)) continue;
      // Defined, not assigned: a JSON key `__proto__` stays a plain property.
      Object.defineProperty(out, k, {
        value: (obj as Record<PropertyKey, unknown>)[k],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } catch {
      if (!skipUnreadable) return undefined;
    }
  }
  return out;
}
