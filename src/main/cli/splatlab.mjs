#!/usr/bin/env node
// The `splatlab` command. Runs the CLI's compiled bundle (compiled-cli.mjs: built with esbuild on
// the first start after a source change, cached under node_modules/.cache/splatlab), so no build
// step is needed after `npm ci` and no start pays for transpiling TypeScript. The sources run
// through tsx instead when the bundle cannot be built, with SPLATLAB_NO_COMPILED=1, or when
// SPLATLAB_KINDS names kind folders (their .ts halves load at run time and must share the lab's
// module instances). Exits explicitly because Dawn's device keeps the event loop alive, after
// stdout and stderr have drained (exit-drained.mjs).
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compiledCli } from './compiled-cli.mjs';
import { exitDrained } from './exit-drained.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
// The bundle lives under node_modules/.cache, which may be linked from another checkout: the
// project's files (assets, tasks, the UI build) are found from this launcher's checkout.
process.env.SPLATLAB_ROOT = root;
const fromSource = process.env.SPLATLAB_NO_COMPILED === '1' || Boolean(process.env.SPLATLAB_KINDS);
const bundle = fromSource ? null : compiledCli(root);
let main;
if (bundle) {
  ({ main } = await import(pathToFileURL(bundle).href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../splatlab.ts'));
}
// Exits explicitly (Dawn's device keeps the loop alive), once stdout and stderr are drained.
await exitDrained(await main(process.argv.slice(2)));
