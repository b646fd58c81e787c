// Flips the Electron fuses of an already packaged binary to the values in
// src/main/electron/fuses.ts and checks them (packaging/fuses.mjs; the build does this itself
// in its afterPack hook). Usage: node scripts/flip-fuses.mjs PATH_TO_ELECTRON_BINARY
import { applyFuses } from '../packaging/fuses.mjs';

const binary = process.argv[2];
if (!binary) {
  console.error('usage: node scripts/flip-fuses.mjs PATH_TO_ELECTRON_BINARY');
  process.exit(2);
}
await applyFuses(binary);
console.log(`fuses set on ${binary}`);
