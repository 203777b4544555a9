/**
 * The `filesystem` profile, for `@modelcontextprotocol/server-filesystem`:
 * `read_text_file` (and its deprecated twin `read_file`) with `head` / `tail`,
 * and `read_multiple_files`. A read the proxy proves — the upstream's text is
 * exactly the window of the file as it is on disk — is planned as one read
 * (no hold-back: an unchanged re-read answers with the pointer alone) and
 * printed the way agent harnesses print files (`cat -n` numbering), with the
 * library's pointer above the new lines: the section grammar's
 * `rewriteReads` writes it, header, pointer, cut line and refresh offer.
 *
 * Before a call goes upstream the proxy refuses, with one line, what would
 * hang or flood it: a path that is not a regular file (a FIFO blocks the
 * upstream's read for every later call too) and a whole-file read of a file
 * over {@link MAX_FILE_BYTES} (read it with `head` or `tail`). `head` and
 * `tail` are forwarded as they came, so the upstream reads only the window.
 * `read_multiple_files` sends each path once.
 */
import { stat } from 'node:fs/promises';
import type { LineRange, PlanCallFile } from 'span-ledger';
import { type FileSource, type ReadPart, rewriteReads } from 'span-ledger/adapter';
import { absolutePath, MAX_FILE_BYTES } from './disk.js';
import type { Place, Profile, Reading, ToolResult } from './profile.js';
import { textsOf, withTexts } from './profile.js';

const READ_ONE = new Set(['read_text_file', 'read_file']);
const READ_MANY = 'read_multiple_files';

/** What a read asks for. */
type Window =
  | { readonly kind: 'whole' }
  | { readonly kind: 'head'; readonly n: number }
  | { readonly kind: 'tail'; readonly n: number };

/** A line count as the upstream reads it: 0 for absent or 0 (no window), `null` for one the proxy does not plan. */
function count(raw: unknown): number | null {
  if (raw === undefined || raw === 0) return 0;
  return typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0 ? raw : null;
}

/** The window a `read_text_file` asks for, or `null` when the upstream alone should answer it (both, or odd counts). */
function windowOf(args: Record<string, unknown>): Window | null {
  const head = count(args.head);
  const tail = count(args.tail);
  if (head === null || tail === null || (head > 0 && tail > 0)) return null;
  if (tail > 0) return { kind: 'tail', n: tail };
  return head > 0 ? { kind: 'head', n: head } : { kind: 'whole' };
}

/**
 * The lines of `file` the upstream's `text` is, for the window asked, or
 * `null` when `text` is not exactly what the upstream makes of this content
 * (the file changed in between, or the window is one the proxy cannot map:
 * `tail` of a file with CRLF line ends, which the upstream rewrites).
 */
function provenRange(file: FileSource, window: Window, text: string): LineRange | null {
  const last = file.lineCount;
  if (window.kind === 'whole')
    return text === file.content && last > 0 ? { start: 1, end: last } : null;
  // Lines 1..n joined by '\n': the content up to the end of line n, without its '\n'.
  const upTo = (n: number) => file.content.slice(0, file.chars(1, n)).replace(/\n$/, '');
  if (window.kind === 'head') {
    // headFile: the first n lines, joined by '\n', no newline after the last.
    const n = Math.min(window.n, last);
    return n > 0 && text === upTo(n) ? { start: 1, end: n } : null;
  }
  // tailFile: CRLF → LF, then the last n pieces of a split on '\n' (a final newline is one of them).
  if (file.content.includes('\r')) return null;
  const total = last + (file.content === '' || file.content.endsWith('\n') ? 1 : 0);
  const start = Math.max(1, total - window.n + 1);
  // Piece `start` begins after lines 1..start-1 (the empty piece after a final '\n' at the end).
  if (text !== file.content.slice(start === 1 ? 0 : file.chars(1, start - 1))) return null;
  const end = Math.min(last, total);
  return start <= end ? { start, end } : null;
}

/** Why the proxy will not forward a read of `path`, or `null`. */
async function refusal(place: Place, path: unknown, whole: boolean): Promise<string | null> {
  if (typeof path !== 'string' || path === '' || path.includes('\0')) return null;
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(absolutePath(place.root, path));
  } catch {
    return null; // missing or unreadable: the upstream says so in its own words
  }
  if (!info.isFile() && !info.isDirectory()) {
    return `${path} is not a regular file (a FIFO, socket or device): span-ledger-proxy does not read it.`;
  }
  if (whole && info.isFile() && info.size > MAX_FILE_BYTES) {
    const mib = (info.size / 1024 / 1024).toFixed(1);
    return `${path} is ${mib} MiB, over the ${MAX_FILE_BYTES / 1024 / 1024} MiB span-ledger-proxy reads whole: pass head or tail to read part of it.`;
  }
  return null;
}

