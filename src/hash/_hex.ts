/** Internal: how both portable hashes print their state. */

/** 32-bit state words as big-endian hex, 8 digits each. */
export function hexOfWords(words: Iterable<number>): string {
  let hex = '';
  for (const word of words) hex += (word >>> 0).toString(16).padStart(8, '0');
  return hex;
}
