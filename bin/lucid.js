#!/usr/bin/env node
// Entry point of the `lucid` command; the code lives in dist/ (built by `npm ci` / `npm run build`).
import { existsSync } from 'node:fs';

const main = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write(
    'lucid: error: the package is not built (dist/ is missing). Run `npm ci` or `npm run build` in the lucid-wasm ' +
      'folder.\n',
  );
  process.exit(1);
}
await import(main.href);
