// electron-builder afterPack hook (electron-builder.config.mjs): flips the fuses of the packed
// binary before it is signed and archived (packaging/fuses.mjs), so no build ships without them.
// macOS arm64 binaries get their ad-hoc signature reset after the flip (a changed binary must be
// re-signed to start). Input: electron-builder's AfterPackContext.
import { applyFuses, packedBinary } from './fuses.mjs';

/** electron-builder's Arch enum: 3 is arm64. */
const ARM64 = 3;

export default async function afterPack(context) {
  const binary = packedBinary(context);
  await applyFuses(binary, { resetAdHocDarwinSignature: context.electronPlatformName === 'darwin' && context.arch === ARM64 });
  console.log(`  • fuses applied  file=${binary}`);
}
