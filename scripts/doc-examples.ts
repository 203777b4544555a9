/**
 * The doc-test step: every `@example` on a function exported from a public
 * entry, extracted into a module of its own under `.doc-examples/` (git-ignored),
 * type-checked in one TypeScript program against the sources, and run by
 * `test/docs.examples.test.ts`. An example is a claim a reader copies; one
 * that does not compile or run, or whose stated value is not what the code
 * returns, is a bug like any other.
 *
 * How an example is read:
 * - Its code is the ```ts fence under the tag. `import`s from the package's
 *   entries are rewritten to the sources; an example may leave out the imports
 *   of its own entry (every name it uses from that entry is imported for it).
 * - A statement followed on its line by `// → value` or `// value`, or on the
 *   next lines by `// → value` (continued on `//` lines), asserts that the
 *   statement's value (an expression, or the one variable it declares)
 *   deep-equals `value`, a JS literal. Text after the literal that starts
 *   with `:`, `(`, `,`, `;` or a dash (`// false: start > end`) is commentary;
 *   `// 12 lines` states nothing. A `→` with no literal after it is an error.
 * - A statement followed on its line by `// throws` (or `// throws TypeError`,
 *   then commentary) must throw (that error).
 * - Examples that need a live Redis or start a server are type-checked only
 *   (TYPE_CHECK_ONLY says which and why).
 *
 * `npm run typecheck` writes the modules (`tsx scripts/doc-examples.ts`) and
 * compiles them with the rest of the repository (tsconfig.json includes the
 * folder); `npx tsx scripts/doc-examples.ts --check` type-checks them alone,
 * each error at its line in the doc comment. Which exports must carry an
 * example is `scripts/check-examples.mjs`'s rule (`npm run docs`).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** The public entries: import specifier → source file. */
export const ENTRIES: Readonly<Record<string, string>> = {
  'span-ledger': 'src/index.ts',
  'span-ledger/adapter': 'src/adapter/index.ts',
  'span-ledger/shared': 'src/shared/index.ts',
  'span-ledger/wire': 'src/wire/index.ts',
  'span-ledger/redis': 'src/redis/index.ts',
  'span-ledger/testing': 'src/testing/index.ts',
  'span-ledger-proxy': 'packages/proxy/src/index.ts',
  'span-ledger-proxy/http': 'packages/proxy/src/http/index.ts',
};

/** Examples that are type-checked but not run, by `entry#function`, with the reason. */
export const TYPE_CHECK_ONLY: Readonly<Record<string, string>> = {
  'span-ledger/redis#redisBackend': 'needs a running Redis server',
  'span-ledger/redis#connectRedis': 'needs a running Redis server',
  'span-ledger-proxy#startProxy': 'starts an upstream MCP server as a child process',
  'span-ledger-proxy/http#serveMcpHttp': 'listens on a port',
  'span-ledger-proxy/http#redisCancelRelay': 'needs a running Redis server',
};

/** Where the generated modules go (git-ignored, rewritten on every run). */
export const OUT_DIR = join(root, '.doc-examples');

/** One public export and what its doc comment says. */
export interface PublicExport {
  readonly entry: string;
  readonly name: string;
  readonly kind: 'function' | 'value' | 'type';
  /** Where it is declared, relative to the repository root. */
  readonly file: string;
  readonly examples: readonly ExampleSource[];
}

/** The code of one `@example` fence, with the source line of each of its lines. */
export interface ExampleSource {
  readonly lines: readonly string[];
  /** 1-based line in `file` of each code line. */
  readonly at: readonly number[];
}

/** A generated example module. */
export interface GeneratedExample {
  readonly entry: string;
  readonly name: string;
  /** `name`, or `name (2)` for a second example of one function. */
  readonly title: string;
  readonly file: string;
  readonly line: number;
  readonly module: string;
  /** Why it is not run, when it is type-checked only. */
  readonly typeCheckOnly: string | null;
  /** How many values it asserts. */
  readonly checks: number;
  /** The source line of each generated line (index 0: the module's first line). */
  readonly lineMap: readonly number[];
}

const sourceCache = new Map<string, ts.SourceFile>();

