/**
 * Test support: what a renderer records after rendering a plan — source spans
 * with their chars, pointer spans with 0 — without rendering any text.
 */
import type { CallPlan, Emission } from '../src/index.js';

/** The emission of `plan` for `projectRoot`; `framing` is the response's non-source chars. */
export function emissionOf(plan: CallPlan, projectRoot: string, framing = 0): Emission {
  const files = plan.files
    .filter((f) => f.render !== 'skipped')
    .map((f) => ({
      path: f.path,
      ranges: [...f.emit, ...(f.render === 'full' ? [] : f.covered)],
      chars: f.newChars,
      fingerprint: f.fingerprint,
    }));
  return {
    projectRoot,
    query: 'q',
    files,
    sourceChars: plan.newChars,
    responseChars: plan.newChars + framing,
  };
}
