/**
 * Internal: a file's lines as the adapter shows and counts them. POSIX lines:
 * the content is cut at each `'\n'`, and a final `'\n'` ends the last line
 * instead of starting an empty one (`'a\nb\n'` and `'a\nb'` both have 2 lines,
 * `''` has 0, `'\n'` has 1). A `'\r'` stays part of its line. A line's chars
 * are its text plus its terminator when it has one, so the chars of all lines
 * add up to `content.length`.
 */

/**
 * The lines of one file's content.
 *
 * @example
 * ```ts
 * const lines: FileLines = fileLines('a\nb\n'); // { text: ['a', 'b'], terminated: true }
 * ```
 */
export interface FileLines {
  /** The text of each line, without its `'\n'`. */
  readonly text: readonly string[];
  /** Whether the last line ends with a `'\n'`. */
  readonly terminated: boolean;
}

/**
 * Cuts `content` into POSIX lines.
 *
 * @example
 * ```ts
 * fileLines('a\nb\nc\n').text; // ['a', 'b', 'c']
 * fileLines('').text;          // []
 * ```
 */
export function fileLines(content: string): FileLines {
  const terminated = content.endsWith('\n');
  const text = content === '' ? [] : content.split('\n');
  // The '' after a final '\n' is not a line.
  if (terminated) text.pop();
  return { text, terminated };
}

/**
 * The chars line `n` (1-based, within the file) stands for in the content:
 * its text and its `'\n'`, the last line's only when the file ends with one.
 *
 * @example
 * ```ts
 * lineChars(fileLines('ab\nc'), 1); // 3
 * lineChars(fileLines('ab\nc'), 2); // 1
 * ```
 */
export function lineChars(lines: FileLines, n: number): number {
  const terminated = n < lines.text.length || lines.terminated;
  return lines.text[n - 1]!.length + (terminated ? 1 : 0);
}
