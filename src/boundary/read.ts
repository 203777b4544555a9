/**
 * The primitives every reader of a foreign value is built from. Foreign values
 * are read defensively here (a getter that throws, a proxy, a revoked proxy all
 * read as "absent"), so that no reader built on them, and nothing behind the
 * readers, has to. Not a reader of any shape: the domain folders own theirs.
 */

const NONE: readonly unknown[] = [];

/** `obj[key]`, or `undefined` when `obj` is not an object or reading throws. */
export function prop(obj: unknown, key: string): unknown {
  if (typeof obj !== 'object' || obj === null) return undefined;
  try {
    return (obj as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/**
 * `obj[key]` when it is an own property of `obj`, else (inherited, absent,
 * not an object, or reading throws) `undefined`. For tool arguments: what the
 * client sent is JSON, whose values are own properties, so nothing a prototype
 * carries (`__proto__`, `constructor`) is taken for an argument.
 */
export function ownProp(obj: unknown, key: string): unknown {
  if (typeof obj !== 'object' || obj === null) return undefined;
  try {
    return Object.hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `key` is an own property of `obj`; `false` when asking throws (a
 * proxy whose traps throw, a revoked proxy): what cannot be asked is not there.
 */
export function hasOwn(obj: object, key: string): boolean {
  try {
    return Object.hasOwn(obj, key);
  } catch {
    return false;
  }
}

/** `Array.isArray(x)`, false for a revoked proxy (on which it throws). */
export function isArray(x: unknown): boolean {
  try {
    return Array.isArray(x);
  } catch {
    return false;
  }
}

/** The length of an array, or `undefined` when `x` is not one or its length cannot be read. */
export function lengthOf(x: unknown): number | undefined {
  try {
    if (!Array.isArray(x)) return undefined;
    const length = x.length;
    return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
  } catch {
    return undefined;
  }
}

/** `x` when it is an array with a readable length, else an empty list; and that length. */
export function listOf(x: unknown): { list: readonly unknown[]; length: number } {
  try {
    if (!Array.isArray(x)) return { list: NONE, length: 0 };
    const length = x.length;
    return Number.isSafeInteger(length) && length > 0
      ? { list: x, length }
      : { list: NONE, length: 0 };
  } catch {
    return { list: NONE, length: 0 };
  }
}

/** `list[i]`, or `undefined` when reading throws. */
export function at(list: readonly unknown[], i: number): unknown {
  try {
    return list[i];
  } catch {
    return undefined;
  }
}

/** A character count: finite and non-negative, else 0. */
export function count(x: unknown): number {
  return typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : 0;
}

/** A non-empty string of at most `max` chars, else `undefined`. */
export function shortString(x: unknown, max: number): string | undefined {
  return typeof x === 'string' && x !== '' && x.length <= max ? x : undefined;
}

/** Whether `x` is a positive safe integer: a count of calls, a call's number, a line. */
export function isPositiveInteger(x: unknown): x is number {
  return Number.isSafeInteger(x) && (x as number) >= 1;
}
