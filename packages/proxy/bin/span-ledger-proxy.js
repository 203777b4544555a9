#!/usr/bin/env node
// The `span-ledger-proxy` command: runs the built CLI. In a clone of the
// repository, `npm run build` (or `npm test`) builds it; nothing runs at install.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    'span-ledger-proxy: dist/cli.js is missing: run `npm run build` at the repository root\n',
  );
  process.exit(2);
}
await import(cli.href);
