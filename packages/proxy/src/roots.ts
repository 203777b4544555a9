/**
 * The root the proxy proves sections under when no `--root` names one: the
 * directories the upstream itself reads. A client may start the proxy in any
 * directory (the home directory, the client's own), so the working
 * directory is the last guess, not the first.
 *
 * - `filesystem`: the server's allowed directories, as its
 *   `list_allowed_directories` tool lists them (the directories it was
 *   started with, symlinks resolved).
 * - `codegraph`: the project it serves: its `--path` / `-p` argument, else
 *   the nearest directory from its working directory up that holds a
 *   `.codegraph` index (where Codegraph looks itself).
 * - otherwise, and when the upstream names nothing: the upstream's working
 *   directory.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { ProfileName } from './args.js';
import type { Answer } from './upstream.js';

/**
 * The default root: its directories and where they came from, in words
 * (for the line that says what the proxy proves under).
 */
export interface DefaultRoot {
  readonly dirs: readonly string[];
  readonly from: string;
}

/** The directory `--path DIR`, `--path=DIR` or `-p DIR` among Codegraph's arguments names, resolved against `cwd`. */
function codegraphPath(args: readonly string[], cwd: string): string | null {
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word.startsWith('--path=')) return resolve(cwd, word.slice('--path='.length));
    if ((word === '--path' || word === '-p') && args[i + 1] !== undefined) {
      return resolve(cwd, args[i + 1]!);
    }
  }
  return null;
}

/** The nearest directory from `dir` up that holds a `.codegraph` index, at most 64 levels. */
function indexedAbove(dir: string): string | null {
  let at = dir;
  for (let level = 0; level < 64; level++) {
    if (existsSync(join(at, '.codegraph'))) return at;
    const up = dirname(at);
    if (up === at) return null;
    at = up;
  }
  return null;
}

/**
 * The absolute directories in the text of `list_allowed_directories`
 * (`Allowed directories:\n/a\n/b`); `[]` when it is not in that shape.
 *
 * @example
 * ```ts
 * allowedDirectories('Allowed directories:\n/home/me/app\n/srv/data'); // ['/home/me/app', '/srv/data']
 * allowedDirectories('no access');                                     // []
 * ```
 */
function allowedDirectories(text: string): string[] {
  const [first, ...rest] = text.split('\n');
  if (first === undefined || !/^allowed directories:?$/i.test(first.trim())) return [];
  return rest.map((line) => line.trim()).filter((line) => line !== '' && isAbsolute(line));
}

/** The text of a tool result, or `''`. */
function textOf(answer: Answer): string {
  if (!('result' in answer)) return '';
  const content = (answer.result as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) => (typeof block?.text === 'string' ? (block.text as string) : ''))
    .join('\n');
}

/**
 * The root for `profile` when none is named: see the module header.
 * `callTool` asks the running upstream (the filesystem server's list).
 *
 * @example
 * ```ts
 * const root = await defaultRoot('codegraph', ['serve', '--mcp', '-p', 'app'], '/home/me', call);
 * root; // { dirs: ['/home/me/app'], from: "Codegraph's --path" }
 * ```
 */
export async function defaultRoot(
  profile: ProfileName,
  args: readonly string[],
  cwd: string,
  callTool: (name: string) => Promise<Answer>,
): Promise<DefaultRoot> {
  if (profile === 'filesystem') {
    const dirs = allowedDirectories(textOf(await callTool('list_allowed_directories')));
    if (dirs.length > 0) return { dirs, from: "the filesystem server's allowed directories" };
  }
  if (profile === 'codegraph') {
    const named = codegraphPath(args, cwd);
    if (named !== null) return { dirs: [named], from: "Codegraph's --path" };
    const indexed = indexedAbove(cwd);
    if (indexed !== null) return { dirs: [indexed], from: 'the project Codegraph serves' };
  }
  return { dirs: [cwd], from: 'the working directory' };
}
