#!/usr/bin/env node
/**
 * Checks that every public function carries an `@example` in its doc comment
 * and that nothing else does, reading the JSON model TypeDoc writes next to
 * the HTML (`docs/api/api.json`, see typedocOptions in tsconfig.docs.json). A
 * reader should learn each function from its hover text alone, and every
 * example is compiled and run by `npm test` (scripts/doc-examples.ts). A
 * constant or a type says what it is in its summary: an example there is
 * noise that no test runs.
 *
 * Not a doc linter beyond that one rule: missing summaries, broken links and
 * undocumented members are TypeDoc's own validation (warnings are errors).
 *
 * Usage: node scripts/check-examples.mjs [path/to/api.json]
 * Lists each function without an example, and each other export with one, as
 * `entry: name (kind)`; exits 1 if any.
 */
import { readFileSync } from 'node:fs';

const KIND = {
  4: 'namespace',
  8: 'enum',
  32: 'variable',
  64: 'function',
  128: 'class',
  256: 'interface',
  2097152: 'type alias',
};
const REFERENCE = 4194304;

const file = process.argv[2] ?? 'docs/api/api.json';
let project;
try {
  project = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  console.error(
    `check-examples: cannot read ${file} (${error.message}); run \`npm run docs\` first.`,
  );
  process.exit(1);
}

const hasExample = (comment) => (comment?.blockTags ?? []).some((tag) => tag.tag === '@example');

function documentedWithExample(reflection) {
  if (hasExample(reflection.comment)) return true;
  const signatures = [
    ...(reflection.signatures ?? []),
    ...(reflection.type?.declaration?.signatures ?? []),
  ];
  return signatures.some((signature) => hasExample(signature.comment));
}

/** Top-level exports of each entry point (modules), recursing into namespaces. */
function* exportsOf(parent, prefix) {
  for (const child of parent.children ?? []) {
    if (child.kind === REFERENCE) continue; // a re-export: checked where it is declared
    if (child.kind === 4) yield* exportsOf(child, `${prefix}${child.name}.`);
    if (KIND[child.kind]) yield { name: `${prefix}${child.name}`, reflection: child };
  }
}

// With several entry points the project's children are the modules; with one
// the project itself is the module.
const modules = (project.children ?? []).every((c) => c.kind === 2) ? project.children : [project];
const FUNCTION = 64;
let functions = 0;
const missing = [];
const extra = [];
for (const mod of modules) {
  for (const { name, reflection } of exportsOf(mod, '')) {
    const line = `${mod.name}: ${name} (${KIND[reflection.kind]})`;
    if (reflection.kind === FUNCTION) {
      functions++;
      if (!documentedWithExample(reflection)) missing.push(line);
    } else if (documentedWithExample(reflection)) {
      extra.push(line);
    }
  }
}

if (missing.length > 0) {
  console.error(`check-examples: ${missing.length} of ${functions} functions have no @example:`);
  for (const line of missing) console.error(`  ${line}`);
}
if (extra.length > 0) {
  console.error(
    `check-examples: ${extra.length} exports that are not functions carry an @example (drop it):`,
  );
  for (const line of extra) console.error(`  ${line}`);
}
if (missing.length > 0 || extra.length > 0) process.exit(1);
console.log(`check-examples: all ${functions} functions have an @example, and nothing else does.`);
