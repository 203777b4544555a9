/**
 * Project keys: when two spellings of a project root name one ledger entry.
 * Lexical only. It never touches the filesystem (no symlinks, no cwd):
 * resolving `/repo/internal` to the project `/repo` is the host's job, and the
 * emission carries the root the host resolved.
 */

import { isNonEmptyString, prop } from '../boundary/read.js';

/** The platforms whose default filesystems compare names without case. */
const CASE_FOLDING = new Set(['win32', 'darwin']);

function currentPlatform(): string {
  const p = prop(prop(globalThis, 'process'), 'platform');
  return isNonEmptyString(p) ? p : 'linux';
}

/**
 * The ledger key of a project root: separators unified (`\` → `/` on
 * `win32`), `.` segments and duplicate or trailing slashes removed, `..`
 * applied lexically (never above the root of an absolute path), then
 * lower-cased on `win32` and `darwin` only, whose default filesystems ignore
 * case. `platform` defaults to `process.platform`, or `'linux'` where there is
 * no `process`.
 *
 * @throws {TypeError} when `root` is not a string.
 * @example
 * ```ts
 * projectKey('/repo/');                 // '/repo'
 * projectKey('/repo/./x/..');           // '/repo'
 * projectKey('/Repo', 'linux');         // '/Repo'
 * projectKey('/Repo', 'darwin');        // '/repo'
 * projectKey('C:\\Work\\Repo\\', 'win32'); // 'c:/work/repo'
 * ```
 */
export function projectKey(root: string, platform?: string): string {
  if (typeof root !== 'string') {
    throw new TypeError(`projectKey(root): root must be a string, got ${typeof root}`);
  }
  const os = isNonEmptyString(platform) ? platform : currentPlatform();
  const windows = os === 'win32';
  const path = windows ? root.replace(/\\/g, '/') : root;

  // The part `..` can never climb above.
  let prefix = '';
  let rest = path;
  if (windows && /^[A-Za-z]:/.test(path)) {
    prefix = path.slice(0, 2);
    rest = path.slice(2);
    if (rest.startsWith('/')) prefix += '/';
  } else if (windows && /^\/\/[^/]+\/[^/]+/.test(path)) {
    // UNC: //server/share is the root.
    const [, server, share] = path.split('/', 4).slice(1);
    prefix = `//${server}/${share}/`;
    rest = path.slice(prefix.length - 1);
  } else if (path.startsWith('/')) {
    prefix = '/';
  }
  const absolute = prefix.endsWith('/');

  const out: string[] = [];
  for (const segment of rest.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
      continue;
    }
    out.push(segment);
  }
  let key = prefix + out.join('/');
  if (key === '') key = '.';
  // A UNC root alone keeps no trailing slash; `/` and `C:/` are roots and keep theirs.
  else if (out.length === 0 && prefix.startsWith('//')) key = prefix.slice(0, -1);
  return CASE_FOLDING.has(os) ? key.toLowerCase() : key;
}
