// Packaging step: flips the Electron fuses of a packaged binary to the values in
// src/main/electron/fuses.ts. Usage: node --import tsx scripts/flip-fuses.mjs PATH_TO_ELECTRON_BINARY
import { flipFuses, FuseV1Options, FuseVersion } from '@electron/fuses';
import { FUSES } from '../src/main/electron/fuses.ts';

const binary = process.argv[2];
if (!binary) {
  console.error('usage: node --import tsx scripts/flip-fuses.mjs PATH_TO_ELECTRON_BINARY');
  process.exit(2);
}
const config = { version: FuseVersion.V1, strictlyRequireAllFuses: true };
for (const [name, value] of Object.entries(FUSES)) config[FuseV1Options[name]] = value;
await flipFuses(binary, config);
console.log(`fuses set on ${binary}`);
