/**
 * Test support for `checkRangeAlgebra`: run it on an implementation that must
 * break a law, and read the error it throws.
 */
import { expect } from 'vitest';
import {
  type CheckRangeAlgebraOptions,
  checkRangeAlgebra,
  type RangeAlgebra,
  RangeAlgebraLawError,
} from '../src/testing/index.js';

/** Runs the check on `impl`, expecting a broken law, and returns the error. */
export function lawError(
  impl: Partial<RangeAlgebra>,
  options: CheckRangeAlgebraOptions,
): RangeAlgebraLawError {
  let error: unknown;
  try {
    checkRangeAlgebra(impl, options);
  } catch (e) {
    error = e;
  }
  expect(error, 'checkRangeAlgebra accepted a broken implementation').toBeInstanceOf(
    RangeAlgebraLawError,
  );
  return error as RangeAlgebraLawError;
}

/** The line of an error's message that says what went wrong (after the counterexample). */
export function cause(error: RangeAlgebraLawError): string {
  return error.message.split('\n')[2] ?? '';
}
