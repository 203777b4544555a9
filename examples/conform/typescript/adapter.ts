/**
 * The reference itself behind the conformance protocol: every suite, answered
 * by span-ledger. The runner's vectors are this package's own answers, so it
 * must agree 100%; it shows the protocol loop an adapter in any language
 * writes (handshake, one answer per line, errors as answers).
 *
 *   npx span-ledger conform -- node --import ./scripts/from-source.mjs examples/conform/typescript/adapter.ts
 */
import { createInterface } from 'node:readline';
import { answerReference, PROTOCOL_VERSION, SUITES } from '../../../src/cli/conform/reference.js';

const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });

for await (const line of lines) {
  let request: { id?: unknown; suite?: unknown; op?: unknown; input?: unknown };
  try {
    request = JSON.parse(line);
  } catch {
    process.stdout.write(
      `${JSON.stringify({ id: null, error: { code: 'bad-request', message: 'not JSON' } })}\n`,
    );
    continue;
  }
  const { id, suite, op, input } = request;
  const answer =
    op === 'hello'
      ? {
          output: {
            protocol: PROTOCOL_VERSION,
            suites: [...SUITES],
            name: 'span-ledger (TypeScript)',
          },
        }
      : answerReference(suite, op, input);
  const out =
    'error' in answer ? { id, error: { code: answer.error } } : { id, output: answer.output };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}