function parse(file: string): ts.SourceFile {
  let source = sourceCache.get(file);
  if (!source) {
    const text = readFileSync(join(root, file), 'utf8');
    source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
    sourceCache.set(file, source);
  }
  return source;
}

function resolveModule(from: string, specifier: string): string {
  const base = join(dirname(from), specifier.replace(/\.js$/, ''));
  const found = [`${base}.ts`, join(base, 'index.ts')].find((c) => existsSync(join(root, c)));
  if (found === undefined)
    throw new Error(`doc-examples: cannot resolve ${specifier} from ${from}`);
  return found;
}

const isExportedNode = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** A statement that declares one named function, class, interface or type alias. */
const isNamedDeclaration = (
  node: ts.Node,
): node is
  | ts.FunctionDeclaration
  | ts.ClassDeclaration
  | ts.InterfaceDeclaration
  | ts.TypeAliasDeclaration =>
  ts.isFunctionDeclaration(node) ||
  ts.isClassDeclaration(node) ||
  ts.isInterfaceDeclaration(node) ||
  ts.isTypeAliasDeclaration(node);

/** The declaration of the value `name` exported by `file`, following re-exports. */
function findDeclaration(
  file: string,
  name: string,
  local = false,
): { file: string; node: ts.Node } | null {
  const source = parse(file);
  const isExported = (node: ts.Node): boolean => local || isExportedNode(node);
  for (const statement of source.statements) {
    const bindings = ts.isImportDeclaration(statement)
      ? statement.importClause?.namedBindings
      : undefined;
    if (local && bindings && ts.isNamedImports(bindings)) {
      const spec = bindings.elements.find((e) => e.name.text === name);
      if (spec) {
        const target = resolveModule(
          file,
          (statement as ts.ImportDeclaration).moduleSpecifier.getText(source).slice(1, -1),
        );
        return findDeclaration(target, spec.propertyName?.text ?? name);
      }
    }
    if (isNamedDeclaration(statement) && statement.name?.text === name && isExported(statement))
      return { file, node: statement };
    if (ts.isVariableStatement(statement) && isExported(statement)) {
      for (const d of statement.declarationList.declarations)
        if (ts.isIdentifier(d.name) && d.name.text === name) return { file, node: statement };
    }
    if (
      !local &&
      ts.isExportDeclaration(statement) &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
    ) {
      for (const spec of statement.exportClause.elements) {
        if (spec.name.text !== name) continue;
        const original = spec.propertyName?.text ?? spec.name.text;
        if (!statement.moduleSpecifier) return findDeclaration(file, original, true);
        const target = resolveModule(file, (statement.moduleSpecifier as ts.StringLiteral).text);
        return findDeclaration(target, original);
      }
    }
  }
  return null;
}

function isFunctionLike(node: ts.Node): boolean {
  if (ts.isFunctionDeclaration(node)) return true;
  if (!ts.isVariableStatement(node)) return false;
  const init = node.declarationList.declarations[0]?.initializer;
  return !!init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init));
}

