// npm install span-ledger, then: node hello.mjs
import { createSessionStore, planCall, projectFromView } from 'span-ledger';
import { createEmissionRecorder, renderMarkdown } from 'span-ledger/adapter';

const root = '/repo'; // the project your tool answers about
const lines = Array.from({ length: 20 }, (_, i) => `export const price${i} = ${i};\n`).join('');
// What your tool would send: a file, and its 1-based, inclusive line spans.
const file = (path, end) => ({ path, content: lines, intended: [{ start: 1, end }] });
const session = createSessionStore(); // one per client connection

function answer(query, ranked) {
  const prior = projectFromView(session.view(), root); // what this conversation already holds
  const plan = planCall({ files: ranked, prior, budget: { maxChars: 12_000 } });
  const recorder = createEmissionRecorder({ projectRoot: root, query });
  const { text } = renderMarkdown({ plan, sources: ranked, recorder });
  session.record(recorder.finish(text.length)); // remember exactly what was sent
  return text;
}

console.log(answer('cart prices', [file('src/cart.ts', 20)])); // response #1: 20 lines
console.log(answer('tax', [file('src/tax.ts', 5), file('src/cart.ts', 20)])); // #2 points at #1
