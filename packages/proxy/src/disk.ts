/**
 * Proof from disk: the file a section names, read as it is now under the
 * root, so the proxy can check that the upstream's lines are that file's lines
 * and fingerprint the content they came from.
 *
 * A file read once is kept (its content, fingerprint and symbols) while its
 * identity on disk — device, inode, size, modification and change times to
 * the nanosecond — stays the same, and only if it had not changed for a
 * second when it was read: a write within the clock's granularity of the read
 * could leave the times as they were, so such a file is read again next time.
 *
 * Whatever it cannot read with certainty reads as `null`, and the section
 * passes through unproven, never pointed at later: a path outside the root
 * (lexically or through a symlink), a file that does not exist, anything but a
 * regular file (a FIFO is opened without blocking and refused), a file over
 * {@link MAX_FILE_BYTES}, content that is not UTF-8 text (a NUL, an invalid
 * sequence).
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fingerprint, type LineRange, symbolsInSpans } from 'span-ledger';
import { extractSymbols } from 'span-ledger/adapter';

/**
 * The largest file the proxy reads to prove a section: 4 MiB. A file larger
 * than that is not source an agent reads whole; its sections pass through.
 */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;

/**
 * One directory sections are proved under: as given, and with symlinks resolved.
 */
export interface RootDir {
  readonly path: string;
  readonly real: string;
}

/**
 * The directories sections are proved under. `path` and `real` are the
 * first's: relative paths resolve against it, and a file under it is named
 * relative to it in the ledger; a file under another is named by its
 * absolute path.
 */
export interface Root extends RootDir {
  /** Every directory, the first one first. */
  readonly dirs: readonly RootDir[];
}

/**
 * A file as it is on disk now.
 */
export interface DiskFile {
  /** The path relative to the root, with `/` separators: the ledger's key for the file. */
  readonly name: string;
  readonly content: string;
  readonly fingerprint: string;
  /** `content.split('\n')`: line N is `segments[N - 1]` (a final newline leaves one empty segment). */
  readonly segments: readonly string[];
  /**
   * The names of the symbols declared in `spans` (the adapter's heuristic,
   * run over those lines only: a pointer to 40 lines of a 5,000-line file
   * scans 40 lines).
   */
  symbolsIn(spans: readonly LineRange[]): string[];
}

/**
 * The number of `file`'s last line (POSIX: a final newline ends the last
 * line, it does not start another): 0 for an empty file.
 *
 * @example
 * ```ts
 * lastLine(diskFile('a.ts', 'x\ny\n')); // 2
 * lastLine(diskFile('a.ts', 'x\ny'));   // 2
 * ```
 */
export function lastLine(file: DiskFile): number {
  if (file.content === '') return 0;
  return file.segments.length - (file.content.endsWith('\n') ? 1 : 0);
}

/** Files kept between calls, and the bytes of content they may hold together. */
const CACHED_FILES = 256;
const CACHED_BYTES = 64 * 1024 * 1024;

/** A file younger than this (since its last change) when read is read again next time. */
const SETTLED_MS = 1000;

interface Cached {
  readonly identity: string;
  readonly file: DiskFile;
  readonly bytes: number;
}

const cache = new Map<string, Cached>();
let cachedBytes = 0;

function remember(abs: string, entry: Cached): void {
  const old = cache.get(abs);
  if (old !== undefined) {
    cache.delete(abs);
    cachedBytes -= old.bytes;
  }
  cache.set(abs, entry);
  cachedBytes += entry.bytes;
  for (const [key, value] of cache) {
    if (cache.size <= CACHED_FILES && cachedBytes <= CACHED_BYTES) break;
    cache.delete(key);
    cachedBytes -= value.bytes;
  }
}

/**
 * A `DiskFile` for `content`: its fingerprint now, its symbols when asked.
 *
 * @example
 * ```ts
 * diskFile('src/a.ts', 'export const a = 1;\n').segments; // ['export const a = 1;', '']
 * ```
 */
export function diskFile(name: string, content: string): DiskFile {
  const segments = content.split('\n');
  // The same spans come back call after call (a pointer to what one response sent): scanned once.
  const scanned = new Map<string, readonly string[]>();
  const declaredIn = (span: LineRange): readonly string[] => {
    const key = `${span.start}-${span.end}`;
    let names = scanned.get(key);
    if (names === undefined) {
      const text = segments.slice(span.start - 1, span.end).join('\n');
      const nodes = extractSymbols(text, name).map((node) => ({
        ...node,
        start: node.start + span.start - 1,
        end: node.end + span.start - 1,
      }));
      names = symbolsInSpans(nodes, [span]);
      if (scanned.size < 256) scanned.set(key, names);
    }
    return names;
  };
  return {
    name,
    content,
    fingerprint: fingerprint(content),
    segments,
    symbolsIn(spans) {
      const names: string[] = [];
      for (const span of spans) {
        for (const symbol of declaredIn(span)) if (!names.includes(symbol)) names.push(symbol);
      }
      return names;
    },
  };
}

/**
 * Resolves `dir` for {@link readUnderRoot}; `null` when it is not a directory
 * that exists.
 *
 * @example
 * ```ts
 * const root = await openRoot(process.cwd());
 * if (root === null) exit('the root does not exist');
 * ```
 */
export async function openRoot(dir: string): Promise<Root | null> {
  const opened = await openRoots([dir]);
  return 'root' in opened ? opened.root : null;
}