/** The `@example` fences of the doc comment right above `node`. */
function examplesOf(source: ts.SourceFile, node: ts.Node): ExampleSource[] {
  const docs = (node as { jsDoc?: ts.JSDoc[] }).jsDoc ?? [];
  const doc = docs.at(-1);
  if (!doc) return [];
  const text = source.text;
  const startLine = source.getLineAndCharacterOfPosition(doc.getStart(source)).line + 1;
  const raw = text.slice(doc.getStart(source), doc.end).split('\n');
  const examples: ExampleSource[] = [];
  let inExample = false;
  let fence: { lines: string[]; at: number[] } | null = null;
  raw.forEach((rawLine, i) => {
    const line = rawLine
      .replace(/^\s*\/\*\*\s?/, '')
      .replace(/^\s*\*\/?\s?/, '')
      .replace(/\s*\*\/$/, '');
    if (fence) {
      if (/^```\s*$/.test(line)) {
        examples.push(fence);
        fence = null;
      } else {
        fence.lines.push(line);
        fence.at.push(startLine + i);
      }
      return;
    }
    if (/^@\w+/.test(line)) inExample = line.startsWith('@example');
    if (inExample && /^```(ts|typescript)\s*$/.test(line)) fence = { lines: [], at: [] };
  });
  return examples;
}

/** Every name each public entry exports (values and types), with its examples. */
export function collectExports(): PublicExport[] {
  const out: PublicExport[] = [];
  for (const [entry, entryFile] of Object.entries(ENTRIES)) {
    const source = parse(entryFile);
    const names: string[] = [];
    for (const statement of source.statements) {
      if (ts.isExportDeclaration(statement) && statement.exportClause) {
        if (!ts.isNamedExports(statement.exportClause)) continue;
        for (const spec of statement.exportClause.elements) names.push(spec.name.text);
      } else if (isNamedDeclaration(statement) && statement.name && isExportedNode(statement)) {
        names.push(statement.name.text);
      } else if (ts.isVariableStatement(statement) && isExportedNode(statement)) {
        for (const d of statement.declarationList.declarations)
          if (ts.isIdentifier(d.name)) names.push(d.name.text);
      }
    }
    for (const name of names) {
      const found = findDeclaration(entryFile, name);
      if (!found) throw new Error(`doc-examples: ${entry} exports ${name}, declared nowhere`);
      out.push({
        entry,
        name,
        kind: isFunctionLike(found.node)
          ? 'function'
          : ts.isInterfaceDeclaration(found.node) || ts.isTypeAliasDeclaration(found.node)
            ? 'type'
            : 'value',
        file: found.file,
        examples: examplesOf(parse(found.file), found.node),
      });
    }
  }
  return out;
}

/** Is `node` a tree of JS literals only (what a `// →` comment may state)? */
function isLiteralTree(node: ts.Expression): boolean {
  if (ts.isParenthesizedExpression(node)) return isLiteralTree(node.expression);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken)
    return isStringConcatenation(node.left) && isStringConcatenation(node.right);
  if (
    ts.isStringLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    ts.isNumericLiteral(node) ||
    node.kind === ts.SyntaxKind.TrueKeyword ||
    node.kind === ts.SyntaxKind.FalseKeyword ||
    node.kind === ts.SyntaxKind.NullKeyword
  )
    return true;
  if (ts.isIdentifier(node)) return ['undefined', 'NaN', 'Infinity'].includes(node.text);
  if (ts.isPrefixUnaryExpression(node))
    return (
      node.operator === ts.SyntaxKind.MinusToken &&
      (ts.isNumericLiteral(node.operand) ||
        (ts.isIdentifier(node.operand) && node.operand.text === 'Infinity'))
    );
  if (ts.isArrayLiteralExpression(node)) return node.elements.every(isLiteralTree);
  if (ts.isObjectLiteralExpression(node))
    return node.properties.every(
      (p) =>
        ts.isPropertyAssignment(p) &&
        (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name) || ts.isNumericLiteral(p.name)) &&
        isLiteralTree(p.initializer),
    );
  return false;
}

/** `'a' + 'b' + …`: how a stated string too long for one line continues on the next. */
function isStringConcatenation(node: ts.Expression): boolean {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return true;
  return (
    ts.isBinaryExpression(node) &&
    node.operatorToken.kind === ts.SyntaxKind.PlusToken &&
    isStringConcatenation(node.left) &&
    isStringConcatenation(node.right)
  );
}

