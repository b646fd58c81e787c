#!/usr/bin/env node
// The `splatlab` command: runs the TypeScript CLI in src/main/cli through tsx, so no build step
// is needed after `npm ci`. Exits explicitly because Dawn's device keeps the event loop alive.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exit(await main(process.argv.slice(2)));
