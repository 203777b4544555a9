#!/usr/bin/env node
/**
 * `npm ci` / `npm install` at the repository root ends here (the `prepare`
 * script): it builds what is missing or older than its sources, so that
 * `npx span-ledger-proxy` and the examples run straight after an install,
 * with no build step at launch. The proxy imports the core through its
 * package entries (`dist/`), so the core is built first.
 *
 * npm runs `prepare` twice in this repository (once for the root as a
 * workspace, once as the root), which is why it skips what is already
 * fresh. `npm run build` always builds both.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** The newest modification time under `paths` (files or directories), 0 when none exists. */
function newest(paths) {
  let time = 0;
  for (const path of paths) {
    if (!existsSync(path)) continue;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      const children = readdirSync(path).map((name) => join(path, name));
      time = Math.max(time, newest(children));
    } else {
      time = Math.max(time, stat.mtimeMs);
    }
  }
  return time;
}

/** Builds `dir` with tsup when `output` is missing or older than `inputs`. */
function build(dir, output, inputs) {
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  if (built > 0 && built >= newest(inputs)) return;
  const tsup = join(root, 'node_modules/tsup/dist/cli-default.js');
  execFileSync(process.execPath, [tsup, '--silent'], { cwd: dir, stdio: 'inherit' });
}

// The type declarations are what a build writes last: a build that failed half-way is not fresh.
const core = join(root, 'dist/index.d.ts');
build(root, core, [join(root, 'src'), join(root, 'tsup.config.ts'), join(root, 'fixtures')]);
const proxy = join(root, 'packages/proxy');
build(proxy, join(proxy, 'dist/index.d.ts'), [
  join(proxy, 'src'),
  join(proxy, 'tsup.config.ts'),
  join(proxy, 'tsconfig.json'),
  join(proxy, 'package.json'),
  core,
]);
