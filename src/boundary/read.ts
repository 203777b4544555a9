/**
 * The primitives every reader of a foreign value is built from. Foreign values
 * are read defensively here (a getter that throws, a proxy, a revoked proxy all
 * read as "absent"), so that no reader built on them, and nothing behind the
 * readers, has to. Not a reader of any shape: the domain folders own theirs.
 */

const NONE: readonly unknown[] = [];

/** What {@link field} answers for a property whose read threw. */
export const UNREADABLE: unique symbol = Symbol('unreadable');

/**
 * `obj[key]`, `undefined` when `obj` is not an object, {@link UNREADABLE} when
 * reading throws: for entry points that tell a developer which field they
 * could not read.
 */
export function field(obj: unknown, key: string): unknown {
  if (typeof obj !== 'object' || obj === null) return undefined;
  try {
    return (obj as Record<string, unknown>)[key];
  } catch {
    return UNREADABLE;
  }
}

/** `obj[key]`, or `undefined` when `obj` is not an object or reading throws. */
export function prop(obj: unknown, key: string): unknown {
  const value = field(obj, key);
  return value === UNREADABLE ? undefined : value;
}

/**
 * `obj[key]` when it is an own property of `obj`, else (inherited, absent,
 * not an object, or reading throws) `undefined`. For tool arguments: what the
 * client sent is JSON, whose values are own properties, so nothing a prototype
 * carries (`__proto__`, `constructor`) is taken for an argument.
 */
export function ownProp(obj: unknown, key: string): unknown {
  return typeof obj === 'object' && obj !== null && hasOwn(obj, key) ? prop(obj, key) : undefined;
}

/**
 * Whether `key` is an own property of `obj`; `false` when asking throws (a
 * proxy whose traps throw, a revoked proxy): what cannot be asked is not there.
 */
export function hasOwn(obj: object, key: string): boolean {
  return readOr(() => Object.hasOwn(obj, key), false);
}

/**
 * `Array.isArray(x)`, or `undefined` when even that cannot be asked (a revoked
 * proxy, on which it throws).
 */
export function arrayOrNot(x: unknown): boolean | undefined {
  return readOr(() => Array.isArray(x), undefined);
}

/** `Array.isArray(x)`, false for a revoked proxy (on which it throws). */
export function isArray(x: unknown): boolean {
  return arrayOrNot(x) === true;
}

/** The length of an array, or `undefined` when `x` is not one or its length cannot be read. */
export function lengthOf(x: unknown): number | undefined {
  const length = readOr(() => (Array.isArray(x) ? (x.length as unknown) : undefined), undefined);
  return isNonNegativeInteger(length) ? length : undefined;
}

/** `x` when it is a non-empty array with a readable length, else an empty list; and that length. */
export function listOf(x: unknown): { list: readonly unknown[]; length: number } {
  const length = lengthOf(x) ?? 0;
  return length > 0 ? { list: x as readonly unknown[], length } : { list: NONE, length: 0 };
}

/**
 * What `read` makes of each member of a foreign list, in order, leaving out
 * what it makes `null` or `undefined`; a member that cannot be read is handed
 * to `read` as `undefined`, and anything but a readable array has no members.
 */
export function readEach<T>(raw: unknown, read: (member: unknown) => T | null | undefined): T[] {
  const { list, length } = listOf(raw);
  const out: T[] = [];
  for (let i = 0; i < length; i++) {
    const value = read(at(list, i));
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

/** `list[i]`, or `undefined` when reading throws. */
export function at(list: readonly unknown[], i: number): unknown {
  try {
    return list[i];
  } catch {
    return undefined;
  }
}

/** What `read` returns, or `fallback` when it throws: a foreign value read whole (printed, serialized). */
export function readOr<T, F>(read: () => T, fallback: F): T | F {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/**
 * A host callback `f` called on `self` with `args`: what it returns, or
 * `undefined` when it throws. A recorder or a pointer writer that fails loses
 * what it was asked for (under-reported, the safe direction); the response
 * still goes out.
 */
export function contained(f: unknown, self: unknown, args: unknown[]): unknown {
  return readOr(() => Reflect.apply(f as (...a: unknown[]) => unknown, self, args), undefined);
}

/** `text` parsed as JSON, or `undefined` when it is not JSON (JSON never parses to `undefined`). */
export function parseJson(text: string): unknown {
  return readOr(() => JSON.parse(text) as unknown, undefined);
}

/** A character count: finite and non-negative, else 0. */
export function count(x: unknown): number {
  return typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : 0;
}

/** `x` when it is a non-negative number (a limit; `Infinity` included), else `fallback`. */
export function limitOr<F>(x: unknown, fallback: F): number | F {
  return typeof x === 'number' && x >= 0 ? x : fallback;
}

/** `x` when it is a string, else `''`. */
export function stringOf(x: unknown): string {
  return typeof x === 'string' ? x : '';
}

/** Whether `x` is a string of at least one char: a path, a root, a platform's name. */
export function isNonEmptyString(x: unknown): x is string {
  return typeof x === 'string' && x !== '';
}

/** A non-empty string of at most `max` chars, else `undefined`. */
export function shortString(x: unknown, max: number): string | undefined {
  return isNonEmptyString(x) && x.length <= max ? x : undefined;
}

/** Whether `x` is a non-negative safe integer: a length, a count of tokens. */
export function isNonNegativeInteger(x: unknown): x is number {
  return Number.isSafeInteger(x) && (x as number) >= 0;
}

/** Whether `x` is a positive safe integer: a count of calls, a call's number, a line. */
export function isPositiveInteger(x: unknown): x is number {
  return Number.isSafeInteger(x) && (x as number) >= 1;
}

/** `x` when it is a positive safe integer, else `null`. */
export function positiveOrNull(x: unknown): number | null {
  return isPositiveInteger(x) ? x : null;
}

/**
 * The members of a foreign list when it is a readable array of at most `max`
 * positive safe integers, else `null`: a list of call numbers that is all or
 * nothing, because one unreadable number could name a record it should not.
 */
export function positiveIntegers(raw: unknown, max = Number.MAX_SAFE_INTEGER): number[] | null {
  const length = lengthOf(raw);
  if (length === undefined || length > max) return null;
  const out: number[] = [];
  for (let i = 0; i < length; i++) {
    const n = at(raw as readonly unknown[], i);
    if (!isPositiveInteger(n)) return null;
    out.push(n);
  }
  return out;
}