/**
 * Resolves every directory of `dirs` (in order, each once) into one
 * {@link Root}, or names the first that is not a directory that exists.
 *
 * @example
 * ```ts
 * const opened = await openRoots(['/repo/app', '/repo/lib']);
 * 'root' in opened ? opened.root.dirs.length : opened.problem; // 2
 * ```
 */
export async function openRoots(
  dirs: readonly string[],
): Promise<{ readonly root: Root } | { readonly problem: string }> {
  const opened: RootDir[] = [];
  for (const dir of dirs) {
    let real: string;
    try {
      real = await realpath(dir);
    } catch {
      return { problem: `the root ${dir} is not a directory that exists` };
    }
    if (!(await stat(real)).isDirectory()) {
      return { problem: `the root ${dir} is a file; a root is the directory files are read under` };
    }
    if (!opened.some((known) => known.real === real)) opened.push({ path: resolve(dir), real });
  }
  const [first] = opened;
  if (first === undefined) return { problem: 'no root was given' };
  return { root: { ...first, dirs: opened } };
}

/**
 * Whether `raw` names a path under none of the root's directories (lexically):
 * its sections can never be proved, whatever is on disk.
 *
 * @example
 * ```ts
 * outsideRoot(root, '/etc/hosts'); // true
 * outsideRoot(root, 'src/a.ts');   // false: relative to the first directory
 * ```
 */
export function outsideRoot(root: Root, raw: unknown): boolean {
  if (typeof raw !== 'string' || raw === '' || raw.includes('\0')) return false;
  const abs = absolutePath(root, raw);
  return root.dirs.every((dir) => inside(dir.path, abs) === null && inside(dir.real, abs) === null);
}

function inside(dir: string, path: string): string | null {
  const rel = relative(dir, path);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  return rel;
}

/**
 * `raw` as an absolute path: `~/` is the home directory, a relative path is
 * relative to the root (as the filesystem server resolves it against its
 * allowed directory, and Codegraph against its project).
 *
 * @example
 * ```ts
 * absolutePath(root, 'src/a.ts'); // '/home/me/project/src/a.ts'
 * ```
 */
export function absolutePath(root: Root, raw: string): string {
  const expanded =
    raw === '~' ? homedir() : raw.startsWith('~/') ? join(homedir(), raw.slice(2)) : raw;
  return isAbsolute(expanded) ? resolve(expanded) : resolve(root.path, expanded);
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads the file `raw` names under `root`, or `null` when it cannot prove
 * anything with it (see the module header). Never throws, never blocks on a
 * FIFO or a device.
 *
 * @example
 * ```ts
 * const file = await readUnderRoot(root, 'src/cart.ts');
 * file?.segments[26]; // line 27
 * ```
 */
export async function readUnderRoot(root: Root, raw: unknown): Promise<DiskFile | null> {
  return readNow(root, raw);
}

/**
 * The read itself, with synchronous calls: a proof reads files the page cache
 * holds (a stat and a realpath when it was read before), where each trip
 * through the thread pool would cost more than the call, and the non-blocking
 * open keeps a FIFO from ever holding the thread.
 */
function readNow(root: Root, raw: unknown): DiskFile | null {
  if (typeof raw !== 'string' || raw === '' || raw.length > 4096 || raw.includes('\0')) return null;
  const abs = absolutePath(root, raw);
  let dir: RootDir | undefined;
  let rel: string | null = null;
  for (const candidate of root.dirs) {
    rel = inside(candidate.path, abs) ?? inside(candidate.real, abs);
    if (rel !== null) {
      dir = candidate;
      break;
    }
  }
  if (dir === undefined || rel === null) return null;
  let fd: number | undefined;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd, { bigint: true });
    if (!stat.isFile() || stat.size > BigInt(MAX_FILE_BYTES)) return null;
    if (inside(dir.real, realpathSync(abs)) === null) return null;
    // Under the first directory: relative to it; under another: the absolute path, so no two files share a name.
    const name = (dir === root.dirs[0] ? rel : abs).split(sep).join('/');
    const identity = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
    const kept = cache.get(abs);
    if (kept !== undefined && kept.identity === identity && kept.file.name === name) {
      return kept.file;
    }
    const readAt = Date.now();
    const bytes = readFileSync(fd);
    if (bytes.length > MAX_FILE_BYTES || bytes.includes(0)) return null;
    const file = diskFile(name, decoder.decode(bytes));
    if (readAt - Number(stat.ctimeMs) >= SETTLED_MS) {
      remember(abs, { identity, file, bytes: bytes.length });
    } else {
      cache.delete(abs);
    }
    return file;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * A reader that reads each path once per call (a response may name a file in
 * several sections), and tells `onOutside` of a path under none of the root's
 * directories.
 *
 * @example
 * ```ts
 * const read = diskReader(root);
 * const [a, b] = await Promise.all([read('src/a.ts'), read('src/a.ts')]); // one read
 * ```
 */
export function diskReader(
  root: Root,
  onOutside?: (raw: string) => void,
): (raw: unknown) => Promise<DiskFile | null> {
  const seen = new Map<string, Promise<DiskFile | null>>();
  return (raw) => {
    if (typeof raw !== 'string') return Promise.resolve(null);
    let got = seen.get(raw);
    if (got === undefined) {
      if (onOutside !== undefined && outsideRoot(root, raw)) onOutside(raw);
      got = readUnderRoot(root, raw);
      seen.set(raw, got);
    }
    return got;
  };
}
