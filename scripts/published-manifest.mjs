/**
 * The package.json a package is published with: the repository's, without
 * what only the repository uses — its scripts, workspaces, devDependencies
 * and size-limit guards. A user's install then sees no script at all and no
 * tooling it will never run.
 *
 * `npm pack` and `npm publish` run it in the package's folder: `prepack`
 * (`strip`) keeps the repository's package.json as package.json.repo and
 * writes the published one in its place; `postpack` (`restore`) moves the
 * repository's back. The kept copy is also the lock: two packs of one
 * package at once (two test files) take turns, each for at most a minute.
 * It builds nothing: `npm run build` first (a pack without dist/ stops here).
 *
 *   node scripts/published-manifest.mjs strip|restore
 */
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';

/** Fields only the repository reads. */
const REPOSITORY_ONLY = ['scripts', 'workspaces', 'devDependencies', 'size-limit', 'allowScripts'];
const WAIT_MS = 60_000;
const MANIFEST = 'package.json';
const KEPT = 'package.json.repo';

/** The published manifest of `manifest`: the same fields in the same order, less REPOSITORY_ONLY. */
export function publishedManifest(manifest) {
  return Object.fromEntries(
    Object.entries(manifest).filter(([key]) => !REPOSITORY_ONLY.includes(key)),
  );
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Writes `text` to `file` in one step, so a reader never sees half of it. */
function replace(file, text) {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

function strip() {
  if (!existsSync('dist')) {
    throw new Error('dist/ is missing: run `npm run build` at the repository root first');
  }
  const until = Date.now() + WAIT_MS;
  for (;;) {
    let kept;
    try {
      kept = openSync(KEPT, 'wx');
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    if (kept !== undefined) {
      // No other pack holds the lock, so package.json is the repository's.
      const text = readFileSync(MANIFEST, 'utf8');
      writeSync(kept, text);
      closeSync(kept);
      replace(MANIFEST, `${JSON.stringify(publishedManifest(JSON.parse(text)), null, 2)}\n`);
      return;
    }
    if (Date.now() > until) {
      throw new Error(
        `${KEPT} is still there after a minute: if no pack is running, \`node scripts/published-manifest.mjs restore\` puts it back`,
      );
    }
    sleep(200);
  }
}

function restore() {
  if (!existsSync(KEPT)) return;
  JSON.parse(readFileSync(KEPT, 'utf8')); // a copy cut short stays where it is, for a person to look at
  renameSync(KEPT, MANIFEST);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const step = { strip, restore }[process.argv[2]];
  try {
    if (step === undefined) throw new Error('say strip or restore');
    step();
  } catch (error) {
    process.stderr.write(`published-manifest: ${error.message}\n`);
    process.exit(1);
  }
}
