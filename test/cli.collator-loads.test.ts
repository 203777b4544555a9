/**
 * The CLI's input reader builds its natural-order collator when it loads; a
 * locale or option this runtime rejects would throw on import, and the CLI
 * would die before reading a single argument. Imported inside the test (this
 * file imports it nowhere else), so such a throw fails a test rather than the
 * collection of the file.
 */
import { expect, it } from 'vitest';

it('the input reader loads on this runtime: its collator locale and options are valid', async () => {
  const { readResponseFiles } = await import('../src/cli/inputs.js');
  expect(readResponseFiles).toBeTypeOf('function');
});
