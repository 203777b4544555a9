/**
 * How the proxy tells a JSON object from the other values foreign JSON may
 * hold where an object is expected (`null`, an array, a string, a number),
 * wherever it reads one: a message, a result, arguments, a settings file.
 */

/**
 * Whether `value` is an object that is neither `null` nor an array: its
 * fields are still to be checked.
 *
 * @example
 * ```ts
 * isObject({ path: 'a.ts' }); // true
 * isObject(['a.ts']);         // false
 * isObject(null);             // false
 * ```
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
