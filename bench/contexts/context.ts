/**
 * The scripted agent's context: a list of whole responses. A context holds a
 * line only while the response (or file read) that delivered it is in the
 * list; compaction keeps the last item and drops the rest, with every line
 * and every context token they carried.
 *
 * Lines are identified by path, content fingerprint and line number, so a
 * line of an edited file is a different line.
 */
import type { LineRange } from '../../src/ranges/range.js';

/** What one delivered item put into a context. */
export interface HeldItem {
  readonly kind: 'response' | 'read';
  /** `bucket#number` of a numbered response (what a pointer can cite), else `null`. */
  readonly ref: string | null;
  /** The context token the item names, or `null`. */
  readonly token: string | null;
  /** Delivered lines: `path\0fingerprint` → line numbers. */
  readonly lines: ReadonlyMap<string, ReadonlySet<number>>;
}

/** One agent context. */
export interface AgentContext {
  readonly name: string;
  items: HeldItem[];
}

/** A fresh, empty context. */
export function createContext(name: string): AgentContext {
  return { name, items: [] };
}

const fileKey = (path: string, fingerprint: string) => `${path}\0${fingerprint}`;

/** Builds the `lines` of an item from delivered spans per file. */
export function deliveredLines(
  files: readonly {
    readonly path: string;
    readonly fingerprint: string;
    readonly spans: readonly LineRange[];
  }[],
): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const f of files) {
    const key = fileKey(f.path, f.fingerprint);
    let set = out.get(key);
    if (!set) out.set(key, (set = new Set()));
    for (const s of f.spans) for (let n = s.start; n <= s.end; n++) set.add(n);
  }
  return out;
}

/** Whether the context holds line `line` of `path` as it was with `fingerprint`. */
export function holdsLine(
  ctx: AgentContext,
  path: string,
  fingerprint: string,
  line: number,
): boolean {
  const key = fileKey(path, fingerprint);
  return ctx.items.some((item) => item.lines.get(key)?.has(line) === true);
}

/** Whether the context holds every line of `spans`. */
export function holdsAll(
  ctx: AgentContext,
  path: string,
  fingerprint: string,
  spans: readonly LineRange[],
): boolean {
  for (const s of spans) {
    for (let n = s.start; n <= s.end; n++) if (!holdsLine(ctx, path, fingerprint, n)) return false;
  }
  return true;
}

/** Whether the response `ref` is still in the context. */
export function holdsResponse(ctx: AgentContext, ref: string): boolean {
  return ctx.items.some((item) => item.ref === ref);
}

/** The last context token the context still holds, or `null`. */
export function lastToken(ctx: AgentContext): string | null {
  for (let i = ctx.items.length - 1; i >= 0; i--) {
    const token = ctx.items[i]!.token;
    if (token !== null) return token;
  }
  return null;
}

/** Compaction: keeps the last item, returns the dropped ones. */
export function compact(ctx: AgentContext): HeldItem[] {
  const dropped = ctx.items.slice(0, -1);
  ctx.items = ctx.items.slice(-1);
  return dropped;
}
