/**
 * The example's stand-in for a code index: walks a project directory, finds
 * the symbol definitions in each file with a few regular expressions, and
 * turns a query into ranked files with the line spans worth showing.
 *
 * It is not a parser or a search engine. A real explore tool has an index; this
 * one only needs to pick plausible spans so the dedup around it has something
 * to do. Files are read fresh on every call, so an edit between two calls is
 * seen (and the content fingerprint then decides what may be withheld).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const EXTENSIONS = /\.(?:[cm]?[jt]sx?|py)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage']);
const TS_DECL =
  /^\s*(?:export\s+)?(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:async\s+)?(function\*?|class|interface|type|enum|const)\s+([A-Za-z_$][\w$]*)/;
const TS_KINDS = {
  function: 'function',
  'function*': 'function',
  class: 'class',
  interface: 'interface',
  type: 'type',
  enum: 'enum',
  const: 'constant',
};
const PY_DECL = /^(\s*)(?:async\s+)?(def|class)\s+([A-Za-z_]\w*)/;

/** Lines of context shown around each matching definition. */
const CONTEXT = 2;
/** Words too common in questions to name a symbol. */
const STOP = new Set(['the', 'and', 'how', 'does', 'what', 'where', 'when', 'is', 'are', 'for']);

/**
 * Every source file under `root`, as `{ path, content }` with `/`-separated
 * paths relative to `root`, sorted by path.
 */
export function readProject(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(full);
      } else if (entry.isFile() && EXTENSIONS.test(entry.name)) {
        const path = relative(root, full).split(sep).join('/');
        files.push({ path, content: readFileSync(full, 'utf8') });
      }
    }
  };
  walk(root);
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Top-level definitions of a file: `{ name, kind, start, end }`, 1-based inclusive lines. */
export function symbolsOf(path, content) {
  const lines = content.split('\n');
  return path.endsWith('.py') ? pythonSymbols(lines) : scriptSymbols(lines);
}

function scriptSymbols(lines) {
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // Indented declarations are locals or members: only top-level ones are named.
    if (/^\s/.test(line)) continue;
    const m = TS_DECL.exec(line);
    if (!m) continue;
    out.push({
      name: m[2],
      kind: TS_KINDS[m[1]] ?? 'variable',
      start: i + 1,
      end: statementEnd(lines, i) + 1,
    });
  }
  return out;
}

/**
 * The 0-based line where the statement opening on `from` ends: braces back to
 * level zero at a line ending in `}` or `;`, unless the next line continues
 * the statement (a union member, a method chain).
 */
function statementEnd(lines, from) {
  let depth = 0;
  for (let i = from; i < lines.length; i++) {
    for (const ch of lines[i]) {
      if (ch === '{') depth++;
      else if (ch === '}') depth--;
    }
    const next = lines[i + 1]?.trim() ?? '';
    if (depth <= 0 && /[};]\s*$/.test(lines[i]) && !/^[|&.]/.test(next)) return i;
  }
  return lines.length - 1;
}

function pythonSymbols(lines) {
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const m = PY_DECL.exec(lines[i]);
    if (m?.[1] !== '') continue;
    let end = i;
    for (let j = i + 1; j < lines.length; j++) {
      if (lines[j].trim() === '') continue;
      if (!/^\s/.test(lines[j])) break;
      end = j;
    }
    out.push({
      name: m[3],
      kind: m[2] === 'def' ? 'function' : 'class',
      start: i + 1,
      end: end + 1,
    });
  }
  return out;
}

/** The query's words, lower-cased, without the ones too common to mean anything. */
export function queryWords(query) {
  return [
    ...new Set(
      String(query)
        .toLowerCase()
        .split(/[^a-z0-9_$]+/)
        .filter((w) => w.length >= 3 && !STOP.has(w)),
    ),
  ];
}

/**
 * The files that define symbols matching `query`, best first: a symbol scores
 * 2 for a word equal to its name and 1 for a word its name contains (case
 * ignored); a file scores the sum. Each file's `intended` spans are its
 * matching definitions with {@link CONTEXT} lines around them.
 */
export function rankFiles(files, query) {
  const words = queryWords(query);
  const ranked = [];
  for (const file of files) {
    const symbols = symbolsOf(file.path, file.content);
    const lineCount = file.content.split('\n').length;
    let score = 0;
    const intended = [];
    for (const s of symbols) {
      const name = s.name.toLowerCase();
      let hit = 0;
      for (const w of words) hit += name === w ? 2 : name.includes(w) ? 1 : 0;
      if (hit === 0) continue;
      score += hit;
      intended.push({
        start: Math.max(1, s.start - CONTEXT),
        end: Math.min(lineCount, s.end + CONTEXT),
      });
    }
    if (score > 0) ranked.push({ ...file, symbols, intended, score });
  }
  return ranked.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
}
