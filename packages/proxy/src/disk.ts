/**
 * Proof from disk: the file a section names, read as it is now under the
 * root, so the proxy can check that the upstream's lines are that file's lines
 * and fingerprint the content they came from.
 *
 * A file read once is kept by the root it was read under (each proxy opens
 * its own: no file is shared between proxies of one process) — its content,
 * fingerprint, lines and symbols — while its identity on disk — device, inode, size, modification and change times to
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
import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fingerprint } from 'span-ledger';
import { type FileSource, fileSource } from 'span-ledger/adapter';

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
  /** The files read under it, kept between calls (each proxy opens its own root). */
  readonly kept: FileCache;
}

/** Files kept between calls, and the bytes of content they may hold together. */
const CACHED_FILES = 256;
const CACHED_BYTES = 64 * 1024 * 1024;

/** A file younger than this (since its last change) when read is read again next time. */
const SETTLED_MS = 1000;

/** A file kept, with its identity on disk when read and its bytes. */
export interface Cached {
  readonly identity: string;
  readonly file: FileSource;
  readonly bytes: number;
}

/**
 * Files read before, by absolute path, with the identity on disk they were
 * read at: at most {@link CACHED_FILES} files and {@link CACHED_BYTES} bytes,
 * the least recently kept going first.
 */
export interface FileCache {
  get(abs: string): Cached | undefined;
  keep(abs: string, entry: Cached): void;
  forget(abs: string): void;
}

function fileCache(): FileCache {
  const files = new Map<string, Cached>();
  let bytes = 0;
  const forget = (abs: string) => {
    const old = files.get(abs);
    if (old === undefined) return;
    files.delete(abs);
    bytes -= old.bytes;
  };
  return {
    get: (abs) => files.get(abs),
    forget,
    keep(abs, entry) {
      forget(abs);
      files.set(abs, entry);
      bytes += entry.bytes;
      for (const key of files.keys()) {
        if (files.size <= CACHED_FILES && bytes <= CACHED_BYTES) break;
        forget(key);
      }
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
    const real = await realpath(dir).catch(() => null);
    if (real === null) return { problem: `the root ${dir} is not a directory that exists` };
    if (!(await stat(real)).isDirectory()) {
      return { problem: `the root ${dir} is a file; a root is the directory files are read under` };
    }
    if (!opened.some((known) => known.real === real)) opened.push({ path: resolve(dir), real });
  }
  const [first] = opened;
  if (first === undefined) return { problem: 'no root was given' };
  return { root: { ...first, dirs: opened, kept: fileCache() } };
}

/**
 * Whether `raw` names a path under none of the root's directories (lexically):
 * its sections can never be proved, whatever is on disk.
 */
function outsideRoot(root: Root, raw: string): boolean {
  return raw !== '' && !raw.includes('\0') && under(root, absolutePath(root, raw)) === null;
}

function inside(dir: string, path: string): string | null {
  const rel = relative(dir, path);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  return rel;
}

/** The first of the root's directories `abs` lies under (as given or resolved), with `abs` relative to it. */
function under(root: Root, abs: string): { readonly dir: RootDir; readonly rel: string } | null {
  for (const dir of root.dirs) {
    const rel = inside(dir.path, abs) ?? inside(dir.real, abs);
    if (rel !== null) return { dir, rel };
  }
  return null;
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

/**
 * Reads the file `raw` names under `root`, or `null` when it cannot prove
 * anything with it (see the module header). Never throws, never blocks on a
 * FIFO or a device. Its calls are synchronous: a proof reads files the page
 * cache holds (a stat and a realpath when it was read before), where each
 * trip through the thread pool would cost more than the call, and the
 * non-blocking open keeps a FIFO from ever holding the thread.
 *
 * @example
 * ```ts
 * const file = await readUnderRoot(root, 'src/cart.ts');
 * file?.line(27);
 * ```
 */
export async function readUnderRoot(root: Root, raw: unknown): Promise<FileSource | null> {
  if (typeof raw !== 'string' || raw === '' || raw.length > 4096 || raw.includes('\0')) return null;
  const abs = absolutePath(root, raw);
  const found = under(root, abs);
  if (found === null) return null;
  const { dir, rel } = found;
  let fd: number | undefined;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd, { bigint: true });
    if (!stat.isFile() || stat.size > BigInt(MAX_FILE_BYTES)) return null;
    if (inside(dir.real, realpathSync(abs)) === null) return null;
    // Under the first directory: relative to it; under another: the absolute path, so no two files share a name.
    const name = (dir === root.dirs[0] ? rel : abs).split(sep).join('/');
    const identity = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
    const kept = root.kept.get(abs);
    if (kept !== undefined && kept.identity === identity && kept.file.path === name) {
      return kept.file;
    }
    const readAt = Date.now();
    const bytes = readFileSync(fd);
    if (bytes.length > MAX_FILE_BYTES || bytes.includes(0) || !isUtf8(bytes)) return null;
    // Valid UTF-8 decodes exactly, a byte-order mark kept: what a strict TextDecoder gives, without its first-use cost.
    const content = bytes.toString('utf8');
    const file = fileSource(name, content, fingerprint(content));
    if (readAt - Number(stat.ctimeMs) >= SETTLED_MS) {
      root.kept.keep(abs, { identity, file, bytes: bytes.length });
    } else {
      root.kept.forget(abs);
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
): (raw: unknown) => Promise<FileSource | null> {
  const seen = new Map<string, Promise<FileSource | null>>();
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
