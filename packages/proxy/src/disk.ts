/**
 * Proof from disk: the file a section names, read as it is now under the
 * root, so the proxy can check that the upstream's lines are that file's lines
 * and fingerprint the content they came from.
 *
 * Whatever it cannot read with certainty reads as `null`, and the section
 * passes through unproven, never pointed at later: a path outside the root
 * (lexically or through a symlink), a file that does not exist, anything but a
 * regular file (a FIFO is opened without blocking and refused), a file over
 * {@link MAX_FILE_BYTES}, content that is not UTF-8 text (a NUL, an invalid
 * sequence).
 */
import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fingerprint } from 'span-ledger';

/**
 * The largest file the proxy reads to prove a section: 4 MiB. A file larger
 * than that is not source an agent reads whole; its sections pass through.
 */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;

/**
 * The root sections are proved under: as given, and with symlinks resolved.
 *
 * @example
 * ```ts
 * const root: Root = await openRoot('/home/me/project');
 * ```
 */
export interface Root {
  readonly path: string;
  readonly real: string;
}

/**
 * A file as it is on disk now.
 *
 * @example
 * ```ts
 * const file: DiskFile = { name: 'src/a.ts', content, fingerprint: fingerprint(content), segments: content.split('\n') };
 * ```
 */
export interface DiskFile {
  /** The path relative to the root, with `/` separators: the ledger's key for the file. */
  readonly name: string;
  readonly content: string;
  readonly fingerprint: string;
  /** `content.split('\n')`: line N is `segments[N - 1]` (a final newline leaves one empty segment). */
  readonly segments: readonly string[];
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
  try {
    const real = await realpath(dir);
    return (await stat(real)).isDirectory() ? { path: resolve(dir), real } : null;
  } catch {
    return null;
  }
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
  if (typeof raw !== 'string' || raw === '' || raw.length > 4096 || raw.includes('\0')) return null;
  const abs = absolutePath(root, raw);
  const rel = inside(root.path, abs) ?? inside(root.real, abs);
  if (rel === null) return null;
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(abs, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return null;
    if (inside(root.real, await realpath(abs)) === null) return null;
    const bytes = await handle.readFile();
    if (bytes.length > MAX_FILE_BYTES || bytes.includes(0)) return null;
    const content = decoder.decode(bytes);
    return {
      name: rel.split(sep).join('/'),
      content,
      fingerprint: fingerprint(content),
      segments: content.split('\n'),
    };
  } catch {
    return null;
  } finally {
    await handle?.close().catch(() => {});
  }
}

/**
 * A reader that reads each path once per call (a response may name a file in
 * several sections).
 *
 * @example
 * ```ts
 * const read = diskReader(root);
 * const [a, b] = await Promise.all([read('src/a.ts'), read('src/a.ts')]); // one read
 * ```
 */
export function diskReader(root: Root): (raw: unknown) => Promise<DiskFile | null> {
  const seen = new Map<string, Promise<DiskFile | null>>();
  return (raw) => {
    if (typeof raw !== 'string') return Promise.resolve(null);
    let got = seen.get(raw);
    if (got === undefined) {
      got = readUnderRoot(root, raw);
      seen.set(raw, got);
    }
    return got;
  };
}
