/**
 * Reading a response the way an agent does: its number and context token, the
 * numbered source lines of each section, and its pointers. The proxy's tests
 * and `bench:proxy` read answers with it, never the proxy's internals.
 */

/** What a response says, read the way an agent reads it. */
export interface ReadResponse {
  /** `Response #N` (or `#N/tag`): N, or `null`. */
  readonly number: number | null;
  /** The numbering tag printed beside the number (`#N/tag`), or `null`. */
  readonly tag: string | null;
  /** The context token the header gives, or `null`. */
  readonly token: string | null;
  /** Numbered source lines by path (both explore fences and `cat -n` reads). */
  readonly lines: ReadonlyMap<string, ReadonlyMap<number, string>>;
  /** The pointers: the path, the responses they cite (none for Codegraph's own), the lines they name. */
  readonly pointers: readonly {
    readonly path: string;
    readonly calls: readonly number[];
    readonly spans: readonly { readonly start: number; readonly end: number }[];
  }[];
}

const HEADER = /^Response #(\d+)(?:\/([a-z]+))?(?: · context ([A-Za-z0-9_-]+))?/;
const SECTION =
  /^\*\*`([^`]+)`\*\*|^\*\*Location:\*\* (.+?):\d+|^([^\s:]+):$|^\*\*([^*`\s]+)\*\* — \d+ lines/;
/** The library's pointer: `Sent in response #3 of this conversation: `path` L1-40, L52 (…)`. */
const POINTER =
  /^>? ?Sent (?:in responses? ((?:#\d+(?:\/[a-z]+)?(?:, | and )?)+)|earlier) of this conversation: `([^`]+)`((?: L\d+(?:-\d+)?,?)*)/;
/** The library's compact pointer of a whole small section: `` `path` L5-11 (…): unchanged, sent in #2. ``. */
const COMPACT_POINTER =
  /^>? ?()`([^`]+)`((?: L\d+(?:-\d+)?,?)*)(?: \([^)]*\))?: unchanged, (?:sent in ((?:#\d+(?:\/[a-z]+)?(?:, | and )?)+)|sent earlier in this conversation)\./;
/** Codegraph's own (its explore dedup): `> **Already sent earlier in this conversation:** `path` L1-40 …`. */
const CODEGRAPH_POINTER =
  /^> \*\*Already sent earlier in this conversation:\*\* ()`([^`]+)`((?: L\d+(?:-\d+)?,?)*)/;
const NUMBERED = /^ *(\d+)\t/;

/**
 * Reads a response: its number and token, the numbered lines under each
 * section heading (`` **`path`** ``, `**Location:** path:N`, a node file read
 * `**path** — N lines`, or a `read_multiple_files` part `path:`), and its
 * pointers — the library's (full or compact), citing responses, and
 * Codegraph's own, citing none.
 */
export function readResponse(text: string, single?: string): ReadResponse {
  let number: number | null = null;
  let tag: string | null = null;
  let token: string | null = null;
  const lines = new Map<string, Map<number, string>>();
  const pointers: { path: string; calls: number[]; spans: { start: number; end: number }[] }[] = [];
  let path = single ?? '';
  for (const line of text.split('\n')) {
    const header = HEADER.exec(line);
    if (header !== null && number === null) {
      number = Number(header[1]);
      tag = header[2] ?? null;
      token = header[3] ?? null;
      continue;
    }
    const compact = COMPACT_POINTER.exec(line);
    const pointer = POINTER.exec(line) ?? CODEGRAPH_POINTER.exec(line) ?? compact;
    if (pointer !== null) {
      const cited = compact === null ? pointer[1] : compact[4];
      pointers.push({
        path: pointer[2]!,
        calls: [...(cited ?? '').matchAll(/#(\d+)/g)].map((m) => Number(m[1])),
        spans: [...(pointer[3] ?? '').matchAll(/L(\d+)(?:-(\d+))?/g)].map((m) => ({
          start: Number(m[1]),
          end: Number(m[2] ?? m[1]),
        })),
      });
      continue;
    }
    const section = SECTION.exec(line);
    if (section !== null) {
      path = section[1] ?? section[2] ?? section[3] ?? section[4]!;
      continue;
    }
    const numbered = NUMBERED.exec(line);
    if (numbered !== null && path !== '') {
      let mine = lines.get(path);
      if (mine === undefined) {
        mine = new Map();
        lines.set(path, mine);
      }
      mine.set(Number(numbered[1]), line.slice(numbered[0].length));
    }
  }
  return { number, tag, token, lines, pointers };
}
