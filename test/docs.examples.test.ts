/**
 * Every `@example` on a public function runs and states true values
 * (scripts/doc-examples.ts extracts them; `npm run typecheck` compiles them
 * against the sources). The ones that need a live Redis or start a server
 * are compiled only.
 */
import { describe, expect, test } from 'vitest';
import { writeExamples } from '../scripts/doc-examples.js';

const { examples, errors } = writeExamples();
const check = (file: string) => (actual: unknown, expected: unknown, line: number) =>
  expect(actual, `${file}:${line}`).toStrictEqual(expected);
const throws = (file: string) => (run: () => unknown, error: string | null, line: number) => {
  let thrown: unknown = null;
  try {
    run();
  } catch (caught) {
    thrown = caught ?? 'nothing';
  }
  expect(thrown, `${file}:${line} says it throws`).not.toBeNull();
  if (error !== null) expect((thrown as Error).name, `${file}:${line}`).toBe(error);
};

test('every example of a public function reads as code, and every `// →` holds a literal', () => {
  expect(errors).toEqual([]);
});

describe.each([...new Set(examples.map((e) => e.entry))])('%s', (entry) => {
  const mine = examples.filter((e) => e.entry === entry);
  const runs = mine.filter((e) => e.typeCheckOnly === null);
  const compiledOnly = mine.filter((e) => e.typeCheckOnly !== null);
  test.each(runs.map((e) => [e.title, e] as const))(
    '%s: the example runs and every value it states is what the code returns',
    async (_title, e) => {
      const module = (await import(/* @vite-ignore */ e.module)) as {
        default: (c: ReturnType<typeof check>, t: ReturnType<typeof throws>) => Promise<void>;
      };
      await module.default(check(e.file), throws(e.file));
    },
  );
  if (compiledOnly.length > 0)
    test.each(compiledOnly.map((e) => [e.title, e.typeCheckOnly] as const))(
      '%s: the example is compiled only (%s)',
      () => {},
    );
});