/**
 * `read_multiple_files`' text in its parts (`<path>:\n<content>\n` or
 * `<path>: Error - …`, joined by `\n---\n`), each proved or kept as written;
 * `null` when the text is not in that shape.
 */
function splitParts(
  text: string,
  paths: readonly string[],
  files: readonly (FileSource | null)[],
): ReadPart[] | null {
  const parts: ReadPart[] = [];
  let at = 0;
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i]!;
    const next = paths[i + 1];
    const separator = next === undefined ? null : `\n---\n${next}:`;
    const ends = (end: number) =>
      separator === null ? end === text.length : text.startsWith(separator, end);
    const file = files[i];
    const head = `${path}:\n`;
    if (file != null && text.startsWith(`${head}${file.content}\n`, at)) {
      const end = at + head.length + file.content.length + 1;
      if (ends(end)) {
        parts.push({ text: text.slice(at, end), file, path, first: 1 });
        at = end + 5;
        continue;
      }
    }
    if (!text.startsWith(head, at) && !text.startsWith(`${path}: Error - `, at)) return null;
    const end = separator === null ? text.length : text.indexOf(separator, at + path.length);
    if (end < 0) return null;
    parts.push({ text: text.slice(at, end), file: null, path, first: 1 });
    at = end + 5;
  }
  return parts.length > 0 && at >= text.length ? parts : null;
}

/**
 * The filesystem server's reads.
 */
export const filesystemProfile: Profile = {
  name: 'filesystem',
  holdBack: () => false,
  tools(list) {
    return list.map((tool) => tool.name).filter((name) => READ_ONE.has(name) || name === READ_MANY);
  },

  async prepare(tool, args, place) {
    if (READ_ONE.has(tool)) {
      const refuse = await refusal(place, args.path, windowOf(args)?.kind === 'whole');
      return refuse === null ? { args } : { refuse };
    }
    if (tool !== READ_MANY || !Array.isArray(args.paths)) return { args };
    // Each path once (a path twice is one section of the response), first spelling kept.
    const seen = new Set<string>();
    const paths: unknown[] = [];
    for (const path of args.paths) {
      const key = typeof path === 'string' ? absolutePath(place.root, path) : null;
      if (key !== null && seen.has(key)) continue;
      if (key !== null) seen.add(key);
      paths.push(path);
      const refuse = await refusal(place, path, true);
      if (refuse !== null) return { refuse };
    }
    return { args: { ...args, paths } };
  },

  async read(tool, args, result, place) {
    const texts = textsOf(result);
    if (texts.length !== 1 || result.content.length !== 1) return null;
    const call = { args, result, text: texts[0]!, place };
    if (READ_ONE.has(tool)) return readOne(call);
    if (tool === READ_MANY) return readMany(call);
    return null;
  },
};

/** A read's arguments, the upstream's result and its one text, and where to prove it. */
interface ReadCall {
  readonly args: Record<string, unknown>;
  readonly result: ToolResult;
  readonly text: string;
  readonly place: Place;
}

/** `file` to plan, for the lines `range` the read sent. */
function toPlan(file: FileSource, range: LineRange): PlanCallFile {
  return {
    path: file.path,
    content: file.content,
    fingerprint: file.fingerprint,
    intended: [range],
  };
}

async function readOne({ args, result, text, place }: ReadCall): Promise<Reading | null> {
  const window = windowOf(args);
  if (window === null || typeof args.path !== 'string') return null;
  const path = args.path;
  const file = await place.read(path);
  const range = file === null ? null : provenRange(file, window, text);
  if (file === null || range === null)
    return { files: [], unproven: 1, write: () => ({ result, pointers: 0 }) };
  return {
    files: [toPlan(file, range)],
    unproven: 0,
    write(plan, out) {
      const part = { text, file, path, first: range.start };
      const written = rewriteReads([part], plan, { ...out, several: false });
      return { result: withTexts(result, [written.text]), pointers: written.pointers };
    },
  };
}

async function readMany({ args, result, text, place }: ReadCall): Promise<Reading | null> {
  if (!Array.isArray(args.paths) || !args.paths.every((p) => typeof p === 'string')) return null;
  const paths = args.paths as string[];
  const disk = await Promise.all(paths.map((p) => place.read(p)));
  const parts = splitParts(text, paths, disk);
  if (parts === null) return null;
  const byName = new Map<string, FileSource>();
  for (const { file } of parts)
    if (file !== null && file.lineCount > 0) byName.set(file.path, file);
  return {
    files: [...byName.values()].map((file) => toPlan(file, { start: 1, end: file.lineCount })),
    unproven: parts.filter((part) => part.file === null && !/^[^\n]*: Error - /.test(part.text))
      .length,
    write(plan, out) {
      const written = rewriteReads(parts, plan, { ...out, several: true });
      return { result: withTexts(result, [written.text]), pointers: written.pointers };
    },
  };
}
