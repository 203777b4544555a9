/**
 * POSIX line offsets of a file's content, so a simulator can charge each line
 * its chars. Kept apart from the planner's own line index on purpose: a bench
 * that measured the planner with the planner's arithmetic could not catch it
 * miscounting.
 */

/**
 * Line `n` (1-based) runs from `offsets[n - 1]` to `offsets[n]`; a final `\n`
 * ends the last line instead of starting an empty one, so a file has
 * `offsets.length - 1` lines.
 *
 * @example
 * ```ts
 * lineOffsets('a\nbc\n'); // [0, 2, 5]
 * lineOffsets('a\nbc');   // [0, 2, 4]
 * lineOffsets('');        // [0]
 * ```
 */
export function lineOffsets(content: string): number[] {
  const offsets = [0];
  for (let i = content.indexOf('\n'); i !== -1; i = content.indexOf('\n', i + 1)) {
    offsets.push(i + 1);
  }
  if (offsets[offsets.length - 1] !== content.length) offsets.push(content.length);
  return offsets;
}
