/**
 * A warm-up before the first client: the proxy's own hot path — the symbol
 * scan, planning, the pointer, re-rendering sections and reads, recording —
 * run a few times over a made-up file, so that V8 has compiled and optimized
 * it before a real call pays for it. Cold, the symbol scan of a 5,000-line
 * file takes about 60 ms; warm, 2 ms. What a call does once per process is
 * done here too: the check of the upstream's result (the SDK's schema builds
 * its parser on first use, ~8 ms of CPU), the context token (the random
 * source loads on first use) and the token estimate that sizes a response.
 * It costs start-up a few tens of ms once.
 *
 * It touches nothing outside: a store of its own, no disk, no upstream.
 */
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createSessionStore, mintContextToken, planCall } from 'span-ledger';
import {
  createEmissionRecorder,
  type FileSource,
  filesToPlan,
  findSections,
  formatResponseHeader,
  proveSections,
  rewriteReads,
  rewriteSections,
} from 'span-ledger/adapter';
import { sizeOf } from './cap.js';
import { diskFile } from './disk.js';
import { codegraphHeading, PROXY_LIMITS } from './sectioned.js';

/** About 1,000 lines of TypeScript-shaped source: classes, methods, comments, strings, nesting. */
function sampleSource(): string {
  const lines: string[] = [];
  for (let i = 0; i < 60; i++) {
    lines.push(
      `/** Block ${i}: a class with methods. */`,
      `export class Sample${i} extends Base {`,
      `  private readonly items: Map<string, number> = new Map();`,
      `  constructor(readonly name = 'sample ${i}', readonly limit = ${i}) {`,
      '    super();',
      '  }',
      `  add(key: string, value: number): void {`,
      `    // a comment with "quotes" and {braces}`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the sample source holds a template literal
      '    if (value > this.limit) throw new Error(`over ${this.limit}: ${key}`);',
      '    this.items.set(key, (this.items.get(key) ?? 0) + value);',
      '  }',
      '}',
      `export function helper${i}(input: readonly number[]): number {`,
      '  return input.reduce((sum, n) => sum + n * 2, 0);',
      '}',
      `export const value${i} = helper${i}([1, 2, 3]);`,
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}

function numberedLines(file: FileSource, from: number, to: number): string {
  const out: string[] = [];
  for (let n = from; n <= to; n++) out.push(`${n}\t${file.line(n)}`);
  return out.join('\n');
}

/**
 * Runs the hot path a few times. Never throws: a warm-up that fails costs
 * only the speed it was for.
 *
 * @example
 * ```ts
 * await warmUp(); // before the first client connects
 * ```
 */
export async function warmUp(): Promise<void> {
  try {
    const content = sampleSource();
    const store = createSessionStore(PROXY_LIMITS);
    for (let round = 0; round < 3; round++) {
      const file = diskFile('warm/sample.ts', content);
      file.symbols([{ start: 1, end: 600 }]);
      const last = file.lineCount;
      const text = [
        '**Exploration: warm-up**',
        '',
        `**\`warm/sample.ts\`** — Sample0(class)`,
        '',
        '```ts',
        `${numberedLines(file, 1, 300 + round * 200)}\n\n... (gap) ...\n\n${numberedLines(file, 900, last)}`,
        '```',
        '',
      ].join('\n');
      const sections = findSections([text], codegraphHeading);
      const found = proveSections(
        sections,
        sections.map(() => file),
      );
      const prior = store.project('/warm', 'warm');
      const plan = planCall({
        files: filesToPlan(found),
        prior,
        budget: { maxChars: 80_000, policy: 'bank' },
      });
      const recorder = createEmissionRecorder({ projectRoot: '/warm', query: 'warm-up' });
      const context = mintContextToken();
      const header = formatResponseHeader({ callIndex: plan.callIndex, context });
      const written = rewriteSections([text], found, plan, { header, recorder });
      CallToolResultSchema.safeParse({ content: [{ type: 'text', text: written.texts[0] }] });
      sizeOf(written.texts, undefined);
      const part = { text: content, file, path: 'warm/sample.ts', first: 1 };
      rewriteReads([part], plan, { header, recorder, several: false });
      store.record(recorder.finish(written.texts[0]?.length ?? 0), 'warm');
    }
  } catch {
    // Only speed is lost.
  }
}