function parsesAsLiteral(text: string): boolean {
  const source = ts.createSourceFile('x.ts', `(${text});`, ts.ScriptTarget.ES2022, true);
  const [statement] = source.statements;
  const diagnostics = (source as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics;
  return (
    source.statements.length === 1 &&
    diagnostics.length === 0 &&
    !!statement &&
    ts.isExpressionStatement(statement) &&
    isLiteralTree(statement.expression)
  );
}

/**
 * The longest prefix of `text` that is a JS literal and is followed by
 * nothing or by commentary after `:`, `(`, `,`, `;` or a dash (`// false:
 * start > end`), else null: `// 12 lines` states nothing.
 */
export function literalPrefix(text: string): string | null {
  const trimmed = text.trim();
  const scanner = ts.createScanner(
    ts.ScriptTarget.ES2022,
    false,
    ts.LanguageVariant.Standard,
    trimmed,
  );
  let best: string | null = null;
  let depth = 0;
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (
      token === ts.SyntaxKind.OpenBraceToken ||
      token === ts.SyntaxKind.OpenBracketToken ||
      token === ts.SyntaxKind.OpenParenToken
    )
      depth++;
    if (
      token === ts.SyntaxKind.CloseBraceToken ||
      token === ts.SyntaxKind.CloseBracketToken ||
      token === ts.SyntaxKind.CloseParenToken
    )
      depth--;
    if (depth < 0) break;
    if (depth > 0) continue;
    const end = scanner.getTokenEnd();
    const candidate = trimmed.slice(0, end);
    const rest = trimmed.slice(end);
    if ((rest === '' || /^\s*([:(,;]|—|–)/.test(rest)) && parsesAsLiteral(candidate))
      best = candidate;
  }
  return best;
}

interface Rewritten {
  readonly imports: string[];
  readonly hoisted: string[];
  readonly body: string[];
  readonly bodyAt: number[];
  readonly hoistedAt: number[];
  readonly importsAt: number[];
  checks: number;
}

const specifierFor = (target: string): string => {
  const file = ENTRIES[target];
  if (!file) return target;
  const path = relative(OUT_DIR, join(root, file)).replace(/\.ts$/, '.js');
  return path.startsWith('.') ? path : `./${path}`;
};

/** Splits an example into imports, hoisted declarations and a body with its checks. */
function rewrite(example: ExampleSource, file: string): Rewritten {
  const code = example.lines.join('\n');
  const source = ts.createSourceFile('example.ts', code, ts.ScriptTarget.ES2022, true);
  const parseErrors = (source as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  if (parseErrors.length > 0) {
    const first = parseErrors[0]!;
    const line = source.getLineAndCharacterOfPosition(first.start ?? 0).line;
    throw new Error(
      `${file}:${example.at[line]}: the example does not parse: ${ts.flattenDiagnosticMessageText(first.messageText, '\n')}`,
    );
  }
  const lineOf = (pos: number): number => source.getLineAndCharacterOfPosition(pos).line;
  const lines = example.lines;
  const out: Rewritten = {
    imports: [],
    hoisted: [],
    body: [],
    bodyAt: [],
    hoistedAt: [],
    importsAt: [],
    checks: 0,
  };
  const text = (node: ts.Node): string => code.slice(node.getStart(source), node.end);
  const push = (to: 'body' | 'hoisted' | 'imports', chunk: string, firstLine: number): void => {
    const at = to === 'body' ? out.bodyAt : to === 'hoisted' ? out.hoistedAt : out.importsAt;
    chunk.split('\n').forEach((l, i) => {
      out[to].push(l);
      at.push(example.at[firstLine + i] ?? example.at[0]!);
    });
  };
  const statements = source.statements;
  statements.forEach((statement, index) => {
    const first = lineOf(statement.getStart(source));
    const last = lineOf(statement.end);
    if (ts.isImportDeclaration(statement)) {
      const spec = (statement.moduleSpecifier as ts.StringLiteral).text;
      const quote = code[statement.moduleSpecifier.getStart(source)];
      const rewritten = text(statement).replace(
        `${quote}${spec}${quote}`,
        `'${specifierFor(spec)}'`,
      );
      push('imports', rewritten, first);
      return;
    }
    const isDeclare =
      ts.canHaveModifiers(statement) &&
      (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.DeclareKeyword);
    if (isDeclare) {
      push('hoisted', text(statement), first);
      return;
    }
    // A stated value: on the statement's last line, or on the comment lines after it.
    const eol = code.indexOf('\n', statement.end);
    const sameLine = code.slice(statement.end, eol === -1 ? code.length : eol).trim();
    // `// throws` (or `// throws TypeError: …`): the statement must throw (that error).
    const throws = /^\/\/\s*throws\b\s*([A-Z]\w*Error)?/.exec(sameLine);
    if (throws) {
      const atLine = example.at[last]!;
      const thrown = throws[1] === undefined ? 'null' : `'${throws[1]}'`;
      const body = ts.isExpressionStatement(statement) ? text(statement.expression) : null;
      if (body === null)
        throw new Error(`${file}:${atLine}: \`// throws\` needs an expression before it`);
      out.checks++;
      push('body', `throws(() => ${body}, ${thrown}, ${atLine});`, first);
      return;
    }
    const nextStart =
      index + 1 < statements.length
        ? lineOf(statements[index + 1]!.getStart(source))
        : lines.length;
    const following: string[] = [];
    for (let l = last + 1; l < nextStart && /^\s*\/\//.test(lines[l]!); l++)
      following.push(
        lines[l]!.trim()
          .replace(/^\/\/\s?/, '')
          .trim(),
      );
    const sameText = sameLine.startsWith('//') ? sameLine.replace(/^\/\/\s?/, '').trim() : '';
    // The first comment: on the statement's line, else the next line when it starts with `→`.
    let joined = sameText;
    let rest = following;
    if (joined === '' && following[0]?.startsWith('→')) {
      joined = following[0];
      rest = following.slice(1);
    }
    const arrow = joined.startsWith('→');
    const statedIn = (t: string): string | null => literalPrefix(arrow ? t.slice(1) : t);
    let stated = statedIn(joined);
    // A value too long for one line continues on the comment lines after it, as long as it grows.
    for (const part of rest) {
      if (part.startsWith('→')) break;
      const longer = statedIn(`${joined} ${part}`);
      if (longer === null || (stated !== null && longer.length <= stated.length)) {
        if (stated !== null) break;
        joined = `${joined} ${part}`;
        continue;
      }
      joined = `${joined} ${part}`;
      stated = longer;
    }
    if (arrow && stated === null)
      throw new Error(
        `${file}:${example.at[last]}: \`// →\` is not followed by a JS literal: ${joined}`,
      );
    if (stated === null) {
      push('body', text(statement), first);
      return;
    }
    const atLine = example.at[last]!;
    let checked: string;
    if (ts.isExpressionStatement(statement)) {
      checked = `check(${text(statement.expression)}, ${stated}, ${atLine});`;
    } else if (
      ts.isVariableStatement(statement) &&
      statement.declarationList.declarations.length === 1 &&
      ts.isIdentifier(statement.declarationList.declarations[0]!.name)
    ) {
      checked = `${text(statement)} check(${statement.declarationList.declarations[0]!.name.text}, ${stated}, ${atLine});`;
    } else {
      throw new Error(
        `${file}:${atLine}: a stated value needs an expression or one declared variable before it`,
      );
    }
    out.checks++;
    push('body', checked, first);
  });
  return out;
}

/** Identifiers the example declares itself (so an entry's export of that name is not imported). */
function declaredNames(code: string): { declared: Set<string>; used: Set<string> } {
  const source = ts.createSourceFile('example.ts', code, ts.ScriptTarget.ES2022, true);
  const declared = new Set<string>();
  const used = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) {
      const parent = node.parent;
      const isDeclaration =
        (parent &&
          (ts.isVariableDeclaration(parent) ||
            ts.isFunctionDeclaration(parent) ||
            ts.isClassDeclaration(parent) ||
            ts.isInterfaceDeclaration(parent) ||
            ts.isTypeAliasDeclaration(parent) ||
            ts.isParameter(parent) ||
            ts.isBindingElement(parent) ||
            ts.isImportSpecifier(parent) ||
            ts.isImportClause(parent) ||
            ts.isNamespaceImport(parent)) &&
          (parent as { name?: ts.Node }).name === node) ||
        (parent && ts.isImportSpecifier(parent));
      const isMember =
        parent &&
        ((ts.isPropertyAccessExpression(parent) && parent.name === node) ||
          (ts.isPropertyAssignment(parent) && parent.name === node) ||
          (ts.isPropertySignature(parent) && parent.name === node) ||
          (ts.isQualifiedName(parent) && parent.right === node));
      if (isDeclaration) declared.add(node.text);
      else if (!isMember) used.add(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { declared, used };
}

/** Writes one module per example under OUT_DIR (cleared first) and returns them. */
export function writeExamples(exports: readonly PublicExport[] = collectExports()): {
  examples: GeneratedExample[];
  errors: string[];
} {
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  const generated: GeneratedExample[] = [];
  const errors: string[] = [];
  for (const exp of exports) {
    if (exp.kind !== 'function') continue;
    exp.examples.forEach((example, n) => {
      const where = `${exp.file}:${example.at[0]}`;
      let parts: Rewritten;
      try {
        parts = rewrite(example, exp.file);
      } catch (error) {
        errors.push((error as Error).message);
        return;
      }
      const { declared, used } = declaredNames(example.lines.join('\n'));
      // The names of its own entry it uses and does not declare or import itself.
      const own = exports
        .filter((e) => e.entry === exp.entry && used.has(e.name) && !declared.has(e.name))
        .map((e) => (e.kind === 'type' ? `type ${e.name}` : e.name));
      const head = [
        `// ${exp.entry} ${exp.name}: from ${where} (generated by scripts/doc-examples.ts)`,
        ...(own.length > 0
          ? [`import { ${own.join(', ')} } from '${specifierFor(exp.entry)}';`]
          : []),
      ];
      const headAt = head.map(() => example.at[0]!);
      const open = [
        'export default async function example(',
        '  check: (actual: unknown, expected: unknown, line: number) => void,',
        '  throws: (run: () => unknown, error: string | null, line: number) => void,',
        '): Promise<void> {',
      ];
      const close = ['}'];
      const lines = [
        ...head,
        ...parts.imports,
        ...parts.hoisted,
        ...open,
        ...parts.body.map((l) => `  ${l}`),
        ...close,
      ];
      const lineMap = [
        ...headAt,
        ...parts.importsAt,
        ...parts.hoistedAt,
        ...open.map(() => example.at[0]!),
        ...parts.bodyAt,
        ...close.map(() => example.at.at(-1)!),
      ];
      const base = `${exp.entry.replace(/[^a-z0-9]+/gi, '-')}.${exp.name}${n === 0 ? '' : `.${n + 1}`}`;
      const module = join(OUT_DIR, `${base}.ts`);
      writeFileSync(module, `${lines.join('\n')}\n`);
      generated.push({
        entry: exp.entry,
        name: exp.name,
        title: n === 0 ? exp.name : `${exp.name} (${n + 1})`,
        file: exp.file,
        line: example.at[0]!,
        module,
        typeCheckOnly: TYPE_CHECK_ONLY[`${exp.entry}#${exp.name}`] ?? null,
        checks: parts.checks,
        lineMap,
      });
    });
  }
  return { examples: generated, errors };
}

/** Type-checks the generated modules in one program; the errors, mapped back to the doc comments. */
export function typeCheckExamples(generated: readonly GeneratedExample[]): string[] {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const program = ts.createProgram({
    rootNames: generated.map((g) => g.module),
    options: { ...parsed.options, noEmit: true, noUnusedLocals: false },
  });
  const byModule = new Map(generated.map((g) => [resolve(g.module), g]));
  const errors: string[] = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const file = diagnostic.file;
    const example = file ? byModule.get(resolve(file.fileName)) : undefined;
    if (!file || !example) {
      errors.push(
        `${file ? relative(root, file.fileName) : '(program)'}: TS${diagnostic.code}: ${message}`,
      );
      continue;
    }
    const line = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line;
    errors.push(
      `${example.file}:${example.lineMap[line] ?? example.line}: ${example.name}'s example: TS${diagnostic.code}: ${message}`,
    );
  }
  return errors;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // `tsx scripts/doc-examples.ts`: write the modules (the root tsconfig.json includes them, so
  // `npm run typecheck` compiles them with everything else). `--check` type-checks them here, with
  // each error at its line in the doc comment.
  const exports = collectExports();
  const { examples: generated, errors } = writeExamples(exports);
  const functions = exports.filter((e) => e.kind === 'function');
  if (process.argv.includes('--check')) errors.push(...typeCheckExamples(generated));
  for (const error of errors) console.error(error);
  const compiledOnly = generated.filter((g) => g.typeCheckOnly !== null);
  console.log(
    `doc-examples: ${generated.length} examples of ${functions.length} public functions in ` +
      `${relative(root, OUT_DIR)}/, ${compiledOnly.length} compiled only, ` +
      `${generated.reduce((n, g) => n + g.checks, 0)} stated values`,
  );
  process.exitCode = errors.length > 0 ? 1 : 0;
}
